"""The search of best play over a list of layouts: the core of :mod:`solver.winprob`.

A *position* is a bitmask over a list of full-board mine layouts (each a bitmask over the
hidden cells), bit ``i`` set while layout ``i`` is still possible. Opening a cell loses on the
layouts with a mine there and splits the rest by the number shown; every cell then safe in all
layouts of a part is opened for free. The value of a position is the best, over the cells it
could open, of the summed values of the parts, kept as a whole number (the weight of the
layouts best play wins); positions are memoised, and a cell is skipped when even winning every
layout it survives could not beat the best cell found so far.

:class:`Search` is the readable Python; :mod:`solver._winprob_core` compiles it step for step
(Cython), and :func:`new_search` takes the compiled one where the extension is built.
"""

from __future__ import annotations

from functools import reduce
from operator import and_, or_
from typing import cast

from solver.board import Board, Cell
from solver.errors import PositionTooLarge
from solver.layouts import hidden_neighbours
from solver.settings import current

try:
    from solver import _winprob_core as _core
except ImportError:  # a checkout whose extension is not built: the same search, in Python
    _core = None  # type: ignore[assignment]


def new_search(
    board: Board, cells: list[Cell], layouts: list[int], weights: list[int], max_visits: int
) -> Search:
    """A search of ``layouts`` (bitmasks over ``cells``) of ``board``, compiled where
    :mod:`solver._winprob_core` is built (the same search in C, move for move), else
    :class:`Search`. Raises :class:`PositionTooLarge` past the setting ``max_unresolved``
    cells that are a mine in some layouts and not in others."""
    unresolved = _unresolved_mask(layouts).bit_count()
    most = current().max_unresolved
    if unresolved > most:
        raise PositionTooLarge(f"{unresolved} cells are still undecided, more than {most}")
    neighbours = hidden_neighbours(board, cells, {cell: i for i, cell in enumerate(cells)})
    if _core is None:
        return Search(layouts, weights, neighbours, max_visits, PositionTooLarge)
    # The compiled twin has Search's methods (its stub, solver/_winprob_core.pyi, lists them).
    return cast(Search, _core.Search(layouts, weights, neighbours, max_visits, PositionTooLarge))


