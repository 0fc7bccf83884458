"""Board sizes: a level by name or as (rows, columns, mines), and the sizes a game opens."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from controller.errors import SandboxError
from solver import LEVELS

Size = tuple[int, int, int]
"""(rows, columns, mines)."""


def resolve_size(level: str | Size) -> Size:
    """A level name from :data:`solver.LEVELS` or an explicit (rows, columns, mines)."""
    if isinstance(level, str):
        if level not in LEVELS:
            raise SandboxError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        return LEVELS[level]
    rows, columns, mines = level
    if rows < 1 or columns < 1 or not 0 < mines < rows * columns:
        raise SandboxError(f"impossible board {rows}x{columns} with {mines} mines")
    return rows, columns, mines


def opens_only(game: str, sizes: Iterable[Size]) -> Callable[[Size], str | None]:
    """The refusal of a game that opens only ``sizes``."""
    sizes = tuple(sizes)

    def refusal(size: Size) -> str | None:
        if size in sizes:
            return None
        known = ", ".join(f"{r}x{c}/{m}" for r, c, m in sizes)
        rows, columns, mines = size
        return f"{game} opens only {known} (rows x columns/mines), not {rows}x{columns}/{mines}"

    return refusal


def same_mines(sizes: Iterable[Size]) -> Callable[[Size], Size]:
    """The fitting of a game that opens only ``sizes``: the one with a size's mine count (8x8
    for Beginner's 10), if any."""
    sizes = tuple(sizes)
    return lambda size: next((opened for opened in sizes if opened[2] == size[2]), size)
