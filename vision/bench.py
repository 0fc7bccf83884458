"""How fast vision is: ``python -m vision.bench`` prints median timings.

* read: a full Expert board (16x30) from a captured frame, with synthetic skins at pitches real
  games draw: 16 and 21 px, a board of 24 and 25 px cells whose first ones are a pixel wider (a grid
  stretched to its window), and 40 px cells (a game window opened large): the per-move cost of
  seeing the board. Timed twice: after a move (a read of a frame where 12 cells changed since the
  last read, as in play) and for a board where every cell changed (the first read of a game); plain,
  with a level weight (a gradient), and with a mask (a focus ring's frame left out).
* locate: finding that board on a 1280x1024 screen (done once per game, or after a move).
* capture (needs a display): grabbing an Expert board's region, and the whole screen.
* with ``--skin DIR`` and a display: locate and read the real game on the screen with that skin.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt

from solver import LEVELS
from vision.capture import ScreenGrabber
from vision.geometry import Edges, Rect
from vision.heap import keep_freed_memory
from vision.locate import locate, locate_on_screen
from vision.read import BoardReader
from vision.skin import MAX_SLACK, Image, Skin
from vision.synthetic import draw, make_skin, per_size_numbers

LENIENT_WEIGHT = 0.25
"""A level weight like the one calibration learns for a board drawn over a gradient (see
vision.match)."""


def median_ms(action: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``action`` in milliseconds, after one untimed warm-up call."""
    action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def uneven_edges(pitch: int, shape: tuple[int, int]) -> Edges:
    """Cell edges of an Expert board stretched to its window: a third of the columns and a
    quarter of the rows one pixel wider than the pitch, the first ones."""
    rows, columns = shape
    sizes_x = [pitch + 1] * (columns // 3) + [pitch] * (columns - columns // 3)
    sizes_y = [pitch + 1] * (rows // 4) + [pitch] * (rows - rows // 4)
    return (
        tuple(int(edge) for edge in np.cumsum([0, *sizes_x])),
        tuple(int(edge) for edge in np.cumsum([0, *sizes_y])),
    )


def ring_mask(skin: Skin) -> npt.NDArray[np.bool_]:
    """A mask that leaves out a frame one pixel inside the edges of ``skin``'s tiles, where a
    toolkit draws its focus ring."""
    width, height = skin.tile_size
    mask = np.ones((height, width), dtype=bool)
    mask[1 : height - 1, 1 : width - 1] = False
    mask[2 : height - 2, 2 : width - 2] = True
    return mask


def alternating_ms(
    read: Callable[[Image], object], frames: tuple[Image, Image], repeat: int
) -> float:
    """Median time of ``read`` on the second of ``frames`` just after it read the first."""
    times = []
    for _ in range(repeat + 1):
        read(frames[0])
        start = time.perf_counter()
        read(frames[1])
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:]) * 1000


def bench_synthetic(repeat: int) -> None:
    rows, columns, mines = LEVELS["expert"]
    rng = np.random.default_rng(0)
    for pitch, uneven in ((16, False), (21, False), (24, True), (40, False)):
        skin = make_skin(pitch)
        edges = uneven_edges(pitch, (rows, columns)) if uneven else None
        if uneven:
            skin = replace(skin, slack=(MAX_SLACK, MAX_SLACK), variants=per_size_numbers(skin))
        first = rng.integers(0, 15, size=(rows, columns), dtype=np.uint8)
        moved, other = first.copy(), rng.integers(0, 15, size=(rows, columns), dtype=np.uint8)
        moved[5:8, 10:14] = rng.integers(0, 15, size=(3, 4))
        scenes = [
            draw(skin, tiles, (37, 90), screen_size=(1280, 1024), edges=edges)
            for tiles in (first, moved, other)
        ]
        region = BoardReader(skin, scenes[0].geometry).region
        start, after_move, every_cell = (
            np.ascontiguousarray(
                scene.screen[region.top : region.bottom, region.left : region.right]
            )
            for scene in scenes
        )
        kind = f"pitch {pitch} px" + (" and 1 px wider, numbers per size class" if uneven else "")
        for looks, what in (
            ({}, ""),
            ({"level_weight": LENIENT_WEIGHT}, " with level weight 0.25 (a gradient)"),
            ({"mask": ring_mask(skin)}, " with a mask (a focus ring left out)"),
        ):
            reader = BoardReader(replace(skin, **looks), scenes[0].geometry)
            read = partial(reader.read, mines=mines)
            moved_ms = alternating_ms(read, (start, after_move), repeat)
            new_ms = alternating_ms(read, (start, every_cell), repeat)
            print(
                f"read Expert board, {kind} ({region.width}x{region.height}){what}: "
                f"{moved_ms:.2f} ms after a move, {new_ms:.2f} ms when every cell changed"
            )
        found = median_ms(partial(locate, skin, scenes[0].screen), max(3, repeat // 20))
        print(f"locate on a 1280x1024 screen, {kind}: {found:.1f} ms")


def bench_capture(grabber: ScreenGrabber, repeat: int) -> None:
    rows, columns, _ = LEVELS["expert"]
    for pitch in (16, 21):
        region = Rect(0, 0, columns * pitch + 1, rows * pitch + 1)
        if grabber.screen.contains_rect(region):
            grab = median_ms(partial(grabber.grab, region), repeat)
            print(f"capture {region.width}x{region.height} region: {grab:.2f} ms")
    whole = median_ms(grabber.grab, max(3, repeat // 10))
    print(f"capture whole screen {grabber.screen.width}x{grabber.screen.height}: {whole:.2f} ms")


def bench_live(grabber: ScreenGrabber, skin: Skin, repeat: int) -> None:
    geometry = locate_on_screen(grabber, skin)
    print(f"live {skin.name}: {geometry.rows}x{geometry.columns} board at {geometry.rect}")
    reader = BoardReader(skin, geometry)
    frame = grabber.grab(reader.region)
    again = median_ms(lambda: reader.read(frame, 0), repeat)
    first = median_ms(lambda: BoardReader(skin, geometry).read(frame, 0), repeat)
    grab = median_ms(lambda: grabber.grab(reader.region), repeat)
    found = median_ms(lambda: locate_on_screen(grabber, skin), max(3, repeat // 20))
    print(
        f"live read: {again:.2f} ms read again (nothing changed), {first:.2f} ms by a new reader "
        f"(its first read, building it included); capture of its region: {grab:.2f} ms, "
        f"locate: {found:.1f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.bench", description=__doc__)
    parser.add_argument("--repeat", type=int, default=200, help="timed runs per figure")
    parser.add_argument("--skin", type=Path, help="a skin folder to read the real game with")
    args = parser.parse_args(argv)
    keep_freed_memory()  # as the play loop does
    bench_synthetic(args.repeat)
    if not os.environ.get("DISPLAY"):
        print("capture: skipped (no DISPLAY)")
        return 0
    with ScreenGrabber() as grabber:
        bench_capture(grabber, args.repeat)
        if args.skin is not None:
            bench_live(grabber, Skin.load(args.skin), args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
