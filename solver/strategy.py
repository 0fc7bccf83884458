"""Move choice: what to open (or flag) next, and the guess when nothing is certain.

The win rate is decided by the guesses, the speed by the certain moves, so the work is staged:

1. A fresh board: the first click (:func:`first_click`).
2. The cheap sound rules (:func:`solver.deduce.find_certain`): every certain safe cell at once.
3. The exact analysis (:func:`solver.analysis.analyze`): certain cells the rules missed.
4. A guess, only now:

   * few layouts left: the exact win-probability search (:mod:`solver.winprob`) picks the cell
     that wins most often;
   * an unavoidable 50/50 (:func:`solver.guess.forced_fifty_fifty`) is taken at once: it has to
     be guessed some time, and nothing learnt elsewhere can help with it;
   * otherwise the near-safest cells are scored by the chance of surviving them, times how good
     the next guess then is, over every number they may show (:mod:`solver.guess`; a number
     that leaves a certain safe cell counts as a sure second move). "How good" blends the
     safety of the safest next cell with that of the second safest, half and half
     (``second_safety_weight``; David Hill's solver blends 0.8 and 0.2): a number that leaves
     two good choices is worth more than one that leaves a single one. This prefers,
     among cells about as safe, the ones whose number tells the most: a cell that can show only
     one number (a "dead" cell) gains nothing from its second move and loses to any as safe a
     live one.

The limits and weights named here are settings (:class:`solver.settings.Settings`).

Moves are values (:class:`Move`), as in python-chess: the caller decides how to play them.
"""

from __future__ import annotations

import heapq
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice

import numpy as np

from solver.analysis import Analysis, analyze_position
from solver.board import Board, Cell, Tile
from solver.constraints import read_constraints
from solver.deduce import certain_cells
from solver.engine import FirstClick, Game, neighbour_counts
from solver.errors import BoardError, MoveError, PositionTooLarge
from solver.guess import LookAhead, Outlook, forced_fifty_fifty
from solver.rollout import playout_wins
from solver.settings import current, using
from solver.winprob import best_guess


class Action(StrEnum):
    """What a move does to its cell."""

    OPEN = "open"
    FLAG = "flag"
    CHORD = "chord"


@dataclass(frozen=True, init=False)
class Move:
    """One action on one cell, with the estimated chance that it is safe (1.0 when certain)."""

    cell: Cell
    action: Action
    safety: float = 1.0

    def __init__(self, cell: Cell, action: Action, safety: float = 1.0) -> None:
        # Written out, so that it is compiled with this module, where the generated one would
        # be interpreted: a move is made per cell opened.
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "safety", safety)

    @property
    def is_guess(self) -> bool:
        """The move may hit a mine."""
        return self.safety < 1.0

    def text(self) -> str:
        """The move as text that :meth:`from_text` parses back: ``open 3,4``, or for a guess
        ``open 3,4 safety=0.8125`` (the safety's shortest exact decimal form)."""
        row, column = self.cell
        safety = f" safety={self.safety!r}" if self.is_guess else ""
        return f"{self.action.value} {row},{column}{safety}"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse :meth:`text`'s form; :class:`MoveError` says what is wrong."""
        match = _MOVE_TEXT.fullmatch(text.strip())
        if match is None:
            raise MoveError(f"{text!r} is not a move (expected e.g. 'open 3,4 safety=0.75')")
        safety = float(match["safety"]) if match["safety"] else 1.0
        if match["safety"] and not 0.0 <= safety < 1.0:
            raise MoveError(f"{text!r}: a guess's safety lies in [0, 1)")
        return cls((int(match["row"]), int(match["column"])), Action(match["action"]), safety)

    def __str__(self) -> str:
        return self.text()


_MOVE_TEXT = re.compile(
    r"(?P<action>open|flag|chord) (?P<row>[0-9]+),(?P<column>[0-9]+)"
    r"(?: safety=(?P<safety>[0-9]+(?:\.[0-9]*)?(?:e-?[0-9]+)?))?",
    re.ASCII,
)


