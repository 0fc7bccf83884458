"""Which first-click rule a game follows, from what the first clicks of calibration games showed.

Games differ in what they do under the first click: some let it lose, some move the mine away
(safe), some keep the whole 3x3 block around it free so that it always opens a 0. The rule decides
where the solver clicks first (an inner cell when a 0 is certain) and whether that click is a guess.
Each first click is weighed under each rule by the chance of what it showed (a mine, a 0, another
number) on a board of that size and mine count; a rule is taken only when it explains the clicks far
better than every other.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from calibration.meanings import Meanings
from calibration.record import ClickKind, PlayedGame
from solver import Cell, GameState, Tile
from solver.engine import FirstClick

EVIDENCE_FACTOR = 1000.0
"""How many times likelier the clicks must be under the rule taken than under any other."""
RULES = (FirstClick.NONE, FirstClick.SAFE, FirstClick.OPENING)
"""The rules told apart (the one that moves a mine under the first click to the first free
cell shows what SAFE shows)."""


class Shown(StrEnum):
    """What a game's first opened cell showed."""

    MINE = "mine"
    ZERO = "zero"
    NUMBER = "number"


@dataclass(frozen=True)
class FirstOpen:
    """The first cell a game opened, on a board of ``shape`` with ``mines`` mines."""

    shape: tuple[int, int]
    mines: int
    cell: Cell
    shown: Shown

    @property
    def neighbours(self) -> int:
        rows, columns = self.shape
        row, column = self.cell
        span_rows = min(row + 1, rows - 1) - max(row - 1, 0) + 1
        span_columns = min(column + 1, columns - 1) - max(column - 1, 0) + 1
        return span_rows * span_columns - 1


def first_opens(games: Iterable[PlayedGame], meanings: Meanings) -> list[FirstOpen]:
    """The first opened cell of every game whose mine count is known and whose first open
    showed a mine, or a number ``meanings`` knows the value of."""
    seen = []
    for game in games:
        opens = [index for index, step in enumerate(game.steps) if step.click is ClickKind.OPEN]
        if game.mines is None or not opens:
            continue
        index = opens[0]
        step = game.steps[index]
        shape = (int(step.after.shape[0]), int(step.after.shape[1]))
        if game.state is GameState.LOST and index == len(game.steps) - 1:
            shown = Shown.MINE
        else:
            tile = meanings.tiles.get(int(step.after[step.cell]))
            if tile is None or not tile.is_number:
                continue
            shown = Shown.ZERO if tile == Tile.ZERO else Shown.NUMBER
        seen.append(FirstOpen(shape, game.mines, step.cell, shown))
    return seen


def chance(rule: FirstClick, first: FirstOpen) -> float:
    """The chance that a first click on ``first.cell`` shows ``first.shown`` under ``rule``,
    mines placed uniformly wherever the rule allows."""
    rows, columns = first.shape
    cells, mines, block = rows * columns, first.mines, first.neighbours + 1
    if rule is FirstClick.OPENING:
        return 1.0 if first.shown is Shown.ZERO and mines <= cells - block else 0.0
    # Uniform over every cell (NONE) or over every other cell (SAFE).
    places = cells if rule is FirstClick.NONE else cells - 1
    mine = mines / cells if rule is FirstClick.NONE else 0.0
    free_around = cells - block
    zero = math.comb(free_around, mines) / math.comb(places, mines) if mines <= places else 0.0
    if first.shown is Shown.MINE:
        return mine
    if first.shown is Shown.ZERO:
        return zero
    return max(0.0, 1.0 - mine - zero)


def first_click_rule(seen: Sequence[FirstOpen]) -> FirstClick | None:
    """The rule that explains ``seen`` at least :data:`EVIDENCE_FACTOR` times better than any
    other, or None while the clicks cannot tell."""
    if not seen:
        return None
    weights = {rule: _log_likelihood(rule, seen) for rule in RULES}
    ranked = sorted(RULES, key=lambda rule: weights[rule], reverse=True)
    best, runner_up = weights[ranked[0]], weights[ranked[1]]
    if best == -math.inf or best - runner_up < math.log(EVIDENCE_FACTOR):
        return None
    return ranked[0]


def _log_likelihood(rule: FirstClick, seen: Sequence[FirstOpen]) -> float:
    total = 0.0
    for first in seen:
        probability = chance(rule, first)
        if probability <= 0.0:
            return -math.inf
        total += math.log(probability)
    return total
