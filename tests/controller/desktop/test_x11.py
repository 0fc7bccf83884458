"""Focus and dialogs on X11 (controller/desktop/x11.py): first against windows this test makes with
python-xlib (each rule that ties a window to a game, and what a dialog receives), then against
gnome-mines' "start a new game?" question and kmines, which takes keys only with the focus."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psutil
import pytest
from conftest import LaunchGame
from game_screens import bounding, grab, hidden_tiles, pointer_off
from Xlib import XK

from controller.desktop.display import VirtualDisplay
from controller.desktop.windows import DIALOG_CLOSE_TIMEOUT, Dialog, find_window
from controller.desktop.x11 import GameWindows, X11Windows, close_dialog, dialogs, focus
from controller.errors import DialogError, WindowError
from vision.geometry import Rect

SHOW_TIMEOUT = 5.0
"""Seconds a game has to open a dialog or redraw its board."""


class Client:
    """An X client of its own (one connection) that makes top-level windows and records the keys
    they receive; a window may be made to unmap itself on Escape, as a dialog closes.

    python-xlib's connections are not thread-safe (unless ``Xlib.threaded`` is imported for the
    whole process), so the connection is used by the client's thread only: the test's requests
    are handed to it."""

    def __init__(self) -> None:
        self.keys: list[tuple[int, int]] = []
        """(window id, keysym) of every key press a window of this client received."""
        self._closing: dict[int, tuple[int, float, dict[str, Any] | None]] = {}
        """Windows that close on a key: its keysym, the seconds they take, and the window each opens
        then (the options of :meth:`_make`), if any."""
        self._due: list[tuple[float, Any, dict[str, Any] | None]] = []
        self._work: queue.Queue[tuple[Callable[[Any], Any], queue.Queue[Any]]] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _call(self, work: Callable[[Any], Any]) -> Any:
        answer: queue.Queue[Any] = queue.Queue()
        self._work.put((work, answer))
        result = answer.get(timeout=SHOW_TIMEOUT)
        if isinstance(result, BaseException):
            raise result
        return result

    def focused(self) -> int:
        """The id of the window that has the input focus."""
        return int(self._call(lambda connection: connection.get_input_focus().focus.id))

    def window(self, **options: Any) -> int:
        """A top-level window made with ``options`` (see :meth:`_make`); its id."""
        return int(self._call(lambda connection: self._make(connection, **options)))

    def _make(
        self,
        connection: Any,
        *,
        at: tuple[int, int] = (300, 200),
        size: tuple[int, int] = (160, 90),
        classes: tuple[str, str] = ("fakegame", "Fakegame"),
        transient_for: int | None = None,
        pid: int | None = None,
        dialog_type: bool = False,
        override_redirect: bool = False,
        mapped: bool = True,
        closes_on_escape: bool = False,
        closes_on_return: bool = False,
        close_delay: float = 0.0,
        then_opens: dict[str, Any] | None = None,
    ) -> int:
        """``closes_on_return``: the window closes on Return and not on Escape (a best-time
        name box with only OK); ``close_delay``: seconds from the key to the window's closing
        (Wine's dialogs take about 2); ``then_opens``: the options of a window made as it
        closes (a name prompt's best-times table)."""
        from Xlib import X, Xatom

        window = connection.screen().root.create_window(
            *at, *size, 0, X.CopyFromParent,
            override_redirect=override_redirect, event_mask=X.KeyPressMask,
        )  # fmt: skip
        window.set_wm_class(*classes)
        window.set_wm_name("fake dialog")
        if transient_for is not None:
            window.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [transient_for])
        if pid is not None:
            pid_atom = connection.intern_atom("_NET_WM_PID")
            window.change_property(pid_atom, Xatom.CARDINAL, 32, [pid])
        if dialog_type:
            kind = connection.intern_atom("_NET_WM_WINDOW_TYPE_DIALOG")
            type_atom = connection.intern_atom("_NET_WM_WINDOW_TYPE")
            window.change_property(type_atom, Xatom.ATOM, 32, [kind])
        if mapped:
            window.map()
        if closes_on_escape or closes_on_return:
            key = XK.XK_Return if closes_on_return else XK.XK_Escape
            self._closing[window.id] = (key, close_delay, then_opens)
        connection.sync()
        return int(window.id)

    def _serve(self) -> None:
        from Xlib import X
        from Xlib import display as xdisplay

        connection = xdisplay.Display()
        try:
            while not self._stop.is_set():
                with contextlib.suppress(queue.Empty):
                    work, answer = self._work.get_nowait()
                    try:
                        answer.put(work(connection))
                    except Exception as error:
                        answer.put(error)
                self._close_due(connection)
                if not connection.pending_events():
                    time.sleep(0.01)
                    continue
                event = connection.next_event()
                if event.type != X.KeyPress:
                    continue
                keysym = connection.keycode_to_keysym(event.detail, 0)
                self.keys.append((event.window.id, keysym))
                if self._closing.get(event.window.id, (None,))[0] == keysym:
                    _, delay, then_opens = self._closing.pop(event.window.id)
                    self._due.append((time.monotonic() + delay, event.window, then_opens))
        finally:
            connection.close()

    def _close_due(self, connection: Any) -> None:
        """Close the windows whose delay after Escape is over, opening what each opens then."""
        now = time.monotonic()
        for due in [due for due in self._due if due[0] <= now]:
            self._due.remove(due)
            _, window, then_opens = due
            window.unmap()
            connection.flush()
            if then_opens is not None:
                self._make(connection, **then_opens)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


@pytest.fixture
def client(virtual_display: VirtualDisplay) -> Iterator[Client]:
    made = Client()
    yield made
    made.close()


@pytest.fixture
def stranger(virtual_display: VirtualDisplay) -> Iterator[Client]:
    """Another X client: another program's windows."""
    made = Client()
    yield made
    made.close()


def ids(found: list[Dialog]) -> set[int]:
    return {dialog.window_id for dialog in found}


@pytest.mark.realgame
def test_each_rule_that_ties_a_window_to_the_game_finds_it_and_no_other(
    client: Client, stranger: Client
) -> None:
    main = client.window(pid=4242)
    own = client.window()  # made by the game's own X connection
    transient = stranger.window(classes=("helper", "Helper"), transient_for=main)
    same_pid = stranger.window(classes=("helper", "Helper"), pid=4242)
    typed = stranger.window(dialog_type=True)  # a dialog of the game's class
    other_typed = stranger.window(classes=("other", "Other"), dialog_type=True)
    other = stranger.window(classes=("other", "Other"), pid=77)
    client.window(override_redirect=True)  # a menu or tooltip
    client.window(mapped=False)
    assert ids(dialogs(main)) == {own, transient, same_pid, typed}
    assert other_typed not in ids(dialogs(main)) and other not in ids(dialogs(main))


@pytest.mark.realgame
def test_a_window_of_the_game_its_main_window_covers_whole_is_no_dialog(client: Client) -> None:
    """minesweeper-python's Restart opens a new window of the game over the old one, which
    shrinks to 331x117 and stays, and closes on no key: taken for a dialog, it stopped play
    ("did not close on Escape, nor on Return"). Nothing of it shows."""
    left_behind = client.window(at=(300, 200), size=(100, 40))
    main = client.window(at=(300, 200), size=(160, 90))
    over = client.window(at=(320, 220), size=(60, 30))  # a dialog over the game
    found = ids(dialogs(main))
    assert left_behind not in found and found == {over}


@pytest.mark.realgame
def test_a_dialog_is_listed_with_its_frame_and_title(client: Client) -> None:
    main = client.window()
    dialog = client.window(transient_for=main)
    (found,) = dialogs(main)
    assert found == Dialog(dialog, "fake dialog", Rect(300, 200, 160, 90))


@pytest.mark.realgame
def test_close_dialog_sends_escape_to_the_dialog_only(client: Client) -> None:
    main = client.window()
    dialog = client.window(transient_for=main, closes_on_escape=True)
    focus(main)
    close_dialog(dialogs(main)[0])
    assert dialogs(main) == []
    assert client.keys == [(dialog, XK.XK_Escape)]


@pytest.mark.realgame
def test_the_guarded_mouse_presses_escape_as_x_spells_it(client: Client) -> None:
    """Calibration closes a browser's context menu with the mouse's "escape": X has no keysym
    "escape" (it spells it "Escape"), and the press raised "the display has no key" on a web
    game in Chromium."""
    from controller.mouse import Mouse

    window = client.window(at=(300, 200), closes_on_escape=True)
    area = Rect(300, 200, 160, 90)
    Mouse([area]).press("escape", *area.centre)
    wait_for(lambda: client.keys, "no key reached the window")
    assert client.keys == [(window, XK.XK_Escape)]


@pytest.mark.realgame
def test_a_dialog_that_stays_open_is_a_one_line_error_naming_it(client: Client) -> None:
    main = client.window()
    dialog = client.window(transient_for=main)
    started = time.monotonic()
    with pytest.raises(DialogError, match=rf"^the dialog 'fake dialog' \(window {dialog:#x}\) "):
        close_dialog(dialogs(main)[0], words=lambda _: [])
    assert time.monotonic() - started >= 2 * DIALOG_CLOSE_TIMEOUT
    assert client.keys == [(dialog, XK.XK_Escape), (dialog, XK.XK_Return)]


@pytest.mark.realgame
def test_a_dialog_escape_leaves_open_is_answered_by_return(client: Client) -> None:
    """A best-time name box with only OK: Escape leaves it, Return takes its OK (the name
    typed nowhere), and the table it opens then is closed too."""
    main = client.window()
    table = {"transient_for": main, "closes_on_return": True, "at": (520, 420)}
    prompt = client.window(
        at=(500, 400), transient_for=main, closes_on_return=True, then_opens=table
    )
    windows = GameWindows()
    windows.find([Rect(310, 210, 100, 50)])
    windows.words = lambda _: ["congratulations", "leave", "your", "name", "ok"]
    closed = windows.close_dialogs()
    assert [dialog.window_id for dialog in closed][0] == prompt and len(closed) == 2
    assert [key for _, key in client.keys] == [XK.XK_Escape, XK.XK_Return] * 2


@pytest.mark.realgame
def test_a_dialog_that_asks_to_quit_is_never_answered_by_return(client: Client) -> None:
    main = client.window()
    dialog = client.window(transient_for=main, closes_on_return=True)
    with pytest.raises(DialogError, match="quit"):
        close_dialog(dialogs(main)[0], words=lambda _: ["really", "quit", "ok", "cancel"])
    assert client.keys == [(dialog, XK.XK_Escape)]
    assert dialogs(main) != []


@pytest.mark.realgame
def test_a_dialog_that_closes_seconds_after_escape_is_waited_for(client: Client) -> None:
    """Wine's dialogs (winemine's name prompt) close about 2 s after Escape."""
    main = client.window()
    client.window(transient_for=main, closes_on_escape=True, close_delay=2.0)
    close_dialog(dialogs(main)[0])
    assert dialogs(main) == []


@pytest.mark.realgame
def test_the_dialog_that_closing_one_opens_is_closed_too(client: Client) -> None:
    """A best-time name prompt answered opens the best-times table: both are closed, in turn."""
    main = client.window()
    table = {"transient_for": main, "closes_on_escape": True, "close_delay": 0.2, "at": (520, 420)}
    prompt = client.window(
        at=(500, 400), transient_for=main, closes_on_escape=True, close_delay=0.5, then_opens=table
    )
    windows = GameWindows()
    windows.find([Rect(310, 210, 100, 50)])
    closed = windows.close_dialogs()
    assert [dialog.window_id for dialog in closed][0] == prompt
    assert len(closed) == 2
    assert dialogs(main) == []


@pytest.mark.realgame
def test_a_window_too_small_or_off_the_screen_is_no_dialog(client: Client) -> None:
    """Some toolkits make a hidden 1x1 owner window, which Wine maps at the screen's centre; it
    is the game's (same connection) but shows nothing to answer."""
    main = client.window()
    client.window(at=(800, 600), size=(1, 1))
    client.window(at=(-500, -500), size=(200, 100))
    shown = client.window(transient_for=main)
    assert ids(dialogs(main)) == {shown}


@pytest.mark.realgame
def test_focus_gives_the_window_the_input_focus_and_refuses_a_hidden_one(client: Client) -> None:
    shown, hidden = client.window(), client.window(mapped=False)
    focus(shown)
    assert client.focused() == shown
    with pytest.raises(WindowError, match=rf"cannot focus window {hidden:#x}"):
        focus(hidden)


def test_game_windows_are_found_under_their_areas_and_a_gone_one_has_no_dialogs(
    client: Client, stranger: Client
) -> None:
    main = client.window(at=(300, 200))
    stranger.window(at=(700, 500), classes=("other", "Other"))
    client.window(at=(500, 400), transient_for=main, closes_on_escape=True)
    windows = GameWindows()
    windows.find([Rect(310, 210, 100, 50)])
    assert [window_id for window_id, _ in windows.found] == [main]
    windows.focus_at(320, 220)
    assert client.focused() == main
    assert [dialog.window_id for dialog in windows.close_dialogs()] != []
    assert windows.close_dialogs() == []

    def destroy(connection: Any) -> None:
        connection.create_resource_object("window", main).destroy()
        connection.sync()

    client._call(destroy)
    windows.focus_at(320, 220)  # nothing to focus; the key's own check refuses the key
    assert windows.close_dialogs() == []


def press(*keys: str) -> None:
    subprocess.run(["xdotool", "key", *keys], check=True)


def click(x: int, y: int) -> None:
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], check=True)


def wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + SHOW_TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.realgame
def test_gnome_mines_new_game_question_is_found_and_closed_with_escape(
    launch: LaunchGame,
) -> None:
    game = launch("gnome-mines", (8, 8, 10))
    pointer_off(game)
    board = bounding(hidden_tiles(grab(game)))
    x, y = game.geometry.x + board.left, game.geometry.y + board.top
    click(x + board.width // 2, y + board.height // 2)  # a game is running: it asks first
    time.sleep(0.5)
    before = grab(game)
    focus(game.window_id)
    press("ctrl+n")
    wait_for(lambda: dialogs(game.window_id), "no dialog opened on Ctrl+N")
    time.sleep(0.3)  # another window would have come with it by now
    (question,) = dialogs(game.window_id)
    assert Rect(*game.geometry).intersection(question.frame) == question.frame
    hidden = grab(game)[board.top : board.bottom, board.left : board.right]
    assert (hidden != before[board.top : board.bottom, board.left : board.right]).any()
    close_dialog(question)
    assert dialogs(game.window_id) == []

    def board_back() -> bool:
        now = grab(game)[board.top : board.bottom, board.left : board.right]
        return bool((now == before[board.top : board.bottom, board.left : board.right]).all())

    wait_for(board_back, "the board did not come back as it was")


@pytest.mark.realgame
def test_kmines_takes_ctrl_n_only_once_focused(launch: LaunchGame, client: Client) -> None:
    """A click gives kmines the focus (Qt takes it with no window manager), so the test gives it
    to another window first, as a dialog or another program would hold it."""
    game = launch("kmines", "beginner")
    fresh = grab(game)
    board = bounding(hidden_tiles(fresh))
    x, y = game.geometry.x + board.left, game.geometry.y + board.top
    click(x + board.width // 2, y + board.height // 2)

    def board_now() -> Any:
        return grab(game)[board.top : board.bottom, board.left : board.right]

    fresh_board = fresh[board.top : board.bottom, board.left : board.right]
    wait_for(lambda: (board_now() != fresh_board).any(), "the click opened nothing")
    elsewhere = client.window(at=(1000, 800))  # another program's window has the focus
    focus(elsewhere)
    press("ctrl+n")  # with the pointer still over kmines' board
    time.sleep(1.0)
    assert (board_now() != fresh_board).any(), "kmines started a new game with no focus"
    assert [window for window, _ in client.keys] == [elsewhere, elsewhere]  # Ctrl, then N
    focus(game.window_id)
    press("ctrl+n")
    wait_for(lambda: (board_now() == fresh_board).all(), "Ctrl+N with the focus: no new game")


@pytest.mark.realgame
def test_the_guarded_mouse_focuses_kmines_for_a_key_and_closes_gnome_mines_question(
    launch: LaunchGame, client: Client
) -> None:
    """What the play loop and calibration use: :class:`controller.mouse.Mouse` finds the game
    windows under the areas it may click, gives the one under a key the focus (kmines takes no
    key without it) and closes their dialogs (gnome-mines asks before a new game)."""
    from controller.mouse import Mouse

    mines = launch("gnome-mines", (8, 8, 10))
    mines.move(270, 368)  # the screen's far corner: kmines' window, mapped above it, stays clear
    pointer_off(mines)
    mines_area = on_screen(bounding(hidden_tiles(grab(mines))), mines)
    kmines = launch("kmines", "beginner")
    fresh = grab(kmines)
    board = bounding(hidden_tiles(fresh))
    area = on_screen(board, kmines)
    click(*area.centre)
    click(*mines_area.centre)  # a game is running: Ctrl+N asks first
    focus(client.window(at=(1000, 800)))  # another program's window has the focus
    mouse = Mouse([area, mines_area])
    assert {window_id for window_id, _ in mouse.windows.found} == {
        kmines.window_id,
        mines.window_id,
    }

    def kmines_board() -> Any:
        return grab(kmines)[board.top : board.bottom, board.left : board.right]

    fresh_board = fresh[board.top : board.bottom, board.left : board.right]
    wait_for(lambda: (kmines_board() != fresh_board).any(), "the click opened nothing")
    mouse.press("ctrl+n", *area.centre)
    wait_for(lambda: (kmines_board() == fresh_board).all(), "Ctrl+N from the mouse: no new game")
    assert mouse.close_dialogs() == 0
    mouse.press("ctrl+n", *mines_area.centre)
    wait_for(lambda: dialogs(mines.window_id), "no dialog opened on Ctrl+N")
    assert mouse.close_dialogs() == 1
    assert dialogs(mines.window_id) == []
    mouse.park(mines_area)  # off the board (gnome-mines lights the tile under the pointer)
    parked = mouse.position()
    assert Rect(*mines.geometry).contains(*parked) and not mines_area.contains(*parked)


def on_screen(board: Rect, window: Any) -> Rect:
    """``board``, found in a capture of ``window``, in screen pixels."""
    return Rect(
        window.geometry.x + board.left, window.geometry.y + board.top, board.width, board.height
    )


@pytest.mark.realgame
def test_a_window_is_found_by_the_name_of_the_program_that_made_it(client: Client) -> None:
    """A user knows the program they started (``winemine.exe``), seldom its window's class."""
    program = psutil.Process(os.getpid()).name()
    client.window(pid=os.getpid(), classes=("fakegame", "Fakegame"), at=(610, 410))
    found = find_window(X11Windows(os.environ["DISPLAY"]), class_name=program)
    assert found.classes == ("fakegame", "Fakegame", program)
    assert found.frame == Rect(610, 410, 160, 90)
