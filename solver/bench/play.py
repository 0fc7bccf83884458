"""Playing one simulated game with a strategy, as the benchmark measures it, and timing the
game engine alone.

A strategy is any function ``strategy(board, rule) -> moves`` (the contract of
:func:`solver.strategy.next_moves`): each move has a ``cell``, an ``action`` whose name is
``OPEN``, ``FLAG`` or ``CHORD``, and ``is_guess``. The game loop applies a burst of moves until
the game ends, timing only the strategy's decision. A strategy is named ``module:function``
(:func:`load_strategy`).
"""

from __future__ import annotations

import gc
import importlib
import inspect
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from solver.board import Board, Cell, Tile
from solver.engine import FirstClick, Game
from solver.errors import BenchError, SolverError


class MoveLike(Protocol):
    """What the bench needs of a move (:class:`solver.strategy.Move` has it)."""

    @property
    def cell(self) -> Cell: ...
    @property
    def action(self) -> Any: ...
    @property
    def is_guess(self) -> bool: ...


Strategy = Callable[[Board, FirstClick], Sequence[MoveLike]]

YOUNG_OBJECTS_PER_COLLECTION = 20_000
"""New container objects between two of Python's cycle collections while benchmark games play
(700 by default): see :func:`fewer_collections`."""


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Games played with the cycle collector's youngest generation collected every
    :data:`YOUNG_OBJECTS_PER_COLLECTION` new objects, not 700; the thresholds as before after.

    The solver makes and drops thousands of small dicts and tuples a move, none left in a
    cycle, and Python collects in the thread that allocates, inside the CPU time a game is
    measured by (about 5% of it by default), where a JVM collects in threads of its own, outside
    the time a Java solver's thread is measured by. Moves do not depend on it.
    """
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS_PER_COLLECTION, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


@dataclass(frozen=True)
class GameOutcome:
    """One simulated game as the benchmark measures it."""

    won: bool
    decision_seconds: list[float]
    """Wall time of each call to the strategy."""
    guesses: int
    cpu_seconds: float
    """CPU time for the whole game: the strategy's decisions and the engine's work, in the
    thread that plays it (a cluster worker's own threads, busy beside it, are not counted)."""
    lost_on_certain_move: bool = False
    """The mine was hit by a move the strategy called certain: a bug in the strategy."""
    clicks: int = 0
    """The moves that changed the board: a real game's clicks (one on a cell an earlier
    click opened is not sent)."""


def play_game(strategy: Strategy, game: Game, seed: int | None = None) -> GameOutcome:
    """Play ``game`` to its end with ``strategy``; ``seed`` only names the game in errors."""
    decisions: list[float] = []
    guesses = clicks = 0
    lost_on_certain_move = False
    cpu_start = time.thread_time()
    while not game.is_over:
        started = time.perf_counter()
        try:
            moves = strategy(game.board, game.rule)
        except SolverError:
            raise
        except Exception as error:  # a strategy given by name may fail any way: one line
            raise BenchError(
                f"the strategy failed in game seed {seed}: {type(error).__name__}: {error}"
            ) from error
        decisions.append(time.perf_counter() - started)
        if not moves:
            raise BenchError(f"the strategy returned no move in game seed {seed}:\n{game.board}")
        changed = False
        for move in moves:
            guesses += bool(move.is_guess)
            clicked = _apply(game, move)
            clicks += clicked
            changed |= clicked
            if game.is_over:
                lost_on_certain_move = game.board.is_lost and not move.is_guess
                break
        if not changed:
            raise BenchError(
                f"the strategy's moves {[(m.cell, m.action) for m in moves]} changed nothing "
                f"in game seed {seed}:\n{game.board}"
            )
    cpu_seconds = time.thread_time() - cpu_start
    return GameOutcome(
        game.board.is_won, decisions, guesses, cpu_seconds, lost_on_certain_move, clicks
    )


def _apply(game: Game, move: MoveLike) -> bool:
    """Carry out one move; return whether it changed the board. FLAG only ever adds a flag."""
    action = getattr(move.action, "name", str(move.action)).upper()
    if action == "OPEN":
        return bool(game.open(move.cell))
    if action == "CHORD":
        return bool(game.chord(move.cell))
    if action == "FLAG":
        return game.board[move.cell] != Tile.FLAG and game.flag(move.cell)
    raise BenchError(f"unknown action {move.action!r} for cell {move.cell}")


@dataclass(frozen=True)
class EngineSpeed:
    """How fast the engine alone plays: every safe cell opened, no strategy to wait for."""

    level: str
    games: int
    games_per_second: float
    opens_per_second: float
    """open() calls that opened something (flood fills included), per second."""


def measure_engine(level: str, games: int, seed: int = 0) -> EngineSpeed:
    """Time the engine on ``games`` seeded games of ``level`` (rule ``safe``, first click in the
    corner), each cleared by opening its safe cells in a seeded random order, in this process."""
    rng = np.random.default_rng(seed)
    opens = 0
    started = time.perf_counter()
    for game_seed in range(seed, seed + games):
        game = Game.level(level, FirstClick.SAFE, game_seed)
        game.open((0, 0))
        assert game.mine_layout is not None
        for cell in rng.permutation(np.argwhere(~game.mine_layout)).tolist():
            if game.is_over:
                break
            opens += bool(game.open(cell))
        if not game.board.is_won:
            raise BenchError(
                f"the engine did not win a game cleared cell by cell (seed {game_seed})"
            )
    elapsed = time.perf_counter() - started
    return EngineSpeed(level, games, games / elapsed, (opens + games) / elapsed)


def load_strategy(spec: str) -> Strategy:
    """The strategy named ``module:function`` (e.g. ``solver.strategy:next_moves``)."""
    module_name, _, function_name = spec.partition(":")
    if not module_name or not function_name:
        raise BenchError(f"a strategy is named 'module:function', not {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise BenchError(f"no module {module_name!r} for the strategy {spec!r}") from None
    try:
        function: Strategy = getattr(module, function_name)
    except AttributeError:
        raise BenchError(f"module {module_name} has no function {function_name!r}") from None
    if not _takes_board_and_rule(function):
        raise BenchError(
            f"the strategy {spec!r} is not a function of (board, rule), as "
            "solver.strategy:next_moves is"
        )
    return function


def _takes_board_and_rule(function: object) -> bool:
    """Whether ``function`` can be called with a board and a first-click rule (a callable whose
    signature Python cannot tell is given the benefit of the doubt)."""
    if not callable(function):
        return False
    try:
        inspect.signature(function).bind(None, None)
    except TypeError:
        return False
    except ValueError:  # no signature to read (some built-ins)
        return True
    return True
