"""The simulated win-rate benchmark: many seeded games per level and first-click rule, all cores.

A strategy is any function ``strategy(board, rule) -> moves`` (the contract of
:func:`solver.strategy.next_moves`): each move has a ``cell``, an ``action`` whose name is
``OPEN``, ``FLAG`` or ``CHORD``, and ``is_guess``. The game loop applies a burst of moves until
the game ends, timing only the strategy's decision. Game ``i`` of a run uses seed ``seed + i``, so
a run repeats exactly, whatever the number of workers, on this machine or on a Dask cluster
(:mod:`solver.bench.cluster`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import math
import os
import platform
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from solver.bench.progress import progress_bar
from solver.bench.stats import wilson_interval
from solver.board import LEVELS, Board, Cell, Tile
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


def play_game(strategy: Strategy, game: Game, seed: int | None = None) -> GameOutcome:
    """Play ``game`` to its end with ``strategy``; ``seed`` only names the game in errors."""
    decisions: list[float] = []
    guesses = 0
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
            changed |= _apply(game, move)
            if game.is_over:
                lost_on_certain_move = game.board.is_lost and not move.is_guess
                break
        if not changed:
            raise BenchError(
                f"the strategy's moves {[(m.cell, m.action) for m in moves]} changed nothing "
                f"in game seed {seed}:\n{game.board}"
            )
    cpu_seconds = time.thread_time() - cpu_start
    return GameOutcome(game.board.is_won, decisions, guesses, cpu_seconds, lost_on_certain_move)


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


_CHUNK_LOCK = threading.Lock()
"""Held while a chunk plays: its settings are module globals, and a cluster's worker process,
shared and long-lived, may run chunks of several runs at once in threads."""


def _play_chunk(
    strategy: Strategy, level: str, rule: FirstClick, seeds: range, overrides: dict[str, Any]
) -> _Chunk:
    """Play ``seeds`` with ``overrides`` applied only while they play, so that no process (a pool's
    or a cluster's) keeps one run's settings for the next chunk it is given."""
    with _CHUNK_LOCK:
        previous = apply_overrides(overrides)
        try:
            outcomes = [play_game(strategy, Game.level(level, rule, seed), seed) for seed in seeds]
        finally:
            apply_overrides(previous)
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


@dataclass(frozen=True)
class BenchResult:
    """The figures for one level under one first-click rule."""

    level: str
    rule: str
    rows: int
    columns: int
    mines: int
    games: int
    wins: int
    win_rate: float
    wilson_low: float
    wilson_high: float
    games_per_second: float
    decision_ms_median: float
    decision_ms_p99: float
    decision_ms_max: float
    """The slowest single decision: the budget is 2 s."""
    cpu_ms_per_game: float
    guesses_per_game: float
    certain_move_losses: int
    """Games lost on a move the strategy called certain: should be 0."""
    first_seed: int
    outcomes: str = ""
    """Game by game from ``first_seed`` on: "1" won, "0" lost. Two runs on the same seeds can
    then be compared game for game (:func:`solver.bench.stats.paired_comparison`)."""
    overrides: dict[str, Any] = field(default_factory=dict)
    """Solver settings changed for this run (:func:`apply_overrides`), by dotted name."""


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
    solver settings for the run (:func:`apply_overrides`), in every chunk wherever it plays;
    they are put back afterwards.
    """
    overrides = dict(overrides or {})
    if cluster is not None and workers is not None:
        raise BenchError("a run plays on local workers or on a cluster, not both")
    workers = (os.cpu_count() or 1) if workers is None else workers
    _check_run(levels, games, workers)
    parsed_rules = [FirstClick.parse(rule) for rule in rules]
    results = []
    with ExitStack() as undo:
        undo.callback(apply_overrides, apply_overrides(overrides))  # checked before any game
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
                    (strategy, level, rule, seeds, overrides)
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


def worker_pool(workers: int, overrides: Mapping[str, Any] | None = None) -> ProcessPoolExecutor:
    """``workers`` local processes, each with ``overrides`` applied (:func:`apply_overrides`),
    and signals as a worker needs them: Ctrl-C ignored (it reaches every process of the
    terminal; the parent stops the run) and SIGTERM ending it, as :func:`shut_down_after` asks
    (a worker forked from a command keeps the command's handler otherwise, which turned
    SIGTERM into an exception the worker survived)."""
    return ProcessPoolExecutor(
        workers, initializer=_start_worker, initargs=(dict(overrides or {}),)
    )


def _start_worker(overrides: dict[str, Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    apply_overrides(overrides)


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
    tasks: list[tuple[Strategy, str, FirstClick, range, dict[str, Any]]],
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
    wins = sum(c.wins for c in chunks)
    low, high = wilson_interval(wins, games)
    decisions = np.concatenate([c.decision_seconds for c in chunks])
    median, p99, slowest = (
        np.percentile(decisions, [50, 99, 100]) * 1000 if decisions.size else (0.0, 0.0, 0.0)
    )
    rows, columns, mines = LEVELS[level]
    return BenchResult(
        level=level,
        rule=str(rule),
        rows=rows,
        columns=columns,
        mines=mines,
        games=games,
        wins=wins,
        win_rate=wins / games,
        wilson_low=low,
        wilson_high=high,
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


def parse_override(text: str) -> tuple[str, Any]:
    """``module.NAME=VALUE`` (VALUE a Python literal) as a pair for :func:`apply_overrides`."""
    name, sign, value = text.partition("=")
    if not sign or not name.strip():
        raise BenchError(f"a setting is written NAME=VALUE, not {text!r}")
    try:
        return name.strip(), ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        raise BenchError(
            f"the value of {name.strip()} is not a Python literal: {value!r}"
        ) from None


def apply_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Set solver settings by dotted name (``solver.strategy.ENDGAME_LAYOUTS``): the knobs a
    solver researcher turns, without editing code.

    Only existing upper-case settings of ``solver`` modules can be set, to the same type, so a
    typing slip is an error rather than a run measuring something else. Returns the values
    they had, so that applying those puts everything back.
    """
    changes = []
    for name, value in overrides.items():
        module_name, _, attribute = name.rpartition(".")
        if (
            not module_name.startswith("solver")
            or not attribute.isupper()
            or attribute.startswith("_")
        ):
            raise BenchError(f"{name!r} is not a solver setting (solver.MODULE.NAME)")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            raise BenchError(f"no module {module_name!r} for the setting {name!r}") from None
        if not hasattr(module, attribute):
            raise BenchError(f"module {module_name} has no setting {attribute!r}")
        current = getattr(module, attribute)
        if type(value) is not type(current) and not (
            isinstance(current, float) and type(value) is int
        ):
            raise BenchError(
                f"{name} takes {type(current).__name__} values (now {current!r}), "
                f"not {type(value).__name__} ({value!r})"
            )
        value = type(current)(value)
        _check_setting_range(name, value)
        changes.append((name, module, attribute, value))
    previous = {}
    for name, module, attribute, value in changes:  # all checked: none or all are set
        previous[name] = getattr(module, attribute)
        setattr(module, attribute, value)
    return previous


def _check_setting_range(name: str, value: object) -> None:
    """Refuse a value that leaves the solver no work to do: every whole-number setting is a count
    or a limit (0 states allowed once hung a run for good), every fraction a weight or ratio."""
    if isinstance(value, bool):
        return
    if isinstance(value, int) and value < 1:
        raise BenchError(f"{name} is a count or limit: it must be at least 1, not {value}")
    if isinstance(value, float) and not (math.isfinite(value) and value >= 0):
        raise BenchError(f"{name} is a weight or ratio: it must be at least 0, not {value}")


def machine_description() -> dict[str, Any]:
    """Where a figure was measured: core count, CPU model, Python."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu_model": model, "python": platform.python_version()}


def format_table(results: Sequence[BenchResult]) -> str:
    """The results as an aligned text table, one line per level and rule."""
    header = (
        f"{'level':<13}{'rule':<8}{'games':>7}{'wins':>7}  {'win rate [Wilson 95%]':<24}"
        f"{'games/s':>9}{'dec ms p50':>11}{'dec ms p99':>11}{'dec ms max':>11}"
        f"{'CPU ms/game':>12}{'guesses':>9}"
    )
    lines = [header]
    for r in results:
        rate = f"{100 * r.win_rate:.2f}% [{100 * r.wilson_low:.2f}, {100 * r.wilson_high:.2f}]"
        lines.append(
            f"{r.level:<13}{r.rule:<8}{r.games:>7}{r.wins:>7}  {rate:<24}{r.games_per_second:>9.1f}"
            f"{r.decision_ms_median:>11.3f}{r.decision_ms_p99:>11.3f}{r.decision_ms_max:>11.1f}"
            f"{r.cpu_ms_per_game:>12.2f}"
            f"{r.guesses_per_game:>9.2f}"
        )
    for r in results:
        if r.certain_move_losses:
            lines.append(
                f"WARNING: {r.level} {r.rule}: {r.certain_move_losses} games lost on a move the "
                "strategy called certain"
            )
    return "\n".join(lines)


def results_json(results: Sequence[Any], settings: dict[str, Any], key: str = "results") -> str:
    """The results (dataclasses: :class:`BenchResult`, or another measure's under its own
    ``key``) as a JSON document, with the settings and machine they were measured with."""
    document = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_description(),
        "settings": settings,
        key: [asdict(r) for r in results],
    }
    return json.dumps(document, indent=2) + "\n"


def write_json(
    results: Sequence[Any], path: Path, settings: dict[str, Any], key: str = "results"
) -> None:
    """Save :func:`results_json` at ``path``; :func:`read_json` reads it back."""
    Path(path).write_text(results_json(results, settings, key))


MAX_RESULTS_BYTES = 256 << 20
"""The largest saved benchmark read: a game takes one byte of its outcomes, so a million games
of each of a hundred levels and rules fit; anything larger is refused before it is read whole."""


def read_json(path: Path) -> list[BenchResult]:
    """The results saved by :func:`write_json`; ``ValueError`` naming the file if it is not."""
    try:
        with open(path, "rb") as file:
            text = file.read(MAX_RESULTS_BYTES + 1)
    except OSError as error:
        raise BenchError(f"cannot read {path}: {error.strerror or error}") from None
    if len(text) > MAX_RESULTS_BYTES:
        raise BenchError(
            f"{path} is larger than {MAX_RESULTS_BYTES >> 20} MiB: no saved benchmark is"
        )
    try:
        document = json.loads(text)
        return [BenchResult(**fields) for fields in document["results"]]
    except (ValueError, KeyError, TypeError) as error:
        raise BenchError(f"{path} is not a saved benchmark ({error})") from None
