"""Types of the compiled look-ahead classes (solver/_guess_core.pyx)."""

from solver.board import Cell
from solver.guess import _Layouts

def layout_classes(
    cell: Cell, unknown: frozenset[Cell], enumerated: list[_Layouts]
) -> list[tuple[int, int, int, list[tuple[Cell, int]]]]: ...
