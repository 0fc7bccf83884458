"""Reading accuracy on real games: every cell of every board read during play, checked against
what the game itself shows at the end (the vision issue's acceptance test).

Each game is calibrated (tests/conftest.py), then played with the solver on boards of other
sizes than the calibration's, in windows moved to a new place between games, the board captured
and read after every click. At each game's end every captured board is checked against the end:

* lost: the game shows every mine; each number read on any board equals the mines shown around
  it at the end, and the shown mines (flags left standing count) are exactly the board's mines;
* won: every cell but the mines is open; each number equals the unopened cells around it;
* always: a cell once read as a number reads the same number ever after, a cell never goes from
  opened back to unopened, and end-of-game tiles appear only on the final board (the exploded
  mine where the last click was).

The default run reads at least 200 boards per game (about 20 s of play after a calibration of
half a minute); the ``slow`` run at least 1000.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pytest
from conftest import (
    READ_TIMEOUT,
    Calibrations,
    LaunchGame,
    read_when_settled,
    start_new_game,
)

from calibration.learn import Calibration
from controller.desktop.sizes import Size
from controller.mouse import Mouse
from solver import Board, Cell, Game, Tile
from solver.engine import neighbour_counts
from solver.strategy import Action, Move, next_moves
from vision.capture import ScreenGrabber
from vision.errors import UnstableFrameError
from vision.locate import locate_on_screen
from vision.read import BoardReader, Reading
from vision.skin import Image, Skin
from vision.stable import wait_stable

PLANS: dict[str, list[tuple[Size, list[tuple[int, int]]]]] = {
    "winemine": [
        ((16, 16, 40), [(333, 141), (20, 517), (760, 380)]),
        ((16, 30, 99), [(57, 391), (411, 23)]),
    ],
    "xdemineur": [
        ((16, 16, 40), [(210, 287), (655, 41), (12, 560)]),
        ((13, 24, 60), [(45, 120), (390, 470)]),
    ],
}
"""Per game, the board sizes played (none is a calibration size) and the window positions
visited in turn, a new one for every game."""
END_TILES = (Tile.MINE, Tile.EXPLODED, Tile.WRONG_FLAG)
UNOPENED = (Tile.HIDDEN, Tile.FLAG, Tile.QUESTION)


@dataclass
class Tally:
    """What one game's reading run measured."""

    boards: int = 0
    cells: int = 0
    won: int = 0
    lost: int = 0
    misreads: list[str] = field(default_factory=list)
    """One line per misread cell (or wrong end of game), naming the game, board and cell."""
    worst_distance: float = 0.0
    """The largest template distance of any accepted cell (0 is a pixel-exact match)."""


def misread_cells(boards: list[Board], last_open: Cell | None) -> list[str]:
    """Every cell of ``boards`` (the reads of one game, from its first board to its last)
    that disagrees with the truth the last board shows, one line per cell and board, and a
    line for an end that is not what the game's rules show."""
    final = boards[-1]
    tiles = np.stack([board.tiles for board in boards])
    end = final.tiles
    problems: list[str] = []
    if final.is_lost:
        mines = np.isin(end, (Tile.MINE, Tile.EXPLODED, Tile.FLAG))
        exploded = [(int(row), int(column)) for row, column in np.argwhere(end == Tile.EXPLODED)]
        if int(mines.sum()) != final.mines:
            problems.append(f"the end shows {int(mines.sum())} mines, the board has {final.mines}")
        if exploded != [last_open]:
            problems.append(f"exploded mines at {exploded}, the last cell opened {last_open}")
    else:
        mines = np.isin(end, UNOPENED)
        if int(mines.sum()) != final.mines or np.isin(end, END_TILES).any():
            problems.append(f"won with {int(mines.sum())} cells unopened, not {final.mines}")
    truth = neighbour_counts(mines)
    for index, read in enumerate(tiles):
        numbers = read <= Tile.EIGHT
        checks = [
            (numbers & (read != truth), "not its count of mines around at the end"),
            (numbers & (read != end), "another number at the end"),
            (np.isin(read, END_TILES) & (index < len(boards) - 1), "an end tile during play"),
            ((tiles[index - 1] <= Tile.EIGHT) & ~numbers & (index > 0), "opened before"),
        ]
        wrong = np.logical_or.reduce([where for where, _ in checks])
        for row, column in np.argwhere(wrong):
            why = ", ".join(what for where, what in checks if where[row, column])
            tile = Tile(int(read[row, column])).name
            problems.append(f"board {index}, cell ({row}, {column}) read {tile}: {why}")
    return problems


