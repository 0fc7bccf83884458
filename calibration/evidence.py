"""Giving each tile appearance its meaning from the game's own logic, with no hand labelling.

Calibration records what every click did: the board before and after as a grid of appearance
ids (one id per distinct pitch-sized picture, see :class:`Catalogue`). The meanings follow from
the rules every Minesweeper obeys:

* a right-click on a hidden cell shows a FLAG; a second one a QUESTION mark (or hidden again
  when the game has no marks);
* on a loss the clicked cell shows the EXPLODED mine, every other hidden cell that changes is a
  MINE, and a flag that changes was a WRONG_FLAG;
* with every mine then known, an opened cell's number is its count of neighbouring mines (flags
  that stayed flags are mines too), so 0 to 8 are read off the lost board.

Contradictions (one appearance counting two different numbers, a cell changing on a board
where nothing else could) stop calibration with :class:`CalibrationError` naming the cell.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from solver import Board, Cell, GameState, Tile
from solver.engine import neighbour_counts
from solver.errors import AutosweeperError
from vision.skin import Image

Ids = npt.NDArray[np.int32]
"""A (rows, columns) grid of appearance ids."""


class CalibrationError(AutosweeperError):
    """Calibration cannot go on; the message says what was seen, and where."""


class UnknownAppearanceError(CalibrationError):
    """A cell shows a picture whose meaning has not been learned yet."""


class Catalogue:
    """Every distinct tile picture seen, each with a small id; the hidden tile is id 0."""

    def __init__(self, hidden: Image) -> None:
        self.images: list[Image] = []
        self._ids: dict[bytes, int] = {}
        self.add(hidden)

    def add(self, image: Image) -> int:
        """The id of ``image``, new if it was never seen."""
        key = np.ascontiguousarray(image).tobytes()
        if key not in self._ids:
            self._ids[key] = len(self.images)
            self.images.append(np.array(image))
        return self._ids[key]

    def ids(self, blocks: npt.NDArray[np.uint8]) -> Ids:
        """Ids of a (rows, columns, height, width, 3) array of cell pictures."""
        rows, columns = blocks.shape[:2]
        grid = np.empty((rows, columns), dtype=np.int32)
        for row in range(rows):
            for column in range(columns):
                grid[row, column] = self.add(blocks[row, column])
        return grid


HIDDEN_ID = 0


class ClickKind(StrEnum):
    """Which button a calibration click pressed. Not :class:`solver.strategy.Action`: a right-click
    here puts a flag, a question mark or nothing, whatever the game does next."""

    OPEN = "open"
    """A left-click."""
    MARK = "mark"
    """A right-click."""


@dataclass(frozen=True)
class Step:
    """One click and the board before and after it."""

    click: ClickKind
    cell: Cell
    before: Ids
    after: Ids

    @property
    def changed(self) -> npt.NDArray[np.bool_]:
        return self.before != self.after


@dataclass
class PlayedGame:
    """The steps of one calibration game; its ``state`` is LOST once its last step is known to
    have lost it (WON likewise)."""

    steps: list[Step] = field(default_factory=list)
    state: GameState = GameState.PLAYING

    @property
    def finished(self) -> bool:
        return self.state is not GameState.PLAYING


@dataclass
class Evidence:
    """What the games showed, shared by every window of one game program calibrated together."""

    catalogue: Catalogue
    games: list[PlayedGame] = field(default_factory=list)
    safe_appearances: set[int] = field(default_factory=set)
    """Appearances seen on cells opened without losing."""

    def opened_safely(self, step: Step) -> None:
        """Record the appearances of the cells ``step`` opened as safe ones."""
        opened = step.changed & (step.before == HIDDEN_ID)
        self.safe_appearances.update(int(i) for i in np.unique(step.after[opened]))

    def end_appearances(self) -> list[int]:
        """Appearances only a finished game shows: on the last step of lost games, not safe ones."""
        ends: set[int] = set()
        for game in self.games:
            if game.state is GameState.LOST:
                last = game.steps[-1]
                ends.update(int(i) for i in np.unique(last.after[last.changed]))
        return sorted(ends - self.safe_appearances - {HIDDEN_ID})


@dataclass
class Meanings:
    """What calibration has worked out: appearance id to tile, and where each was learned."""

    tiles: dict[int, Tile] = field(default_factory=dict)
    where: dict[int, str] = field(default_factory=dict)
    has_question_marks: bool | None = None
    """None until a second right-click has shown whether the game has question marks."""

    def id_of(self, tile: Tile) -> int | None:
        return next((i for i, t in self.tiles.items() if t == tile), None)

    def give(self, appearance: int, tile: Tile, where: str) -> None:
        """Record ``appearance`` as ``tile``; raise if either already has another partner."""
        known = self.tiles.get(appearance)
        if known is not None and known != tile:
            raise CalibrationError(
                f"appearance #{appearance} looks like {known.name} ({self.where[appearance]}) "
                f"but also like {tile.name} ({where})"
            )
        other = self.id_of(tile)
        if other is not None and other != appearance:
            raise CalibrationError(
                f"{tile.name} has two appearances: #{other} ({self.where[other]}) and "
                f"#{appearance} ({where}); the game draws it in more than one way"
            )
        if known is None:
            self.tiles[appearance] = tile
            self.where[appearance] = where

    def missing(self) -> list[Tile]:
        """Tiles not learned yet (QUESTION is not missing from a game that has no marks)."""
        learned = set(self.tiles.values())
        return [
            tile
            for tile in Tile
            if tile not in learned
            and not (tile == Tile.QUESTION and self.has_question_marks is False)
        ]


def learn_marks(meanings: Meanings, game: PlayedGame) -> None:
    """FLAG from a right-click on a hidden cell; QUESTION (or none) from a right-click on a flag."""
    for step in game.steps:
        if step.click != ClickKind.MARK:
            continue
        before, after = int(step.before[step.cell]), int(step.after[step.cell])
        where = f"right-click on cell {step.cell}"
        if before == HIDDEN_ID:
            if after == HIDDEN_ID:
                raise CalibrationError(f"{where} changed nothing: the game shows no flags?")
            meanings.give(after, Tile.FLAG, where)
        elif meanings.tiles.get(before) == Tile.FLAG:
            if after == HIDDEN_ID:
                meanings.has_question_marks = False
            else:
                meanings.has_question_marks = True
                meanings.give(after, Tile.QUESTION, where + " showing a flag")


def learn_from_loss(meanings: Meanings, game: PlayedGame) -> None:
    """EXPLODED, MINE, WRONG_FLAG and the numbers from the last, losing step of ``game``."""
    if game.state is not GameState.LOST or not game.steps:
        return
    last = game.steps[-1]
    before, after = last.before, last.after
    where = f"the loss at cell {last.cell}"
    exploded = int(after[last.cell])
    meanings.give(exploded, Tile.EXPLODED, where)
    changed = last.changed
    changed[last.cell] = False
    for row, column in zip(*np.nonzero(changed), strict=True):
        cell = (int(row), int(column))
        was, now = int(before[cell]), int(after[cell])
        was_tile = meanings.tiles.get(was)
        if was_tile is not None and was_tile.is_closed:
            meanings.give(now, Tile.MINE, f"{where}, cell {cell} uncovered")
        elif was_tile == Tile.FLAG:
            meanings.give(now, Tile.WRONG_FLAG, f"{where}, the flag on cell {cell} changed")
        else:
            raise CalibrationError(
                f"{where}: cell {cell} changed from appearance #{was} (not hidden, flagged or "
                "question-marked) on losing; that is no rule of Minesweeper"
            )

    def showing(*tiles: Tile) -> npt.NDArray[np.bool_]:
        known = [i for i in (meanings.id_of(tile) for tile in tiles) if i is not None]
        return np.isin(after, known)

    flags_kept = showing(Tile.FLAG) & (before == after)
    counts = neighbour_counts(showing(Tile.MINE, Tile.EXPLODED) | flags_kept)
    not_numbers = [tile for tile in Tile if not tile.is_number]
    for row, column in zip(*np.nonzero(~showing(*not_numbers)), strict=True):
        cell = (int(row), int(column))
        number = int(counts[cell])
        meanings.give(
            int(after[cell]), Tile(number), f"{where}, cell {cell} next to {number} mines"
        )


def board_of(ids: Ids, meanings: Meanings, mines: int = 0) -> Board:
    """The board ``ids`` shows under ``meanings``; raise naming the first unknown appearance."""
    tiles = np.full(ids.shape, 255, dtype=np.uint8)
    for appearance, tile in meanings.tiles.items():
        tiles[ids == appearance] = tile
    unknown = np.argwhere(tiles == 255)
    if len(unknown):
        cell = (int(unknown[0][0]), int(unknown[0][1]))
        raise UnknownAppearanceError(f"cell {cell} shows appearance #{ids[cell]}, not learned yet")
    return Board(ids.shape[0], ids.shape[1], mines, tiles)


def check_counting(board: Board, where: str) -> None:
    """Raise unless ``board`` obeys the counting rules.

    On a lost board every number equals the mines shown around it (flags left standing are
    mines). During play a number lies between the mines already shown around it (none) and its
    unopened neighbours (flags may be wrong then), and a 0 has no hidden neighbour: the game
    opens those by itself.
    """
    tiles = board.tiles
    shown = np.isin(tiles, (Tile.MINE, Tile.EXPLODED))
    if board.is_lost:
        low = high = neighbour_counts(shown | (tiles == Tile.FLAG))
    else:
        low, high = neighbour_counts(shown), neighbour_counts(shown | board.unopened)
    hidden_around = neighbour_counts(tiles == Tile.HIDDEN)
    for cell in board.cells():
        tile = board[cell]
        if not tile.is_number:
            continue
        if not low[cell] <= tile <= high[cell]:
            raise CalibrationError(
                f"{where}: cell {cell} reads {int(tile)}, but between {int(low[cell])} and "
                f"{int(high[cell])} mines can be around it"
            )
        if tile == Tile.ZERO and hidden_around[cell]:
            raise CalibrationError(
                f"{where}: cell {cell} reads 0 but has {int(hidden_around[cell])} hidden neighbours"
            )


def new_meanings() -> Meanings:
    """Meanings before any game: only the hidden tile (id 0, taken from the fresh board)."""
    meanings = Meanings()
    meanings.give(HIDDEN_ID, Tile.HIDDEN, "the fresh board")
    return meanings


def learn_game(meanings: Meanings, game: PlayedGame) -> None:
    """Add what one finished game proves (its marks first: its loss needs to know its flags)."""
    learn_marks(meanings, game)
    learn_from_loss(meanings, game)


def learn(games: Iterable[PlayedGame]) -> Meanings:
    """All meanings the recorded games prove."""
    meanings = new_meanings()
    for game in games:
        learn_game(meanings, game)
    return meanings
