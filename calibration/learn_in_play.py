"""What play teaches a skin: pictures first met during a game, and what the game's boards prove
about them.

Calibration learns a game's look before play; play keeps learning, without stopping the game:

* a picture no tile matches on a cell a click just opened is a number not seen yet: the board is
  read with it as an opened cell of unknown number (:meth:`SkinLearner.adopt_unknown`), and the
  boards of the game later prove which number it is (:func:`proven_labels`,
  :meth:`SkinLearner.label`);
* such a picture on a cell just flagged is the game's flag for that size of cell
  (:meth:`SkinLearner.learn_flags`);
* a lost board may show pictures never seen: the mines of a loss, numbers redrawn in a finished
  game's look (:meth:`SkinLearner.read_lost`);
* a game won with a face that matched none of the skin's shows the won face
  (:meth:`SkinLearner.learn_won_face`).

Nothing is learned from a read that is not whole: each lesson is tried on a copy of the skin,
and kept only if the frame then reads without an unreadable cell. The last read of a game is
checked against every read made during it (:func:`end_disagreement`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from calibration.errors import CalibrationError
from calibration.meanings import check_counting
from calibration.numbers import label_from_play
from solver import Board, Cell, GameState, Tile
from vision.errors import VisionError
from vision.geometry import BoardGeometry
from vision.match import TemplateBank
from vision.read import BoardReader, Reading
from vision.skin import SIZE_CLASSES, Image, Skin


@dataclass(frozen=True)
class Lesson:
    """A frame read whole once a picture was learned from it."""

    reading: Reading
    reader: BoardReader | None
    """The reader to read with from now on, if the lesson changed what it knows but not the
    skin (pictures of unknown number)."""
    taught_skin: bool
    """Whether the skin itself changed: it is saved, and read with anew."""


class SkinLearner:
    """The lessons of play for one skin on one board: pictures of opened cells whose numbers
    are not known yet, and what the skin learns from frames a reader could not read."""

    def __init__(self, skin: Skin, mines: int) -> None:
        self.skin = skin
        self.mines = mines
        self.unlabelled: list[tuple[int, Image]] = []
        """Pictures of opened cells first seen in play, their numbers not known yet, each with
        the size class of the cell it was met on."""

    def reader(self, geometry: BoardGeometry) -> BoardReader:
        """A reader of the skin and pictures as they are now, on the board at ``geometry``."""
        return BoardReader(self.skin, geometry, unlabelled=self.unlabelled)

    def known_numbers(self, reader: BoardReader) -> dict[int, set[Tile]]:
        """Per size class of ``reader``'s board, the numbers the skin reads on its cells."""
        classes = np.unique(reader.geometry.size_classes).tolist()
        return {c: {tile for tile in self.skin.known_in(c) if tile.is_number} for c in classes}

    def picture_classes(self) -> dict[int, int]:
        """The size class of each unlabelled picture, by its number."""
        return {index: size_class for index, (size_class, _) in enumerate(self.unlabelled)}

    def adopt_unknown(
        self,
        reader: BoardReader,
        frame: Image,
        cells: Sequence[Cell],
        keep: Callable[[Reading], bool],
    ) -> Lesson | None:
        """``frame`` read with the pictures of ``cells`` as opened cells of unknown number, if
        it then reads whole and ``keep`` accepts the read."""
        pictures = _pictures(reader, frame, cells)
        trial = list(self.unlabelled)
        for size_class, image in pictures:  # one per new appearance: a twin would tie with it
            alike = [picture for c, picture in trial if c == size_class]
            if not alike or self._is_new(image, alike):
                trial.append((size_class, image))
        read = self._read_with(reader, frame, trial)
        if read is None or not keep(read[1]):
            return None
        self.unlabelled[:] = trial
        return Lesson(read[1], read[0], taught_skin=False)

    def learn_flags(
        self,
        reader: BoardReader,
        frame: Image,
        cells: Sequence[Cell],
        keep: Callable[[Reading], bool] = lambda reading: True,
    ) -> Lesson | None:
        """``frame`` read with the pictures of ``cells`` (just flagged, or flagged by the game
        on its win) as the game's flag for their size class, if every one of them then reads as
        a flag and ``keep`` takes the read."""
        flags = dict(_pictures(reader, frame, cells))  # one per size class: the rest read as it

        def teach(skin: Skin) -> None:
            for size_class, picture in flags.items():
                learn_picture(skin, Tile.FLAG, size_class, picture)

        trial = copy.deepcopy(self.skin)
        teach(trial)
        read = self._read_with(reader, frame, self.unlabelled, trial)
        if read is None or any(read[1].board[cell] != Tile.FLAG for cell in cells):
            return None
        if not keep(read[1]):
            return None
        teach(self.skin)
        return Lesson(read[1], None, taught_skin=True)

    def read_lost(
        self,
        reader: BoardReader,
        frame: Image,
        cells: Sequence[Cell],
        read_before: Mapping[Cell, Tile],
    ) -> Lesson | None:
        """``frame`` read as a lost board with the pictures of ``cells`` as cells the loss
        showed: those of ``read_before`` as the numbers or flags read there before (the skin
        keeps them as a finished game draws them), the others as opened cells of unknown
        number for this read only; None unless it then reads lost."""
        pictures = _pictures(reader, frame, cells)
        redrawn = {  # one per tile and size class: the others must read as it
            (size_class, read_before[cell]): picture
            for cell, (size_class, picture) in zip(cells, pictures, strict=True)
            if cell in read_before
        }
        others = [
            each for cell, each in zip(cells, pictures, strict=True) if cell not in read_before
        ]

        def teach(skin: Skin) -> None:
            for (size_class, tile), picture in redrawn.items():
                skin.finished.setdefault(size_class, {})[tile] = picture

        trial = copy.deepcopy(self.skin) if redrawn else self.skin
        teach(trial)
        read = self._read_with(reader, frame, [*self.unlabelled, *others], trial)
        if read is None or read[1].outcome != GameState.LOST:
            return None
        if any(read[1].board[cell] != tile for cell, tile in read_before.items()):
            return None
        if redrawn:
            teach(self.skin)
        # The pictures taken for this read only already read as opened cells of unknown
        # number; they are no pictures of this board's.
        reading, known = read[1], len(self.unlabelled)
        unknown = {cell: picture for cell, picture in reading.pictures.items() if picture < known}
        return Lesson(replace(reading, pictures=unknown), None, taught_skin=bool(redrawn))

    def label(self, tiles: Mapping[int, Tile]) -> None:
        """Teach the skin the numbers ``tiles`` gives pictures of unknown number (by their
        number); the pictures left are numbered anew in the same order."""
        for picture, tile in tiles.items():
            learn_picture(self.skin, tile, *self.unlabelled[picture])
        self.unlabelled[:] = [p for i, p in enumerate(self.unlabelled) if i not in tiles]

    def learn_won_face(self, face: Image | None) -> bool:
        """Teach the skin ``face`` (of a game just won) as its won face, if it has none."""
        if "won" in self.skin.faces or face is None:
            return False
        self.skin.faces["won"] = face.copy()
        return True

    def _read_with(
        self,
        reader: BoardReader,
        frame: Image,
        unlabelled: list[tuple[int, Image]],
        skin: Skin | None = None,
    ) -> tuple[BoardReader, Reading] | None:
        """A reader (of ``skin``, by default this one's) on ``reader``'s board that also knows
        the ``unlabelled`` pictures, and its read of ``frame``; None if a cell is still
        unreadable (or matches two of those pictures)."""
        trial = BoardReader(
            self.skin if skin is None else skin, reader.geometry, unlabelled=unlabelled
        )
        try:
            return trial, trial.read(frame, self.mines)
        except VisionError:
            return None

    def _is_new(self, image: Image, pictures: list[Image]) -> bool:
        """Whether ``image`` is farther than the skin's threshold from each of ``pictures``."""
        skin = self.skin
        bank = TemplateBank(list(range(len(pictures))), pictures, skin.level_weight, skin.mask)
        return bool(bank.distances(image[None]).min() > skin.threshold)


