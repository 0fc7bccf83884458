"""Finding a game window by title or class (controller/desktop/windows.py), and the DPI declaration
that must come first on Windows.

The X11 path runs against real games on the session's Xvfb display (no window manager) and is
checked against xwininfo; the Windows and macOS paths run against stand-ins with pywinctl's and
ctypes.windll's interfaces (there is no Windows or macOS machine here).
"""

from __future__ import annotations

import ctypes
import subprocess
import sys
from collections.abc import Collection
from dataclasses import dataclass, field

import pytest
from conftest import LaunchGame
from hypothesis import given
from hypothesis import strategies as st

from controller.commands.calibrate import desktop_window
from controller.desktop.windows import (
    DesktopWindow,
    PyWinCtlWindows,
    declare_dpi_aware,
    desktop_windows,
    find_window,
)
from controller.desktop.x11 import X11Windows
from controller.errors import WindowError
from vision.geometry import Rect


class FakeWindll:
    """Stands in for ctypes.windll: records calls; ``missing`` functions raise AttributeError."""

    def __init__(self, missing: Collection[str] = (), refusing: Collection[str] = ()) -> None:
        self.calls: list[tuple[str, tuple[object, ...]]] = []
        self.missing = set(missing)
        self.refusing = set(refusing)
        self.user32 = self._library()
        self.shcore = self._library()

    def _library(self) -> object:
        windll = self

        class Library:
            def __getattr__(self, name: str) -> object:
                if name in windll.missing:
                    raise AttributeError(name)

                def call(*arguments: object) -> int:
                    windll.calls.append((name, arguments))
                    refused = name in windll.refusing
                    if name == "SetProcessDpiAwareness":  # returns an HRESULT, 0 is S_OK
                        return 1 if refused else 0
                    return 0 if refused else 1

                return call

        return Library()


def test_no_dpi_declaration_off_windows() -> None:
    windll = FakeWindll()
    assert declare_dpi_aware("linux", windll) is None
    assert declare_dpi_aware("darwin", windll) is None
    assert windll.calls == []


def test_windows_is_declared_per_monitor_v2_first() -> None:
    windll = FakeWindll()
    assert declare_dpi_aware("win32", windll) == "per-monitor v2"
    ((name, (context,)),) = windll.calls
    assert name == "SetProcessDpiAwarenessContext"
    assert isinstance(context, ctypes.c_void_p)
    assert context.value == ctypes.c_void_p(-4).value  # DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2


def test_older_windows_fall_back_in_order() -> None:
    windll = FakeWindll(missing={"SetProcessDpiAwarenessContext"})
    assert declare_dpi_aware("win32", windll) == "per-monitor"
    assert windll.calls == [("SetProcessDpiAwareness", (2,))]
    windll = FakeWindll(
        missing={"SetProcessDpiAwarenessContext"}, refusing={"SetProcessDpiAwareness"}
    )
    assert declare_dpi_aware("win32", windll) == "system"
    assert [name for name, _ in windll.calls] == ["SetProcessDpiAwareness", "SetProcessDPIAware"]
    everything = {"SetProcessDpiAwarenessContext", "SetProcessDpiAwareness", "SetProcessDPIAware"}
    assert declare_dpi_aware("win32", FakeWindll(refusing=everything)) is None


# -- matching, against a fixed list of windows -------------------------------------------------


@dataclass
class Listed:
    """A window source that lists the windows it was given."""

    found: list[DesktopWindow]
    desktop: str = "the test desktop"

    def windows(self) -> list[DesktopWindow]:
        return list(self.found)


WINEMINE = DesktopWindow("WineMine", ("winemine.exe", "winemine.exe"), Rect(100, 50, 154, 201))
XDEMINEUR = DesktopWindow("xdémineur", ("/usr/games/xdemineur", "XDémineur"), Rect(1, 1, 661, 432))
TERMINAL = DesktopWindow("xterm: winemine", ("xterm", "XTerm"), Rect(0, 500, 640, 400))
DESKTOP = Listed([WINEMINE, XDEMINEUR, TERMINAL])


def test_a_window_is_found_by_part_of_its_class_or_title_in_any_case() -> None:
    assert find_window(DESKTOP, class_name="XDEMINEUR") == XDEMINEUR
    assert find_window(DESKTOP, class_name="Démineur") == XDEMINEUR  # the class, accent and all
    assert find_window(DESKTOP, class_name="WINEMINE.EXE") == WINEMINE
    assert find_window(DESKTOP, title="xdÉmin") == XDEMINEUR
    assert find_window(DESKTOP, title="xterm") == TERMINAL


def test_class_and_title_together_narrow_the_search() -> None:
    with pytest.raises(WindowError) as several:
        find_window(DESKTOP, title="winemine")
    message = str(several.value)
    assert "\n" not in message
    assert message.startswith("2 visible windows whose title contains 'winemine' on the test")
    assert "'WineMine' (class winemine.exe/winemine.exe) at 100,50,154,201" in message
    assert "'xterm: winemine' (class xterm/XTerm) at 0,500,640,400" in message
    assert find_window(DESKTOP, title="winemine", class_name="wine") == WINEMINE


