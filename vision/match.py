"""The one distance vision uses to compare screen pixels with a skin's images, vectorised.

The distance between two equal-sized BGR images is the root-mean-square difference of their
pixel values divided by 255: 0 for identical images, 1 for black against white. A skin's
``threshold`` is the largest distance at which a cell still counts as showing a template.

A game that draws its opened cells half-transparent over a gradient shows one tile
lighter or darker from cell to cell. A bank made with a ``level_weight`` below 1 counts such an
offset at that weight: the patch may be offset from the template by one level per channel, over
the whole picture or over the template's flat *background* (not a digit drawn opaque on it, but
partly its antialiased edge), whichever fits better, and the offset counts ``level_weight``
times its size while everything else counts in full. Weight 1 is the plain
distance; a flat hidden tile and a flat opened one that differ only in level are still
``level_weight`` times that difference apart.

A bank made with a ``mask`` compares only the pixels it keeps: a toolkit draws a focus ring on
the button clicked last, so the cell clicked last shows its tile with a ring that other cells of
that tile lack. The distance is then over the pixels kept, as if the pictures were cut to them.

A match is accepted only when it is also clearly better than the runner-up: the best distance
must be at most :data:`AMBIGUITY_RATIO` times the second best, so a cell half-way between two
templates (a half-drawn frame, a skin whose tiles look alike) is refused instead of guessed.

Comparing every patch with every template costs a product over all their pixels, which grows
with the cell's area (6 ms for an Expert board of 40-px cells). Between two moves most cells show
what they showed before, so :meth:`TemplateBank.certify` first measures each patch against the
one template it showed last: one that is near it and far from every other template is that
template for sure, by the triangle inequality; only the others need comparing with every
template. The verdict is the same either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Generic, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from vision.skin import Image

Label = TypeVar("Label")
Floats = npt.NDArray[np.float32]

AMBIGUITY_RATIO = 0.5
"""Accept a best match only if its distance is at most this fraction of the runner-up's."""

BACKGROUND_NEAR = 3
"""Levels (in the channel that differs most) within which a template's background is flat: a
ground a gradient shows through fades by a few levels across one cell."""
BACKGROUND_LEAST = 0.2
"""The least share of a template's pixels its flat background covers: the digits, mines and
crossed flags of a game drawn over a gradient stand on at least a quarter of flat ground, its
raised tiles' shading has no flat patch above an eighth."""
BACKGROUND_RANGE = 60
"""Levels from the background colour at which a pixel beside the background counts as opaque."""
BACKGROUND_CANDIDATES = 64
"""Colours of a template tried as its background colour (evenly spaced pixels)."""

MID_LEVEL = 128.0
"""Subtracted from every pixel value before the products: a distance is a small difference of
large float32 sums, and a flat tile of level 180 was 0.001 from itself uncentred."""

SINGLE_THREAD_PRODUCT = 262_144
"""Largest rows x columns x depth of one matrix product (OpenBLAS's threshold for threading).

OpenBLAS's worker threads spin-wait, and on a busy 2-core machine one threaded product of an
Expert board took 16 ms instead of 0.6 ms; products in blocks this small stay on one thread."""


