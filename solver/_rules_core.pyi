"""Types of the compiled reading and rules (solver/_rules_core.pyx)."""

import numpy as np
import numpy.typing as npt

def number_keys(tiles: npt.NDArray[np.uint8], mines: int) -> tuple[list[int], int, int] | None: ...
def certain_bits(
    keys: tuple[int, ...],
    unknown_count: int,
    mines_left: int,
    unknown_mask: npt.NDArray[np.uint8],
) -> tuple[int, int] | None: ...
