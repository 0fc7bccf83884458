"""The desktop's top-level windows: find a game window by title or class and read its frame.

The frame is the window's client area in the screen pixels that capture (mss) and the mouse
(pyautogui) use. On X11 the window tree is read with python-xlib: pywinctl reads the window
manager's client list (``_NET_CLIENT_LIST``), which is empty without a window manager (a bare
Xvfb, some users' desktops), and its monitor helper exits the process where ``xrandr`` is not
installed. On Windows and macOS pywinctl lists the windows; on Windows only after the process
has declared itself DPI-aware, or a scaled display reports scaled frames.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from controller.errors import SandboxError
from vision.geometry import Rect


class WindowError(SandboxError):
    """No single visible window matches, or the desktop's windows cannot be listed; says which."""


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


def uses_x11(platform: str = sys.platform) -> bool:
    """Whether this platform's desktop is an X11 display (every one but Windows and macOS)."""
    return platform not in ("win32", "darwin")


def declare_dpi_aware(platform: str = sys.platform, windll: Any = None) -> str | None:
    """On Windows, declare the process DPI-aware; return which declaration took, else None.

    Without it, Windows scales a DPI-unaware process's view of the screen, so captured pixels,
    the board's position and the mouse's coordinates disagree on a scaled display. It must run
    before mss or pyautogui first touch the screen. Per-monitor v2 (Windows 10 1703+) is tried
    first, then per-monitor (8.1), then system-wide (Vista). ``windll`` is for tests.
    """
    if platform != "win32":
        return None
    import ctypes

    if windll is None:
        windll = ctypes.windll  # type: ignore[attr-defined]
    per_monitor_v2 = ctypes.c_void_p(-4)  # DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2
    attempts = (
        ("per-monitor v2", lambda: windll.user32.SetProcessDpiAwarenessContext(per_monitor_v2)),
        ("per-monitor", lambda: windll.shcore.SetProcessDpiAwareness(2) == 0),  # S_OK
        ("system", lambda: windll.user32.SetProcessDPIAware()),
    )
    for name, declare in attempts:
        try:
            if declare():
                return name
        except (AttributeError, OSError):
            continue
    return None


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
        return X11Windows(display)
    declare_dpi_aware(platform, windll)
    if library is None:
        try:
            import pywinctl
        except ImportError as error:
            raise WindowError(
                f"finding windows on {platform} needs pywinctl (pip install pywinctl)"
            ) from error
        library = pywinctl
    return PyWinCtlWindows(library, platform)


def find_window(
    source: WindowSource, *, title: str | None = None, class_name: str | None = None
) -> DesktopWindow:
    """The one visible window whose title and class contain the given texts (ignoring case).

    No match, or several, is a :class:`WindowError` naming what was searched and, for several,
    each candidate with its frame, so the user can narrow the search or pass the frame itself.
    """
    if not title and not class_name:
        raise WindowError("give a window title or class to search for")
    visible = source.windows()
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


class X11Windows:
    """The client windows (those with a WM_CLASS, as ICCCM has it) of an X display's window tree,
    with or without a window manager. Only viewable windows count: mapped, with every ancestor
    mapped."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.desktop = f"display {display}"

    def windows(self) -> list[DesktopWindow]:
        from Xlib import display as xdisplay
        from Xlib.error import DisplayError, XauthError

        try:
            connection = xdisplay.Display(self.display)
        except (DisplayError, XauthError) as error:
            raise WindowError(
                f"cannot list the windows of display {self.display}: {error}"
            ) from error
        try:
            root = connection.screen().root
            names = _TextProperties(connection)
            return list(self._clients(root, root, names))
        finally:
            connection.close()

    def _clients(self, root: Any, parent: Any, names: _TextProperties) -> Iterator[DesktopWindow]:
        from Xlib import X
        from Xlib.error import BadDrawable, BadWindow

        for child in parent.query_tree().children:
            try:  # a window may be destroyed while the tree is read
                if child.get_attributes().map_state != X.IsViewable:
                    continue  # nor is anything inside it
                classes = names.classes(child)
                if not classes:  # a window manager's frame or a plain container: look inside
                    yield from self._clients(root, child, names)
                    continue
                size = child.get_geometry()
                corner = root.translate_coords(child, 0, 0)
                frame = Rect(corner.x, corner.y, size.width, size.height)
                yield DesktopWindow(names.title(child), classes, frame)
            except (BadWindow, BadDrawable):
                continue


class _TextProperties:
    """A window's class names and title, decoded here rather than by python-xlib (the older
    python3-xlib, which pyautogui installs too, fails on Python 3 bytes): ICCCM's text is
    Latin-1 (STRING, or COMPOUND_TEXT's default), EWMH's ``_NET_WM_NAME`` is UTF-8."""

    def __init__(self, connection: Any) -> None:
        from Xlib import Xatom

        self.wm_class = Xatom.WM_CLASS
        self.wm_name = Xatom.WM_NAME
        self.net_wm_name = connection.intern_atom("_NET_WM_NAME")

    def classes(self, window: Any) -> tuple[str, ...]:
        """WM_CLASS's instance and class names; empty for a window that is no client."""
        text = self._read(window, self.wm_class, "latin-1")
        return tuple(name for name in text.split("\0") if name)

    def title(self, window: Any) -> str:
        """EWMH's ``_NET_WM_NAME`` where set, else ICCCM's ``WM_NAME``."""
        return self._read(window, self.net_wm_name, "utf-8") or self._read(
            window, self.wm_name, "latin-1"
        )

    @staticmethod
    def _read(window: Any, atom: int, encoding: str) -> str:
        from Xlib import X

        found = window.get_full_property(atom, X.AnyPropertyType)
        if found is None:
            return ""
        value = found.value
        return value.decode(encoding, errors="replace") if isinstance(value, bytes) else str(value)


class PyWinCtlWindows:
    """Windows and macOS windows through pywinctl (``library``: the module, or a stand-in).

    Untested on those systems here (no Windows or macOS machine): the tests run it against a
    stand-in with pywinctl's interface.
    """

    def __init__(self, library: Any, platform: str) -> None:
        self.library = library
        self.desktop = f"the {platform} desktop"

    def windows(self) -> list[DesktopWindow]:
        found = []
        for window in self.library.getAllWindows():
            try:
                if not window.isVisible or window.isMinimized:
                    continue
                left, top, right, bottom = window.getClientFrame()
                found.append(
                    DesktopWindow(
                        window.title,
                        (window.getAppName(),),
                        Rect(left, top, right - left, bottom - top),
                    )
                )
            except Exception:
                if window.isAlive:  # only a window closed mid-listing is passed over
                    raise
        return found
