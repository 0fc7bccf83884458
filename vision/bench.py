"""How fast vision is: ``python -m vision.bench`` prints median timings.

* read: a full Expert board (16x30) from a captured frame, with synthetic skins at the pitches of
  winemine (16 px) and xdemineur (21 px), and a board of 24 and 25 px cells spaced as gnome-mines
  spaces its cells: the per-move cost of seeing the board.
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

from solver import LEVELS
from vision.capture import ScreenGrabber
from vision.geometry import Edges, Rect
from vision.locate import locate, locate_on_screen
from vision.read import BoardReader
from vision.skin import MAX_SLACK, Skin
from vision.synthetic import draw, make_skin, per_size_numbers

LENIENT_WEIGHT = 0.25
"""A level weight like the one calibration learns for kmines' board (see vision.match)."""


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
    """Cell edges as GTK's gnome-mines spaces an Expert board: a third of the columns and a
    quarter of the rows one pixel wider than the pitch, the first ones."""
    rows, columns = shape
    sizes_x = [pitch + 1] * (columns // 3) + [pitch] * (columns - columns // 3)
    sizes_y = [pitch + 1] * (rows // 4) + [pitch] * (rows - rows // 4)
    return (
        tuple(int(edge) for edge in np.cumsum([0, *sizes_x])),
        tuple(int(edge) for edge in np.cumsum([0, *sizes_y])),
    )


def bench_synthetic(repeat: int) -> None:
    rows, columns, mines = LEVELS["expert"]
    rng = np.random.default_rng(0)
    for pitch, uneven in ((16, False), (21, False), (24, True)):
        skin = make_skin(pitch)
        edges = uneven_edges(pitch, (rows, columns)) if uneven else None
        if uneven:
            skin = replace(skin, slack=(MAX_SLACK, MAX_SLACK), variants=per_size_numbers(skin))
        tiles = rng.integers(0, 15, size=(rows, columns), dtype=np.uint8)
        scene = draw(skin, tiles, (37, 90), screen_size=(1280, 1024), edges=edges)
        reader = BoardReader(skin, scene.geometry)
        region = reader.region
        frame = np.ascontiguousarray(
            scene.screen[region.top : region.bottom, region.left : region.right]
        )
        read = median_ms(partial(reader.read, frame, mines), repeat)
        found = median_ms(partial(locate, skin, scene.screen), max(3, repeat // 20))
        kind = f"pitch {pitch} px" + (" and 1 px wider, numbers per size class" if uneven else "")
        print(f"read Expert board, {kind} ({region.width}x{region.height}): {read:.2f} ms")
        lenient = BoardReader(replace(skin, level_weight=LENIENT_WEIGHT), scene.geometry)
        read = median_ms(partial(lenient.read, frame, mines), repeat)
        print(
            f"  the same with level weight {LENIENT_WEIGHT} (a board on a gradient): {read:.2f} ms"
        )
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
    read = median_ms(lambda: reader.read(frame, 0), repeat)
    grab = median_ms(lambda: grabber.grab(reader.region), repeat)
    found = median_ms(lambda: locate_on_screen(grabber, skin), max(3, repeat // 20))
    print(f"live read: {read:.2f} ms, capture of its region: {grab:.2f} ms, locate: {found:.1f} ms")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.bench", description=__doc__)
    parser.add_argument("--repeat", type=int, default=200, help="timed runs per figure")
    parser.add_argument("--skin", type=Path, help="a skin folder to read the real game with")
    args = parser.parse_args(argv)
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
