"""Every error autosweeper reports, as one tree, and the solver's own.

The ``autosweeper`` command catches the root once and prints its message as one line naming
what and where (as click does with ``ClickException``). The root lives here because ``solver``
is the bottom layer: every other package may import it. Each package keeps its family in its
own ``errors`` module::

    AutosweeperError
    ├── SolverError                     (solver.errors) rules, mathematics, the benchmark
    │   ├── BoardError                  a board that cannot be read or cannot exist
    │   ├── MoveError                   text that is not a move
    │   ├── PositionTooLarge            too large for the exact win-probability search
    │   ├── SettingError                a solver setting that does not exist or cannot be so
    │   ├── BenchError                  a benchmark that cannot run, a strategy that misbehaved
    │   └── StaleBuildError             a compiled module older than its source
    ├── VisionError                     (vision.errors) the screen is not what the skin says
    ├── CalibrationError                (calibration.errors) calibration cannot go on
    └── ControllerError                 (controller.errors) the desktop, mouse, log, commands
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # solver.board raises BoardError itself
    from solver.board import Cell


class AutosweeperError(Exception):
    """Something autosweeper cannot do, said in a message that names what and where."""


class SolverError(AutosweeperError):
    """A board, position or setting the rules and mathematics cannot work with."""


class StaleBuildError(SolverError, ImportError):
    """A compiled solver module older than its source, in a checkout: the old code would run."""


class BoardError(SolverError, ValueError):
    """A board that cannot be read or cannot exist. The message names where."""

    def __init__(self, message: str, cell: Cell | None = None, line: int | None = None) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if cell is not None:
            where.append(f"cell (row {cell[0]}, column {cell[1]})")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.cell = cell
        self.line = line


class MoveError(SolverError, ValueError):
    """Text that is not a move."""


class PositionTooLarge(SolverError):
    """The position has too many layouts or open questions for an exact search."""


class SettingError(SolverError, ValueError):
    """A solver setting (:class:`solver.settings.Settings`) that does not exist, or a value of
    the wrong type or out of its range for one."""


class BenchError(SolverError, ValueError):
    """A benchmark that cannot run (a bad setting, strategy or saved file) or a strategy that
    misbehaved (no move, a move that changes nothing, an unknown action)."""
