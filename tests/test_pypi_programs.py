"""Minesweeper programs from PyPI that nobody here wrote, from the window a user would have open
(issue 49: programs never used before, in the real-game tests).

Each test installs the program as its user would (tests/pypi_programs.py), opens its window,
does at most what its user does first (minesweeper-mvc opens on a level menu: its EASY is
clicked), then calibrates from that window told at most the mine count and the window's title,
and plays 20 games with the skin saved. Nothing here tells calibration or play which program it
is. They take minutes each: ``slow``. The starts they are simulated with are checked here too.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import LaunchGame
from pypi_programs import PROGRAMS, NotInstalled, installed, launcher, missing
from starts import (
    BIG_OPENING,
    BIG_OPENING_ZEROS,
    big_opening_start,
    distinct_of_draws,
    simulated_win_rate,
)
from user_runs import CALIBRATION_ALLOWANCE, GAMES_PLAYED, calibrate_window, check_games, play

from calibration.learn import BUDGET, ESSENTIAL
from calibration.store import load_skin
from controller.desktop.games import GameWindow, visible_windows
from controller.desktop.launchers import LAUNCHERS
from controller.desktop.sizes import Size
from controller.outcomes import OutcomeLog
from solver.board import Tile

OpenProgram = Callable[[str, Size], GameWindow]
USER_PAUSE = 1.0
"""Seconds between the user's click and the next thing the user does."""


@dataclass(frozen=True)
class Case:
    """One program at one size, as its user opens it."""

    program: str
    board: Size
    """Rows, columns, and the mines of every game (the most, where the count varies)."""
    told: int | None
    """The mine count calibration and play are told; None: nothing (play reads the game's)."""
    start: str
    """How it starts a board (tests/starts.py), for the simulated win rate."""
    extra: dict[str, Any] = field(default_factory=dict)
    """What calibration must have learned of it (the skin's ``extra``)."""
    counts: Callable[[np.random.Generator], int] | None = None
    """How many mines a game has, where that varies (for the simulated win rate)."""
    user_click: tuple[int, int] | None = None
    """A click its user makes first, in the window (x, y from its top-left corner)."""
    simulated_games: int = 1000
    never_shown: frozenset[Tile] = frozenset()
    """Tiles of :data:`ESSENTIAL` the game never draws (a game that shows no mine)."""


CASES = {
    # Its first click is a 0 in a patch of more than 5 zeros; its columns widen as cells open.
    "mfranceschi-minesweeper": Case(
        "mfranceschi-minesweeper",
        (8, 8, 10),
        10,
        BIG_OPENING,
        {"relayout": True, "first_click": "opening"},
    ),
    # Its first click may lose; its count changes every game (read by play from its label).
    "minesweeper-python": Case(
        "minesweeper-python",
        (16, 16, 38),
        None,
        "none",
        counts=distinct_of_draws(16, 16, 38),
        simulated_games=500,
    ),
    # Its first click is never a mine (mines placed after it, ``pick_bombs``); its menu's EASY
    # is clicked first, and is its new game after each end. It never shows a mine: a loss
    # paints the window over with its message. Its HARD (16x30/99) is not played: its window,
    # 1220 px wide, opens at x = 340 on every new game, past the 1280-px screen's edge (with no
    # window manager to place it).
    "minesweeper-mvc": Case(
        "minesweeper-mvc",
        (9, 9, 10),
        10,
        "safe",
        {"board_gone_on_end": True},
        user_click=(300, 326),
        never_shown=frozenset({Tile.EXPLODED}),
    ),
}

KNOWN_FAILURES: dict[str, pytest.MarkDecorator] = {}
"""Programs known not to pass every time yet, each with why."""


@pytest.fixture
def open_program(launch: LaunchGame, monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenProgram]:
    """A function ``open_program(name, size)``: the program installed (or the test skipped,
    failed under CI) and started by ``launch``, which closes it after the test."""

    def start(name: str, size: Size) -> GameWindow:
        try:
            venv = installed(name)
        except NotInstalled as error:
            missing(f"{name} could not be installed: {error}")
        monkeypatch.setitem(LAUNCHERS, name, launcher(name, venv))
        return launch(name, size)

    yield start


def click_in(window: GameWindow, x: int, y: int) -> None:
    """The user's click at (x, y) of the window, then the game's window once it is drawn: the
    one window of the game by then (pygame opens a new one for a new size)."""
    left, top, _, _ = window.refresh()
    point = [str(left + x), str(top + y)]
    subprocess.run(["xdotool", "mousemove", "--sync", *point, "click", "1"], check=True)
    time.sleep(USER_PAUSE)
    found = LAUNCHERS[window.name]
    (window.window_id,) = visible_windows(found.window_class, found.by_title)
    window.wait_until_drawn()


@pytest.mark.realgame
@pytest.mark.slow
@pytest.mark.parametrize(
    "name", [pytest.param(name, marks=KNOWN_FAILURES.get(name, ())) for name in CASES]
)
def test_a_pypi_program_is_learned_from_its_window_and_played_at_its_simulated_win_rate(
    name: str,
    open_program: OpenProgram,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Calibrated from scratch from its window, then 20 games: each won or lost, none misread
    or stopped, at a win rate that agrees with the simulated one for its start (and, where the
    count varies, for counts drawn as the game draws them, the solver told each)."""
    case = CASES[name]
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    window = open_program(case.program, case.board)
    if case.user_click is not None:
        click_in(window, *case.user_click)
    title = PROGRAMS[case.program].title
    seconds = calibrate_window(name, title, case.told, tmp_path / "skins", capsys, by_title=True)
    assert seconds < BUDGET + CALIBRATION_ALLOWANCE
    skin = load_skin(name)
    assert set(ESSENTIAL) - case.never_shown <= set(skin.templates)
    assert {key: skin.extra.get(key) for key in case.extra} == case.extra, skin.extra

    db = tmp_path / "outcomes.db"
    play(name, GAMES_PLAYED, case.told, db, capsys)
    simulated = simulated_win_rate(case.board, case.start, case.simulated_games, mines=case.counts)
    won = check_games(db, case.board[:2], simulated)
    with OutcomeLog(db) as log:
        mines = [game.mines for game in log.games()]
    assert all(0 < count <= case.board[2] for count in mines), mines
    with capsys.disabled():  # the figures BENCHMARKS.md section 6 records
        print(
            f"\n{name}: calibrated in {seconds:.0f} s; {won} won of {GAMES_PLAYED}, "
            f"simulated {simulated:.1%}; mines {sorted(set(mines))}"
        )


def test_big_opening_starts_open_more_than_five_zeros_and_place_every_mine() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        game = big_opening_start(8, 8, 10, rng)
        layout = game.mine_layout
        assert layout is not None and layout.sum() == 10 and not game.board.is_lost
        assert (game.board.tiles == 0).sum() > BIG_OPENING_ZEROS


def test_mines_drawn_with_repeats_number_as_minesweeper_pythons_do() -> None:
    counts = distinct_of_draws(16, 16, 38)
    rng = np.random.default_rng(4)
    drawn = [counts(rng) for _ in range(2000)]
    assert min(drawn) >= 28 and max(drawn) <= 38
    expected = 256 * (1 - (255 / 256) ** 38)  # about 35.4 distinct cells of 38 draws
    assert abs(np.mean(drawn) - expected) < 0.2