def test_no_match_names_what_was_searched_and_where() -> None:
    with pytest.raises(WindowError) as none:
        find_window(DESKTOP, class_name="minesweeper", title="Game")
    assert str(none.value) == (
        "no visible window whose class contains 'minesweeper' and title contains 'Game' "
        "on the test desktop (of 3 visible windows)"
    )
    with pytest.raises(WindowError, match="title or class"):
        find_window(DESKTOP)


texts = st.text(st.characters(codec="utf-8", exclude_characters="\0"), min_size=1, max_size=8)
windows_listed = st.lists(
    st.builds(
        DesktopWindow,
        title=texts,
        classes=st.tuples(texts, texts),
        frame=st.builds(
            Rect, st.integers(-100, 2000), st.integers(-100, 2000), st.just(9), st.just(9)
        ),
    ),
    max_size=6,
)


@given(windows_listed, st.data())
def test_find_window_returns_the_only_match_or_says_how_many(
    listed: list[DesktopWindow], data: st.DataObject
) -> None:
    title = data.draw(st.one_of(st.none(), texts))
    class_name = data.draw(st.one_of(st.none(), texts) if title else texts)
    matching = [
        window
        for window in listed
        if (not title or title.casefold() in window.title.casefold())
        and (not class_name or any(class_name.casefold() in n.casefold() for n in window.classes))
    ]
    try:
        found = find_window(Listed(listed), title=title, class_name=class_name)
    except WindowError as error:
        assert len(matching) != 1
        assert str(error).startswith(f"{len(matching)} visible" if matching else "no visible")
    else:
        assert matching == [found]


# -- Windows and macOS, through a stand-in for pywinctl ----------------------------------------


@dataclass
class FakePyWinCtlWindow:
    """pywinctl's Window as this module uses it (its properties and methods of the same names)."""

    title: str
    app: str
    client_frame: tuple[int, int, int, int]
    """left, top, right, bottom, as pywinctl's getClientFrame returns them."""
    isVisible: bool = True  # pywinctl's names
    isMinimized: bool = False
    isAlive: bool = True
    closes_while_read: bool = False

    def getClientFrame(self) -> tuple[int, int, int, int]:
        if self.closes_while_read:
            self.isAlive = False
            raise OSError("invalid window handle")
        return self.client_frame

    def getAppName(self) -> str:
        return self.app


@dataclass
class FakePyWinCtl:
    """The pywinctl module: getAllWindows, recording what the DPI stand-in had seen by then."""

    listed: list[FakePyWinCtlWindow]
    windll: FakeWindll | None = None
    calls_before_listing: list[list[str]] = field(default_factory=list)

    def getAllWindows(self) -> list[FakePyWinCtlWindow]:
        seen = [name for name, _ in self.windll.calls] if self.windll else []
        self.calls_before_listing.append(seen)
        return self.listed


def test_windows_lists_through_pywinctl_after_declaring_dpi_awareness() -> None:
    windll = FakeWindll()
    library = FakePyWinCtl(
        [FakePyWinCtlWindow("Minesweeper", "MineSweeper.exe", (-1900, 120, -1700, 380))], windll
    )
    source = desktop_windows("win32", {}, windll=windll, library=library)
    window = find_window(source, class_name="minesweeper")
    assert window == DesktopWindow("Minesweeper", ("MineSweeper.exe",), Rect(-1900, 120, 200, 260))
    assert library.calls_before_listing == [["SetProcessDpiAwarenessContext"]]


def test_macos_lists_through_pywinctl_with_no_dpi_call() -> None:
    windll = FakeWindll()
    library = FakePyWinCtl([FakePyWinCtlWindow("Minesweeper", "Minesweeper", (10, 40, 330, 450))])
    source = desktop_windows("darwin", {}, windll=windll, library=library)
    assert find_window(source, title="mine").frame == Rect(10, 40, 320, 410)
    assert windll.calls == []


def test_hidden_minimized_and_vanished_windows_do_not_count() -> None:
    shown = FakePyWinCtlWindow("Minesweeper", "winmine.exe", (0, 0, 100, 100))
    listed = [
        FakePyWinCtlWindow("Minesweeper", "winmine.exe", (0, 0, 100, 100), isVisible=False),
        FakePyWinCtlWindow("Minesweeper", "winmine.exe", (0, 0, 100, 100), isMinimized=True),
        FakePyWinCtlWindow("Minesweeper", "winmine.exe", (0, 0, 1, 1), closes_while_read=True),
        shown,
    ]
    source = PyWinCtlWindows(FakePyWinCtl(listed), "win32", "per-monitor v2")
    assert source.windows() == [
        DesktopWindow("Minesweeper", ("winmine.exe",), Rect(0, 0, 100, 100))
    ]


