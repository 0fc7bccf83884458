"""Display scaling on Windows: where a window frame or a click point given in this process's
coordinates lies in the screen's pixels, which captures (mss) show.

A process declared per-monitor DPI-aware (Windows 8.1 and later: what
:func:`controller.desktop.windows.declare_dpi_aware` asks for first) gets screen pixels
everywhere, and nothing needs mapping. Where only less could be declared (the awareness was
set before, by a manifest or the user's compatibility settings), Windows scales what it tells
the process: a DPI-unaware process sees every monitor at 100%, a system-aware one sees each
monitor at the scaling the primary one had at sign-in. :class:`Scaling` maps both ways, so
that the board found in a capture is clicked where it is.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from vision.geometry import Rect

BASE_DPI = 96
"""The DPI of 100% scaling."""
PER_MONITOR = ("per-monitor v2", "per-monitor")
MONITOR_DEFAULTTONEAREST = 2
MDT_EFFECTIVE_DPI = 0
LOGPIXELSX = 88


@dataclass(frozen=True)
class Scaling:
    """How this process's coordinates relate to screen pixels on one monitor.

    ``awareness`` is what the process declared (see ``declare_dpi_aware``; None: nothing, so
    unaware); ``monitor_dpi`` the monitor's (96 at 100%, 120 at 125%, 144 at 150%, 192 at
    200%); ``system_dpi`` the primary monitor's at sign-in, which a system-aware process is
    given for every monitor.
    """

    awareness: str | None
    monitor_dpi: int = BASE_DPI
    system_dpi: int = BASE_DPI

    @property
    def pixels_per_unit(self) -> float:
        """Screen pixels per unit of this process's coordinates on that monitor."""
        if self.awareness in PER_MONITOR:
            return 1.0
        if self.awareness == "system":
            return self.monitor_dpi / self.system_dpi
        return self.monitor_dpi / BASE_DPI

    def to_pixels(self, frame: Rect) -> Rect:
        """A frame given in this process's coordinates, in screen pixels: its edges scaled
        (so that it covers the pixels Windows stretched it over)."""
        factor = self.pixels_per_unit
        left, top = round(frame.left * factor), round(frame.top * factor)
        right, bottom = round(frame.right * factor), round(frame.bottom * factor)
        return Rect(left, top, right - left, bottom - top)

    def to_units(self, x: int, y: int) -> tuple[int, int]:
        """The point of this process's coordinates that lands on screen pixel (x, y): the
        unit holding it, so a click lands within a unit's pixels of the one aimed at."""
        factor = self.pixels_per_unit
        return int(x // factor), int(y // factor)


def monitor_scaling(awareness: str | None, x: int, y: int, windll: Any = None) -> Scaling:
    """The scaling of the monitor nearest screen point (x, y), as this Windows process sees
    it; with per-monitor awareness none is read (there is nothing to map). ``windll`` is for
    tests. Where the calls are missing (before Windows 8.1), 100% is taken."""
    if awareness in PER_MONITOR:
        return Scaling(awareness)
    if windll is None:
        import ctypes

        windll = ctypes.windll  # type: ignore[attr-defined]
    return Scaling(awareness, _monitor_dpi(windll, x, y), _system_dpi(windll))


def _monitor_dpi(windll: Any, x: int, y: int) -> int:
    import ctypes
    from ctypes import wintypes

    try:
        monitor = windll.user32.MonitorFromPoint(wintypes.POINT(x, y), MONITOR_DEFAULTTONEAREST)
        dpi_x, dpi_y = ctypes.c_uint(), ctypes.c_uint()
        failed = windll.shcore.GetDpiForMonitor(
            monitor, MDT_EFFECTIVE_DPI, ctypes.byref(dpi_x), ctypes.byref(dpi_y)
        )
    except (AttributeError, OSError):
        return BASE_DPI
    return int(dpi_x.value) if failed == 0 and dpi_x.value else BASE_DPI


@functools.cache
def _system_dpi(windll: Any) -> int:
    try:
        screen = windll.user32.GetDC(0)
        try:
            return int(windll.gdi32.GetDeviceCaps(screen, LOGPIXELSX)) or BASE_DPI
        finally:
            windll.user32.ReleaseDC(0, screen)
    except (AttributeError, OSError):
        return BASE_DPI