def _pictures(reader: BoardReader, frame: Image, cells: Sequence[Cell]) -> list[tuple[int, Image]]:
    """The picture of each of ``cells`` in ``frame``, with the size class of the cell."""
    tiles = reader.tile_images(frame)
    classes = reader.geometry.size_classes
    return [(int(classes[cell]), np.array(tiles[cell])) for cell in cells]


def learn_picture(skin: Skin, tile: Tile, size_class: int, picture: Image) -> None:
    """Teach ``skin`` that cells of ``size_class`` show ``tile`` as ``picture``: its template
    where it has none; else that class's variant (the other classes read as before, so class 0's
    picture replaces the template only after the template is kept as the others' variant)."""
    if tile not in skin.templates:
        skin.templates[tile] = picture
    elif size_class == 0:
        for other in range(1, SIZE_CLASSES):
            skin.variants.setdefault(other, {}).setdefault(tile, skin.templates[tile])
        skin.templates[tile] = picture
    else:
        skin.variants.setdefault(size_class, {})[tile] = picture
    if skin.seen:
        skin.seen.setdefault(size_class, set()).add(tile)


def proven_labels(
    boards: Sequence[tuple[Board, Mapping[Cell, int]]],
    known: Mapping[int, set[Tile]],
    classes: Mapping[int, int],
) -> dict[int, Tile]:
    """The numbers ``boards`` (reads of one game by the bot, each with its pictures first seen)
    prove for those pictures (see :func:`calibration.numbers.label_from_play`; the bot flags
    only proven mines). Raises :class:`CalibrationError` on a contradiction."""
    known_values = {c: {int(tile) for tile in tiles} for c, tiles in known.items()}
    return label_from_play(boards, known_values, classes, flags_are_mines=True)