class LiveBoard:
    """One real game window: found with the skin, read and clicked only on its board and face."""

    def __init__(self, grabber: ScreenGrabber, skin: Skin, size: Size) -> None:
        self.grabber = grabber
        self.skin = skin
        self.rows, self.columns, self.mines = size
        self.mouse = Mouse()
        self.last_start = 0
        """The clock second of the last game's first click."""
        self.find()

    def find(self) -> None:
        """Locate the board (after the window moved) and allow clicks on it and its face."""
        wait_stable(self.grabber, self.grabber.screen, timeout=READ_TIMEOUT)
        geometry = locate_on_screen(self.grabber, self.skin, shape=(self.rows, self.columns))
        assert geometry.face is not None
        self.reader = BoardReader(self.skin, geometry)
        self.mouse.allow(geometry.rect, geometry.face)

    def new_game(self) -> None:
        """Start a new game the skin's way and wait until the board shows it."""
        start_new_game(self.skin, self.reader, self.mouse, self.grabber)

    def click_and_read(self, move: Move, before: Image) -> tuple[Image, Reading]:
        """Click ``move``'s cell and read the board it leads to. A click the game did not take
        (the cell still hidden once the wait runs out, seen now and then under Xvfb) is made once
        more, as the play loop does; anything else that never settles is an error."""
        point = self.reader.geometry.cell_centre(move.cell)
        button = "left" if move.action is Action.OPEN else "right"
        self.mouse.click(*point, button)
        try:
            return read_when_settled(self.grabber, self.reader, self.mines, before)
        except UnstableFrameError:
            now = self.reader.read(self.grabber.grab(self.reader.region), self.mines).board
            if now[move.cell] != Tile.HIDDEN:
                raise
        self.mouse.click(*point, button)
        return read_when_settled(self.grabber, self.reader, self.mines, before)

    def play(self) -> tuple[list[Reading], Cell | None]:
        """Play one game with the solver to its end: every reading, and the last cell opened."""
        frame, reading = read_when_settled(self.grabber, self.reader, self.mines)
        readings = [reading]
        last_open: Cell | None = None
        while int(time.time()) == self.last_start:
            # winemine seeds its mines with the clock second: a new second, a new board
            time.sleep(0.05)
        self.last_start = int(time.time())
        while readings[-1].outcome == "playing":
            board = readings[-1].board
            moves = next_moves(board, flags=True) or [
                # every safe cell is open: xdemineur declares the win once every mine is flagged
                Move((int(r), int(c)), Action.FLAG)
                for r, c in np.argwhere(board.tiles == Tile.HIDDEN)
            ]
            assert moves, f"a board neither won nor lost has no move left:\n{board}"
            for move in moves:
                if readings[-1].board[move.cell] != Tile.HIDDEN:
                    continue  # opened meanwhile by a neighbouring 0
                if move.action is Action.OPEN:
                    last_open = move.cell
                frame, reading = self.click_and_read(move, frame)
                readings.append(reading)
                if reading.outcome != "playing":
                    break
        return readings, last_open


