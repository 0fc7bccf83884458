"""Paired games against David N. Hill's solver: the same mine layouts played by both.

His solver (Java, github.com/DavidNHill/Minesweeper) is the strongest published one, so this
is the benchmark that says whether autosweeper's guesses are better. Nothing is fetched: the
caller gives a checkout of his code (a work tree or a bare git directory), which stays outside
this repository. ``HillDriver.java`` (beside this module) is compiled against it with ``javac``
into a cache folder, once per commit, and plays layouts read from its standard input, the way
his bulk runner plays them (``SMALL_ANALYSIS``, one thread, no flags).

The layouts are autosweeper's own seeded games (:meth:`solver.engine.Game.level`, mines placed
at the first click of :func:`solver.strategy.first_click`), so autosweeper's side is the plain
win-rate benchmark (:func:`solver.bench.run.run_benchmark`) over the same seeds; only the safe
and opening rules are offered, the two under which the first click is never a mine.

    python -m solver.bench.hill --hill ~/src/Minesweeper --games 20000 --seed 7000000

prints both win rates and the paired comparison (an exact sign test on the boards only one
solver won); ``--out PREFIX`` saves both runs as benchmark results that ``autosweeper bench
--compare`` reads, his with the guesses he made in each game.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from solver.bench.play import load_strategy
from solver.bench.progress import progress_bar
from solver.bench.results import BenchResult, format_table, results_json, win_fields
from solver.bench.run import parse_override, run_benchmark, settings_with
from solver.bench.stats import paired_comparison
from solver.board import LEVELS
from solver.engine import FirstClick, Game
from solver.errors import BenchError
from solver.settings import STRENGTHS
from solver.strategy import first_click

DRIVER = Path(__file__).with_name("HillDriver.java")
SOURCE_FOLDERS = ("MinesweeperGameState/src", "Asynchronous/src", "MineSweeperSolver/src")
"""The parts of his repository the solver needs (his game model, threads, the solver)."""
RULES = (FirstClick.SAFE, FirstClick.OPENING)


@dataclass(frozen=True)
class HillGame:
    """One game as his solver played it."""

    seed: int
    won: bool
    cpu_seconds: float
    guesses: tuple[tuple[int, int, float], ...]
    """The moves it did not call certain: row, column and its chance of being safe."""


@dataclass(frozen=True)
class HillBuild:
    """His solver compiled with the driver: where the classes are, and from which commit."""

    classes: Path
    commit: str


def build(checkout: Path, cache: Path) -> HillBuild:
    """Compile his solver and the driver into ``cache`` (skipped when already there)."""
    commit = _commit(checkout)
    driver_hash = hashlib.sha256(DRIVER.read_bytes()).hexdigest()[:12]
    classes = cache / f"hill-{commit[:12]}-{driver_hash}"
    if (classes / "HillDriver.class").is_file():
        return HillBuild(classes, commit)
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} is not installed: the paired benchmark needs a Java JDK")
    staging = cache / f"staging-{commit[:12]}"
    shutil.rmtree(staging, ignore_errors=True)
    sources_root = _sources(checkout, commit, staging)
    sources = [str(DRIVER)]
    for folder in SOURCE_FOLDERS:
        if not (sources_root / folder).is_dir():
            raise BenchError(f"{checkout}: no {folder} (is this David Hill's Minesweeper?)")
        sources += [str(path) for path in sorted((sources_root / folder).rglob("*.java"))]
    built = staging / "classes"
    built.mkdir(parents=True)
    arguments = ["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(built), *sources]
    compiled = subprocess.run(arguments, capture_output=True, text=True, check=False)
    if compiled.returncode != 0:
        raise BenchError(f"javac failed on {checkout}: {compiled.stderr.strip()[-500:]}")
    shutil.rmtree(classes, ignore_errors=True)
    built.rename(classes)
    shutil.rmtree(staging, ignore_errors=True)
    return HillBuild(classes, commit)


def _commit(checkout: Path) -> str:
    """The commit of a work tree or bare git directory ("unversioned" for a plain folder)."""
    found = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode == 0:
        return found.stdout.strip()
    if not checkout.is_dir():
        raise BenchError(f"{checkout}: no such folder (give a checkout of Hill's solver)")
    return "unversioned"


def _sources(checkout: Path, commit: str, staging: Path) -> Path:
    """A folder holding his sources: the work tree itself, or a bare repository's commit
    unpacked into ``staging``."""
    if (checkout / SOURCE_FOLDERS[0]).is_dir():
        return checkout
    if commit == "unversioned":
        raise BenchError(f"{checkout}: no {SOURCE_FOLDERS[0]} (is this David Hill's Minesweeper?)")
    archive = subprocess.run(
        ["git", "-C", str(checkout), "archive", commit, *SOURCE_FOLDERS],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise BenchError(f"{checkout}: {archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(staging / "source", filter="data")
    return staging / "source"


def layouts(
    level: str, rule: FirstClick, games: int, seed: int
) -> Iterator[tuple[int, npt.NDArray[np.bool_]]]:
    """The mines of the benchmark's games ``seed`` .. ``seed + games - 1``, as placed by the
    first click autosweeper makes in each."""
    for game_seed in range(seed, seed + games):
        game = Game.level(level, rule, game_seed)
        game.open(first_click(game.board, rule))
        layout = game.mine_layout
        assert layout is not None  # placed by the first click
        yield game_seed, layout


def play(
    hill: HillBuild,
    level: str,
    rule: FirstClick,
    games: Iterable[tuple[int, npt.NDArray[np.bool_]]],
    total: int,
    progress: bool | None = None,
) -> list[HillGame]:
    """His solver's games on ``games`` (seed and mines), in order, in one Java process."""
    rows, columns, mines = LEVELS[level]
    row, column = first_click(Game(rows, columns, mines, rule).board, rule)
    command = ["java", "-cp", str(hill.classes), "HillDriver"]
    command += [str(n) for n in (columns, rows, mines, row, column)]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as java:
        assert java.stdin is not None and java.stdout is not None and java.stderr is not None
        feeder = threading.Thread(target=_feed, args=(java.stdin, games), daemon=True)
        feeder.start()
        played = []
        with progress_bar(total=total, unit="game", desc="Hill", show=progress) as bar:
            for line in java.stdout:
                played.append(_parse(line))
                bar.update()
        feeder.join()
        errors = java.stderr.read()
    if java.returncode != 0 or len(played) != total:
        raise BenchError(
            f"Hill's solver stopped after {len(played)} games: {errors.strip()[-500:]}"
        )
    return played


