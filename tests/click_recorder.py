"""A full-screen X window that logs every button and key press it receives, to catch strays.

    python tests/click_recorder.py FILE

Maps a window over the whole screen of ``DISPLAY``, prints ``ready`` once it is mapped, and
appends one line per press to FILE: ``time x y button`` (a key press: ``time x y key:CODE``).
With no window manager a window mapped later lies above it, so a game started afterwards covers
it: whatever press reaches this window missed the game. It runs until killed.
"""

from __future__ import annotations

import sys
import time

from Xlib import X, display

BACKGROUND = 0xFF00FF
"""Magenta: a colour no Minesweeper tile shows, painted by the server wherever a window above
it closes or moves away."""


def record(path: str) -> None:
    connection = display.Display()
    screen = connection.screen()
    window = screen.root.create_window(
        0,
        0,
        screen.width_in_pixels,
        screen.height_in_pixels,
        0,
        screen.root_depth,
        X.InputOutput,
        X.CopyFromParent,
        background_pixel=BACKGROUND,
        override_redirect=True,
        event_mask=X.ButtonPressMask | X.KeyPressMask,
    )
    window.map()
    connection.sync()
    print("ready", flush=True)
    with open(path, "a", encoding="utf-8") as log:
        while True:
            event = connection.next_event()
            if event.type == X.ButtonPress:
                what = str(event.detail)
            elif event.type == X.KeyPress:
                what = f"key:{event.detail}"
            else:
                continue
            log.write(f"{time.time():.6f} {event.root_x} {event.root_y} {what}\n")
            log.flush()


if __name__ == "__main__":
    record(sys.argv[1])
