"""Types of the compiled look-ahead classes (solver/_guess_core.pyx)."""

import numpy as np
import numpy.typing as npt

from solver.board import Cell
from solver.guess import _Layouts

def layout_classes(
    cell: Cell, unknown: frozenset[Cell], enumerated: list[_Layouts]
) -> list[tuple[int, int, int, list[tuple[Cell, int]]]]: ...
def layout_rows(
    boxes: list[tuple[int, ...]], choices: list[tuple[int, ...]], width: int
) -> npt.NDArray[np.bool_]: ...