def next_moves(
    board: Board, rule: FirstClick | str = FirstClick.SAFE, *, flags: bool = False
) -> list[Move]:
    """Every certain safe cell to open, or else exactly one guess; nothing once the game is over.

    With ``flags``, cells known to be mines come back as FLAG moves too (before any guess).
    """
    if board.is_lost or board.is_won:
        return []
    if board.is_fresh:
        return [_first_move(board, FirstClick.parse(rule))]
    position = read_constraints(board.copy())  # a copy: an analysis keeps its board
    safe, mines = certain_cells(position)
    analysis: Analysis | None = None
    if not safe:
        analysis = analyze_position(position, (safe, mines))
        safe, mines = analysis.safe, analysis.mines
    moves = (
        [Move(cell, Action.FLAG) for cell in sorted(mines) if board[cell] != Tile.FLAG]
        if flags
        else []
    )
    if safe:
        return moves + [Move(cell, Action.OPEN) for cell in sorted(safe)]
    assert analysis is not None
    cell, safety = choose_guess(analysis)
    return moves + [Move(cell, Action.OPEN, safety)]


def choose_move(board: Board, rule: FirstClick | str = FirstClick.SAFE) -> Cell:
    """The single best cell to open next (a certain safe one when there is one)."""
    moves = [move for move in next_moves(board, rule) if move.action is Action.OPEN]
    if not moves:
        raise BoardError("the game is over: there is no cell to open")
    return moves[0].cell