def test_a_window_that_fails_while_alive_is_not_passed_over() -> None:
    class StillAlive(FakePyWinCtlWindow):
        def getClientFrame(self) -> tuple[int, int, int, int]:
            raise OSError("access denied")

    source = PyWinCtlWindows(
        FakePyWinCtl([StillAlive("Task Manager", "taskmgr.exe", (0, 0, 1, 1))]), "win32"
    )
    with pytest.raises(OSError, match="access denied"):
        source.windows()


def test_missing_pywinctl_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pywinctl", None)  # makes ``import pywinctl`` fail
    with pytest.raises(WindowError, match=r"on darwin needs pywinctl \(pip install pywinctl\)"):
        desktop_windows("darwin", {})


def test_x11_without_a_display_is_a_clear_error() -> None:
    with pytest.raises(WindowError, match="DISPLAY is not set"):
        desktop_windows("linux", {})
    with pytest.raises(WindowError, match="cannot list the windows of display :4242"):
        X11Windows(":4242").windows()


# -- X11, against real games on the session's display (no window manager) ----------------------


def xwininfo_frame(window_id: int) -> Rect:
    """The window's inside, from xwininfo: its "absolute upper-left" is the outer corner of the
    border, its width and height those inside the border."""
    output = subprocess.run(
        ["xwininfo", "-id", str(window_id)], capture_output=True, check=True
    ).stdout.decode("latin-1")  # it prints the title as the window holds it
    fields = {
        key.strip(): value.strip()
        for key, _, value in (line.partition(":") for line in output.splitlines())
    }
    border = int(fields["Border width"])
    return Rect(
        int(fields["Absolute upper-left X"]) + border,
        int(fields["Absolute upper-left Y"]) + border,
        int(fields["Width"]),
        int(fields["Height"]),
    )


def xdotool(*arguments: str) -> None:
    subprocess.run(["xdotool", *arguments], check=True, timeout=20)


@pytest.mark.realgame
def test_real_games_are_found_by_class_and_title_at_xwininfo_frames(launch: LaunchGame) -> None:
    xdemineur = launch("xdemineur", (9, 12, 10))
    winemine = launch("winemine", "beginner")
    xdemineur.move(300, 200)
    winemine.move(40, 650)
    source = desktop_windows()
    by_class = find_window(source, class_name="xdemineur")
    assert by_class.frame == xwininfo_frame(xdemineur.window_id)
    assert by_class.frame.left == 300 + 1  # xdemineur's window has a 1-pixel X border
    assert find_window(source, title="XDÉMINEUR") == by_class
    assert find_window(source, class_name="winemine").frame == xwininfo_frame(winemine.window_id)
    assert find_window(source, title="WineMine").frame == Rect(40, 650, *winemine.geometry[2:])
    # calibrate's search is this one
    assert desktop_window(None, window_title="xdém") == (by_class.frame, by_class.title)
    winemine_found = find_window(source, title="winemine")
    assert desktop_window(None, "wine", "mine") == (winemine_found.frame, winemine_found.title)


@pytest.mark.realgame
def test_an_unmapped_window_does_not_count(launch: LaunchGame) -> None:
    window = launch("xdemineur", (9, 12, 10))
    xdotool("windowunmap", "--sync", str(window.window_id))
    with pytest.raises(WindowError, match=r"^no visible window whose class contains 'xdemineur'"):
        find_window(desktop_windows(), class_name="xdemineur")
    xdotool("windowmap", "--sync", str(window.window_id))
    assert find_window(desktop_windows(), class_name="xdemineur").frame == xwininfo_frame(
        window.window_id
    )


@pytest.mark.realgame
def test_a_window_with_a_title_and_no_class_is_found_by_its_title(launch: LaunchGame) -> None:
    """Some games set no WM_CLASS (ace-minesweeper, of the Ace of Penguins, names only its
    title); such a window, holding no client of its own, is a client by its title."""
    window = launch("xdemineur", (9, 12, 10))
    subprocess.run(["xprop", "-id", str(window.window_id), "-remove", "WM_CLASS"], check=True)
    found = find_window(desktop_windows(), title="xdémineur")
    assert found.classes == ()
    assert found.frame == xwininfo_frame(window.window_id)


@pytest.mark.realgame
def test_two_matching_windows_are_listed_with_their_frames(launch: LaunchGame) -> None:
    first = launch("xdemineur", (9, 12, 10))
    second = launch("xdemineur", (9, 12, 10))
    second.move(700, 500)
    with pytest.raises(WindowError) as several:
        find_window(desktop_windows(), class_name="xdemineur")
    message = str(several.value)
    assert message.startswith("2 visible windows whose class contains 'xdemineur' on display :")
    for window in (first, second):
        frame = xwininfo_frame(window.window_id)
        assert f"at {frame.left},{frame.top},{frame.width},{frame.height}" in message
