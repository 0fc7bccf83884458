"""Display scaling on Windows (controller/desktop/dpi.py): frames and click points mapped between
a process's coordinates and screen pixels at 100, 125, 150 and 200%, for each DPI awareness a
process may end up with. Under Wine only system awareness takes, at one DPI: the real calls run
there (tests/windows); the mapping is tested here."""

from __future__ import annotations

import ctypes
from typing import Any

import pytest
from test_windows import FakePyWinCtl, FakePyWinCtlWindow

from controller.desktop.dpi import BASE_DPI, Scaling, monitor_scaling
from controller.desktop.windows import PyWinCtlWindows
from vision.geometry import Rect

PERCENTS = (100, 125, 150, 200)


def dpi(percent: int) -> int:
    return BASE_DPI * percent // 100


@pytest.mark.parametrize("percent", PERCENTS)
@pytest.mark.parametrize("awareness", ["per-monitor v2", "per-monitor"])
def test_a_per_monitor_aware_process_sees_pixels_at_any_scaling(
    awareness: str, percent: int
) -> None:
    scaling = Scaling(awareness, dpi(percent), dpi(100))
    frame = Rect(13, 47, 301, 199)
    assert scaling.to_pixels(frame) == frame
    assert scaling.to_units(155, 230) == (155, 230)


def board_cells(left: int, top: int, pitch: int, rows: int, columns: int) -> list[Rect]:
    return [
        Rect(left + column * pitch, top + row * pitch, pitch, pitch)
        for row in range(rows)
        for column in range(columns)
    ]


@pytest.mark.parametrize("percent", PERCENTS)
@pytest.mark.parametrize(("awareness", "system"), [(None, 100), ("system", 100), ("system", 150)])
def test_every_cell_clicked_through_a_scaled_view_lands_in_that_cell(
    awareness: str | None, system: int, percent: int
) -> None:
    """A board of 16-px cells captured at its pixels: each cell's centre, mapped to the units
    the process clicks in, lands back (as Windows stretches units) inside that cell."""
    scaling = Scaling(awareness, dpi(percent), dpi(system))
    factor = scaling.pixels_per_unit
    assert factor == pytest.approx(percent / system if awareness == "system" else percent / 100)
    for cell in board_cells(317, 233, 16, 16, 30):
        x, y = scaling.to_units(*cell.centre)
        landed = (int(x * factor), int(y * factor))  # where Windows puts the unit's pointer
        assert cell.contains(*landed), (cell, landed)


@pytest.mark.parametrize("percent", PERCENTS)
def test_a_frame_given_in_units_covers_the_pixels_windows_stretched_it_over(percent: int) -> None:
    scaling = Scaling(None, dpi(percent))
    units = Rect(100, 80, 154, 201)  # winemine's window at 100%
    pixels = scaling.to_pixels(units)
    factor = percent / 100
    assert (pixels.left, pixels.top) == (round(100 * factor), round(80 * factor))
    assert abs(pixels.width - 154 * factor) <= 1 and abs(pixels.height - 201 * factor) <= 1
    assert scaling.to_units(pixels.left, pixels.top) == (100, 80)


class MonitorsWindll:
    """user32/shcore/gdi32 as a Windows with one monitor at ``percent`` and the primary one
    at sign-in at ``system``: the calls monitor_scaling makes."""

    def __init__(self, percent: int, system: int) -> None:
        self.percent, self.system = percent, system
        self.user32 = self
        self.shcore = self
        self.gdi32 = self

    def MonitorFromPoint(self, point: Any, flags: int) -> int:  # noqa: N802 - user32's name
        return 7

    def GetDpiForMonitor(self, monitor: int, kind: int, x: Any, y: Any) -> int:  # noqa: N802
        ctypes.cast(x, ctypes.POINTER(ctypes.c_uint)).contents.value = dpi(self.percent)
        ctypes.cast(y, ctypes.POINTER(ctypes.c_uint)).contents.value = dpi(self.percent)
        return 0

    def GetDC(self, window: int) -> int:  # noqa: N802
        return 1

    def ReleaseDC(self, window: int, dc: int) -> int:  # noqa: N802
        return 1

    def GetDeviceCaps(self, dc: int, index: int) -> int:  # noqa: N802
        return dpi(self.system)


@pytest.mark.parametrize("percent", PERCENTS)
def test_the_scaling_is_read_from_the_monitor_under_the_point(percent: int) -> None:
    windll = MonitorsWindll(percent, 125)
    assert monitor_scaling("system", 10, 10, windll) == Scaling("system", dpi(percent), dpi(125))
    assert monitor_scaling(None, 10, 10, windll).pixels_per_unit == percent / 100
    assert monitor_scaling("per-monitor v2", 10, 10, windll) == Scaling("per-monitor v2")


def test_windows_listed_by_a_system_aware_process_are_mapped_to_pixels() -> None:
    """On a 150% monitor beside a 100% primary one, a system-aware process is told frames at
    100%: the game window is found where its pixels are."""
    window = FakePyWinCtlWindow("Minesweeper", "winmine.exe", (100, 80, 254, 281))
    source = PyWinCtlWindows(FakePyWinCtl([window]), "win32", "system", MonitorsWindll(150, 100))
    (found,) = source.windows()
    assert found.frame == Rect(150, 120, 231, 302)