def first_click(board: Board, rule: FirstClick | str = FirstClick.SAFE) -> Cell:
    """Where to open a fresh board: a corner, or an inner cell when the first click opens a 0."""
    if FirstClick.parse(rule) is FirstClick.OPENING:
        row, column = current().inner_opening
        return (min(row, board.rows // 2), min(column, board.columns // 2))
    return (0, 0)


def choose_guess(analysis: Analysis) -> tuple[Cell, float]:
    """The cell to open when none is certain, and its chance of being safe."""
    board, settings = analysis.board, current()
    if analysis.solutions <= settings.endgame_layouts:
        try:
            layouts, visits = settings.endgame_layouts, settings.endgame_visits
            cell, _ = best_guess(board, max_layouts=layouts, max_visits=visits)
            return cell, float(1 - analysis.probability(cell))
        except PositionTooLarge:
            pass
    forced = forced_fifty_fifty(analysis)
    if forced is not None:
        return forced, 0.5
    safety = 1.0 - analysis.probabilities()
    candidates = _candidates(board, analysis, safety)
    scorer = _Scorer(analysis, safety, settings.second_safety_weight)
    if not settings.rollout_layouts:
        best = _best_scored(candidates, safety, scorer.score)
    else:
        ranked = sorted(candidates, key=scorer.score, reverse=True)
        best = _played_out(analysis, ranked, [scorer.score(cell)[0] for cell in ranked])
    return best, float(safety[best])


class _Scorer:
    """The scores of one position's candidate guesses. A class, not functions nested in
    :func:`choose_guess`: compiled, those shared one closure that referred to itself, so each
    guess's analysis and look-ahead waited for the garbage collector to be freed."""

    def __init__(self, analysis: Analysis, safety: np.ndarray, second_weight: float) -> None:
        self.safety = safety
        self.second_weight = second_weight
        self.look = LookAhead(analysis)
        self.outlooks: dict[Cell, Outlook | None] = {}
        self.by_safety = _SafestFirst(analysis.board, safety)
        self.unknown_around = _unknown_neighbour_counts(analysis.board)

    def safest_besides(self, excluded: frozenset[Cell]) -> tuple[float, float]:
        """The safeties of the two safest unknown cells not in ``excluded`` (0 for none)."""
        safest = self.by_safety.first(len(excluded) + 2)
        found = islice((p for p, cell in safest if cell not in excluded), 2)
        first, second = (*found, 0.0, 0.0)[:2]
        return first, second

    def blend(self, first: float, second: float) -> float:
        """How good a position is for the next guess: mostly its safest cell, partly the next."""
        weight = self.second_weight
        return (1 - weight) * first + weight * second

    def score(self, cell: Cell) -> tuple[float, int]:
        """The chance of surviving this guess, times the blended safety of the next one."""
        if cell not in self.outlooks:
            self.outlooks[cell] = self.look.outlook(cell)
        outlook = self.outlooks[cell]
        if outlook is None:
            return float(self.safety[cell]) * self.blend(*self.safest_besides(frozenset({cell}))), 0
        elsewhere = self.safest_besides(outlook.reassessed | {cell})
        second = 0.0
        for shown, chance in outlook.shows.items():
            top = sorted(
                (outlook.next_safety[shown], outlook.second_safety[shown], *elsewhere),
                reverse=True,
            )
            second += chance * self.blend(top[0], top[1])
        return second, -int(self.unknown_around[cell])


def _played_out(analysis: Analysis, ranked: list[Cell], scores: list[float]) -> Cell:
    """The cell that wins most roll-outs among those scored about as well as the best (the
    best scored on a tie); the best scored alone if the position cannot be sampled."""
    settings = current()
    close = [
        cell
        for cell, value in zip(ranked, scores, strict=True)
        if value >= scores[0] * (1 - settings.rollout_score_gap)
    ][: settings.rollout_candidates]
    if len(close) < 2:
        return ranked[0]
    seed = zlib.crc32(analysis.board.tiles.tobytes())
    try:
        wins = playout_wins(analysis, close, settings.rollout_layouts, play_to_end, seed)
    except PositionTooLarge:
        return ranked[0]
    return max(close, key=lambda cell: wins[cell])  # the first of the most: the best scored


def play_to_end(game: Game) -> bool:
    """Play ``game`` to its end with the fast setting (no roll-outs inside roll-outs)."""
    with using(current().changed({"rollout_layouts": 0})):
        while not game.is_over:
            for move in next_moves(game.board):
                game.open(move.cell)
                if game.is_over:
                    break
    return game.board.is_won


def _best_scored(
    candidates: list[Cell], safety: np.ndarray, score: Callable[[Cell], tuple[float, int]]
) -> Cell:
    """``max(candidates, key=score)``, without scoring a cell whose safety is below the best
    score so far: a score is the chance of surviving the cell times chances of at most 1, so
    it cannot beat that one, nor tie it (``_ROUNDING`` covers the sum's rounding)."""
    best, best_key = candidates[0], score(candidates[0])
    for cell in candidates[1:]:
        if float(safety[cell]) * (1 + _ROUNDING) < best_key[0]:
            continue
        key = score(cell)
        if key > best_key:
            best, best_key = cell, key
    return best


_ROUNDING = 1e-9
"""Far more than the relative rounding error of a score (a sum of a few products)."""


class _SafestFirst:
    """The unknown cells with their safeties, safest first, read into Python only as far as a
    score needs them (among equally safe cells any order gives the same safeties, which is all
    that is read of them)."""

    def __init__(self, board: Board, safety: np.ndarray) -> None:
        rows, columns = board.closed.nonzero()
        safeties = safety[rows, columns]
        order = np.argsort(-safeties, kind="stable")
        self._safeties, self._rows, self._columns = safeties[order], rows[order], columns[order]
        self._read: list[tuple[float, Cell]] = []

    def first(self, count: int) -> list[tuple[float, Cell]]:
        """At least the ``count`` safest (all of them when there are fewer)."""
        if count > len(self._read):
            count = max(count, 2 * len(self._read))
            self._read = list(
                zip(
                    self._safeties[:count].tolist(),
                    zip(self._rows[:count].tolist(), self._columns[:count].tolist(), strict=True),
                    strict=True,
                )
            )
        return self._read


def _first_move(board: Board, rule: FirstClick) -> Move:
    protected = rule is not FirstClick.NONE
    safety = 1.0 if protected else 1 - board.mines / (board.rows * board.columns)
    return Move(first_click(board, rule), Action.OPEN, safety)


def _candidates(board: Board, analysis: Analysis, safety: np.ndarray) -> list[Cell]:
    """The near-safest cells worth scoring: frontier cells by safety, plus the most promising
    cells away from the frontier (those with the fewest unknown neighbours show a 0 most often).

    Never empty while some unknown cell may be safe: the safest cell always qualifies."""
    settings = current()
    hidden = board.closed
    usable = hidden & (safety > 0)
    threshold = float(safety[usable].max()) * settings.candidate_safety_ratio
    off = analysis.off_frontier
    rows, columns = (usable & (safety >= threshold)).nonzero()
    frontier = [
        cell for cell in zip(rows.tolist(), columns.tolist(), strict=True) if cell not in off
    ]
    frontier.sort(key=lambda cell: -safety[cell])
    chosen = frontier[: settings.max_candidates]
    if off:
        some_off = next(iter(off))
        if safety[some_off] >= threshold:
            # Read from lists: indexing a numpy array cell by cell costs more than the sort.
            unknown_around = _unknown_neighbour_counts(board).tolist()
            fewest = heapq.nsmallest(
                settings.off_frontier_candidates, ((unknown_around[r][c], (r, c)) for r, c in off)
            )
            chosen += [cell for _, cell in fewest]
    return chosen


def _unknown_neighbour_counts(board: Board) -> np.ndarray:
    unknown = board.closed
    return neighbour_counts(unknown)
