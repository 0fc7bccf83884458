"""The game's dialogs on Windows (controller/desktop/win32.py), against a stand-in desktop with
user32's behaviour: windows of processes, owners, visibility, and WM_CLOSE that a dialog takes
after a while. Under Wine the same code runs against user32 itself (tests/windows)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest

from controller.desktop.win32 import Win32GameWindows, close_dialog, dialogs
from controller.errors import DialogError
from vision.geometry import Rect

GAME, OTHER = 100, 200


@dataclass
class Window:
    process: int
    frame: Rect
    title: str = ""
    owner: int = 0
    shown: bool = True
    closes_after: float | None = 0.0
    """Seconds from WM_CLOSE to its closing; None: it ignores WM_CLOSE."""
    then_opens: int | None = None
    """The window shown after this one closes (a name prompt's best-times table)..."""
    opens_after: float = 0.0
    """... this many seconds after (Wine's winemine: about 2)."""
    closing_at: float | None = None
    opening_at: float | None = None
    laid_out: Rect | None = None
    """The frame it takes once laid out (a new top-level window is small until then) ..."""
    laid_out_after: float = 0.0
    """... this many seconds after it is first listed."""
    listed_at: float | None = None


@dataclass
class StandInDesktop:
    """user32 as the logic sees it, for windows made by the test."""

    windows: dict[int, Window] = field(default_factory=dict)
    posted: list[int] = field(default_factory=list)

    def _tick(self) -> None:
        now = time.monotonic()
        for window in list(self.windows.values()):
            if window.closing_at is not None and now >= window.closing_at:
                window.shown, window.closing_at = False, None
                if window.then_opens is not None:
                    self.windows[window.then_opens].opening_at = now + window.opens_after
            if window.opening_at is not None and now >= window.opening_at:
                window.shown, window.opening_at = True, None
            if window.laid_out is not None:
                window.listed_at = now if window.listed_at is None else window.listed_at
                if now >= window.listed_at + window.laid_out_after:
                    window.frame, window.laid_out = window.laid_out, None

    def top_level(self) -> list[int]:
        self._tick()
        return list(self.windows)

    def process_of(self, window: int) -> int:
        return self.windows[window].process

    def owner_of(self, window: int) -> int:
        return self.windows[window].owner

    def is_shown(self, window: int) -> bool:
        self._tick()
        return window in self.windows and self.windows[window].shown

    def title(self, window: int) -> str:
        return self.windows[window].title

    def frame(self, window: int) -> Rect:
        return self.windows[window].frame

    def screen(self) -> Rect:
        return Rect(0, 0, 1600, 1200)

    def window_at(self, x: int, y: int) -> int:
        return next((h for h, w in self.windows.items() if w.shown and w.frame.contains(x, y)), 0)

    def post_close(self, window: int) -> None:
        self.posted.append(window)
        delay = self.windows[window].closes_after
        if delay is not None:
            self.windows[window].closing_at = time.monotonic() + delay


MAIN = 1
BOARD = Rect(10, 60, 150, 150)


def desktop_with(**extra: Window) -> StandInDesktop:
    """The game's main window (handle 1) and the windows given, by handle (``w2``, ...)."""
    desktop = StandInDesktop({MAIN: Window(GAME, Rect(0, 0, 170, 220), "Minesweeper")})
    desktop.windows.update({int(name[1:]): window for name, window in extra.items()})
    return desktop


def test_a_name_prompt_then_the_best_times_table_are_closed_in_turn_and_nothing_else() -> None:
    desktop = desktop_with(
        w2=Window(GAME, Rect(5, 40, 280, 98), "Congratulations!", then_opens=3, opens_after=1.5),
        w3=Window(GAME, Rect(5, 40, 280, 150), "Best Times", shown=False, closes_after=0.1),
        w4=Window(OTHER, Rect(0, 0, 800, 600), "Another program"),
    )
    windows = Win32GameWindows(desktop)
    windows.find([BOARD])
    assert [handle for handle, _ in windows.found] == [MAIN]
    closed = windows.close_dialogs()
    assert [dialog.title for dialog in closed] == ["Congratulations!", "Best Times"]
    assert desktop.posted == [2, 3]
    assert desktop.windows[4].shown and desktop.windows[MAIN].shown


def test_hidden_tiny_and_off_screen_windows_of_the_game_are_no_dialogs() -> None:
    desktop = desktop_with(
        w2=Window(GAME, Rect(800, 600, 1, 1), "owner"),  # a toolkit's hidden owner window
        w3=Window(GAME, Rect(100, 100, 300, 200), "hidden", shown=False),
        w4=Window(GAME, Rect(-32000, -32000, 160, 28), "minimized"),
        w5=Window(OTHER, Rect(50, 50, 200, 100), "owned by the game", owner=MAIN),
        w6=Window(OTHER, Rect(50, 50, 200, 100), "a stranger's"),
    )
    assert [dialog.title for dialog in dialogs(desktop, MAIN)] == ["owned by the game"]


def test_a_dialog_that_stays_is_a_one_line_error_naming_it() -> None:
    desktop = desktop_with(w2=Window(GAME, Rect(40, 40, 240, 120), "Save?", closes_after=None))
    (dialog,) = dialogs(desktop, MAIN)
    started = time.monotonic()
    with pytest.raises(DialogError, match=r"^the dialog 'Save\?' \(window 0x2\) at 40,40,240,120"):
        close_dialog(desktop, dialog, timeout=0.2)
    assert 0.2 <= time.monotonic() - started < 2


def test_a_gone_game_window_has_no_dialogs() -> None:
    desktop = desktop_with(w2=Window(GAME, Rect(40, 40, 240, 120), "Game over"))
    windows = Win32GameWindows(desktop)
    windows.find([BOARD])
    del desktop.windows[MAIN]
    assert windows.close_dialogs() == []
    assert desktop.posted == []


def test_a_new_game_window_over_the_old_one_is_the_game_and_the_old_one_no_dialog() -> None:
    """minesweeper-python's Restart opens a new top-level window of the game, titled alike, at
    the old one's place and size, and shrinks the old one: calibration took the new window for
    a dialog, pressed Escape in it and stopped. The new window is the game's from then on, the
    old one neither game nor dialog; a real dialog over the new one is still closed."""
    desktop = desktop_with()
    windows = Win32GameWindows(desktop)
    windows.find([BOARD])
    desktop.windows[MAIN].frame = Rect(0, 0, 60, 40)  # the old window, shrunk
    desktop.windows[2] = Window(GAME, Rect(0, 0, 170, 220), "Minesweeper")
    assert windows.close_dialogs() == []
    assert windows.found == [(2, Rect(0, 0, 170, 220))] and desktop.posted == []
    desktop.windows[3] = Window(GAME, Rect(40, 40, 120, 60), "Game over")
    assert [dialog.title for dialog in windows.close_dialogs()] == ["Game over"]
    assert desktop.posted == [3]


def test_a_new_game_window_still_being_laid_out_is_no_dialog() -> None:
    """A restart's new top-level window of the game is small for a moment (a toolkit lays it
    out after it is shown), then the game's, over the old one: listed once, it looked like a
    dialog and was sent WM_CLOSE. Listed twice, a moment apart, it is the game's window."""
    desktop = desktop_with()
    windows = Win32GameWindows(desktop)
    windows.find([BOARD])
    desktop.windows[MAIN].frame = Rect(0, 0, 60, 40)  # the old window, shrunk
    desktop.windows[2] = Window(
        GAME, Rect(0, 0, 120, 90), "Minesweeper", laid_out=Rect(0, 0, 170, 220), laid_out_after=0.1
    )
    assert windows.close_dialogs() == []
    assert desktop.posted == [] and windows.found == [(2, Rect(0, 0, 170, 220))]
