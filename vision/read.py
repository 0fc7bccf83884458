"""Reading a located board: every cell against the skin's templates at once, and the face.

The hot path builds a strided (rows, columns, height, width, 3) view of the captured frame, one
tile image per cell (a gathered copy when the cells are not all one size), and compares all of
them with all templates (:mod:`vision.cell_templates`) in a single matrix product
(:class:`vision.match.TemplateBank`). A cell whose pixels are those of the last read keeps that
read's verdict; one that still shows what the last read found is recognised from that template
alone (:meth:`vision.match.TemplateBank.certify`: the same verdict, in a fraction of the time).
No cell is guessed: one that matches nothing, or two templates about equally, stops the read
with its crop saved as a PNG (:mod:`vision.crops`). On a board over a gradient, a cell refused
is first judged once more over the ground the pixels around its tile show (:mod:`vision.ground`):
a sharp edge of the game's background seen through a half-transparent tile. A cell still refused
beside an opened 0 is judged among the opened tiles alone: the game opened it with that 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property, partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from solver import Board, Cell, GameState, Tile
from vision.cell_templates import cell_templates, class_banks, hidden_templates
from vision.crops import default_crops_dir, save_crop
from vision.errors import UnreadableCellError, UnreadableFaceError, VisionError
from vision.geometry import BoardGeometry, Rect, join
from vision.ground import confirmed_over_ground, over_their_ground
from vision.match import TemplateBank, Verdict, nearest_per_label, tile_gather
from vision.opened import OPENED_TILES, Cells, Mask, opened_beside_zeros
from vision.skin import FACE_STATES, Image, Skin


@dataclass(frozen=True)
class Reading:
    """One read of the screen: the board, how well each cell matched, and the face if any."""

    board: Board
    scores: npt.NDArray[np.float32]
    """(rows, columns) distance of each cell to its template (0 is a perfect match)."""
    face: str | None
    """The face's state (one of :data:`vision.skin.FACE_STATES`), or None when there is none to
    read: a skin without faces, or a face the skin never learned (calibration rarely wins, so
    skins often lack "won"); the board then decides the outcome."""
    pictures: dict[Cell, int] = field(default_factory=dict)
    """For each cell read as :attr:`solver.Tile.OPENED`, which of the reader's unlabelled
    pictures it shows."""

    @property
    def outcome(self) -> GameState:
        """Lost when either the face or the board says so; won when the game's face says so.

        Without a face the board decides (every safe cell opened). With one the face has the last
        word on winning, because some games need every mine flagged as well. Without
        one, mines shown while a cell is still closed are a loss too: mines show only once a game
        is over, and the mine hit may be a picture the skin never saw on its size of cell.
        """
        tiles = self.board.tiles
        if self.face == GameState.LOST or self.board.is_lost:
            return GameState.LOST
        if self.face is None and (tiles == Tile.MINE).any() and (tiles == Tile.HIDDEN).any():
            return GameState.LOST
        if self.face == GameState.WON or (self.face is None and self.board.is_won):
            return GameState.WON
        return GameState.PLAYING


class BoardReader:
    """Reads frames of one located board with one skin; build it once, read many frames."""

    def __init__(
        self,
        skin: Skin,
        geometry: BoardGeometry,
        crops_dir: Path | None = None,
        unlabelled: Sequence[tuple[int, Image]] = (),
    ) -> None:
        """``unlabelled`` are pictures of opened cells whose number is not known yet (first
        seen in play), each with the size class of the cells it was met on: a cell of that class
        showing one reads as :attr:`solver.Tile.OPENED`."""
        _check_fits(skin, geometry)
        self.skin = skin
        self.geometry = geometry
        self.crops_dir = crops_dir or default_crops_dir()
        templates = cell_templates(skin, geometry, unlabelled)
        self._first_unlabelled = templates.first_unlabelled
        self._tiles = np.array(templates.labels, dtype=np.uint8)
        self._bank = TemplateBank(templates.labels, templates.images, skin.level_weight, skin.mask)
        self._tile_names = templates.names
        self._even = templates.even
        board = geometry.rect
        self.region = board if geometry.face is None else board.union(geometry.face)
        """The screen region to capture for :meth:`read`: the board and the face."""
        self._classes, self._together = class_banks(skin, geometry, templates, self._bank)
        """Per size class on the board, the templates its cells read (on an uneven board a tile
        drawn apart for wider cells is read against that class's picture only, a picture first
        met in play only where it was met); which two templates some class reads both of."""
        self._positions = (
            None
            if geometry.spacing[0].is_even and geometry.spacing[1].is_even
            else geometry.tile_positions((self.region.left, self.region.top))
        )
        """Where an uneven board's tile images are in a frame (see :meth:`tile_images`)."""
        self._ringed = _ring_shows_ground(skin, self._even)
        """Whether a refused cell may be judged again over the ground its ring shows (see
        :meth:`_over_their_ground`)."""
        self._faces = _face_bank(skin)
        self._lacking = _lacking_note(skin)
        """Said of every unreadable cell while the skin lacks tiles (a short calibration
        may never have seen a 7 or an 8)."""
        self._last: tuple[npt.NDArray[np.uint8], Verdict] | None = None
        """The last read's tile images (flat, one per cell) and its verdict before any cell was
        judged over its ground: a cell showing the same pixels again has the same verdict, and
        the template it was nearest is the first guess for a cell that changed (most show the
        same after a move)."""
        self._hidden = hidden_templates(self._classes, templates.labels, geometry)
        """Per cell, the hidden tile's template its size class reads (-1 if none): the second
        guess, right for every cell of a new game."""
        self.watched = [board] + ([geometry.face] if geometry.face is not None else [])
        """The parts of :attr:`region` that show the game's state (not its timer or counter)."""

    def tile_images(self, frame: Image) -> npt.NDArray[np.uint8]:
        """(rows, columns, height, width, 3): every cell's tile image in ``frame``, a view when
        the cells are even, else a copy gathered from positions worked out once."""
        self._check_frame(frame)
        if self._positions is None:
            return self.geometry.tile_images(frame, (self.region.left, self.region.top))
        return tile_gather(frame, *self._positions)

    def _check_frame(self, frame: Image) -> None:
        if frame.shape[:2] != (self.region.height, self.region.width) or frame.ndim != 3:
            raise VisionError(
                f"frame of shape {frame.shape} is not a capture of the board region {self.region}"
            )

    def read(self, frame: Image, mines: int) -> Reading:
        """The board (and face) in ``frame``, a capture of :attr:`region`.

        Raises :class:`UnreadableCellError` for the first cell that cannot be told for sure, and
        :class:`UnreadableFaceError` when the face is none of the skin's and the skin has every
        face of :data:`vision.skin.FACE_STATES`.
        """
        verdict = self._judge(frame)
        if not verdict.accepted.all():
            verdict = self._over_their_ground(frame, verdict)
        if not verdict.accepted.all():
            verdict = self._opened_beside_zeros(frame, verdict)
        if not verdict.accepted.all():
            tiles = self.tile_images(frame)
            unreadable = tuple(
                (int(row), int(column)) for row, column in np.argwhere(~verdict.accepted)
            )
            cell = unreadable[0]
            path = save_crop(
                self.crops_dir, tiles[cell], f"{self.skin.name}-cell-r{cell[0]}-c{cell[1]}"
            )
            others = len(unreadable) - 1
            raise UnreadableCellError(
                f"skin {self.skin.name!r}: cell (row {cell[0]}, column {cell[1]}) at screen "
                f"{self.geometry.cell_centre(cell)} {self._why(verdict, cell, self._tile_names)}; "
                f"its image is saved to {path}"
                + (
                    f" ({others} more of the {verdict.accepted.size} cells are unreadable)"
                    if others
                    else ""
                )
                + self._lacking,
                cell=cell,
                crop_path=path,
                cells=unreadable,
                of=int(verdict.accepted.size),
            )
        board = Board(self.geometry.rows, self.geometry.columns, mines, self._tiles[verdict.best])
        pictures = {}
        if len(self._tiles) > self._first_unlabelled:  # only once play has met a new picture
            pictures = {
                (int(row), int(column)): int(verdict.best[row, column]) - self._first_unlabelled
                for row, column in np.argwhere(verdict.best >= self._first_unlabelled)
            }
        return Reading(board, verdict.best_distance, self._read_face(frame), pictures)

    @cached_property
    def _nearest(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        """Per template, the nearest other that a size class reads beside it: how near a cell
        must be to the template it last showed to be it for sure."""
        return self._bank.nearest_others(self._together)

    def _judge(self, frame: Image) -> Verdict:
        """Every cell of ``frame`` judged against the templates its size class reads. A cell
        whose pixels are those of the last read keeps its verdict; the others are judged first
        against the template they showed at the last read, then against the hidden tile, then,
        if neither is it for sure, against all of them."""
        tiles = np.ascontiguousarray(self.tile_images(frame)).reshape(-1, *self._bank.shape)
        last = self._last
        if last is None:
            cells = np.arange(len(tiles))
        else:
            cells = np.flatnonzero((tiles != last[0]).reshape(len(tiles), -1).any(axis=1))
        if last is None or len(cells) == len(tiles):
            verdict = self._judge_cells(tiles, cells)
        else:
            verdict = last[1]
            if len(cells):
                judged = self._judge_cells(tiles[cells], cells)
                verdict = Verdict(*(part.copy() for part in _parts(verdict)))
                for mine, theirs in zip(_parts(verdict), _parts(judged), strict=True):
                    mine[cells] = theirs
        self._last = (tiles.copy(), verdict)
        shape = self.geometry.shape
        return Verdict(*(part.reshape(shape) for part in _parts(verdict)))

    def _judge_cells(self, tiles: npt.NDArray[np.uint8], cells: npt.NDArray[np.intp]) -> Verdict:
        """The verdict (flat) on ``tiles``, the images of the flat indices ``cells``: see
        :meth:`_judge`."""
        best, sure, best_distance = self._certified(tiles, cells)
        nearest, gap = self._nearest
        known = np.maximum(best, 0)
        verdict = Verdict(
            best, nearest[known], best_distance, gap[known] - best_distance, sure.copy(), sure
        )
        unsure = np.flatnonzero(~sure)
        if len(unsure):
            patches = tiles if len(unsure) == len(tiles) else tiles[unsure]
            classes = self.geometry.size_classes.reshape(-1)[cells[unsure]]
            judged = self._judge_by_class(patches, classes)
            for mine, theirs in zip(_parts(verdict), _parts(judged), strict=True):
                mine[unsure] = theirs
        return verdict

    def _judge_by_class(
        self,
        patches: npt.NDArray[np.uint8],
        classes: npt.NDArray[np.uint8],
        allowed: Mask | None = None,
    ) -> Verdict:
        """The verdict on ``patches`` (flat; ``classes``: the size class of each one's cell),
        each against the templates its class reads, as indices into the reader's templates.
        ``allowed``: by template, those a patch may show (default: all)."""
        count = len(patches)
        best, second = np.zeros(count, np.intp), np.zeros(count, np.intp)
        best_distance = np.full(count, np.inf, np.float32)
        second_distance = np.full(count, np.inf, np.float32)
        within, unambiguous = np.zeros(count, bool), np.zeros(count, bool)
        for part in self._classes:
            mine = np.flatnonzero(classes == part.size_class)
            if not len(mine):
                continue
            distances = part.bank.distances(patches[mine])
            if allowed is not None:
                distances[:, ~allowed[part.templates[:-1]]] = np.inf
            verdict = part.bank.judge(distances, self.skin.threshold)
            best[mine] = part.templates[verdict.best]
            second[mine] = part.templates[verdict.second]  # a bank of one has no second: the pad
            best_distance[mine] = verdict.best_distance
            second_distance[mine] = verdict.second_distance
            within[mine], unambiguous[mine] = verdict.within_threshold, verdict.unambiguous
        return Verdict(best, second, best_distance, second_distance, within, unambiguous)

    def _opened_beside_zeros(self, frame: Image, verdict: Verdict) -> Verdict:
        """``verdict`` with each refused cell beside a 0 judged again among the pictures of
        opened cells alone (see :mod:`vision.opened`); a cell still refused keeps its first
        verdict, and why."""
        verdict = Verdict(*(part.copy() for part in _parts(verdict)))
        opened = OPENED_TILES[self._tiles]  # by template
        images = self.tile_images(frame)

        def judge(cells: Cells) -> tuple[Mask, Mask]:
            rows, columns = cells.T
            classes = self.geometry.size_classes[rows, columns]
            judged = self._judge_by_class(images[rows, columns], classes, opened)
            sure = judged.accepted
            for mine, theirs in zip(_parts(verdict), _parts(judged), strict=True):
                mine[rows[sure], columns[sure]] = theirs[sure]
            return sure, self._tiles[judged.best] == Tile.ZERO

        zeros = verdict.accepted & (self._tiles[verdict.best] == Tile.ZERO)
        opened_beside_zeros(verdict.accepted, zeros, judge)
        return verdict

    def _certified(
        self, tiles: npt.NDArray[np.uint8], cells: npt.NDArray[np.intp]
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_], npt.NDArray[np.float32]]:
        """Per tile (the images of the flat indices ``cells``), the template it is for sure (its
        last one, else the hidden tile), whether it is, and its distance to it (see
        :meth:`vision.match.TemplateBank.certify`)."""
        best = np.full(len(cells), -1, np.intp) if self._last is None else self._last[1].best[cells]
        sure, distance = self._bank.certify(tiles, self.skin.threshold, best, self._nearest[1])
        hidden = self._hidden[cells]
        again = np.flatnonzero(~sure & (hidden >= 0) & (hidden != best))
        if len(again):
            hidden = hidden[again]
            now, hidden_distance = self._bank.certify(
                tiles[again], self.skin.threshold, hidden, self._nearest[1]
            )
            found = again[now]
            sure[found], best[found], distance[found] = True, hidden[now], hidden_distance[now]
        return best, sure, distance

    def _over_their_ground(self, frame: Image, verdict: Verdict) -> Verdict:
        """``verdict`` with its refused cells judged again over the ground their ring shows
        (:func:`vision.ground.over_their_ground`), on a board over a gradient."""
        if not self._ringed:
            return verdict
        return over_their_ground(
            verdict, partial(self._ringed_picture, frame), self._bank, self.skin.threshold
        )

    def _ringed_picture(self, frame: Image, cell: Cell) -> Image:
        """The picture of ``cell``'s tile in ``frame`` with its one-pixel ring."""
        rect = self.check_rect(cell)
        x, y = rect.left - self.region.left, rect.top - self.region.top
        return frame[y : y + rect.height, x : x + rect.width]

    def check_rect(self, cell: Cell) -> Rect:
        """The screen rectangle :meth:`read_tile` reads ``cell`` from: its tile, and the pixel
        ring around it where refused tiles are judged over their ground."""
        tile = self.geometry.tile_rect(cell)
        if not self._ringed:
            return tile
        return Rect(tile.left - 1, tile.top - 1, tile.width + 2, tile.height + 2)

    def read_tile(self, image: Image, opened: bool = False) -> Tile | None:
        """What one tile image (a capture of a cell's :meth:`check_rect`) shows, or
        None unless it matches one template for sure. Nothing is saved: this checks a cell
        between reads (about a tenth of a millisecond), it does not read the board.
        ``opened``: the cell is known to be opened (the last read showed it opened beside a 0),
        so a refused image is judged again among the opened tiles alone, as :meth:`read`
        judges a cell beside a 0 (see :mod:`vision.opened`)."""
        width, height = self.skin.tile_size
        ringed = image if self._ringed else None  # a capture of check_rect
        if ringed is not None:
            image = ringed[1:-1, 1:-1]
        if image.shape[:2] != (height, width):  # a wide cell of an uneven board
            image = join(image, self.skin.tile_size, self.geometry.tile_split())
        distances = self._bank.distances(image[None])
        if self._even:
            verdict = self._bank.judge(distances, self.skin.threshold)
            if not verdict.accepted[0] and ringed is not None:
                confirmed, _ = confirmed_over_ground(
                    self._bank,
                    self.skin.threshold,
                    ringed[None],
                    verdict.best,
                    verdict.best_distance,
                )
                verdict = replace(verdict, unambiguous=confirmed, within_threshold=confirmed)
            if not verdict.accepted[0] and opened:
                distances[:, ~OPENED_TILES[self._tiles]] = np.inf
                verdict = self._bank.judge(distances, self.skin.threshold)
            return Tile(int(self._tiles[verdict.best[0]])) if verdict.accepted[0] else None
        # A cell of unknown size class: a tile's pictures for each class count as one.
        folded = nearest_per_label(distances, self._tiles, max(Tile) + 1)
        verdict = self._bank.judge(folded, self.skin.threshold)
        if not verdict.accepted[0] and opened:
            folded[:, ~OPENED_TILES] = np.inf
            verdict = self._bank.judge(folded, self.skin.threshold)
        return Tile(int(verdict.best[0])) if verdict.accepted[0] else None

    def face_image(self, frame: Image) -> Image | None:
        """The face button's pixels in ``frame`` (a capture of :attr:`region`), if there is one."""
        face = self.geometry.face
        if face is None:
            return None
        x, y = face.left - self.region.left, face.top - self.region.top
        return frame[y : y + face.height, x : x + face.width]

    def _read_face(self, frame: Image) -> str | None:
        crop = self.face_image(frame)
        if self._faces is None or crop is None:
            return None
        face = self.geometry.face
        assert face is not None
        verdict = self._faces.judge(self._faces.distances(crop[None]), self.skin.threshold)
        if verdict.accepted[0]:
            return self._faces.labels[int(verdict.best[0])]
        unlearned = set(FACE_STATES) - set(self._faces.labels)
        if unlearned and not verdict.within_threshold[0]:
            return None
        path = save_crop(self.crops_dir, crop, f"{self.skin.name}-face")
        raise UnreadableFaceError(
            f"skin {self.skin.name!r}: the face at screen ({face.left}, {face.top}) "
            f"{self._why(verdict, 0, self._faces.labels)}; its image is saved to {path}",
            crop_path=path,
        )

    def _why(self, verdict: Verdict, index: Cell | int, labels: list[str]) -> str:
        """Why the patch at ``index`` was refused, naming the nearest templates."""
        best = labels[int(verdict.best[index])]
        distance = float(verdict.best_distance[index])
        if not verdict.within_threshold[index]:
            return (
                f"matches no template: the nearest, {best}, is at distance {distance:.3f}, over "
                f"the skin's threshold {self.skin.threshold:.3f}"
            )
        second = labels[int(verdict.second[index])]
        return (
            f"is ambiguous: {best} at distance {distance:.3f} and {second} at "
            f"{float(verdict.second_distance[index]):.3f} are too close to choose"
        )