@dataclass(frozen=True)
class Verdict:
    """Per patch: the best template's index, its distance, the runner-up's, and acceptance.

    For a patch certified as its guess (:meth:`TemplateBank.certify`), the runner-up is the
    template nearest the guess and its distance a lower bound (enough to show the pick is safe)."""

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

    def __init__(
        self,
        labels: Sequence[Label],
        images: Sequence[Image],
        level_weight: float = 1.0,
        mask: npt.NDArray[np.bool_] | None = None,
    ) -> None:
        if not images:
            raise ValueError("a template bank needs at least one template")
        if not 0 < level_weight <= 1:
            raise ValueError(f"level weight {level_weight} is not above 0 and at most 1")
        shape = images[0].shape
        for label, image in zip(labels, images, strict=True):
            if image.shape != shape:
                raise ValueError(f"template {label} has shape {image.shape}, the first has {shape}")
        if mask is not None and (mask.shape != shape[:2] or not mask.any()):
            raise ValueError(
                f"a mask of shape {mask.shape} for templates of {shape} compares nothing"
            )
        if mask is not None:  # a pixel left out is the middle level in templates and patches
            images = [np.where(mask[..., None], image, np.uint8(MID_LEVEL)) for image in images]
        self.labels = list(labels)
        self.shape: tuple[int, ...] = shape
        self.mask = mask
        self._matrix = np.stack([image.reshape(-1) for image in images]).astype(np.float32)
        self._matrix -= MID_LEVEL
        self._squared_norms = np.einsum("ij,ij->i", self._matrix, self._matrix)
        self._size = self._matrix.shape[1]
        channels = shape[-1]
        kept = np.ones(self._size // channels, dtype=bool) if mask is None else mask.reshape(-1)
        self._kept_pixels = kept.astype(np.float32)
        self._compared = int(kept.sum()) * channels
        """Values of a picture compared: the size less the channels of each pixel left out."""
        self.level_weight = level_weight
        self._lenient = level_weight < 1
        self._transposed = np.ascontiguousarray(self._matrix.T)
        self._pictures = np.stack([image.reshape(-1) for image in images])
        self._keep_bytes = None if mask is None else np.repeat(kept, channels).astype(np.uint8)
        """Per value of a patch as :meth:`certify` lays it out, 1 if compared, else 0."""
        by_values = np.tile if self._lenient else np.repeat  # the layout :meth:`distances` reads
        self._keep: Floats | None = (
            None if mask is None else by_values(kept, channels).astype(np.float32)
        )
        """Per value of a patch as :meth:`distances` lays it out, 1 if compared, else 0."""
        if self._lenient:
            # Lenient distances read patches channel by channel (all blue values, then green,
            # then red): one layout serves both products, with no second copy of the patches.
            by_channel = self._matrix.reshape(len(images), -1, channels).transpose(0, 2, 1)
            self._transposed = np.ascontiguousarray(by_channel.reshape(len(images), -1).T)
            self._averaging, self._background_means, counts = _backgrounds(
                self._matrix, shape, kept
            )
            self._background_counts = counts.astype(np.float32)
            self._shares = self._averaging[:, :-1].T * self._background_counts[:, None]
            self._means = by_channel.sum(axis=2).T / kept.sum()

    def distances(self, patches: npt.NDArray[np.uint8]) -> Floats:
        """Distances of ``patches`` (any leading shape, then the template shape) to every template.

        Returns an array of the leading shape plus one axis over the templates.
        """
        leading = patches.shape[: patches.ndim - len(self.shape)]
        patch_shape = patches.shape[len(leading) :]
        if patch_shape != self.shape:
            raise ValueError(f"patches of shape {patch_shape} against templates of {self.shape}")
        channels = self.shape[-1]
        pixels = self._size // channels
        source: npt.NDArray[np.uint8] = (
            patches.reshape(-1, pixels, channels).transpose(0, 2, 1)
            if self._lenient
            else patches.reshape(-1, self._size)
        )
        centred = np.empty(source.shape, dtype=np.float32)  # in the one pass that converts
        np.subtract(source, np.float32(MID_LEVEL), out=centred, dtype=np.float32)
        flat = centred.reshape(-1, self._size)
        if self._keep is not None:
            flat *= self._keep
        squared = _product(flat, self._transposed)
        squared *= -2.0
        squared += np.einsum("ij,ij->i", flat, flat)[:, None]
        squared += self._squared_norms[None, :]
        if self._lenient:
            # The squared sum over pixels less what the best offset explains (pixel count x
            # offset^2 per channel), of which level_weight^2 is counted back. The offset is
            # either the whole picture's or the template's background's, whichever explains more.
            means = _product(flat.reshape(-1, pixels), self._averaging)
            means = means.reshape(len(flat), channels, -1)
            offsets = means[:, :, :-1] - self._background_means
            explained = self._background_counts * np.einsum("ict,ict->it", offsets, offsets)
            whole = means[:, :, -1:] - self._means
            compared = self._compared // channels
            np.maximum(explained, compared * np.einsum("ict,ict->it", whole, whole), out=explained)
            squared -= (1 - self.level_weight**2) * explained
        np.maximum(squared, 0.0, out=squared)
        squared /= self._compared * 255.0**2
        return np.sqrt(squared, out=squared).reshape(*leading, len(self.labels))

    @cached_property
    def separations(self) -> Floats:
        """(templates, templates): the exact distance between each two templates, infinite from
        a template to itself."""
        count = len(self._pictures)
        apart = np.full((count, count), np.inf, dtype=np.float32)
        for first in range(count):
            for second in range(first + 1, count):
                squared = cv2.norm(self._pictures[first], self._pictures[second], cv2.NORM_L2SQR)
                scale = self._compared * 255.0**2
                apart[first, second] = apart[second, first] = np.sqrt(squared / scale)
        return apart

    def nearest_others(
        self, together: npt.NDArray[np.bool_] | None = None
    ) -> tuple[npt.NDArray[np.intp], Floats]:
        """Per template, the index of the nearest other one and its distance, among those that
        ``together`` (templates x templates; default all) pairs it with; with none, the index one
        past the last (judge's padding) and infinity."""
        apart = self.separations
        if together is not None:
            apart = np.where(together, apart, np.inf)
        nearest = np.argmin(apart, axis=1)
        gap = apart[np.arange(len(apart)), nearest]
        return np.where(np.isfinite(gap), nearest, len(apart)).astype(np.intp), gap

    def certify(
        self,
        patches: npt.NDArray[np.uint8],
        threshold: float,
        guesses: npt.NDArray[np.intp],
        gaps: Floats,
    ) -> tuple[npt.NDArray[np.bool_], Floats]:
        """Which ``patches`` (any leading shape, then the template shape) are for sure the
        template ``guesses`` names (one index per patch, -1 for none), and the distance of each
        to its guess (one flat array each).

        A patch at distance ``d`` from its guess, within the threshold and at most
        :data:`AMBIGUITY_RATIO` / (1 + :data:`AMBIGUITY_RATIO`) of the distance from the guess to
        its nearest other template (``gaps``, per template: see :meth:`nearest_others`), is at
        least ``d`` / :data:`AMBIGUITY_RATIO` from every other template (triangle inequality):
        the guess is what :meth:`judge` of all the distances accepts, at that distance. A
        lenient bank's distance (see the module doc) is no metric: it certifies nothing."""
        guessed = np.asarray(guesses, dtype=np.intp).reshape(-1)
        if patches.shape[patches.ndim - len(self.shape) :] != self.shape:
            raise ValueError(f"patches of shape {patches.shape} against templates of {self.shape}")
        if self._lenient or guessed.max(initial=-1) < 0:
            return np.zeros(len(guessed), dtype=bool), np.full(len(guessed), np.inf, np.float32)
        flat = np.ascontiguousarray(patches).reshape(-1, self._size)
        some = np.maximum(guessed, 0)  # a patch without a guess is measured against the first
        scale = self._compared * 255.0**2
        sure_within = np.minimum(gaps[some] * (AMBIGUITY_RATIO / (1 + AMBIGUITY_RATIO)), threshold)
        away = cv2.absdiff(flat, self._pictures[some])
        if self._keep_bytes is not None:
            np.multiply(away, self._keep_bytes, out=away)
        summed = cv2.reduce(away, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel().astype(np.float64)
        # The squared sum is at least summed^2 / size: a patch that changed is told at once.
        hopeful = (guessed >= 0) & (
            summed**2 <= sure_within.astype(np.float64) ** 2 * scale * self._compared
        )
        squared = np.where(hopeful, 0.0, np.inf)
        for row in np.flatnonzero(hopeful & (summed > 0)).tolist():
            squared[row] = cv2.norm(away[row], cv2.NORM_L2SQR)
        distance = np.sqrt(squared / scale).astype(np.float32)
        return distance <= sure_within, distance

    def distances_over_ground(
        self, patches: npt.NDArray[np.uint8], grounds: npt.NDArray[np.float64]
    ) -> Floats:
        """Like :meth:`distances` for a few ``patches`` (n, then the template shape), where
        each may also differ from a template by ``level_weight`` times a multiple of its own
        ``grounds`` picture (same shape): how the ground under that cell varies inside it (a
        sharp edge of the gradient a half-transparent tile shows, see :mod:`vision.ground`).
        Per channel, the offset is then a level plus a multiple of the ground, over the
        template's background or over the whole picture, whichever explains more."""
        if not self._lenient:
            return self.distances(patches)
        channels = self.shape[-1]
        pixels = self._size // channels
        templates = self._matrix.reshape(len(self.labels), pixels, channels).transpose(0, 2, 1)
        result = np.empty((len(patches), len(self.labels)), dtype=np.float32)
        for index, (patch, ground) in enumerate(zip(patches, grounds, strict=True)):
            by_channel = patch.reshape(pixels, channels).T.astype(np.float64) - MID_LEVEL
            by_channel *= self._kept_pixels
            differences = by_channel[None] - templates  # (templates, channels, pixels)
            shape = ground.reshape(pixels, channels).T
            for template, difference in enumerate(differences):
                explained = max(
                    _explained(difference, share, shape)
                    for share in (self._shares[template], self._kept_pixels.astype(np.float64))
                )
                squared = float((difference**2).sum()) - (1 - self.level_weight**2) * explained
                scale = self._compared * 255.0**2
                result[index, template] = np.sqrt(max(squared, 0.0) / scale)
        return result

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


def _product(left: Floats, right: Floats) -> Floats:
    """``left @ right`` in blocks small enough to stay on one thread (see
    :data:`SINGLE_THREAD_PRODUCT`)."""
    result = np.empty((left.shape[0], right.shape[1]), dtype=np.float32)
    block = max(1, SINGLE_THREAD_PRODUCT // (right.shape[0] * right.shape[1]))
    for start in range(0, len(left), block):
        np.matmul(left[start : start + block], right, out=result[start : start + block])
    return result


def _backgrounds(
    matrix: Floats, shape: tuple[int, ...], kept: npt.NDArray[np.bool_]
) -> tuple[Floats, Floats, npt.NDArray[np.float64]]:
    """Per template (a row of ``matrix``, pictures of ``shape`` of which the ``kept`` pixels are
    compared): the (pixels, templates + 1) matrix that gives the best offset of one channel of
    a patch over each template's background (and, last, over the whole picture compared), the
    same of the template itself (channels, templates), and what a unit offset explains (the sum
    of the squared shares).

    A template's background is the flat colour most of its pixels are within
    :data:`BACKGROUND_NEAR` levels of, if at least :data:`BACKGROUND_LEAST` of them are (a
    raised, shaded tile has none: it moves as a whole). Those pixels have a share of 1 in the
    offset; their neighbours, a digit's antialiased edge, move partly with the background under
    them: a share falling to 0 at :data:`BACKGROUND_RANGE` levels from its colour."""
    height, width, channels = shape
    templates = len(matrix)
    pictures = matrix.reshape(templates, height * width, channels)
    shares = np.ones((templates, height * width)) * kept
    for index, picture in enumerate(pictures):
        away = np.full(height * width, np.inf, dtype=np.float32)
        away[kept] = flat_background(picture[kept])
        core = (away <= BACKGROUND_NEAR).reshape(height, width)
        if core.sum() < BACKGROUND_LEAST * kept.sum():
            continue
        padded = np.pad(core, 1)
        ring = np.zeros_like(core)
        for dy in range(3):
            for dx in range(3):
                ring |= padded[dy : dy + height, dx : dx + width]
        partial = np.clip((BACKGROUND_RANGE - away) / (BACKGROUND_RANGE - BACKGROUND_NEAR), 0, 1)
        shares[index] = np.where(core.reshape(-1), 1.0, np.where(ring.reshape(-1), partial, 0.0))
    weights = np.einsum("tp,tp->t", shares, shares)
    whole = kept[None].astype(np.float64)
    averaging = np.concatenate([shares / weights[:, None], whole / whole.sum()]).T
    averaging = np.ascontiguousarray(averaging, dtype=np.float32)
    means = np.einsum("tpc,tp->ct", pictures, shares) / weights
    return averaging, means.astype(np.float32), weights


def _explained(
    difference: npt.NDArray[np.float64],
    share: npt.NDArray[np.float64],
    ground: npt.NDArray[np.float64],
) -> float:
    """The squared length of ``difference`` (channels, pixels) that a level and a multiple of
    ``ground`` (channels, pixels), per channel, weighted per pixel by ``share``, account for."""
    explained = 0.0
    for channel, shape in zip(difference, ground, strict=True):
        basis, triangle = np.linalg.qr(np.stack([share, share * shape], axis=1))
        kept = np.abs(np.diag(triangle)) > 1e-6 * max(1.0, float(np.abs(triangle).max()))
        coordinates = basis[:, kept].T @ channel
        explained += float(coordinates @ coordinates)
    return explained


def flat_background(picture: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Per pixel of ``picture`` (pixels, channels), its levels (in the channel that differs
    most) from the flat colour most pixels are within :data:`BACKGROUND_NEAR` levels of."""
    candidates = picture[:: max(1, len(picture) // BACKGROUND_CANDIDATES)]
    away = np.abs(picture[None, :, :] - candidates[:, None, :]).max(axis=2)
    best = int(np.argmax((away <= BACKGROUND_NEAR).sum(axis=1)))
    return np.asarray(away[best], dtype=np.float32)


def nearest_per_label(
    distances: Floats, labels: Sequence[int] | npt.NDArray[np.uint8], count: int
) -> Floats:
    """(..., ``count``): for each label below ``count``, the least of ``distances`` (..., one
    per template) over the templates that carry it (``labels``, one per template; infinite for
    a label none carries). Several pictures of one tile (drawn apart for wider cells) are then
    one choice for :meth:`TemplateBank.judge`, never ambiguous with each other."""
    folded = np.full((*distances.shape[:-1], count), np.inf, dtype=np.float32)
    for column, label in enumerate(labels):
        np.minimum(folded[..., label], distances[..., column], out=folded[..., label])
    return folded


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
    taken = _take_runs(_take_runs(image, ys.ravel()), xs.ravel(), axis=1)
    return taken.reshape(rows, height, columns, width, image.shape[2]).swapaxes(1, 2)


def _take_runs(image: Image, indices: npt.NDArray[np.intp], axis: int = 0) -> Image:
    """``image.take(indices, axis)``, copied run of consecutive indices by run: a board's cells
    are a few long runs, and slices copy them some fifteen times faster than ``take`` along the
    pixels of a row."""
    breaks = np.flatnonzero(np.diff(indices) != 1) + 1
    starts, ends = np.r_[0, breaks], np.r_[breaks, len(indices)]
    shape = list(image.shape)
    shape[axis] = len(indices)
    taken = np.empty(shape, dtype=image.dtype)
    into, out_of = [slice(None)] * image.ndim, [slice(None)] * image.ndim
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        into[axis] = slice(start, end)
        first = int(indices[start])
        out_of[axis] = slice(first, first + end - start)
        taken[tuple(into)] = image[tuple(out_of)]
    return taken


def picture_distance(template: Image, picture: Image) -> float:
    """The distance from ``picture`` to ``template`` (one of the same size), as a
    :class:`TemplateBank` of that template alone measures it."""
    return float(TemplateBank(["template"], [template]).distances(picture[None])[0, 0])


def flatness(image: Image, mask: npt.NDArray[np.bool_] | None = None) -> float:
    """The distance from ``image`` to a flat patch of its own mean colour, over the pixels
    ``mask`` keeps (default all).

    A template no farther than the threshold from flat matches any plain area of that colour
    (window backgrounds, a black desktop), so it cannot show where a board is.
    """
    pixels = image.reshape(-1, image.shape[-1]) if mask is None else image[mask]
    mean = pixels.mean(axis=0)
    return float(np.sqrt(np.mean((pixels.astype(np.float32) - mean) ** 2)) / 255.0)