def read_real_games(calibration: Calibration, launch: LaunchGame, game: str, boards: int) -> Tally:
    """Play ``game`` until at least ``boards`` boards are read, about half on each planned size
    and at least one game on each."""
    tally = Tally()
    with ScreenGrabber() as grabber:
        for number, (size, spots) in enumerate(PLANS[game], start=1):
            window = launch(game, size)
            window.move(*spots[0])
            live = LiveBoard(grabber, calibration.skin, size)
            games = 0
            while not games or tally.boards < boards * number // len(PLANS[game]):
                if games:
                    window.move(*spots[games % len(spots)])
                    live.find()
                    live.new_game()
                readings, last_open = live.play()
                games += 1
                where = f"{game} game {games} on {size}"
                problems = misread_cells([r.board for r in readings], last_open)
                tally.misreads += [f"{where}: {problem}" for problem in problems]
                tally.boards += len(readings)
                tally.cells += len(readings) * size[0] * size[1]
                tally.won += readings[-1].outcome == "won"
                tally.lost += readings[-1].outcome == "lost"
                tally.worst_distance = max(
                    tally.worst_distance, *(float(r.scores.max()) for r in readings)
                )
            window.close()
    return tally


@pytest.mark.realgame
@pytest.mark.parametrize("game", ["winemine", "xdemineur"])
@pytest.mark.parametrize("boards", [200, pytest.param(1000, marks=pytest.mark.slow)])
def test_every_cell_read_in_real_play_agrees_with_the_end_of_its_game(
    calibrations: Calibrations,
    launch: LaunchGame,
    game: str,
    boards: int,
) -> None:
    calibration = calibrations.of(game)
    assert calibration.complete, f"{game}'s calibration lacks {calibration.describe_missing()}"
    started = time.monotonic()
    tally = read_real_games(calibration, launch, game, boards)
    print(
        f"\n{game}: {tally.boards} boards, {tally.cells} cells read, {len(tally.misreads)} "
        f"misread; {tally.won} won, {tally.lost} lost in {time.monotonic() - started:.0f} s; "
        f"worst template distance {tally.worst_distance:.4f}; calibration "
        f"{calibrations.seconds.get(game, 0):.0f} s ({calibration.games} games)"
    )
    assert tally.misreads == []
    assert tally.boards >= boards


# -- the checker itself, on simulated games ----------------------------------------------------


def simulated_reads(seed: int, flags: bool) -> tuple[list[Board], Cell | None]:
    """The boards of one Intermediate game the solver plays in the simulator, and its last open."""
    game = Game.level("intermediate", seed=seed)
    boards = [game.board.copy()]
    last_open: Cell | None = None
    while not game.is_over:
        for move in next_moves(game.board, flags=flags):
            if move.action is Action.FLAG:
                game.flag(move.cell)
            else:
                last_open = move.cell
                game.open(move.cell)
            boards.append(game.board.copy())
            if game.is_over:
                break
    return boards, last_open


@pytest.mark.parametrize("seed", range(6))
def test_true_reads_pass_the_check_and_each_kind_of_misread_is_caught(seed: int) -> None:
    boards, last_open = simulated_reads(seed, flags=seed % 2 == 0)
    assert misread_cells(boards, last_open) == []
    final = boards[-1]
    opened = np.argwhere(final.tiles <= Tile.EIGHT)
    row, column = (int(v) for v in opened[len(opened) // 2])
    wrong_number = [board.copy() for board in boards]
    wrong_number[-1].tiles[row, column] = (final.tiles[row, column] + 1) % 9
    assert misread_cells(wrong_number, last_open)
    if len(boards) > 2:
        closed_again = [board.copy() for board in boards]
        middle = closed_again[len(boards) // 2]
        was_open = np.argwhere(closed_again[len(boards) // 2 - 1].tiles <= Tile.EIGHT)
        if len(was_open):
            middle.tiles[tuple(was_open[0])] = Tile.HIDDEN
            assert any("opened before" in line for line in misread_cells(closed_again, last_open))
    if final.is_lost:
        mines = np.argwhere(final.tiles == Tile.MINE)
        if len(mines):
            hidden_mine = [board.copy() for board in boards]
            hidden_mine[-1].tiles[tuple(mines[0])] = Tile.HIDDEN
            assert misread_cells(hidden_mine, last_open)
        assert misread_cells(boards, None)