def _parts(verdict: Verdict) -> list[npt.NDArray[Any]]:
    """The arrays of ``verdict`` in the order :class:`Verdict` takes them."""
    return [getattr(verdict, part.name) for part in fields(verdict)]


def _face_bank(skin: Skin) -> TemplateBank[str] | None:
    if not skin.faces:
        return None
    states = sorted(skin.faces)
    try:
        return TemplateBank(states, [skin.faces[state] for state in states])
    except ValueError as error:
        raise VisionError(f"skin {skin.name!r}: its faces differ in size ({error})") from error


def _check_fits(skin: Skin, geometry: BoardGeometry) -> None:
    """Raise :class:`VisionError` unless a reader of ``skin`` can read the board of ``geometry``:
    the skin has tiles, the board was located with it, and it has a face where the skin does."""
    if not skin.templates:
        raise VisionError(f"skin {skin.name!r} has no tile templates")
    if (geometry.pitch, geometry.tile_size, geometry.tile_offset) != (
        skin.pitch,
        skin.tile_size,
        skin.tile_offset,
    ):
        raise VisionError(f"the board geometry was not located with skin {skin.name!r}")
    if skin.faces and geometry.face is None:
        raise VisionError(f"skin {skin.name!r} has faces but the geometry has no face")


def _ring_shows_ground(skin: Skin, even: bool) -> bool:
    """Whether a reader of ``skin`` may judge a refused cell again over the ground its pixel
    ring shows: a board on a gradient (``level_weight`` below 1), evenly spaced (``even``), its
    tiles inside their cells with a pixel to spare on every side."""
    return (
        skin.level_weight < 1
        and even
        and all(
            offset >= 1 and offset + size <= pitch - 1
            for offset, size, pitch in zip(
                skin.tile_offset, skin.tile_size, skin.pitch, strict=True
            )
        )
    )


def _lacking_note(skin: Skin) -> str:
    """What a message about an unreadable cell adds while ``skin`` lacks tiles: that the cell
    may show one of them (empty when the skin has them all)."""
    missing = skin.missing_tiles()
    return (
        f"; the skin has no template for {', '.join(tile.name for tile in missing)}, "
        "which the cell may show (calibrate again to learn it)"
        if missing
        else ""
    )
