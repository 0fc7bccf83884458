"""The root of every error autosweeper reports, and the solver's own family.

Each package has one family under :class:`AutosweeperError` (``SolverError`` here,
``vision.errors.VisionError``, ``calibration.errors.CalibrationError``,
``controller.errors.ControllerError``), so the ``autosweeper`` command catches the root once and
prints its one-line message, as click does with ``ClickException``. The root lives in ``solver``
because ``solver`` is the bottom layer: every other package may import it.
"""

from __future__ import annotations


class AutosweeperError(Exception):
    """Something autosweeper cannot do, said in a message that names what and where."""


class SolverError(AutosweeperError):
    """A board, position or setting the rules and mathematics cannot work with."""


class StaleBuildError(SolverError, ImportError):
    """A compiled solver module older than its source, in a checkout: the old code would run."""