def _feed(stream: io.TextIOBase, games: Iterable[tuple[int, npt.NDArray[np.bool_]]]) -> None:
    """Write the layouts for the driver, one line each, then close its input."""
    try:
        for seed, layout in games:
            cells = "".join("1" if mine else "0" for mine in layout.reshape(-1).tolist())
            stream.write(f"{seed}\t{cells}\n")
    finally:
        stream.close()


def _parse(line: str) -> HillGame:
    """One line of the driver's output (see HillDriver.java)."""
    try:
        seed, won, cpu_ns, guesses = line.rstrip("\n").split("\t")
    except ValueError:
        raise BenchError(f"Hill's driver printed {line.strip()[:200]!r}, not a game") from None
    moves = []
    for guess in guesses.split():
        row, column, safety = guess.split(",")
        moves.append((int(row), int(column), float(safety)))
    return HillGame(int(seed), won == "1", int(cpu_ns) / 1e9, tuple(moves))


def as_result(
    games: list[HillGame], level: str, rule: FirstClick, wall_seconds: float
) -> BenchResult:
    """His games as a benchmark result, comparable game for game with autosweeper's."""
    wins = sum(game.won for game in games)
    return BenchResult(
        **win_fields(level, str(rule), wins, len(games)),
        games_per_second=len(games) / wall_seconds,
        decision_ms_median=0.0,
        decision_ms_p99=0.0,
        decision_ms_max=0.0,
        cpu_ms_per_game=1000 * sum(game.cpu_seconds for game in games) / len(games),
        guesses_per_game=sum(len(game.guesses) for game in games) / len(games),
        certain_move_losses=0,
        first_seed=games[0].seed,
        outcomes="".join("1" if game.won else "0" for game in games),
    )


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m solver.bench.hill",
        description="Play the same seeded layouts with David Hill's solver and autosweeper's; "
        "print both win rates and the paired comparison.",
    )
    parser.add_argument("--hill", type=Path, required=True, help="a checkout of his repository")
    parser.add_argument("--level", choices=list(LEVELS), default="expert")
    parser.add_argument("--rule", choices=[str(rule) for rule in RULES], default="safe")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7_000_000)
    parser.add_argument("--workers", type=int, default=None, help="autosweeper's processes")
    parser.add_argument("--strategy", default="solver.strategy:next_moves")
    parser.add_argument("--set", dest="overrides", action="append", default=[], type=parse_override)
    parser.add_argument("--strength", choices=list(STRENGTHS), default="fast")
    parser.add_argument("--cache", type=Path, default=None, help="where his build is kept")
    parser.add_argument(
        "--out", default=None, help="save PREFIX-hill.json, PREFIX-autosweeper.json"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """The paired benchmark's command; one line on standard error for a refused run."""
    args = _arguments(argv)
    try:
        return _run(args)
    except BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from platformdirs import user_cache_path

    if args.games < 1:
        raise BenchError(f"--games must be at least 1, not {args.games}")
    overrides = {**STRENGTHS[args.strength], **dict(args.overrides)}
    settings_with(overrides)  # a slip refused now, not after his games
    if args.out and not Path(args.out).parent.is_dir():
        raise BenchError(f"--out {args.out}: no folder {Path(args.out).parent} to save in")
    rule = FirstClick(args.rule)
    hill = build(args.hill, args.cache or user_cache_path("autosweeper") / "hill")
    started = time.perf_counter()
    his = play(hill, args.level, rule, layouts(args.level, rule, args.games, args.seed), args.games)
    his_result = as_result(his, args.level, rule, time.perf_counter() - started)
    strategy = load_strategy(args.strategy)
    (ours,) = run_benchmark(
        strategy, [args.level], [rule], args.games, args.workers, args.seed, overrides=overrides
    )
    print(f"Hill {hill.commit[:12]} (first row) and autosweeper, the same {args.games} layouts")
    print(format_table([his_result, ours]))
    paired = paired_comparison(his_result.outcomes, ours.outcomes)
    print(
        f"both won {paired.wins_before - paired.only_before}, only Hill {paired.only_before}, "
        f"only autosweeper {paired.only_after}, autosweeper - Hill "
        f"{100 * paired.difference:+.2f} points, exact sign test p = {paired.p_value:.4g}"
    )
    if args.out:
        settings = {**vars(args), "hill": str(args.hill), "cache": None, "hill_commit": hill.commit}
        settings["overrides"] = overrides
        document = json.loads(results_json([his_result], settings))
        document["guesses"] = {str(game.seed): game.guesses for game in his}
        Path(f"{args.out}-hill.json").write_text(json.dumps(document) + "\n")
        Path(f"{args.out}-autosweeper.json").write_text(results_json([ours], settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
