"""The desktop's top-level windows: find a game window by title or class and read its frame;
what a game's dialog is and how dialogs are closed in turn, on every platform.

The frame is the window's client area in the screen pixels that capture (mss) and the mouse
(pyautogui) use. :func:`desktop_windows` chooses the platform's window source: the X11 window
tree (:mod:`controller.desktop.x11`), or pywinctl on Windows and macOS; on Windows only after
the process has declared itself DPI-aware, or a scaled display reports scaled frames. The game's
dialogs are closed by :mod:`controller.desktop.x11` or :mod:`controller.desktop.win32`.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from controller.desktop.dpi import monitor_scaling
from controller.errors import DialogError, WindowError
from vision.geometry import Rect

DIALOG_CLOSE_TIMEOUT = 8.0
"""Seconds a dialog has to close after Escape. Most close within a frame or two; Wine's take
about 2 s (winemine's best-time name prompt and table), a busy machine's longer."""
NEXT_DIALOG_WAIT = 3.0
"""Seconds to watch for the next dialog once one closed: answering one may open another (a name
prompt, then the best-times table), and Wine's winemine opens its table about 2 s after the
prompt is gone from the Windows API's view."""
DIALOGS_AT_MOST = 8
"""Dialogs closed in a row before giving up: a game that opens them without end is stuck."""
SMALLEST_WINDOW = 8
"""A window narrower or lower than this many pixels shows nothing a user could answer: the 1x1
hidden owner window some toolkits make (Wine maps one at the screen's centre) is no game and no
dialog."""


def shows_anything(frame: Rect, screen: Rect | None = None) -> bool:
    """Whether a window with this frame can show anything: not too small, and on the screen
    (when its size is known)."""
    if frame.width < SMALLEST_WINDOW or frame.height < SMALLEST_WINDOW:
        return False
    return screen is None or frame.overlaps(screen)


@dataclass(frozen=True)
class DesktopWindow:
    """A visible top-level window."""

    title: str
    classes: tuple[str, ...]
    """X11: WM_CLASS's instance and class names; Windows and macOS: the application's name."""
    frame: Rect
    """The client area (inside any border and title bar) in screen pixels."""

    def describe(self) -> str:
        frame = self.frame
        return (
            f"{self.title!r} (class {'/'.join(self.classes)}) at "
            f"{frame.left},{frame.top},{frame.width},{frame.height}"
        )


class WindowSource(Protocol):
    """Lists the visible top-level windows of one desktop."""

    desktop: str
    """Which desktop, for messages: an X display's name, or the platform."""

    def windows(self) -> list[DesktopWindow]: ...


def uses_x11(platform: str | None = None) -> bool:
    """Whether this platform's desktop (default: this machine's) is an X11 display: every one
    but Windows and macOS."""
    return (platform or sys.platform) not in ("win32", "darwin")


_DECLARED: list[str | None] = []
"""The awareness this process declared, once it did (the declaration takes once only)."""


def declare_dpi_aware(platform: str = sys.platform, windll: Any = None) -> str | None:
    """On Windows, declare the process DPI-aware; return which declaration took, else None.

    Without it, Windows scales a DPI-unaware process's view of the screen, so captured pixels,
    the board's position and the mouse's coordinates disagree on a scaled display. It must run
    before mss or pyautogui first touch the screen. Per-monitor v2 (Windows 10 1703+) is tried
    first, then per-monitor (8.1), then system-wide (Vista). ``windll`` is for tests; without
    it, the first declaration's result is kept and returned again (a second would fail).
    """
    if platform != "win32":
        return None
    if windll is None and _DECLARED:
        return _DECLARED[0]
    import ctypes

    real = windll is None
    if windll is None:
        windll = ctypes.windll  # type: ignore[attr-defined]
    per_monitor_v2 = ctypes.c_void_p(-4)  # DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2
    attempts: tuple[tuple[str, Callable[[], object]], ...] = (
        ("per-monitor v2", lambda: windll.user32.SetProcessDpiAwarenessContext(per_monitor_v2)),
        ("per-monitor", lambda: windll.shcore.SetProcessDpiAwareness(2) == 0),  # S_OK
        ("system", lambda: windll.user32.SetProcessDPIAware()),
    )
    declared = None
    for name, declare in attempts:
        try:
            if declare():
                declared = name
                break
        except (AttributeError, OSError):
            continue
    if real:
        _DECLARED.append(declared)
    return declared


def frame_in_pixels(frame: Rect, awareness: str | None, windll: Any = None) -> Rect:
    """A window frame as Windows gives it to a process of this DPI ``awareness``, in screen
    pixels (see :mod:`controller.desktop.dpi`). ``windll`` is for tests."""
    return monitor_scaling(awareness, *frame.centre, windll).to_pixels(frame)


def desktop_windows(
    platform: str = sys.platform,
    environ: Mapping[str, str] = os.environ,
    *,
    windll: Any = None,
    library: Any = None,
) -> WindowSource:
    """The window source of this desktop. ``windll`` and ``library`` (pywinctl) are stand-ins
    for tests of the Windows and macOS paths."""
    if uses_x11(platform):
        display = environ.get("DISPLAY")
        if not display:
            raise WindowError("no X display to search for windows (DISPLAY is not set)")
        from controller.desktop.x11 import X11Windows  # the platform's own module

        return X11Windows(display)
    awareness = declare_dpi_aware(platform, windll)
    if library is None:
        try:
            import pywinctl
        except ImportError as error:
            raise WindowError(
                f"finding windows on {platform} needs pywinctl (pip install pywinctl)"
            ) from error
        library = pywinctl
    return PyWinCtlWindows(library, platform, awareness, windll)


def find_window(
    source: WindowSource, *, title: str | None = None, class_name: str | None = None
) -> DesktopWindow:
    """The one visible window whose title and class contain the given texts (ignoring case).

    No match, or several, is a :class:`WindowError` naming what was searched and, for several,
    each candidate with its frame, so the user can narrow the search or pass the frame itself.
    """
    if not title and not class_name:
        raise WindowError("give a window title or class to search for")
    visible = [window for window in source.windows() if shows_anything(window.frame)]
    found = [window for window in visible if _matches(window, title, class_name)]
    wanted = " and ".join(
        f"{what} contains {text!r}"
        for what, text in (("class", class_name), ("title", title))
        if text
    )
    if not found:
        raise WindowError(
            f"no visible window whose {wanted} on {source.desktop} "
            f"(of {len(visible)} visible windows)"
        )
    if len(found) > 1:
        listed = "; ".join(window.describe() for window in found)
        raise WindowError(
            f"{len(found)} visible windows whose {wanted} on {source.desktop}: {listed}"
        )
    return found[0]


def _matches(window: DesktopWindow, title: str | None, class_name: str | None) -> bool:
    if title and title.casefold() not in window.title.casefold():
        return False
    return not class_name or any(
        class_name.casefold() in name.casefold() for name in window.classes
    )


@dataclass(frozen=True)
class Dialog:
    """A visible top-level window that belongs to a game beside its main window: a question, a
    score table. It covers the board or takes the keys, so a bot must see it and close it."""

    window_id: int
    title: str
    frame: Rect

    def describe(self) -> str:
        frame = self.frame
        return (
            f"dialog {self.title!r} (window {self.window_id:#x}) at "
            f"{frame.left},{frame.top},{frame.width},{frame.height}"
        )


SUCCESSOR_SHARE = 0.9
"""Of a game window's width and height, the share a window of the game over it must have to be
its successor, not a dialog (see :func:`successors`)."""


def successors(
    found: list[tuple[int, Rect]], retired: set[int], shown: list[Dialog]
) -> list[Dialog]:
    """The dialogs of ``shown`` left once the game's windows are brought up to date: a window of
    the game over a found one, nearly its size, is the game's window again (a restart that opens
    a new top-level window and shrinks the old one), and takes its place in ``found``; the old
    one joins ``retired``, which are no dialogs either."""
    dialogs = []
    for dialog in shown:
        if dialog.window_id in retired:
            continue
        for place, (window_id, frame) in enumerate(found):
            if (
                dialog.frame.contains(*frame.centre)
                and dialog.frame.width >= SUCCESSOR_SHARE * frame.width
                and dialog.frame.height >= SUCCESSOR_SHARE * frame.height
            ):
                found[place] = (dialog.window_id, dialog.frame)
                retired.add(window_id)
                break
        else:
            dialogs.append(dialog)
    return [dialog for dialog in dialogs if dialog.window_id not in retired]


LAYOUT_WAIT = 0.3
"""Seconds a window of the game is given to be laid out before it is closed as a dialog."""


def listed_twice(listing: Callable[[], list[Dialog]], wait: float = LAYOUT_WAIT) -> list[Dialog]:
    """The dialogs ``listing()`` gives twice, ``wait`` apart: a restart's new top-level window
    of the game is small until its toolkit lays it out, and then the game's, over the old one
    (:func:`successors`), which the second listing knows."""
    first = {dialog.window_id for dialog in listing()}
    if not first:
        return []
    time.sleep(wait)
    return [dialog for dialog in listing() if dialog.window_id in first]


def close_if_listed(
    close: Callable[[Dialog], None], listing: Callable[[], list[Dialog]], dialog: Dialog
) -> None:
    """Close ``dialog`` with ``close``; one that stays open is no error once ``listing()`` no
    longer lists it (a new window of the game laid out late)."""
    try:
        close(dialog)
    except DialogError:
        if any(shown.window_id == dialog.window_id for shown in listing()):
            raise


def close_game_dialogs(
    listing: Callable[[], list[Dialog]], close: Callable[[Dialog], None]
) -> list[Dialog]:
    """Close in turn (:func:`close_in_turn`) the dialogs ``listing()`` gives twice a moment
    apart (:func:`listed_twice`), each with ``close`` unless it proves no dialog
    (:func:`close_if_listed`); the dialogs closed."""
    return close_in_turn(
        lambda: listed_twice(listing), functools.partial(close_if_listed, close, listing)
    )


def close_in_turn(
    shown: Callable[[], Sequence[Dialog]], close: Callable[[Dialog], None]
) -> list[Dialog]:
    """Close (with ``close``) the dialogs ``shown()`` lists, then those that open within
    :data:`NEXT_DIALOG_WAIT` of the last closing; the dialogs closed, in order.

    More than :data:`DIALOGS_AT_MOST` in a row is a :class:`DialogError`: a game that answers
    each dialog with another would hold the bot for ever."""
    closed: list[Dialog] = []
    waited_since = None
    while True:
        opened = shown()
        if not opened:
            if not closed:
                return closed
            if waited_since is None:
                waited_since = time.monotonic()
            if time.monotonic() - waited_since >= NEXT_DIALOG_WAIT:
                return closed
            time.sleep(0.05)
            continue
        for dialog in opened:
            if len(closed) == DIALOGS_AT_MOST:
                raise DialogError(
                    f"the game opened {DIALOGS_AT_MOST} dialogs in a row, the last the "
                    f"{closed[-1].describe()}; answer them, then start again"
                )
            close(dialog)
            closed.append(dialog)
        waited_since = None


class NoGameWindows:
    """Stands in for :class:`GameWindows` where windows are not read (Windows, macOS): keys go to
    the window in front, which a click on the game makes it, and no dialog is closed."""

    found: tuple[tuple[int, Rect], ...] = ()

    def find(self, areas: Sequence[Rect]) -> None:
        """Nothing to find."""

    def focus_at(self, x: int, y: int) -> None:
        """The foreground window takes the keys."""

    def close_dialogs(self) -> list[Dialog]:
        return []


class PyWinCtlWindows:
    """Windows and macOS windows through pywinctl (``library``: the module, or a stand-in).

    Untested on those systems here (no Windows or macOS machine): the tests run it against a
    stand-in with pywinctl's interface.
    """

    def __init__(
        self, library: Any, platform: str, awareness: str | None = None, windll: Any = None
    ) -> None:
        self.library = library
        self.platform = platform
        self.awareness = awareness
        """The DPI awareness declared on Windows: frames are mapped to screen pixels by it."""
        self.windll = windll
        self.desktop = f"the {platform} desktop"

    def windows(self) -> list[DesktopWindow]:
        found = []
        for window in self.library.getAllWindows():
            try:
                if not window.isVisible or window.isMinimized:
                    continue
                left, top, right, bottom = window.getClientFrame()
                frame = Rect(left, top, right - left, bottom - top)
                if self.platform == "win32":
                    frame = frame_in_pixels(frame, self.awareness, self.windll)
                found.append(DesktopWindow(window.title, (window.getAppName(),), frame))
            except Exception:
                if window.isAlive:  # only a window closed mid-listing is passed over
                    raise
        return found
