"""The game's windows on an X11 display, read with python-xlib: the top-level windows, the
game's dialogs (transient for its window, of its connection, pid or class), focus, and Escape
sent to one dialog alone.

python-xlib rather than pywinctl: pywinctl reads the window manager's client list
(``_NET_CLIENT_LIST``), which is empty without a window manager (a bare Xvfb, some users'
desktops), and its monitor helper exits the process where ``xrandr`` is not installed.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import psutil

from calibration.labels import QUITTING_WORDS, NoTextReader, read_words
from controller.desktop.windows import (
    DIALOG_CLOSE_TIMEOUT,
    DesktopWindow,
    Dialog,
    close_game_dialogs,
    shows_anything,
    successors,
)
from controller.desktop.x_connections import x_connection
from controller.errors import DialogError, WindowError
from vision.geometry import Rect


class X11Windows:
    """The client windows (see :func:`_client_windows`) of an X display's window tree,
    with or without a window manager. Only viewable windows count: mapped, with every ancestor
    mapped."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.desktop = f"display {display}"

    def windows(self) -> list[DesktopWindow]:
        with x_connection(self.display, "list the windows of") as connection:
            return self.listed(connection)

    def listed(self, connection: Any) -> list[DesktopWindow]:
        """The windows, read through an open python-xlib ``connection`` (one a watcher keeps:
        opening one swaps the process's standard output for a moment, see
        :func:`quiet_xlib`)."""
        root = connection.screen().root
        return list(self._clients(root, root, _TextProperties(connection)))

    def _clients(self, root: Any, parent: Any, names: _TextProperties) -> Iterator[DesktopWindow]:
        """Each client window, its program's name among its classes (a user knows the name of
        the program they started, seldom its window's class)."""
        for child, classes, frame in _client_windows(root, parent, names):
            program = names.program(child)
            if program is not None and program not in classes:
                classes = (*classes, program)
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
    """A window's class names, title and process, decoded here rather than by python-xlib (the
    older python3-xlib, which pyautogui installs too, fails on Python 3 bytes): ICCCM's text is
    Latin-1 (STRING, or COMPOUND_TEXT's default), EWMH's ``_NET_WM_NAME`` is UTF-8."""

    def __init__(self, connection: Any) -> None:
        from Xlib import Xatom

        self.wm_class = Xatom.WM_CLASS
        self.wm_name = Xatom.WM_NAME
        self.net_wm_name = connection.intern_atom("_NET_WM_NAME")
        self.pid_atom = connection.intern_atom("_NET_WM_PID")

    def pid(self, window: Any) -> int | None:
        """EWMH's ``_NET_WM_PID``: the process that made the window, where it says."""
        from Xlib import Xatom

        found = window.get_full_property(self.pid_atom, Xatom.CARDINAL)
        return int(found.value[0]) if found is not None and len(found.value) else None

    def program(self, window: Any) -> str | None:
        """The name of the program whose process made the window (``winemine.exe``), where the
        window says which process and it runs on this machine."""
        pid = self.pid(window)
        if pid is None:
            return None
        try:
            return str(psutil.Process(pid).name())
        except psutil.Error:
            return None

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


