"""The benchmark on a Dask cluster: a local scheduler and two worker processes, started here as
`dask scheduler` and `dask worker` would be on real machines, play the same games as this machine.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest
from distributed import Client

from controller.cli import main
from solver.bench import cluster
from solver.bench.results import BenchResult
from solver.bench.run import run_benchmark
from solver.errors import BenchError
from solver.settings import current
from solver.strategy import next_moves

ROOT = Path(__file__).resolve().parents[3]
TIMINGS = (
    "games_per_second",
    "decision_ms_median",
    "decision_ms_p99",
    "decision_ms_max",
    "cpu_ms_per_game",
)
CORNER = "inner_opening=(0, 0)"


def _environment() -> dict[str, str]:
    """Ours, for a child process that imports this checkout (as the tests do)."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def _start(arguments: list[str], folder: Path, name: str) -> subprocess.Popen[bytes]:
    """``python -m dask ARGUMENTS`` importing this checkout, its output in ``folder/name.log``."""
    with open(folder / f"{name}.log", "wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "dask", *arguments],
            cwd=folder,
            env=_environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop one process we started, by its pid."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _address_in(scheduler_file: Path, scheduler: subprocess.Popen[bytes]) -> str:
    """The address the scheduler writes into its file once it listens (read whole, not while
    it is being written)."""
    deadline = time.monotonic() + 30
    while True:
        assert scheduler.poll() is None, (scheduler_file.parent / "scheduler.log").read_text()
        assert time.monotonic() < deadline, "the scheduler did not start within 30 s"
        try:
            return str(json.loads(scheduler_file.read_text())["address"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a scheduler on this machine with two single-threaded worker processes."""
    folder = tmp_path_factory.mktemp("cluster")
    scheduler_file = folder / "scheduler.json"
    loopback = ["--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0"]
    processes = [
        _start(
            ["scheduler", "--port", "0", "--scheduler-file", str(scheduler_file), *loopback],
            folder,
            "scheduler",
        )
    ]
    try:
        address = _address_in(scheduler_file, processes[0])
        for name in ("worker-1", "worker-2"):
            worker = [
                "worker",
                "--scheduler-file",
                str(scheduler_file),
                "--nworkers",
                "1",
                "--nthreads",
                "1",
                "--no-nanny",
                "--local-directory",
                str(folder / name),
                "--name",
                name,
            ]
            processes.append(_start([*worker, *loopback], folder, name))
        with Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)


def _games(result: BenchResult) -> dict[str, object]:
    """Everything a result says about the games, without the timings of this machine."""
    return {key: value for key, value in asdict(result).items() if key not in TIMINGS}


def test_a_cluster_plays_the_same_games_as_this_machine(
    address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    here = run_benchmark(next_moves, ["beginner"], ["safe", "xp"], 40, workers=1, seed=5)
    there = run_benchmark(
        next_moves, ["beginner"], ["safe", "xp"], 40, seed=5, cluster=address, progress=True
    )
    assert [_games(r) for r in there] == [_games(r) for r in here]
    assert [len(r.outcomes) for r in there] == [40, 40]
    assert "80/80" in capsys.readouterr().err  # the bar counted every chunk's games


def test_a_setting_is_applied_for_the_run_and_put_back_on_every_worker(
    address: str, tmp_path: Path
) -> None:
    """The command line, with a setting that changes the games (a corner first click needs
    more guesses), on the cluster and here: the same JSON results, game for game."""
    options = ["bench", "--level", "beginner", "--rule", "opening", "--games", "40", "--seed", "11"]
    runs = {
        name: [*options, *where, "--out", str(tmp_path / f"{name}.json")]
        for name, where in [
            ("usual", ["--cluster", address]),
            ("corner", ["--cluster", address, "--set", CORNER]),
            ("corner-here", ["--workers", "1", "--set", CORNER]),
        ]
    }
    documents = {}
    for name, argv in runs.items():
        assert main(argv) == 0
        documents[name] = json.loads((tmp_path / f"{name}.json").read_text())
    (usual,), (corner,), (corner_here,) = (
        [BenchResult(**fields) for fields in documents[name]["results"]] for name in runs
    )
    assert _games(corner) == _games(corner_here)
    assert corner.guesses_per_game > usual.guesses_per_game
    assert documents["corner"]["settings"]["cluster"] == address
    assert documents["corner"]["settings"]["workers"] is None
    with Client(address, timeout=10, set_as_default=False) as client:
        left = client.run(current)
    assert [settings.inner_opening for settings in left.values()] == [(3, 3), (3, 3)]


def test_workers_running_other_code_are_refused(
    address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """This process claims another version than the workers have: nothing is played."""
    monkeypatch.setattr(cluster, "version", lambda name: "9.9.9")
    cluster.code_identity.cache_clear()
    try:
        with pytest.raises(
            BenchError, match=r"runs autosweeper .*this machine autosweeper 9\.9\.9"
        ):
            run_benchmark(next_moves, ["beginner"], ["safe"], 4, cluster=address)
    finally:
        monkeypatch.undo()
        cluster.code_identity.cache_clear()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_cluster_is_one_line_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    code = main(["bench", "--games", "4", "--cluster", f"tcp://127.0.0.1:{_free_port()}"])
    assert code == 1 and time.monotonic() - started < cluster.CONNECT_TIMEOUT
    error = capsys.readouterr().err
    assert error.startswith("autosweeper bench: cannot reach the cluster at tcp://127.0.0.1:")
    assert error.count("\n") == 1


def test_a_listener_that_is_no_scheduler_is_refused_within_the_timeout() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        where = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
        started = time.monotonic()
        with pytest.raises(BenchError, match=f"cannot reach the cluster at {where}: no answer"):
            cluster.connect(where, timeout=1)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("where", ["localhost", "tcp://127.0.0.1:notaport"])
def test_a_malformed_address_is_named(where: str) -> None:
    with pytest.raises(BenchError, match="is not a cluster address like tcp://HOST:8786"):
        cluster.connect(where)


def test_workers_and_a_cluster_together_are_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["bench", "--workers", str(os.cpu_count() or 1), "--cluster", "tcp://h:8786"])
    assert exit.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(BenchError, match="not both"):
        run_benchmark(next_moves, ["beginner"], ["safe"], 4, workers=2, cluster="tcp://h:8786")


@pytest.mark.parametrize("other", ["--regret", "--engine"])
def test_a_cluster_plays_only_the_win_rate_benchmark(
    other: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", other, "--cluster", "tcp://h:8786"]) == 1
    assert "--cluster plays the win-rate benchmark only" in capsys.readouterr().err


def test_dask_is_imported_only_for_a_cluster() -> None:
    """It takes half a second: ``autosweeper --help`` and a local run do without it."""
    run_locally = "main(['bench', '--level', 'beginner', '--games', '2', '--workers', '1'])"
    code = (
        f"import sys; from controller.cli import main; {run_locally}; "
        "assert not {'dask', 'distributed'} & set(sys.modules), 'dask was imported'"
    )
    subprocess.run(
        [sys.executable, "-c", code],
        env=_environment(),
        check=True,
        capture_output=True,
    )
