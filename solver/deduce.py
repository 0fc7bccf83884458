"""Cheap, sound deductions: cells that are certainly safe or certainly mines.

These are the rules a human uses first, and they settle most moves of a game at a tiny fraction
of the cost of the exact analysis, so the move chooser calls :func:`find_certain` on every move
and runs :func:`solver.analysis.analyze` only when it finds nothing. The rules, repeated until
nothing new follows:

* one number: if its unknown neighbours must all be mines, or its flags and known mines already
  satisfy it, every remaining neighbour is decided;
* two numbers A and B that share cells: the mines in B's own cells minus the mines in A's own
  cells equal B's count minus A's. When that difference is as large as B's own cells, B's own
  cells are all mines and A's own cells all safe (with A inside B this is the subset rule);
* the mine counter: when no mines are left, or as many as unknown cells, every unknown cell is
  decided.
"""

from __future__ import annotations

from collections import defaultdict

from solver.board import Board, BoardError, Cell
from solver.constraints import Constraint, Constraints, read_constraints


def _reduce(constraints: list[Constraint], safe: set[Cell], mines: set[Cell]) -> list[Constraint]:
    """The constraints without the newly decided ``safe`` and ``mines`` cells; raise if a number
    can no longer be met."""
    reduced = []
    for constraint in constraints:
        if constraint.unknown.isdisjoint(safe) and constraint.unknown.isdisjoint(mines):
            reduced.append(constraint)
            continue
        unknown = constraint.unknown - safe - mines
        need = constraint.mines - len(constraint.unknown & mines)
        if not 0 <= need <= len(unknown):
            raise BoardError(
                "the mines the other numbers force leave this number unsatisfiable",
                cell=constraint.cell,
            )
        if unknown:
            reduced.append(Constraint(constraint.cell, frozenset(unknown), need))
    return reduced


def _pair_rule(a: Constraint, b: Constraint, safe: set[Cell], mines: set[Cell]) -> None:
    """Apply the two-number rule to B against A.

    Both constraints stay true as cells get decided, so the rule is sound on either form.
    """
    only_b = b.unknown - a.unknown
    only_a = a.unknown - b.unknown
    difference = b.mines - a.mines
    if difference > len(only_b) or -difference > len(only_a):
        first = min(a.cell, b.cell)
        raise BoardError(
            f"the numbers at {a.cell} and {b.cell} cannot both be satisfied", cell=first
        )
    if difference == len(only_b):
        mines.update(only_b)
        safe.update(only_a)


def find_certain(board: Board) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The unknown cells the simple rules prove safe, and those they prove to be mines.

    Sound but not complete: every cell returned is certain, but :func:`solver.analysis.analyze`
    may find more. Raises :class:`BoardError` for a board the rules show to be impossible.
    """
    return certain_cells(read_constraints(board))


def certain_cells(position: Constraints) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """:func:`find_certain` for a board already read into constraints."""
    safe: set[Cell] = set()
    mines: set[Cell] = set()
    reduced_safe: set[Cell] = set()
    reduced_mines: set[Cell] = set()
    constraints = list(position.constraints)
    while True:
        before = len(safe) + len(mines)
        if len(safe) > len(reduced_safe) or len(mines) > len(reduced_mines):
            # Only cells decided since the last reduction can change a constraint.
            constraints = _reduce(constraints, safe - reduced_safe, mines - reduced_mines)
            reduced_safe, reduced_mines = set(safe), set(mines)
        for constraint in constraints:
            if constraint.mines == 0:
                safe.update(constraint.unknown)
            elif constraint.mines == len(constraint.unknown):
                mines.update(constraint.unknown)
        if len(safe) + len(mines) == before:
            _apply_pair_rules(constraints, safe, mines)
        if not mines.isdisjoint(safe):
            raise BoardError(
                "the numbers force this cell to be both a mine and safe", cell=min(mines & safe)
            )
        undecided = position.unknown_count - len(safe) - len(mines)
        mines_left = position.mines_left - len(mines)
        if not 0 <= mines_left <= undecided:
            raise BoardError(
                f"the numbers force {len(mines)} of the {position.mines_left} unflagged mines "
                f"and leave {undecided} cells for the rest"
            )
        if undecided and mines_left in (0, undecided):
            (mines if mines_left else safe).update(position.unknown - safe - mines)
        if len(safe) + len(mines) == before:
            return frozenset(safe), frozenset(mines)


def _apply_pair_rules(constraints: list[Constraint], safe: set[Cell], mines: set[Cell]) -> None:
    """Apply the two-number rule to every pair of numbers that share an unknown cell."""
    touching: defaultdict[Cell, list[int]] = defaultdict(list)
    for index, constraint in enumerate(constraints):
        for cell in constraint.unknown:
            touching[cell].append(index)
    for index, a in enumerate(constraints):
        partners = {other for cell in a.unknown for other in touching[cell] if other > index}
        for other in sorted(partners):
            b = constraints[other]
            _pair_rule(a, b, safe, mines)
            _pair_rule(b, a, safe, mines)
