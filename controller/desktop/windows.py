"""The desktop's top-level windows: find a game window by title or class and read its frame.

The frame is the window's client area in the screen pixels that capture (mss) and the mouse
(pyautogui) use. On X11 the window tree is read with python-xlib: pywinctl reads the window
manager's client list (``_NET_CLIENT_LIST``), which is empty without a window manager (a bare
Xvfb, some users' desktops), and its monitor helper exits the process where ``xrandr`` is not
installed. On Windows and macOS pywinctl lists the windows; on Windows only after the process
has declared itself DPI-aware, or a scaled display reports scaled frames.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from controller.desktop.dpi import monitor_scaling
from controller.errors import ControllerError, SandboxError
from vision.geometry import Rect


class WindowError(SandboxError):
    """No single visible window matches, or the desktop's windows cannot be listed; says which."""


class DialogError(ControllerError):
    """A game's dialog stayed open when told to close; the message names the dialog."""


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
    return screen is None or (
        frame.left < screen.right
        and frame.top < screen.bottom
        and frame.right > screen.left
        and frame.bottom > screen.top
    )


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
    attempts = (
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


class X11Windows:
    """The client windows (see :func:`_client_windows`) of an X display's window tree,
    with or without a window manager. Only viewable windows count: mapped, with every ancestor
    mapped."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.desktop = f"display {display}"

    def windows(self) -> list[DesktopWindow]:
        with _x_connection(self.display, "list the windows of") as connection:
            root = connection.screen().root
            names = _TextProperties(connection)
            return list(self._clients(root, root, names))

    def _clients(self, root: Any, parent: Any, names: _TextProperties) -> Iterator[DesktopWindow]:
        for child, classes, frame in _client_windows(root, parent, names):
            yield DesktopWindow(names.title(child), classes, frame)


def _client_windows(
    root: Any, parent: Any, names: _TextProperties
) -> Iterator[tuple[Any, tuple[str, ...], Rect]]:
    """The viewable client windows below ``parent``, each with its class names and frame on the
    screen: those with a WM_CLASS, as ICCCM has it, and those with a title alone that hold no
    such window (some games set no WM_CLASS); a window manager's frames are looked into."""
    from Xlib import X
    from Xlib.error import BadDrawable, BadWindow

    for child in parent.query_tree().children:
        try:  # a window may be destroyed while the tree is read
            if child.get_attributes().map_state != X.IsViewable:
                continue  # nor is anything inside it
            classes = names.classes(child)
            if not classes:  # a window manager's frame or a plain container: look inside
                inside = list(_client_windows(root, child, names))
                yield from inside
                if inside or not names.title(child):
                    continue
            size = child.get_geometry()
            corner = root.translate_coords(child, 0, 0)
            yield child, classes, Rect(corner.x, corner.y, size.width, size.height)
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


@contextlib.contextmanager
def quiet_xlib() -> Iterator[None]:
    """Keep python-xlib's notes off standard output while it connects: it prints one for every
    connection whose authority file holds no entry (an empty file, as a display that asks for no
    cookie is given), which would fill the bot's own output."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def open_x_display(display: str | None) -> Any:
    """A python-xlib connection to ``display`` (default: DISPLAY), without its notes (see
    :func:`quiet_xlib`); python-xlib's errors pass through for the caller to name."""
    from Xlib import display as xdisplay

    with quiet_xlib():
        return xdisplay.Display(display)


@contextlib.contextmanager
def _x_connection(display: str | None, purpose: str) -> Iterator[Any]:
    """A python-xlib connection to ``display`` (default: DISPLAY), closed afterwards; a display
    that cannot be opened is a :class:`WindowError` saying what it was opened to do."""
    from Xlib.error import DisplayError, XauthError

    where = display or os.environ.get("DISPLAY") or ""
    try:
        connection = open_x_display(where)
    except (DisplayError, XauthError) as error:
        raise WindowError(f"cannot {purpose} display {where}: {error}") from error
    try:
        yield connection
    finally:
        connection.close()


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


def focus(window_id: int, display: str | None = None) -> None:
    """Give the window X input focus, as ``xdotool windowfocus`` does (XSetInputFocus).

    With no window manager no one else does: focus stays on the root window, where GTK and Xt
    programs still take keys under the pointer but Qt programs take none."""
    with _x_connection(display, "focus a window on") as connection:
        _focus(connection, window_id)


def _focus(connection: Any, window_id: int) -> None:
    from Xlib import X
    from Xlib.error import CatchError

    window = connection.create_resource_object("window", window_id)
    failed = CatchError()
    window.set_input_focus(X.RevertToParent, X.CurrentTime, onerror=failed)
    focused = connection.get_input_focus().focus  # a round trip: the request's error is in
    if failed.get_error() is not None or getattr(focused, "id", focused) != window_id:
        raise WindowError(f"cannot focus window {window_id:#x}: it is gone or not visible")


def dialogs(window_id: int, display: str | None = None) -> list[Dialog]:
    """The game's other visible top-level windows, beside its main window ``window_id``.

    A window is the game's when it is transient for the main window (WM_TRANSIENT_FOR), was
    made by the same X connection (its id has the main window's resource base), declares the
    same ``_NET_WM_PID``, or is a ``_NET_WM_WINDOW_TYPE_DIALOG`` window of the same WM_CLASS.
    Override-redirect windows (menus, tooltips) are no dialogs: their toolkit closes them.
    """
    from Xlib.error import BadDrawable, BadWindow

    with _x_connection(display, "list the dialogs on") as connection:
        root = connection.screen().root
        names = _TextProperties(connection)
        main = connection.create_resource_object("window", window_id)
        try:
            owner = _Owner(connection, main, names)
        except (BadWindow, BadDrawable) as error:
            raise WindowError(f"window {window_id:#x} is gone") from error
        shape = connection.screen()
        screen = Rect(0, 0, shape.width_in_pixels, shape.height_in_pixels)
        found = []
        for window, classes, frame in _client_windows(root, root, names):
            if window.id == window_id or not shows_anything(frame, screen):
                continue
            try:
                if owner.owns(window, classes):
                    found.append(Dialog(window.id, names.title(window), frame))
            except (BadWindow, BadDrawable):
                continue  # closed while it was being read
        return found


class _Owner:
    """What tells a main window's other windows: its id, resource base, pid and class."""

    def __init__(self, connection: Any, main: Any, names: _TextProperties) -> None:
        self.id = main.id
        self.base_mask = ~connection.display.info.resource_id_mask
        self.classes = names.classes(main)
        self.pid_atom = connection.intern_atom("_NET_WM_PID")
        self.type_atom = connection.intern_atom("_NET_WM_WINDOW_TYPE")
        self.dialog_type = connection.intern_atom("_NET_WM_WINDOW_TYPE_DIALOG")
        self.pid = self._pid(main)

    def owns(self, window: Any, classes: tuple[str, ...]) -> bool:
        if window.get_attributes().override_redirect:
            return False
        transient = window.get_wm_transient_for()
        return (
            (transient is not None and transient.id == self.id)
            or window.id & self.base_mask == self.id & self.base_mask
            or (self.pid is not None and self._pid(window) == self.pid)
            or (classes == self.classes and self._is_dialog(window))
        )

    def _pid(self, window: Any) -> int | None:
        from Xlib import Xatom

        found = window.get_full_property(self.pid_atom, Xatom.CARDINAL)
        return int(found.value[0]) if found is not None and len(found.value) else None

    def _is_dialog(self, window: Any) -> bool:
        from Xlib import Xatom

        found = window.get_full_property(self.type_atom, Xatom.ATOM)
        return found is not None and self.dialog_type in found.value


def close_dialog(
    dialog: Dialog, display: str | None = None, timeout: float = DIALOG_CLOSE_TIMEOUT
) -> None:
    """Focus the dialog and press Escape in it, and nothing else: Escape answers "keep" or
    "cancel" in the games' dialogs, where Enter may take a default that harms (kmines' replays
    the same mines). A dialog still there after ``timeout`` is a :class:`DialogError`.

    The server is held (grabbed) from the focus to the key press, so no other window can take
    the focus in between and the key reaches the dialog only.
    """
    from Xlib import XK, X
    from Xlib.ext import xtest

    with _x_connection(display, "close a dialog on") as connection:
        escape = connection.keysym_to_keycode(XK.XK_Escape)
        connection.grab_server()
        try:
            _focus(connection, dialog.window_id)
            xtest.fake_input(connection, X.KeyPress, escape)
            xtest.fake_input(connection, X.KeyRelease, escape)
        except WindowError:
            return  # it closed by itself before the focus reached it
        finally:
            connection.ungrab_server()
            connection.sync()
        deadline = time.monotonic() + timeout
        while _viewable(connection, dialog.window_id):
            if time.monotonic() >= deadline:
                raise DialogError(f"the {dialog.describe()} did not close on Escape")
            time.sleep(0.02)


def _viewable(connection: Any, window_id: int) -> bool:
    from Xlib import X
    from Xlib.error import BadDrawable, BadWindow

    window = connection.create_resource_object("window", window_id)
    try:
        return bool(window.get_attributes().map_state == X.IsViewable)
    except (BadWindow, BadDrawable):
        return False


class GameWindows:
    """The game's own top-level windows on an X display, told by the areas the bot may click:
    the window under each area is given the focus before a key is pressed there, and the
    dialogs it opens (a question, a score table, "Game Over" over the board) are closed.

    The windows are found when the areas are given (:meth:`find`), while the board shows and no
    dialog covers it; later the window under a point may well be a dialog.
    """

    def __init__(self, display: str | None = None) -> None:
        self.display = display
        self.found: list[tuple[int, Rect]] = []
        """Each game window's id and frame."""

    def find(self, areas: Sequence[Rect]) -> None:
        """Take the topmost client window under the middle of each area as the game's."""
        with _x_connection(self.display, "find the game window on") as connection:
            root = connection.screen().root
            clients = list(_client_windows(root, root, _TextProperties(connection)))
        found: dict[int, Rect] = {}
        for area in areas:
            under = [
                (window.id, frame) for window, _, frame in clients if frame.contains(*area.centre)
            ]
            if under:  # the tree lists windows bottom first
                found.setdefault(*under[-1])
        self.found = list(found.items())

    def focus_at(self, x: int, y: int) -> None:
        """Give the focus to the game window holding screen point (x, y), if one does: without
        a window manager no one else does, and some toolkits (Qt) then take no keys.

        A window that is gone takes no focus; the key's own check then finds the game gone.
        """
        for window_id, frame in self.found:
            if frame.contains(x, y):
                with contextlib.suppress(WindowError):
                    focus(window_id, self.display)
                return

    def close_dialogs(self) -> list[Dialog]:
        """Close every dialog of the game's windows with Escape (see :func:`close_dialog`), and
        those that closing one opens; the dialogs closed. A game window that is gone has none:
        reading the board finds it gone."""
        return close_in_turn(self._shown)

    def _shown(self) -> list[Callable[[], Dialog]]:
        shown: list[Callable[[], Dialog]] = []
        for window_id, _ in self.found:
            try:
                opened = dialogs(window_id, self.display)
            except WindowError:
                continue
            shown.extend(functools.partial(self._close, dialog) for dialog in opened)
        return shown

    def _close(self, dialog: Dialog) -> Dialog:
        close_dialog(dialog, self.display)
        return dialog


def close_in_turn(shown: Callable[[], Sequence[Callable[[], Dialog]]]) -> list[Dialog]:
    """Close the dialogs ``shown()`` lists (each as the call that closes it), then those that
    open within :data:`NEXT_DIALOG_WAIT` of the last closing; the dialogs closed, in order.

    More than :data:`DIALOGS_AT_MOST` in a row is a :class:`DialogError`: a game that answers
    each dialog with another would hold the bot for ever."""
    closed: list[Dialog] = []
    waited_since = None
    while True:
        closers = shown()
        if not closers:
            if not closed:
                return closed
            if waited_since is None:
                waited_since = time.monotonic()
            if time.monotonic() - waited_since >= NEXT_DIALOG_WAIT:
                return closed
            time.sleep(0.05)
            continue
        for close in closers:
            if len(closed) == DIALOGS_AT_MOST:
                raise DialogError(
                    f"the game opened {DIALOGS_AT_MOST} dialogs in a row, the last the "
                    f"{closed[-1].describe()}; answer them, then start again"
                )
            closed.append(close())
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
