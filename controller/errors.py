"""The controller's error family: the desktop, the mouse, the outcome log and the commands."""

from __future__ import annotations

from solver.errors import AutosweeperError


class ControllerError(AutosweeperError):
    """The bot cannot act on the desktop or record what it did; the message says what and where."""


class CommandError(ControllerError):
    """A command cannot do what it was asked (options that do not go together, an output that
    cannot be written, a file that is not what it should be)."""


class SandboxError(ControllerError):
    """A display or game that could not be started or found; the message names which."""
