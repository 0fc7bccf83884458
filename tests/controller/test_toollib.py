"""ms-toollib is optional: where it cannot be loaded (its Windows wheel needs a DLL that Wine 8
and older Windows lack), only the 3BV and replays are lost, each with one line saying why."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from outcome_logs import played_log

from controller import report, toollib
from controller.errors import ReplayError
from controller.outcomes import Result
from controller.toollib import three_bv
from solver import Board

ROOT = Path(__file__).resolve().parents[2]
WON = Board.from_rows(["F2100", "2F100", "11100"], mines=2)


@pytest.fixture
def no_toollib(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """ms_toollib as a system without its DLL sees it: the import fails."""
    monkeypatch.setitem(sys.modules, toollib.MODULE, None)  # None in sys.modules: ImportError
    toollib.load.cache_clear()
    yield
    toollib.load.cache_clear()


def test_the_3bv_is_computed_where_ms_toollib_loads() -> None:
    assert three_bv(WON) == 5  # one opening and the four numbers not beside it


@pytest.mark.usefixtures("no_toollib")
def test_without_ms_toollib_a_game_is_logged_without_its_3bv_and_one_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with played_log(tmp_path / "log.db") as log:
        won, lost, _ = log.games()
    assert (won.result, won.bbbv, lost.result, lost.bbbv) == (Result.WON, None, Result.LOST, None)
    notes = capsys.readouterr().err.splitlines()
    assert len(notes) == 1, notes
    assert notes[0].startswith("autosweeper: 3BV left out: ms-toollib cannot be loaded here (")


@pytest.mark.usefixtures("no_toollib")
def test_without_ms_toollib_a_replay_is_refused_naming_why(tmp_path: Path) -> None:
    with played_log(tmp_path / "log.db") as log:
        won = log.games()[0]
        with pytest.raises(ReplayError, match=r"game 1: no replay written: ms-toollib"):
            report.export_evf(won, log.moves(won.id), tmp_path / "won.evf")
    assert not (tmp_path / "won.evf").exists()


def test_every_command_starts_where_ms_toollib_cannot_load(tmp_path: Path) -> None:
    """A fresh interpreter in which importing ms_toollib fails as a missing DLL makes it fail."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        "import sys\n"
        "class Missing:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'ms_toollib':\n"
        "            raise ImportError('DLL load failed while importing ms_toollib')\n"
        "sys.meta_path.insert(0, Missing())\n"
    )
    board = tmp_path / "board.txt"
    board.write_text(
        "# MINESWEEPER-BOARD v0.1\n\nrows: 3\ncolumns: 3\nmines: 1\ngame_mode: classic\n\n"
        "[view]\n1UU\nUUU\nUUU\n"
    )
    env = {"PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}", "PATH": os.environ["PATH"]}

    def run(code: str, *argv: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", code, *argv]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)

    assert "DLL load failed" in run("import ms_toollib").stderr  # the stand-in works
    for argv in (["--version"], ["analyze", str(board)], ["stats", "--help"]):
        done = run("import sys, controller.cli as c; sys.exit(c.main(sys.argv[1:]))", *argv)
        assert done.returncode == 0, (argv, done.stderr)
