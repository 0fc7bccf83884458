"""``autosweeper calibrate`` on a drawn game, as the user runs it on a window of the desktop:
what ``--verbose`` shows while it plays, and the one line a failure ends with."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from drawn_game import (
    DRAWN_BUTTON,
    DRAWN_WINDOW,
    DrawnGame,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration.learn import Calibration, calibrate
from controller.cli import main
from controller.commands import calibrate as calibrate_command
from vision.geometry import Rect

REGION = f"{DRAWN_WINDOW.left},{DRAWN_WINDOW.top},{DRAWN_WINDOW.width},{DRAWN_WINDOW.height}"


class ListedGame(DrawnGame):
    """A drawn game that lists every click and key press it receives."""

    def __init__(self, seed: int, **options: object) -> None:
        super().__init__(seed, **options)  # type: ignore[arg-type]
        self.sent: list[tuple[str, tuple[int, int]]] = []

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.sent.append((f"{button}-click", (x, y)))
        super().click(x, y, button)

    def press(self, key: str, x: int, y: int) -> None:
        self.sent.append((f"the {key} key", (x, y)))
        super().press(key, x, y)


def on_the_desktop(monkeypatch: pytest.MonkeyPatch, screen: DrawnGame, skins: Path) -> None:
    """Make ``autosweeper calibrate --region`` calibrate ``screen`` as the desktop's window."""
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(skins))
    monkeypatch.setattr(calibrate_command, "desktop_window", lambda *where: (DRAWN_WINDOW, None))
    monkeypatch.setattr(calibrate_command, "desktop_alone", lambda _: contextlib.nullcontext())

    def calibrate_windows(
        name: str, windows: Sequence[Rect], mines: Sequence[int | None], *more: Any, **ways: Any
    ) -> Calibration:
        max_games, seed = more
        return calibrate(
            name,
            screen,
            screen,
            windows,
            mines=mines,
            max_games=max_games,
            seed=seed,
            progress=False,
            **ways,
        )

    monkeypatch.setattr(calibrate_command, "calibrate_windows", calibrate_windows)


def test_verbose_logs_each_click_where_it_went_and_what_it_changed_as_it_happens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A user ran ``calibrate --verbose`` ("log every click") and saw nothing: the clicks that
    find the board logged nothing, nor did the board found, a loss or a new game tried."""
    screen = ListedGame(seed=2)
    on_the_desktop(monkeypatch, screen, tmp_path)
    arguments = ["calibrate", "--region", REGION, "--max-games", "3", "--seed", "1", "--verbose"]
    main(arguments)
    lines = capsys.readouterr().err.splitlines()
    assert screen.sent
    remaining = iter(lines)
    for what, (x, y) in screen.sent:  # each click has its line, in the order sent
        assert any(what in line and f"({x}, {y})" in line for line in remaining), (what, x, y)
    on_a_cell = r"left-click on cell \(\d, \d\) at \(\d+, \d+\): \d+ cells? changed, the cell from"
    assert any(re.search(on_a_cell + r" hidden to #\d+$", line) for line in lines)
    found_by = f"left-click at {screen.sent[0][1]} on a common tile: it changed, the hidden tile"
    assert any(line.endswith(found_by) for line in lines)
    for decision in ("the board found: 9x9 cells of 16x16 px", "game lost on its click on"):
        assert any(decision in line for line in lines), decision
    assert any("a click on the face started a new game" in line for line in lines)


def test_a_failed_calibration_ends_with_one_line_naming_the_screens_of_that_moment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True)
    on_the_desktop(monkeypatch, screen, tmp_path)
    assert main(["calibrate", "--region", REGION, "--max-games", "4", "--seed", "1"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    named = re.search(r"cannot start a new game .*\(the screens of that moment: (.+)\)$", error)
    assert named is not None, error
    assert sorted(Path(named[1]).glob("*.png"))