def focus(window_id: int, display: str | None = None) -> None:
    """Give the window X input focus, as ``xdotool windowfocus`` does (XSetInputFocus).

    With no window manager no one else does: focus stays on the root window, where GTK and Xt
    programs still take keys under the pointer but Qt programs take none."""
    with x_connection(display, "focus a window on") as connection:
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
    Override-redirect windows (menus, tooltips) are no dialogs: their toolkit closes them; nor
    is a window the main window covers whole (stacked under it and inside its frame): the one
    a restart that opens a new window leaves behind, shrunk, which no key closes.
    """
    from Xlib.error import BadDrawable, BadWindow

    with x_connection(display, "list the dialogs on") as connection:
        root = connection.screen().root
        names = _TextProperties(connection)
        main = connection.create_resource_object("window", window_id)
        try:
            owner = _Owner(connection, main, names)
        except (BadWindow, BadDrawable) as error:
            raise WindowError(f"window {window_id:#x} is gone") from error
        shape = connection.screen()
        screen = Rect(0, 0, shape.width_in_pixels, shape.height_in_pixels)
        clients = list(_client_windows(root, root, names))  # bottom first
        ids = [window.id for window, _, _ in clients]
        above = ids.index(window_id) if window_id in ids else 0
        covering = clients[above][2] if window_id in ids else Rect(0, 0, 0, 0)
        found = []
        for place, (window, classes, frame) in enumerate(clients):
            if window.id == window_id or not shows_anything(frame, screen):
                continue
            if place < above and covering.contains_rect(frame):
                continue  # under the game's window, nothing of it shows (a restart's old one)
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
        self.names = names
        self.type_atom = connection.intern_atom("_NET_WM_WINDOW_TYPE")
        self.dialog_type = connection.intern_atom("_NET_WM_WINDOW_TYPE_DIALOG")
        self.pid = names.pid(main)

    def owns(self, window: Any, classes: tuple[str, ...]) -> bool:
        if window.get_attributes().override_redirect:
            return False
        transient = window.get_wm_transient_for()
        return (
            (transient is not None and transient.id == self.id)
            or window.id & self.base_mask == self.id & self.base_mask
            or (self.pid is not None and self.names.pid(window) == self.pid)
            or (classes == self.classes and self._is_dialog(window))
        )

    def _is_dialog(self, window: Any) -> bool:
        from Xlib import Xatom

        found = window.get_full_property(self.type_atom, Xatom.ATOM)
        return found is not None and self.dialog_type in found.value


def close_dialog(
    dialog: Dialog,
    display: str | None = None,
    timeout: float = DIALOG_CLOSE_TIMEOUT,
    words: Callable[[Dialog], Sequence[str] | None] | None = None,
) -> None:
    """Focus the dialog and press Escape in it: Escape answers "keep" or "cancel" in the games'
    dialogs, where Enter may take a default that harms (kmines' replays the same mines).

    A dialog Escape leaves open after ``timeout`` has no way out but its default button (a
    best-time name box with only OK): it gets Return, which keeps the name it shows, unless its
    ``words`` (default: read in its pixels, :func:`dialog_words`) ask to quit. A dialog still
    open then is a :class:`DialogError`.
    """
    from Xlib import XK

    if _pressed_closes(dialog, XK.XK_Escape, display, timeout):
        return
    said = (words or functools.partial(dialog_words, display=display))(dialog)
    if said is None:
        raise DialogError(
            f"the {dialog.describe()} did not close on Escape, and its words cannot be read "
            "(is tesseract installed?) to tell it does not ask to quit: answer it, then start again"
        )
    if QUITTING_WORDS.intersection(said):
        raise DialogError(
            f"the {dialog.describe()} did not close on Escape, and it speaks of quitting "
            f"({' '.join(said)!r}): answer it, then start again"
        )
    if not _pressed_closes(dialog, XK.XK_Return, display, timeout):
        raise DialogError(f"the {dialog.describe()} did not close on Escape, nor on Return")


def _pressed_closes(dialog: Dialog, keysym: int, display: str | None, timeout: float) -> bool:
    """Press the key in the dialog alone; whether it closed within ``timeout``.

    The server is held (grabbed) from the focus to the key press, so no other window can take
    the focus in between and the key reaches the dialog only.
    """
    from Xlib import X
    from Xlib.ext import xtest

    with x_connection(display, "close a dialog on") as connection:
        key = connection.keysym_to_keycode(keysym)
        connection.grab_server()
        try:
            _focus(connection, dialog.window_id)
            xtest.fake_input(connection, X.KeyPress, key)
            xtest.fake_input(connection, X.KeyRelease, key)
        except WindowError:
            return True  # it closed by itself before the focus reached it
        finally:
            connection.ungrab_server()
            connection.sync()
        deadline = time.monotonic() + timeout
        while _viewable(connection, dialog.window_id):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True


def dialog_words(dialog: Dialog, display: str | None = None) -> list[str] | None:
    """The words the dialog shows, read by tesseract in its pixels; None if they cannot be."""
    import numpy as np
    from Xlib import X

    frame = dialog.frame
    with x_connection(display, "read a dialog on") as connection:
        root = connection.screen().root
        try:
            image = root.get_image(
                frame.left, frame.top, frame.width, frame.height, X.ZPixmap, 0xFFFFFFFF
            )
        except Exception:  # off the screen, or gone
            return None
    pixels = np.frombuffer(image.data, dtype=np.uint8)
    if pixels.size != frame.width * frame.height * 4:
        return None  # a depth other than 24/32 bits
    picture = np.ascontiguousarray(pixels.reshape(frame.height, frame.width, 4)[:, :, :3])
    try:
        return [word.text for word in read_words(picture, [])]
    except NoTextReader:
        return None


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
        self.retired: set[int] = set()
        """Game windows another took the place of (see :func:`successors`)."""
        self.words: Callable[[Dialog], Sequence[str] | None] | None = None
        """What reads a dialog's words (None: :func:`dialog_words`)."""

    def find(self, areas: Sequence[Rect]) -> None:
        """Take the topmost client window under the middle of each area as the game's."""
        with x_connection(self.display, "find the game window on") as connection:
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
        """Close every dialog of the game's windows by Escape, else Return (see
        :func:`close_dialog`), and those that closing one opens; the dialogs closed. A game
        window that is gone has none: reading the board finds it gone."""
        close = functools.partial(close_dialog, display=self.display, words=self.words)
        return close_game_dialogs(self._listing, close)

    def _listing(self) -> list[Dialog]:
        """The dialogs of the game's windows, listed again under a window that took the place
        of one (the windows it covers are none)."""
        for _ in range(2):
            found = list(self.found)
            shown: list[Dialog] = []
            for window_id, _ in found:
                with contextlib.suppress(WindowError):
                    shown.extend(dialogs(window_id, self.display))
            listed = successors(self.found, self.retired, shown)
            if self.found == found:
                break
        return listed
