"""The controller's error family: the desktop, the mouse, the outcome log and the commands."""

from __future__ import annotations

from solver.errors import AutosweeperError


class ControllerError(AutosweeperError):
    """The bot cannot act on the desktop or record what it did; the message says what and where."""
