"""The templates a board reader compares cells with: which pictures, in what order, for which cells.

A reader compares each cell with every picture of the skin (its templates by tile, then its
size-class variants, then the pictures only a finished game draws on each size class of the
board) and with the pictures of opened cells first met in play, each with the tile it reads as
and the name an error message gives it. On a board whose cells are not all one size, the cells
of each size class read only some of them: a tile drawn apart for wider cells is read against
that class's picture only, a picture met in play only where it was met.

This is worked out once, when :class:`vision.read.BoardReader` is built, from the skin and the
located board alone; reading a frame never changes it, so it lives apart from the reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver import Tile
from vision.geometry import BoardGeometry
from vision.match import TemplateBank
from vision.skin import SIZE_CLASSES, Image, Skin


@dataclass(frozen=True)
class ClassBank:
    """The templates the cells of one size class are read against: indices into the reader's
    templates (then judge's padding index, past the last) and a bank of just those."""

    size_class: int
    templates: npt.NDArray[np.intp]
    bank: TemplateBank[Tile]


@dataclass(frozen=True)
class CellTemplates:
    """Every template a reader compares cells with, in its order: the skin's pictures (see
    :meth:`vision.skin.Skin.pictures`), those of a finished game for each size class on the
    board, then the unlabelled pictures met in play."""

    labels: list[Tile]
    """The tile each template reads as (:attr:`solver.Tile.OPENED` for an unlabelled one)."""
    images: list[Image]
    names: list[str]
    """What a message calls each template."""
    variants: list[tuple[int, Tile]]
    """The skin's size-class variants, each as its class and tile, in the templates' order."""
    classed: list[int]
    """The size class of each template of one class only: a finished game's, then each
    unlabelled one's."""
    first_unlabelled: int
    """The index of the first unlabelled template (their count when there is none)."""
    even: bool
    """Whether every cell reads every template: no variants, and every picture of one class
    belongs to the board's one size class."""


def cell_templates(
    skin: Skin, geometry: BoardGeometry, unlabelled: Sequence[tuple[int, Image]]
) -> CellTemplates:
    """The templates a reader of ``skin`` on the board of ``geometry`` compares cells with;
    ``unlabelled``: pictures of opened cells whose number is not known yet, each with the size
    class of the cells it was met on."""
    tiles = sorted(skin.templates)
    pictures = skin.pictures()
    variants = [
        (size_class, tile)
        for size_class, drawn in sorted(skin.variants.items())
        for tile in sorted(drawn)
    ]
    board_classes = np.unique(geometry.size_classes).tolist()
    finished = [
        (size_class, tile, image)
        for size_class in board_classes
        for tile, image in _finished_looks(skin, size_class)
    ]
    labels = (
        [tile for tile, _ in pictures]
        + [tile for _, tile, _ in finished]
        + [Tile.OPENED] * len(unlabelled)
    )
    images = (
        [picture for _, picture in pictures]
        + [image for _, _, image in finished]
        + [image for _, image in unlabelled]
    )
    names = (
        [tile.name for tile in tiles]
        + [f"{tile.name} of size class {size_class}" for size_class, tile in variants]
        + [
            f"{tile.name} as a finished game draws it on size class {size_class}"
            for size_class, tile, _ in finished
        ]
        + [f"unlabelled picture {index}" for index in range(len(unlabelled))]
    )
    classed = [size_class for size_class, _, _ in finished]
    classed += [size_class for size_class, _ in unlabelled]
    even = (
        not variants
        and len(board_classes) == 1
        and all(size_class in board_classes for size_class in classed)
    )
    first_unlabelled = len(pictures) + len(finished)
    return CellTemplates(labels, images, names, variants, classed, first_unlabelled, even)


def class_banks(
    skin: Skin, geometry: BoardGeometry, templates: CellTemplates, bank: TemplateBank[Tile]
) -> tuple[list[ClassBank], npt.NDArray[np.bool_] | None]:
    """Per size class on the board, the templates its cells read; and, unless every cell reads
    every template (``bank``, of all of them), which two templates some class reads both of."""
    if not templates.even:
        return _by_class(
            skin,
            geometry,
            templates.labels,
            templates.images,
            templates.variants,
            templates.classed,
        )
    every = np.arange(len(templates.labels))
    size_class = int(geometry.size_classes[0, 0])
    return [ClassBank(size_class, np.r_[every, len(templates.labels)], bank)], None


def hidden_templates(
    classes: list[ClassBank], labels: list[Tile], geometry: BoardGeometry
) -> npt.NDArray[np.intp]:
    """Per cell (flat), the hidden tile's template its size class reads, -1 if none."""
    hidden_by_cell = np.full(geometry.rows * geometry.columns, -1, dtype=np.intp)
    for part in classes:
        read = part.templates[:-1].tolist()
        hidden = [index for index in read if labels[index] == Tile.HIDDEN]
        hidden_by_cell[geometry.size_classes.reshape(-1) == part.size_class] = (
            hidden[0] if hidden else -1
        )
    return hidden_by_cell


def _by_class(
    skin: Skin,
    geometry: BoardGeometry,
    labels: list[Tile],
    images: list[Image],
    variants: list[tuple[int, Tile]],
    classed: list[int],
) -> tuple[list[ClassBank], npt.NDArray[np.bool_]]:
    """For :class:`vision.read.BoardReader` on an uneven board: per size class on the board,
    the templates its cells read (the skin's, with the class's variants in place of theirs;
    then the pictures of a finished game and the unlabelled ones met on its cells); and which
    two templates some class reads both of. ``labels`` and ``images``: the skin's templates by
    tile, its variants, then the pictures of one class each; ``classed``: the size class of
    each of those."""
    tiles = len(skin.templates)
    allowed = np.ones((SIZE_CLASSES, len(labels)), dtype=bool)
    for index, (size_class, tile) in enumerate(variants, start=tiles):
        allowed[:, index] = False
        allowed[size_class, index] = True
        allowed[size_class, labels[:tiles].index(tile)] = False
    for index, size_class in enumerate(classed, start=tiles + len(variants)):
        allowed[:, index] = False
        allowed[size_class, index] = True
    present = np.unique(geometry.size_classes).tolist()
    banks = []
    for size_class in present:
        templates = np.flatnonzero(allowed[size_class])
        bank = TemplateBank(
            [labels[i] for i in templates],
            [images[i] for i in templates],
            skin.level_weight,
            skin.mask,
        )
        banks.append(ClassBank(size_class, np.r_[templates, len(labels)], bank))
    read = allowed[present].astype(np.uint8)
    return banks, (read.T @ read) > 0


def _finished_looks(skin: Skin, size_class: int) -> list[tuple[Tile, Image]]:
    """The pictures only a finished game draws (see :attr:`vision.skin.Skin.finished`) that
    cells of ``size_class`` read, each with its tile: the class's own, and for a tile it never
    showed so, every other class's (a loss may leave no cell of a class in that state)."""
    looks = []
    for tile in sorted({tile for drawn in skin.finished.values() for tile in drawn}):
        own = skin.finished.get(size_class, {}).get(tile)
        looks += (
            [(tile, own)]
            if own is not None
            else [
                (tile, drawn[tile]) for _, drawn in sorted(skin.finished.items()) if tile in drawn
            ]
        )
    return looks
