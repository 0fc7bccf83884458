"""The simulated win-rate benchmark: many seeded games per level and first-click rule, all cores.

Each game is played with a strategy as :mod:`solver.bench.play` says, and the figures of each
level and rule are a :class:`~solver.bench.results.BenchResult`. Game ``i`` of a run uses seed
``seed + i``, so a run repeats exactly, whatever the number of workers, on this machine or on a
Dask cluster (:mod:`solver.bench.cluster`).
"""

from __future__ import annotations

import ast
import os
import signal
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.bench.play import Strategy, fewer_collections, play_game
from solver.bench.progress import progress_bar
from solver.bench.results import BenchResult, win_fields
from solver.board import LEVELS
from solver.engine import FirstClick, Game
from solver.errors import BenchError, SettingError
from solver.settings import Settings, current, set_current, using


@dataclass(frozen=True)
class _Chunk:
    first_seed: int
    outcomes: str
    """"1" for a won game, "0" for a lost one, in seed order."""
    games: int
    wins: int
    guesses: int
    certain_move_losses: int
    cpu_seconds: float
    decision_seconds: np.ndarray


def _play_chunk(
    strategy: Strategy, level: str, rule: FirstClick, seeds: range, run_settings: Settings
) -> _Chunk:
    """Play ``seeds`` with ``run_settings`` in force only while they play, and only in this
    thread: no process (a pool's or a cluster's) keeps one run's settings for the next chunk it
    is given, and a cluster's worker may play chunks of two runs at once in two threads."""
    with using(run_settings), fewer_collections():
        outcomes = [play_game(strategy, Game.level(level, rule, seed), seed) for seed in seeds]
    return _Chunk(
        first_seed=seeds.start,
        outcomes="".join("1" if o.won else "0" for o in outcomes),
        games=len(outcomes),
        wins=sum(o.won for o in outcomes),
        guesses=sum(o.guesses for o in outcomes),
        certain_move_losses=sum(o.lost_on_certain_move for o in outcomes),
        cpu_seconds=sum(o.cpu_seconds for o in outcomes),
        decision_seconds=np.array([t for o in outcomes for t in o.decision_seconds]),
    )