def end_disagreement(final: Board, reads: Sequence[Reading]) -> str | None:
    """How ``final``, the board a game ended on, contradicts the counting rules or a read made
    during the game, if it does: a cell read as a number shows that number at the end (see
    :func:`calibration.meanings.check_counting`; the bot flags only proven mines)."""
    try:
        check_counting(final, "the board at the game's end", flags_are_mines=True)
    except CalibrationError as wrong:
        return str(wrong)
    for number, reading in enumerate(reads, start=1):
        if reading.outcome != GameState.PLAYING:
            continue
        tiles = reading.board.tiles
        differ = np.argwhere((tiles <= Tile.EIGHT) & (tiles != final.tiles))
        if len(differ):
            cell = (int(differ[0][0]), int(differ[0][1]))
            return (
                f"read {number} of the game showed cell {cell} as {Tile(tiles[cell]).name}, "
                f"the board at its end shows {Tile(final.tiles[cell]).name}"
            )
    return None


def relabelled(reading: Reading, labels: Mapping[int, Tile]) -> Reading:
    """``reading`` as a reader reads it once its skin has learned ``labels`` (see
    :meth:`SkinLearner.label`): their cells show their numbers, the pictures left numbered anew
    in the same order."""
    tiles = reading.board.tiles.copy()
    pictures: dict[Cell, int] = {}
    for cell, picture in reading.pictures.items():
        if picture in labels:
            tiles[cell] = labels[picture]
        else:
            pictures[cell] = picture - sum(labelled < picture for labelled in labels)
    board = reading.board
    return replace(
        reading, board=Board(board.rows, board.columns, board.mines, tiles), pictures=pictures
    )


def with_labels(
    board: Board,
    pictures: Mapping[Cell, int] | None = None,
    labels: Mapping[int, Tile] | None = None,
) -> Board:
    """``board`` with each opened cell of unknown number showing its picture's label. A cell
    still unlabelled is logged as hidden: the board format has no character for it."""
    tiles = board.tiles.copy()
    for cell, picture in (pictures or {}).items():
        tiles[cell] = (labels or {}).get(picture, Tile.HIDDEN)
    tiles[tiles == Tile.OPENED] = Tile.HIDDEN
    return Board(board.rows, board.columns, board.mines, tiles)
