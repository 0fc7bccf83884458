"""The virtual display, the real-game launcher and the guarded mouse, against real programs."""

from __future__ import annotations

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

import mss
import numpy as np
import pytest

from controller.mouse import ClickOutsideError, Mouse
from controller.sandbox import (
    GameWindow,
    SandboxError,
    VirtualDisplay,
    find_binary,
    launch_game,
    winemine_registry,
)
from vision.geometry import Rect


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return not state.stdout.strip().startswith("Z")


def _grab(window: GameWindow) -> np.ndarray:
    x, y, width, height = window.geometry
    with mss.MSS() as screen:
        return np.asarray(screen.grab({"left": x, "top": y, "width": width, "height": height}))


def test_winemine_registry_asks_for_the_exact_size_and_no_name_box() -> None:
    text = winemine_registry(16, 30, 99)
    assert '"Height"=dword:00000010' in text
    assert '"Width"=dword:0000001e' in text
    assert '"Mines"=dword:00000063' in text
    assert '"Difficulty"=dword:00000003' in text
    assert '"Time1"=dword:00000000' in text


@pytest.mark.parametrize("size", [(7, 9, 10), (9, 31, 10), (9, 9, 9), (9, 9, 65)])
def test_winemine_refuses_sizes_it_would_silently_change(size: tuple[int, int, int]) -> None:
    with pytest.raises(SandboxError, match="winemine cannot play"):
        winemine_registry(*size)


def test_unknown_game_and_level_are_named() -> None:
    with pytest.raises(SandboxError, match="unknown game 'nethack'"):
        launch_game("nethack")
    with pytest.raises(SandboxError, match="unknown level 'hard'"):
        launch_game("xdemineur", "hard")


@pytest.mark.realgame
def test_virtual_display_sets_and_restores_the_environment(virtual_display: VirtualDisplay) -> None:
    outer = os.environ["DISPLAY"]
    with VirtualDisplay(first_number=virtual_display.first_number + 5) as inner:
        assert os.environ["DISPLAY"] == inner.name != outer
        pid = inner.pid
        assert pid is not None
        answer = subprocess.run(["xdpyinfo"], capture_output=True, text=True)
        assert answer.returncode == 0 and "1280x1024" in answer.stdout
    assert os.environ["DISPLAY"] == outer
    assert not _alive(pid)


@pytest.mark.realgame
def test_only_holders_of_the_cookie_may_connect(virtual_display: VirtualDisplay) -> None:
    with_cookie = subprocess.run(["xdpyinfo"], capture_output=True)
    without = {key: value for key, value in os.environ.items() if key != "XAUTHORITY"}
    stranger = subprocess.run(["xdpyinfo"], capture_output=True, env=without)
    assert with_cookie.returncode == 0
    assert stranger.returncode != 0


@pytest.mark.realgame
def test_xdemineur_opens_moves_and_closes(xdemineur: GameWindow) -> None:
    x, y, width, height = xdemineur.geometry
    assert width > 12 * 20 and height > 9 * 20
    moved = xdemineur.move(x + 150, y + 90)
    assert (moved.x, moved.y) == (x + 150, y + 90)
    assert _grab(xdemineur)[:, :, :3].std() > 10, "the moved window shows no picture"
    xdemineur.close()
    assert not _alive(xdemineur.pid)


@pytest.mark.realgame
def test_xdemineur_refuses_fewer_than_twelve_columns(virtual_display: VirtualDisplay) -> None:
    if find_binary("xdemineur") is None:
        pytest.skip("xdemineur is not installed")
    with pytest.raises(SandboxError, match="at least 12 columns"):
        launch_game("xdemineur", (9, 9, 10))


@pytest.mark.realgame
def test_winemine_opens_at_the_asked_size_and_closes(launch) -> None:
    small = launch("winemine", (9, 9, 10))
    wide = launch("winemine", (9, 20, 10))
    assert small.window_id != wide.window_id
    # a launch returns once the game has painted its window, not merely mapped it
    assert _grab(small)[:, :, :3].std() > 10 and _grab(wide)[:, :, :3].std() > 10
    # 16 px cells: 11 more columns make the window 176 px wider, whatever the frame.
    assert wide.geometry.width - small.geometry.width == 11 * 16
    wide.close()
    assert not _alive(wide.pid) and _alive(small.pid)


@pytest.mark.realgame
def test_winemines_launched_at_once_each_open_at_their_own_size(launch) -> None:
    """Every winemine reads its size from the one shared registry: launches must not mix."""
    sizes = [(9, 9, 10), (9, 20, 10), (12, 14, 20)]
    with ThreadPoolExecutor(len(sizes)) as pool:
        windows = list(pool.map(lambda size: launch("winemine", size), sizes))
    frames = {
        (window.geometry.width - 16 * columns, window.geometry.height - 16 * rows)
        for window, (rows, columns, _) in zip(windows, sizes, strict=True)
    }
    assert len(frames) == 1, f"windows of other sizes than asked: frames {frames}"


@pytest.mark.realgame
def test_mouse_clicks_only_inside_allowed_areas(xdemineur: GameWindow, mouse: Mouse) -> None:
    x, y, width, height = xdemineur.geometry
    mouse.allow(Rect(x + 10, y + 10, 20, 20))
    mouse.click(x + 15, y + 15, "right")
    assert mouse.position() == (x + 15, y + 15)
    with pytest.raises(ClickOutsideError, match=r"\(500, 500\)"):
        mouse.click(500, 500)
    assert mouse.position() == (x + 15, y + 15)
    mouse.allow(Rect(0, 0, 5, 5))
    with pytest.raises(ClickOutsideError, match="corner"):
        mouse.click(0, 0)


def test_rect_intersection_is_the_shared_part_or_empty() -> None:
    screen = Rect(0, 0, 1280, 1024)
    assert Rect(1200, 1000, 200, 100).intersection(screen) == Rect(1200, 1000, 80, 24)
    assert Rect(10, 20, 30, 40).intersection(screen) == Rect(10, 20, 30, 40)
    empty = Rect(2000, 5, 10, 10).intersection(screen)
    assert empty.width == 0