def seed_chunks(games: int, seed: int, workers: int) -> Iterator[range]:
    """The seeds of ``games`` games from ``seed`` on, in runs (one task each) small enough to
    keep ``workers`` processes busy to the end, and at most 100 games long."""
    size = max(1, min(100, games // (4 * workers)))
    for start in range(0, games, size):
        yield range(seed + start, seed + min(start + size, games))


def run_benchmark(
    strategy: Strategy,
    levels: Sequence[str],
    rules: Sequence[FirstClick | str],
    games: int,
    workers: int | None = None,
    seed: int = 0,
    progress: bool | None = None,
    overrides: Mapping[str, Any] | None = None,
    cluster: str | None = None,
) -> list[BenchResult]:
    """Play ``games`` seeded games of every level under every rule; one result per pair.

    ``workers`` processes (default: every core) take chunks of games; with one worker the games
    run in this process. ``cluster``, a Dask scheduler's address (``tcp://host:8786``), plays the
    chunks on that cluster's workers instead (:mod:`solver.bench.cluster`), with the same games
    and results. ``progress`` shows a bar (None: only on a terminal). ``overrides`` changes
    solver settings for the run (:func:`settings_with`), in every chunk wherever it plays;
    they are put back after each.
    """
    overrides = dict(overrides or {})
    run_settings = settings_with(overrides)  # checked before any game
    if cluster is not None and workers is not None:
        raise BenchError("a run plays on local workers or on a cluster, not both")
    workers = (os.cpu_count() or 1) if workers is None else workers
    _check_run(levels, games, workers)
    parsed_rules = [FirstClick.parse(rule) for rule in rules]
    results = []
    with ExitStack() as undo:
        pool, parallel = _open_pool(workers, cluster)
        if pool is not None:
            undo.enter_context(shut_down_after(pool))
        total = games * len(levels) * len(parsed_rules)
        bar = undo.enter_context(progress_bar(total=total, unit="game", show=progress))
        for level in levels:
            for rule in parsed_rules:
                bar.set_description(f"{level} {rule}")
                started = time.perf_counter()
                tasks = [
                    (strategy, level, rule, seeds, run_settings)
                    for seeds in seed_chunks(games, seed, parallel)
                ]
                chunks = _play_chunks(tasks, pool, bar)
                elapsed = time.perf_counter() - started
                results.append(_summarise(level, rule, chunks, elapsed, seed, overrides))
    return results


def _open_pool(workers: int, cluster: str | None) -> tuple[Executor | None, int]:
    """What plays the chunks, and how many it plays at once: the cluster at address ``cluster``,
    else ``workers`` local processes (for one, None: this process plays them)."""
    if cluster is not None:
        from solver.bench.cluster import connect  # dask takes half a second to import

        pool = connect(cluster)
        return pool, pool.threads
    return (worker_pool(workers) if workers > 1 else None), workers


def worker_pool(workers: int, run_settings: Settings | None = None) -> ProcessPoolExecutor:
    """``workers`` local processes, each with ``run_settings`` in force for its life (None: the
    defaults), and signals as a worker needs them: Ctrl-C ignored (it reaches every process of
    the terminal; the parent stops the run) and SIGTERM ending it, as :func:`shut_down_after`
    asks (a worker forked from a command keeps the command's handler otherwise, which turned
    SIGTERM into an exception the worker survived)."""
    return ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(run_settings,))


def _start_worker(run_settings: Settings | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if run_settings is not None:
        set_current(run_settings)


@contextmanager
def shut_down_after(pool: Executor) -> Iterator[None]:
    """Shut ``pool`` down after the run; after a fault or Ctrl-C, at once: its queued chunks are
    dropped and its local workers stopped mid-game (waiting for them once hung a run for as long
    as a game the solver never finished)."""
    try:
        yield
    except BaseException:
        workers = list((getattr(pool, "_processes", None) or {}).values())  # no public way in 3.11
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        raise
    pool.shutdown()


def _check_run(levels: Sequence[str], games: int, workers: int) -> None:
    """Refuse a run that cannot be played, before any game."""
    if games < 1:
        raise BenchError(f"the benchmark needs at least one game, not {games}")
    if workers < 1:
        raise BenchError(f"the benchmark needs at least one worker, not {workers}")
    for level in levels:
        if level not in LEVELS:
            raise BenchError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")


def _play_chunks(
    tasks: list[tuple[Strategy, str, FirstClick, range, Settings]],
    pool: Executor | None,
    bar: Any,
) -> list[_Chunk]:
    """Play each chunk of seeds, in this process or on the pool (local processes or a
    cluster), counting games on ``bar``."""
    chunks = []
    if pool is None:
        for task in tasks:
            chunks.append(_play_chunk(*task))
            bar.update(chunks[-1].games)
        return chunks
    for future in as_completed([pool.submit(_play_chunk, *task) for task in tasks]):
        chunks.append(future.result())
        bar.update(chunks[-1].games)
    return chunks


def _summarise(
    level: str,
    rule: FirstClick,
    chunks: list[_Chunk],
    wall_seconds: float,
    seed: int,
    overrides: dict[str, Any],
) -> BenchResult:
    chunks = sorted(chunks, key=lambda chunk: chunk.first_seed)
    games = sum(c.games for c in chunks)
    decisions = np.concatenate([c.decision_seconds for c in chunks])
    median, p99, slowest = (
        np.percentile(decisions, [50, 99, 100]) * 1000 if decisions.size else (0.0, 0.0, 0.0)
    )
    return BenchResult(
        **win_fields(level, str(rule), sum(c.wins for c in chunks), games),
        games_per_second=games / wall_seconds,
        decision_ms_median=float(median),
        decision_ms_p99=float(p99),
        decision_ms_max=float(slowest),
        cpu_ms_per_game=1000 * sum(c.cpu_seconds for c in chunks) / games,
        guesses_per_game=sum(c.guesses for c in chunks) / games,
        certain_move_losses=sum(c.certain_move_losses for c in chunks),
        first_seed=seed,
        outcomes="".join(c.outcomes for c in chunks),
        overrides=overrides,
    )


def parse_override(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` (NAME a field of :class:`solver.settings.Settings`, VALUE a Python literal)
    as a pair for :func:`settings_with`."""
    name, sign, value = text.partition("=")
    if not sign or not name.strip():
        raise BenchError(f"a setting is written NAME=VALUE, not {text!r}")
    try:
        return name.strip(), ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        raise BenchError(
            f"the value of {name.strip()} is not a Python literal: {value!r}"
        ) from None


def settings_with(overrides: Mapping[str, object]) -> Settings:
    """The settings in force with ``overrides`` (by field name, ``endgame_layouts``): the knobs a
    solver researcher turns, without editing code. Each is checked for its type and range, so
    that a typing slip is a one-line :class:`BenchError` rather than a run measuring something
    else."""
    try:
        return current().changed(overrides)
    except SettingError as error:
        raise BenchError(str(error)) from None
