"""The one distance vision uses to compare screen pixels with a skin's images, vectorised.

The distance between two equal-sized BGR images is the root-mean-square difference of their
pixel values divided by 255: 0 for identical images, 1 for black against white. A skin's
``threshold`` is the largest distance at which a cell still counts as showing a template.

A match is accepted only when it is also clearly better than the runner-up: the best distance
must be at most :data:`AMBIGUITY_RATIO` times the second best, so a cell half-way between two
templates (a half-drawn frame, a skin whose tiles look alike) is refused instead of guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from vision.skin import Image

Label = TypeVar("Label")
Floats = npt.NDArray[np.float32]

AMBIGUITY_RATIO = 0.5
"""Accept a best match only if its distance is at most this fraction of the runner-up's."""

SINGLE_THREAD_PRODUCT = 262_144
"""Largest rows x columns x depth of one matrix product (OpenBLAS's threshold for threading).

OpenBLAS's worker threads spin-wait, and on a busy 2-core machine one threaded product of an
Expert board took 16 ms instead of 0.6 ms; products in blocks this small stay on one thread."""


@dataclass(frozen=True)
class Verdict:
    """Per patch: the best template's index, its distance, the runner-up's, and acceptance."""

    best: npt.NDArray[np.intp]
    second: npt.NDArray[np.intp]
    best_distance: Floats
    second_distance: Floats
    within_threshold: npt.NDArray[np.bool_]
    unambiguous: npt.NDArray[np.bool_]

    @property
    def accepted(self) -> npt.NDArray[np.bool_]:
        return self.within_threshold & self.unambiguous


class TemplateBank(Generic[Label]):
    """Equal-sized templates stacked as one matrix, compared with many patches in one product."""

    def __init__(self, labels: Sequence[Label], images: Sequence[Image]) -> None:
        if not images:
            raise ValueError("a template bank needs at least one template")
        shape = images[0].shape
        for label, image in zip(labels, images, strict=True):
            if image.shape != shape:
                raise ValueError(f"template {label} has shape {image.shape}, the first has {shape}")
        self.labels = list(labels)
        self.shape: tuple[int, ...] = shape
        self._matrix = np.stack([image.reshape(-1) for image in images]).astype(np.float32)
        self._transposed = np.ascontiguousarray(self._matrix.T)
        self._squared_norms = np.einsum("ij,ij->i", self._matrix, self._matrix)
        self._size = self._matrix.shape[1]

    def distances(self, patches: npt.NDArray[np.uint8]) -> Floats:
        """Distances of ``patches`` (any leading shape, then the template shape) to every template.

        Returns an array of the leading shape plus one axis over the templates.
        """
        leading = patches.shape[: patches.ndim - len(self.shape)]
        patch_shape = patches.shape[len(leading) :]
        if patch_shape != self.shape:
            raise ValueError(f"patches of shape {patch_shape} against templates of {self.shape}")
        flat = patches.astype(np.float32, order="C").reshape(-1, self._size)
        squared = np.empty((len(flat), len(self.labels)), dtype=np.float32)
        block = max(1, SINGLE_THREAD_PRODUCT // (self._size * len(self.labels)))
        for start in range(0, len(flat), block):
            np.matmul(
                flat[start : start + block], self._transposed, out=squared[start : start + block]
            )
        squared *= -2.0
        squared += np.einsum("ij,ij->i", flat, flat)[:, None]
        squared += self._squared_norms[None, :]
        np.maximum(squared, 0.0, out=squared)
        squared /= self._size * 255.0**2
        return np.sqrt(squared, out=squared).reshape(*leading, len(self.labels))

    def judge(self, distances: Floats, threshold: float) -> Verdict:
        """Pick the best template per patch and say whether the pick is safe (see module doc)."""
        padded = np.concatenate([distances, np.full_like(distances[..., :1], np.inf)], axis=-1)
        order = np.argsort(padded, axis=-1)[..., :2]
        nearest = np.take_along_axis(padded, order, axis=-1)
        best_distance, second_distance = nearest[..., 0], nearest[..., 1]
        return Verdict(
            best=order[..., 0],
            second=order[..., 1],
            best_distance=best_distance,
            second_distance=second_distance,
            within_threshold=best_distance <= threshold,
            unambiguous=best_distance <= AMBIGUITY_RATIO * second_distance,
        )


def tile_lattice(
    image: Image,
    start: tuple[int, int],
    pitch: tuple[int, int],
    tile_size: tuple[int, int],
    shape: tuple[int, int],
) -> npt.NDArray[np.uint8]:
    """A read-only (rows, columns, height, width, channels) view of ``image``, no copy.

    Tile (row, column) is the ``tile_size`` (width, height) crop at ``start`` (x, y) plus
    ``column * pitch[0]``, ``row * pitch[1]``. Raises ValueError, naming the lattice, unless
    every tile lies inside ``image``: a strided view past its end would read foreign memory.
    """
    (x, y), (pitch_x, pitch_y), (width, height), (rows, columns) = start, pitch, tile_size, shape
    if (
        x < 0
        or y < 0
        or x + (columns - 1) * pitch_x + width > image.shape[1]
        or y + (rows - 1) * pitch_y + height > image.shape[0]
    ):
        raise ValueError(
            f"a {rows}x{columns} lattice of {width}x{height} px tiles every {pitch_x}x{pitch_y} px "
            f"from ({x}, {y}) does not fit in a {image.shape[1]}x{image.shape[0]} image"
        )
    row_stride, column_stride, channel_stride = image.strides
    return np.lib.stride_tricks.as_strided(
        image[y:, x:],
        shape=(rows, columns, height, width, image.shape[2]),
        strides=(
            pitch_y * row_stride,
            pitch_x * column_stride,
            row_stride,
            column_stride,
            channel_stride,
        ),
        writeable=False,
    )


def tile_gather(
    image: Image, xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp]
) -> npt.NDArray[np.uint8]:
    """A (rows, columns, height, width, channels) copy of ``image``: tile (row, column) is made
    of the pixels at x ``xs[column]`` and y ``ys[row]`` (``xs`` is (columns, width), ``ys``
    (rows, height)). The twin of :func:`tile_lattice` for tiles that are not evenly spaced.
    Raises ValueError, naming the extent, unless every pixel lies inside ``image``."""
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= image.shape[1] or ys.max() >= image.shape[0]:
        raise ValueError(
            f"tiles from x {xs.min()} to {xs.max()} and y {ys.min()} to {ys.max()} do not fit "
            f"in a {image.shape[1]}x{image.shape[0]} image"
        )
    (columns, width), (rows, height) = xs.shape, ys.shape
    taken = image.take(ys.ravel(), axis=0).take(xs.ravel(), axis=1)
    return taken.reshape(rows, height, columns, width, image.shape[2]).swapaxes(1, 2)


def flatness(image: Image) -> float:
    """The distance from ``image`` to a flat patch of its own mean colour.

    A template no farther than the threshold from flat matches any plain area of that colour
    (window backgrounds, a black desktop), so it cannot show where a board is.
    """
    mean = image.reshape(-1, image.shape[-1]).mean(axis=0)
    return float(np.sqrt(np.mean((image.astype(np.float32) - mean) ** 2)) / 255.0)