class Search:
    """One win-probability search over a list of layouts (each a bitmask over the hidden cells).

    A *position* is a bitmask over that list: bit ``i`` set while layout ``i`` is still
    possible. Everything a split asks of a layout is worked out once, up front: per cell, the
    layouts with a mine there (:attr:`mined_at`) and those showing each number there
    (:attr:`showing`). Positions are split, and their parts listed, in one fixed order (cell by
    cell in index order, each by the number shown from 0 up), so the search looks at layouts in
    the same order on every run, and :mod:`solver._winprob_core`, which compiles this class
    step for step, gives up at the same point and picks the same cells.
    """

    def __init__(
        self,
        layouts: list[int],
        weights: list[int],
        neighbours: list[list[int]],
        max_visits: int,
        too_large: type[Exception],
    ) -> None:
        self.weights = weights
        self.uniform = all(weight == 1 for weight in weights)
        """Every layout weighs 1 (all rules but ``xp`` on a fresh board): a weight is a count."""
        self.lightest = min(weights, default=0)
        self.max_visits = max_visits
        self.visits_left = max_visits
        self.too_large = too_large
        self.everything = (1 << len(layouts)) - 1
        self.mined_at = [0] * len(neighbours)
        for i, layout in enumerate(layouts):
            for cell in _bits(layout):
                self.mined_at[cell] |= 1 << i
        self.unresolved = [c for c, m in enumerate(self.mined_at) if 0 != m != self.everything]
        """The cells a mine in some layouts and not in others, in index order."""
        self.openable = [c for c, m in enumerate(self.mined_at) if m != self.everything]
        """The cells safe in some layout: a mine in every layout is never opened."""
        self.showing: dict[int, list[int]] = {}
        for cell in self.openable:
            mask = sum(1 << n for n in neighbours[cell])
            by_number = [0] * 9
            for i, layout in enumerate(layouts):
                by_number[(layout & mask).bit_count()] |= 1 << i
            self.showing[cell] = by_number
        self.memo: dict[int, int] = {}

    def safe_everywhere(self) -> list[int]:
        """The cells safe in every layout, in index order."""
        return [cell for cell, mined in enumerate(self.mined_at) if not mined]

    def surviving(self, cell: int) -> int:
        """The position left once ``cell`` is opened and found safe."""
        return self.everything & ~self.mined_at[cell]

    def weigh(self, layouts: int) -> int:
        """The total weight of the position ``layouts``."""
        if self.uniform:
            return layouts.bit_count()
        return sum(self.weights[i] for i in _bits(layouts))

    def split(self, layouts: int, opened: int) -> list[int]:
        """The positions ``layouts`` falls into once every certain safe cell is opened.

        ``opened`` holds the cells already open (safe in all ``layouts``, their numbers known).
        Raises ``too_large`` once the search has looked at too many layouts.
        """
        parts: list[int] = []
        self._split_into(parts, layouts, opened)
        return parts

    def _split_into(self, parts: list[int], layouts: int, opened: int) -> None:
        """:meth:`split`, appending the positions to ``parts``."""
        count = layouts.bit_count()
        self.visits_left -= count
        if self.visits_left < 0:
            raise self.too_large(f"the search looked at more than {self.max_visits} layouts")
        newly_safe = [
            cell
            for cell in self.openable
            if not opened >> cell & 1 and not layouts & self.mined_at[cell]
        ]
        if not newly_safe or count == 1:
            parts.append(layouts)
            return
        # Layouts that show the same numbers on the newly safe cells stay together.
        pieces = [layouts]
        for cell in newly_safe:
            pieces = [
                piece & showing
                for piece in pieces
                for showing in self.showing[cell]
                if piece & showing
            ]
        if len(pieces) == 1:  # the numbers tell nothing: no further cell becomes safe either
            parts.append(layouts)
            return
        opened |= sum(1 << cell for cell in newly_safe)
        for piece in pieces:
            if piece & (piece - 1):
                self._split_into(parts, piece, opened)
            else:
                parts.append(piece)

    def won_after(self, layouts: int) -> int:
        """The weight best play wins from ``layouts`` once every cell safe in all of them (and
        every cell that makes safe in turn) is opened: the value of a move that leaves them
        (none: a move that always loses)."""
        return sum(map(self.value, self.split(layouts, 0))) if layouts else 0

    def value(self, layouts: int) -> int:
        """The weight of the layouts of this (closed) position that best play wins."""
        if layouts.bit_count() <= 2:  # two layouts have a cell that is a mine in just the lighter
            return max(self.weights[i] for i in _bits(layouts))
        known = self.memo.get(layouts)
        if known is None:
            opened = sum(1 << c for c, m in enumerate(self.mined_at) if not layouts & m)
            known = self.best_cell(layouts, opened)[1]
            self.memo[layouts] = known
        return known

    def best_cell(self, layouts: int, opened: int) -> tuple[int | None, int]:
        """The cell index whose opening wins the most weight, and that weight.

        A *dead* cell, one whose number (and the cells it makes safe) tells the layouts that
        survive it nothing, is tried only when every cell is dead: opening it can wait until
        the end of any line of play at no cost, since nothing played in between depends on it;
        so when equal weights make every informative cell worth at least two layouts (each part
        it splits into is worth one at least), the best first move is an informative one.
        """
        candidates = []
        for cell in self.unresolved:
            if 0 != layouts & self.mined_at[cell] != layouts:
                surviving = layouts & ~self.mined_at[cell]
                candidates.append((self.weigh(surviving), cell, surviving))
        candidates.sort(key=lambda candidate: -candidate[0])
        best_cell: int | None = None
        best = -1
        dead: list[tuple[int, list[int]]] = []
        for bound, cell, surviving in candidates:
            if bound <= best:
                break
            parts = self.split(surviving, opened)
            if self.uniform and len(parts) == 1 and surviving & (surviving - 1):
                dead.append((cell, parts))
                continue
            won = self._outcome(parts, bound, best)
            if won is not None:
                best_cell, best = cell, won
                if won == bound and bound == candidates[0][0]:
                    break
        if best_cell is None:
            for cell, parts in dead:
                won = self._outcome(parts, self.weigh(parts[0]), best)
                if won is not None:
                    best_cell, best = cell, won
        if best_cell is None and layouts.bit_count() == 1:
            return None, self.weights[layouts.bit_length() - 1]
        return best_cell, max(best, 0)

    def _outcome(self, parts: list[int], bound: int, best: int) -> int | None:
        """The weight best play wins over ``parts`` (the positions one move leads to, together
        worth ``bound``), or None once it cannot beat ``best``.

        A part of two layouts or more loses one at least (its next cell is a mine in some
        layout), which bounds the total before any part is searched.
        """
        undecided = sum(1 for part in parts if part & (part - 1))
        reachable = bound - undecided * self.lightest
        if reachable <= best:
            return None
        won = 0
        for part in parts:
            if not part & (part - 1):
                won += self.weights[part.bit_length() - 1]
                continue
            part_value = self.value(part)
            won += part_value
            reachable -= self.weigh(part) - self.lightest - part_value
            if reachable <= best:
                return None
        return won


def _unresolved_mask(layouts: list[int]) -> int:
    """The cells that are a mine in some of ``layouts`` and not in others."""
    return reduce(or_, layouts, 0) & ~reduce(and_, layouts, -1)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
