"""Clicks as speed players count them, on simulated games: 3BV, clicks and efficiency (3BV per
click) of the won games, for several strategies over the same seeds, and the games that only
some of them won (a strategy that only clicks differently must win the same games).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.bench.play import load_strategy, play_game
from solver.bench.run import seed_chunks, shut_down_after, worker_pool
from solver.engine import FirstClick, Game, neighbour_counts


def three_bv(layout: npt.NDArray[np.bool_]) -> int:
    """The fewest clicks that clear a board with these mines: one per opening (a region of 0s
    with its border, all opened by one click) and one per safe cell on no opening's border."""
    rows, columns = layout.shape
    zero = ((neighbour_counts(layout) == 0) & ~layout).tolist()
    mine = layout.tolist()
    bordered = [[False] * columns for _ in range(rows)]
    clicks = 0
    for row, column in np.argwhere(~layout).tolist():
        if bordered[row][column] or not zero[row][column]:
            continue
        clicks += 1  # a new opening: flood it
        stack = [(row, column)]
        bordered[row][column] = True
        while stack:
            r, c = stack.pop()
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, columns)):
                    if not bordered[rr][cc] and not mine[rr][cc]:
                        bordered[rr][cc] = True
                        if zero[rr][cc]:
                            stack.append((rr, cc))
    return clicks + sum(
        not mine[r][c] and not bordered[r][c] for r in range(rows) for c in range(columns)
    )


@dataclass(frozen=True)
class GameClicks:
    """One game as clicked: won or not, its 3BV (0 before a mine was placed) and clicks."""

    won: bool
    bbbv: int
    clicks: int


@dataclass(frozen=True)
class ClickFigures:
    """One strategy's games: how many it won, and the won games' 3BV and clicks."""

    strategy: str
    games: list[GameClicks]

    @property
    def wins(self) -> int:
        return sum(game.won for game in self.games)

    @property
    def clicks(self) -> int:
        """Clicks over the won games."""
        return sum(game.clicks for game in self.games if game.won)

    @property
    def bbbv(self) -> int:
        """3BV over the won games."""
        return sum(game.bbbv for game in self.games if game.won)

    @property
    def efficiency(self) -> float:
        """The won games' median 3BV per click, as `autosweeper stats` gives a live run's."""
        won = [game.bbbv / game.clicks for game in self.games if game.won and game.clicks]
        return statistics.median(won) if won else 0.0


def _play(strategy_name: str, level: str, rule: FirstClick, seeds: range) -> list[GameClicks]:
    strategy = load_strategy(strategy_name)
    played = []
    for seed in seeds:
        game = Game.level(level, rule, seed)
        outcome = play_game(strategy, game, seed)
        layout = game.mine_layout
        bbbv = 0 if layout is None else three_bv(layout)
        played.append(GameClicks(outcome.won, bbbv, outcome.clicks))
    return played


def measure_clicks(
    strategies: Sequence[str],
    level: str,
    rule: FirstClick,
    games: int,
    workers: int = 1,
    seed: int = 0,
) -> tuple[list[ClickFigures], list[int]]:
    """Each strategy (named ``module:function``) on the seeds from ``seed`` on; and the seeds of
    the games not every strategy won or lost alike."""
    chunks = [(name, seeds) for name in strategies for seeds in seed_chunks(games, seed, workers)]
    if workers > 1:
        pool = worker_pool(workers)
        with shut_down_after(pool):
            futures = [pool.submit(_play, name, level, rule, seeds) for name, seeds in chunks]
            results = [future.result() for future in futures]
    else:
        results = [_play(name, level, rule, seeds) for name, seeds in chunks]
    played: dict[str, list[GameClicks]] = {name: [] for name in strategies}
    for (name, _), result in zip(chunks, results, strict=True):
        played[name] += result
    figures = [ClickFigures(name, played[name]) for name in strategies]
    differ = [
        seed + i
        for i, outcomes in enumerate(zip(*(f.games for f in figures), strict=True))
        if len({game.won for game in outcomes}) > 1
    ]
    return figures, differ
