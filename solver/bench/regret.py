"""What a strategy's guesses lose against best play, on the positions small enough to search.

Win rates need tens of thousands of games to show a change of a few tenths of a point. On a
guess whose position has few enough layouts, the exact search (:func:`solver.winprob.guess_values`)
says how often each cell wins, so the cost of the cell chosen is known exactly, with no game
noise: its *regret* is the best cell's chance of winning minus its own. Summed over the guesses
of N games it is the win rate those guesses gave away, in games.

The games are the benchmark's (:mod:`solver.bench.run`): game ``i`` uses seed ``seed + i``.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.analysis import analyze
from solver.bench.play import MoveLike, Strategy, play_game
from solver.bench.progress import progress_bar
from solver.bench.run import seed_chunks, settings_with, shut_down_after, worker_pool
from solver.board import Board, Cell
from solver.engine import FirstClick, Game
from solver.errors import BenchError, PositionTooLarge
from solver.settings import current
from solver.winprob import guess_values


@dataclass(frozen=True)
class Guess:
    """A guess met in play: the position and the cell chosen."""

    board: Board
    cell: Cell


@dataclass(frozen=True)
class RegretReport:
    """The guesses of one run and what they lost; ``lost`` is in games (a fraction of a win
    each), so ``lost / games`` is the win rate given away."""

    level: str
    rule: str
    games: int
    first_seed: int
    min_layouts: int
    max_layouts: int
    max_visits: int
    kept: int
    """Guesses with between ``min_layouts`` and ``max_layouts`` layouts."""
    solved: int
    """Of those, the ones the search valued within ``max_visits``."""
    not_best: int
    """Solved guesses whose cell wins less often than the best cell."""
    lost: float


class _Recorder:
    """A strategy that plays as ``strategy`` does and keeps its guesses of the chosen size."""

    def __init__(self, strategy: Strategy, min_layouts: int, max_layouts: int) -> None:
        self.strategy = strategy
        self.min_layouts = min_layouts
        self.max_layouts = max_layouts
        self.kept: list[Guess] = []

    def __call__(self, board: Board, rule: FirstClick) -> list[MoveLike]:
        moves = list(self.strategy(board, rule))
        guesses = [move for move in moves if move.is_guess]
        if (
            guesses
            and not board.is_fresh
            and self.min_layouts <= analyze(board).solutions <= self.max_layouts
        ):
            # a copy: a game's board is a live view that later moves change
            self.kept.append(Guess(board.copy(), guesses[0].cell))
        return moves


def collect_guesses(
    strategy: Strategy,
    level: str,
    rule: FirstClick,
    seeds: range,
    min_layouts: int,
    max_layouts: int,
) -> list[Guess]:
    """Play the games of ``seeds`` and keep every guess with a searchable number of layouts."""
    recorder = _Recorder(strategy, min_layouts, max_layouts)
    for seed in seeds:
        play_game(recorder, Game.level(level, rule, seed), seed)
    return recorder.kept


def guess_regret(
    guess: Guess, max_layouts: int | None = None, max_visits: int | None = None
) -> Fraction | None:
    """The best cell's chance of winning minus the chosen cell's; None when the search gives up
    (past ``max_layouts`` and ``max_visits``, by default the settings ``regret_max_layouts`` and
    ``regret_max_visits``)."""
    settings = current()
    max_layouts = settings.regret_max_layouts if max_layouts is None else max_layouts
    max_visits = settings.regret_max_visits if max_visits is None else max_visits
    try:
        values = guess_values(guess.board, max_layouts=max_layouts, max_visits=max_visits)
    except PositionTooLarge:
        return None
    if guess.cell not in values:
        raise BenchError(f"the guess {guess.cell} is certain, not a guess, on:\n{guess.board}")
    return max(values.values()) - values[guess.cell]


def measure_regret(
    strategy: Strategy,
    level: str,
    rule: FirstClick,
    games: int,
    workers: int = 1,
    seed: int = 0,
    *,
    min_layouts: int | None = None,
    max_layouts: int | None = None,
    max_visits: int | None = None,
    overrides: Mapping[str, Any] | None = None,
    progress: bool | None = None,
) -> RegretReport:
    """Play ``games`` seeded games and value every kept guess exactly, on ``workers`` processes.

    The size window and the search budget default to the settings ``regret_min_layouts``,
    ``regret_max_layouts`` and ``regret_max_visits`` with ``overrides``, so that
    ``--set regret_max_layouts=...`` works as expected. ``overrides`` changes solver settings in
    every worker process, as in :func:`solver.bench.run.run_benchmark` (checked here before any
    starts); ``progress`` shows bars (None: only on a terminal).
    """
    run_settings = settings_with(dict(overrides or {}))
    chunks = list(seed_chunks(games, seed, workers))
    min_layouts = run_settings.regret_min_layouts if min_layouts is None else min_layouts
    max_layouts = run_settings.regret_max_layouts if max_layouts is None else max_layouts
    max_visits = run_settings.regret_max_visits if max_visits is None else max_visits
    pool = worker_pool(workers, run_settings)
    with shut_down_after(pool):
        futures = [
            pool.submit(collect_guesses, strategy, level, rule, seeds, min_layouts, max_layouts)
            for seeds in chunks
        ]
        kept: list[Guess] = []
        with progress_bar(
            total=games, desc=f"{level} {rule}: playing", unit="game", show=progress
        ) as bar:
            for seeds, future in zip(chunks, futures, strict=True):
                kept += future.result()
                bar.update(len(seeds))
        regrets = _valued(pool, kept, max_layouts, max_visits, f"{level} {rule}", progress)
    solved = [regret for regret in regrets if regret is not None]
    return RegretReport(
        level=level,
        rule=str(rule),
        games=games,
        first_seed=seed,
        min_layouts=min_layouts,
        max_layouts=max_layouts,
        max_visits=max_visits,
        kept=len(kept),
        solved=len(solved),
        not_best=sum(regret > 0 for regret in solved),
        lost=float(sum(solved, Fraction(0))),
    )


def _valued(
    pool: ProcessPoolExecutor,
    kept: list[Guess],
    max_layouts: int,
    max_visits: int,
    what: str,
    progress: bool | None,
) -> list[Fraction | None]:
    """Each kept guess's regret, searched on ``pool`` (None where the search gave up)."""
    searched = pool.map(guess_regret, kept, [max_layouts] * len(kept), [max_visits] * len(kept))
    return list(
        progress_bar(
            searched, total=len(kept), desc=f"{what}: searching", unit="guess", show=progress
        )
    )
