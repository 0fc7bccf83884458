"""The controller's errors: the desktop, the mouse, the outcome log and the commands.

Every one is an :class:`~solver.errors.AutosweeperError`, printed by the ``autosweeper`` command
as one line naming what and where (the project's tree is drawn in :mod:`solver.errors`)::

    ControllerError                 the bot cannot act on the desktop or record what it did
    ├── CommandError                options that do not go together, an unwritable output
    ├── SandboxError                a display or game that cannot be started or found
    │   ├── ExitedEarlyError        the game ended before it opened a window
    │   └── WindowError             no single window matches, or windows cannot be listed
    │       └── DisplayLostError    the X server closed the connection
    ├── SetupError                  no game to play: no display, window or matching skin
    ├── DialogError                 a game's dialog stayed open when told to close
    ├── ClickOutsideError           a click outside every allowed rectangle: nothing clicked
    │   └── WindowClosedError       the window closed as a press was under way
    ├── InUseError                  another run holds the desktop or the outcome log
    ├── OutcomeLogError             the log file cannot be used or written
    ├── ReplayError                 a game that cannot be written as a replay
    └── StopKeyError                the stop key cannot be watched

    vision.errors.VisionError
    └── NotAsRead                   the screen is not as last read: nothing clicked
    vision.errors.SkinError
    └── NoNewGameAction             no new-game key and no face: no new game can be started

Not errors: :class:`controller.stopping.StopRequested` (a ``BaseException``, as
``KeyboardInterrupt`` is: the user asked to stop), and the play loop's ``GameAborted`` and
``NoFreshGame``, which end a game or a run as the outcome log records it.
"""

from __future__ import annotations

from solver.errors import AutosweeperError
from vision.errors import SkinError, VisionError


class ControllerError(AutosweeperError):
    """The bot cannot act on the desktop or record what it did; the message says what and where."""


class CommandError(ControllerError):
    """A command cannot do what it was asked (options that do not go together, an output that
    cannot be written, a file that is not what it should be)."""


class SandboxError(ControllerError):
    """A display or game that could not be started or found; the message names which."""


class WindowError(SandboxError):
    """No single visible window matches, or the desktop's windows cannot be listed; says which."""


class DialogError(ControllerError):
    """A game's dialog stayed open when told to close; the message names the dialog."""


class DisplayLostError(WindowError):
    """The X display closed the connection (the X server ended or dropped the bot)."""


class ExitedEarlyError(SandboxError):
    """The game's process ended before it opened a window."""


class InUseError(ControllerError):
    """Another autosweeper run holds the desktop or the outcome log; the message names it."""


class ClickOutsideError(ControllerError):
    """A click that would land outside every allowed rectangle; nothing was clicked."""


class WindowClosedError(ClickOutsideError):
    """The window under the point closed while a click or key press to it was under way: the
    press, if it went out, fell on the mouse's own guard window. Nothing was clicked."""


class OutcomeLogError(ControllerError):
    """The log file cannot be used; the message names the file. The file is left as it was."""


class ReplayError(ControllerError, ValueError):
    """A game that cannot be written as a replay; the message names the game and why."""


class SetupError(ControllerError):
    """No game to play: no display, no window, no skin that matches. The message says which."""


class StopKeyError(ControllerError):
    """The stop key cannot be watched (unknown key, no keyboard state to read); says which."""


class NotAsRead(VisionError):
    """Just before a click, the screen did not show the game as last read: nothing was clicked.
    The board must be read again (and found again, if it moved) before any further click."""


class NoNewGameAction(SkinError):
    """The skin names no new-game key and the board has no face to click: no new game can be
    started."""
