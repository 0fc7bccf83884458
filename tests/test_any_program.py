"""Minesweeper programs the bot was not built for, from the window a user would have open.

Each test opens the game's window the way a user would (the launcher is test set-up only), then
does what a user does: ``autosweeper calibrate`` on that window, told only the mine count, and
``autosweeper play`` with the skin it saved. Nothing here tells calibration or play which
program it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import LaunchGame
from game_screens import WindowsSeen, pointer_over
from starts import XDEMINEUR, simulated_win_rate
from user_runs import CALIBRATION_ALLOWANCE, GAMES_PLAYED, calibrate_window, check_games, play

from calibration import new_game_ways
from calibration.labels import NoTextReader, Word
from calibration.learn import BUDGET, ESSENTIAL
from calibration.store import load_skin
from controller.cli import main
from controller.desktop.launchers import LAUNCHERS
from controller.mouse import Mouse
from controller.outcomes import OutcomeLog, Result
from solver import LEVELS
from vision.geometry import Rect
from vision.new_game import NEW_GAME_KEYS, NewGame
from vision.skin import Image

pytestmark = pytest.mark.realgame


@pytest.mark.parametrize(
    "level",
    ["beginner"]
    + [pytest.param(level, marks=pytest.mark.slow) for level in ("intermediate", "expert")],
)
def test_sgt_mines_learned_from_its_window_plays_every_game_to_an_end(
    level: str,
    launch: LaunchGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Simon Tatham's Mines: no face, no F2 (its new game is N), a loss shows only the mine hit,
    # the board flashes when a game ends, and its boards need no guess.
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    mines = LEVELS[level][2]
    launch("sgt-mines", LEVELS[level])
    seconds = calibrate_window("sgt", "sgt-mines", mines, tmp_path / "skins", capsys)
    assert seconds < BUDGET + CALIBRATION_ALLOWANCE
    skin = load_skin("sgt")
    assert set(ESSENTIAL) <= set(skin.templates)
    assert skin.faces == {}
    assert skin.new_game == NewGame("key", "n")
    assert skin.extra["question_marks"] is False

    db = tmp_path / "outcomes.db"
    play("sgt", GAMES_PLAYED, mines, db, capsys)
    with OutcomeLog(db) as log:
        games = log.games()
    assert len(games) == GAMES_PLAYED
    results = [game.result for game in games]
    assert all(result in (Result.WON, Result.LOST) for result in results), results
    # Its boards are made to be solved without a guess, so the solver wins nearly all.
    assert results.count(Result.WON) >= GAMES_PLAYED - 2, results


@pytest.mark.slow
def test_a_game_deaf_to_keys_is_learned_with_the_button_a_finished_game_changes(
    launch: LaunchGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """gnome-mines with no key reaching it and no label read (a game whose only new game is a
    button, on a machine without tesseract): its "Start Over" button reads "Play Again" once
    a game ends; calibration finds it by that change, after every key, and play starts every
    game there."""
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    keys: list[str] = []
    monkeypatch.setattr(Mouse, "press", lambda mouse, key, x, y, check=None: keys.append(key))

    def no_reader(frame: Image, blank: list[Rect]) -> list[Word]:
        raise NoTextReader("tesseract is not installed (the test says so)")

    monkeypatch.setattr(new_game_ways, "read_words", no_reader)
    size = LAUNCHERS["gnome-mines"].fitted(LEVELS["beginner"])
    launch("gnome-mines", size)
    calibrate_window("deaf", "gnome-mines", size[2], tmp_path / "skins", capsys)
    assert [key for key in keys if key in NEW_GAME_KEYS] == list(NEW_GAME_KEYS), keys
    skin = load_skin("deaf")
    assert skin.new_game.kind == "point" and skin.buttons

    db = tmp_path / "outcomes.db"
    games = 6
    play("deaf", games, size[2], db, capsys)
    with OutcomeLog(db) as log:
        results = [game.result for game in log.games()]
    assert len(results) == games
    assert all(result in (Result.WON, Result.LOST) for result in results), results


@dataclass(frozen=True)
class Program:
    """A real program, as the test opens it; calibration and play are told only its window
    class (or title) and mine count."""

    launcher: str
    """Which launcher opens its window (test set-up only)."""
    window_class: str
    start: str
    """How it starts a board (see tests/starts.py), for the simulated win rate."""
    by_title: bool = False
    """``window_class`` is part of its title: it sets no WM_CLASS."""
    button: bool = False
    """Its new game is a button beside the board that calibration finds (no face; a label
    that says so is tried before Ctrl+R and Ctrl+N, and no other key calibration tries works)."""


PROGRAMS = {
    "winemine": Program("winemine", "winemine", "safe"),
    "xdemineur": Program("xdemineur", "xdemineur", XDEMINEUR),
    # Its cells differ in size by a pixel (GTK shares out the window's width), and it draws a
    # number a little differently in wider cells. Its first click and the 8 cells around it
    # are never mines (minefield.vala, place_mines). No face: its "Play Again" button.
    "gnome-mines": Program("gnome-mines", "gnome-mines", "opening", button=True),
    # Its board lies over a gradient that shows through half-transparent opened cells, so one
    # tile is lighter or darker from cell to cell; a loss opens a "Game Over" dialog over the
    # board, and a message is drawn over it; its first click opens an area. No face: the
    # "New" of its toolbar.
    "kmines": Program("kmines", "kmines", "opening", button=True),
    # The Ace of Penguins' game: no WM_CLASS (found by its title), square boards (its Expert is
    # 32x32 with 200 mines, in 12-pixel cells), mines placed before the first click (which may
    # lose), every mine shown on a loss, and a game won only once every mine is flagged.
    "ace-minesweeper": Program("ace-minesweeper", "ace-minesweeper", "none", by_title=True),
    # xbomb: no face, no new-game key calibration tries (S starts one), a "Restart" button
    # beside the board (found by its label, next to a "Quit" never clicked); hidden tiles are a
    # stipple; a loss shows every cell, every mine alike, and rings the cells opened in green;
    # a wrong flag shows blank; a game is won once every mine is flagged. Its first click and
    # the 8 cells around it are never mines (xbomb.c, HideBombs).
    "xbomb": Program("xbomb", "xbomb", "opening", button=True),
    # xbomb in its own window: at Expert its digits, taller than its 20-px cells, paint over
    # the top of the cells below them (calibration leaves that band out of what it compares).
    "xbomb-own-size": Program("xbomb-own-size", "xbomb", "opening", button=True),
}
SIMULATED_GAMES = {"beginner": 1000, "intermediate": 500, "expert": 300}


IN_DEFAULT_RUN = {("kmines", "beginner")}
"""The program and size the default test run plays: kmines (a "Game Over" dialog over the board,
a board over a gradient, its new game a labelled button); the others are ``slow``. gnome-mines
Beginner (cells of two sizes, a tile lit under the pointer; about 300 s, its own animations
take most of a game's 8 s) left the default run in session 44, which had reached 28.7 min
from a fresh clone; its dialogs stay in tests/controller/desktop/test_x11.py."""


KNOWN_FAILURES: dict[tuple[str, str], tuple[pytest.MarkDecorator, ...]] = {
    ("kmines", "intermediate"): (
        pytest.mark.xfail(
            reason="kmines Medium's calibration failed in 1 of 9 runs of session 33 (the slow "
            "Intermediate set): 'the number pictures cannot show distinct numbers', a second "
            "picture of ONE (#50) bounded by the losses. A kept catalogue of a run that passed "
            "holds pictures of cells under kmines' 'You have lost.' message, two tiles under it "
            "0.031 apart; that the failing run read losses under it is likely, not traced.",
            strict=False,
        ),
    ),
}
"""Program sizes known not to pass every time yet, each with why."""


@pytest.mark.parametrize(
    ("name", "level"),
    [
        pytest.param(
            name,
            level,
            marks=KNOWN_FAILURES.get((name, level), ())
            + (() if (name, level) in IN_DEFAULT_RUN else (pytest.mark.slow,)),
        )
        for name in PROGRAMS
        for level in ("beginner", "intermediate", "expert")
    ],
)
def test_a_window_of_each_program_is_learned_and_played_at_its_simulated_win_rate(
    name: str,
    level: str,
    launch: LaunchGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Calibrated from scratch from its window, then 20 games: each won or lost, none misread
    (the loop checks every read of a game against its end) or stopped, at a win rate that
    agrees with the simulated one. At Expert a 7 or an 8 rarely shows in calibration: play
    learns it, reading it meanwhile as an opened cell of unknown number."""
    program = PROGRAMS[name]
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    size = LAUNCHERS[program.launcher].fitted(LEVELS[level])
    window = launch(program.launcher, size)
    seconds = calibrate_window(
        name,
        program.window_class,
        size[2],
        tmp_path / "skins",
        capsys,
        program.by_title,
    )
    assert seconds < BUDGET + CALIBRATION_ALLOWANCE
    skin = load_skin(name)
    assert set(ESSENTIAL) <= set(skin.templates)
    assert (skin.new_game.kind == "point") == program.button, skin.new_game
    # The first-click rule, where the calibration games told it, is the program's own.
    rule = "none" if program.start == XDEMINEUR else program.start
    assert skin.extra.get("first_click") in (None, rule), skin.extra

    # Play finds the board with the pointer resting over it, as a user may leave it (gnome-mines
    # lights the tile under the pointer).
    pointer_over(window)
    db = tmp_path / "outcomes.db"
    play(name, GAMES_PLAYED, size[2], db, capsys)
    simulated = simulated_win_rate(size, program.start, SIMULATED_GAMES[level])
    check_games(db, size[:2], simulated)


def test_winemine_as_freshly_installed_asks_for_a_name_after_a_fast_win_and_play_goes_on(
    launch: LaunchGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """winemine with a fresh install's best times (999 s): the first fast win at each level
    opens its "Congratulations!" name prompt over the board, then its best-times table, each
    closing about 2 s after Escape (as Microsoft's Minesweeper does, save for the delay).
    Calibration, told no window, finds the game by its board; it and play answer both dialogs
    (no name typed), and every game is logged won or lost."""
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    launch("winemine-fresh-install", LEVELS["beginner"])
    with WindowsSeen("winemine") as windows:
        # No window named: calibration looks for the one showing a fresh board, and names the
        # skin after its title.
        assert main(["calibrate", "--mines", "10"]) == 0, capsys.readouterr().err
        assert "calibrating 'WineMine'" in capsys.readouterr().out
        db = tmp_path / "outcomes.db"
        play("WineMine", GAMES_PLAYED, 10, db, capsys)
    assert len(windows.titles()) >= 3, windows.seen  # the main window, the prompt, the table
    with OutcomeLog(db) as log:
        games = log.games()
    assert len(games) == GAMES_PLAYED
    assert all(game.result in (Result.WON, Result.LOST) for game in games), [
        (game.result, game.reason) for game in games
    ]
