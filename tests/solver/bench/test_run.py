"""The benchmark's game loop, its parallel runner and the ``autosweeper bench`` command.

The strategies here are deliberately simple test players (a seeded random opener, an oracle
that knows the mines, scripted moves): the benchmark is tested, not a solver.
"""

import contextlib
import gc
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from bench_players import Action, Move, random_opener

from controller.cli import main
from controller.commands.bench import DEFAULT_STRATEGY
from solver import Board, Cell, FirstClick, Game, GameState, Tile
from solver.bench.play import (
    YOUNG_OBJECTS_PER_COLLECTION,
    load_strategy,
    measure_engine,
    play_game,
)
from solver.bench.results import format_table, write_json
from solver.bench.run import run_benchmark
from solver.errors import BenchError
from solver.settings import current
from solver.strategy import next_moves


def single_cell_player(board: Board, rule: FirstClick) -> list[Move]:
    """The one-number rules as a burst (all mines flagged: chord; all hidden are mines: flag),
    else a random guess. Strong enough to win some games, so win counts mean something."""
    tiles = board.tiles.tolist()
    chords: list[Move] = []
    flags: dict[Cell, Move] = {}
    for r, c in np.argwhere(board.tiles <= Tile.EIGHT).tolist():
        around = list(board.neighbours((r, c)))
        hidden = [(rr, cc) for rr, cc in around if tiles[rr][cc] == Tile.HIDDEN]
        flagged = sum(tiles[rr][cc] == Tile.FLAG for rr, cc in around)
        if hidden and flagged == tiles[r][c]:
            chords.append(Move((r, c), Action.CHORD))
        elif hidden and flagged + len(hidden) == tiles[r][c]:
            flags.update((cell, Move(cell, Action.FLAG)) for cell in hidden)
    return [*flags.values(), *chords] or random_opener(board, rule)


def play_by_hand(seed: int, level: str, rule: FirstClick) -> bool:
    """The same games played without the benchmark, for a cross-check."""
    game = Game.level(level, rule, seed)
    while game.state is GameState.PLAYING:
        for move in single_cell_player(game.board, rule):
            {"OPEN": game.open, "FLAG": game.flag, "CHORD": game.chord}[move.action.name](move.cell)
            if game.state is not GameState.PLAYING:
                break
    return game.state is GameState.WON


def test_wins_match_games_played_by_hand_and_do_not_depend_on_workers() -> None:
    games, seed, rules = 150, 1000, ["none", "opening"]
    one = run_benchmark(single_cell_player, ["beginner"], rules, games, workers=1, seed=seed)
    two = run_benchmark(single_cell_player, ["beginner"], rules, games, workers=2, seed=seed)
    for result in one:
        rule = FirstClick(result.rule)
        expected = sum(play_by_hand(seed + i, "beginner", rule) for i in range(games))
        assert result.games == games and result.wins == expected
        assert result.win_rate == expected / games
        assert result.wilson_low <= result.win_rate <= result.wilson_high
        assert result.first_seed == seed
        assert (result.rows, result.columns, result.mines) == (9, 9, 10)
    assert [(r.level, r.rule, r.wins, r.guesses_per_game) for r in one] == [
        (r.level, r.rule, r.wins, r.guesses_per_game) for r in two
    ]
    assert 0 < one[0].wins < one[1].wins < games, "an opening start is easier: more wins"
    for result in one + two:  # game by game, in seed order, whatever order the chunks came in
        rule = FirstClick(result.rule)
        assert result.outcomes == "".join(
            "1" if play_by_hand(seed + i, "beginner", rule) else "0" for i in range(games)
        )


def test_games_play_with_fewer_collections_and_leave_the_collector_as_it_was() -> None:
    """The benchmark's games run with the youngest generation collected less often (its cost
    is counted in a game's CPU time); the thresholds come back after, even for a game that
    fails."""
    seen: list[int] = []

    def watching(board: Board, rule: FirstClick) -> list[Move]:
        seen.append(gc.get_threshold()[0])
        raise RuntimeError("a strategy that fails")

    before = gc.get_threshold()
    with pytest.raises(BenchError):
        run_benchmark(watching, ["beginner"], [FirstClick.SAFE], games=1, workers=1)
    assert seen == [YOUNG_OBJECTS_PER_COLLECTION]
    assert gc.get_threshold() == before


def test_timings_are_measured_per_decision_and_per_game() -> None:
    (result,) = run_benchmark(random_opener, ["intermediate"], ["safe"], 50, workers=1)
    assert 0 < result.decision_ms_median <= result.decision_ms_p99 <= result.decision_ms_max
    assert result.cpu_ms_per_game > 0 and result.games_per_second > 0
    # The random opener makes one guess per decision, and needs at least one decision a game.
    assert result.guesses_per_game >= 1


def test_guesses_count_the_moves_flagged_as_guesses() -> None:
    game = Game.level("beginner", "safe", seed=4)
    outcome = play_game(random_opener, game, seed=4)
    assert outcome.guesses == len(outcome.decision_seconds) >= 1
    assert outcome.won == (game.state is GameState.WON) and outcome.cpu_seconds > 0


def test_the_cpu_time_of_a_game_is_its_own_thread_s_not_the_process_s() -> None:
    """A cluster's worker runs threads of its own beside the games (heartbeats, a profiler):
    their work is not the game's. Here a thread burns CPU while the strategy sleeps."""
    stop = threading.Event()
    burnt: list[float] = []

    def burn() -> None:
        started = time.thread_time()
        while not stop.is_set():
            pass
        burnt.append(time.thread_time() - started)

    def sleepy_opener(board: Board, rule: FirstClick) -> list[Move]:
        time.sleep(0.05)
        return random_opener(board, rule)

    burner = threading.Thread(target=burn)
    burner.start()
    try:
        outcome = play_game(sleepy_opener, Game.level("beginner", "safe", seed=4), seed=4)
    finally:
        stop.set()
        burner.join()
    assert 0 < outcome.cpu_seconds < burnt[0] / 2


def test_an_oracle_wins_every_game_and_the_burst_stops_when_the_game_ends() -> None:
    game = Game.level("expert", "safe", seed=9)

    def oracle(board: Board, rule: FirstClick) -> Sequence[Move]:
        layout = game.mine_layout
        if layout is None:
            return [Move((0, 0), Action.OPEN, is_guess=True)]
        flags = [Move(cell, Action.FLAG) for cell in map(tuple, np.argwhere(layout))]
        opens = [Move(cell, Action.OPEN) for cell in map(tuple, np.argwhere(~layout))]
        # A move the bench would reject, after the game is already won: never applied.
        return [*flags, *opens, Move((0, 0), Action.JUMP)]

    outcome = play_game(oracle, game)
    assert outcome.won and outcome.guesses == 1 and len(outcome.decision_seconds) == 2
    assert game.board.is_won


def scripted(*bursts: list[Move]):
    remaining = list(bursts)

    def strategy(board: Board, rule: FirstClick) -> list[Move]:
        return remaining.pop(0)

    return strategy


# One mine at the left: the middle cell shows 1, the right one 0.
LINE = np.array([[True, False, False]])


def test_flag_and_chord_moves_are_carried_out() -> None:
    game = Game.from_layout(LINE)
    strategy = scripted(
        [Move((0, 1), Action.OPEN)], [Move((0, 0), Action.FLAG)], [Move((0, 1), Action.CHORD)]
    )
    assert play_game(strategy, game).won
    assert [Tile(t) for t in game.board.tiles[0]] == [Tile.FLAG, Tile.ONE, Tile.ZERO]


def test_a_flag_move_never_removes_a_flag_and_a_burst_that_changes_nothing_is_an_error() -> None:
    game = Game.from_layout(LINE)
    strategy = scripted(
        [Move((0, 1), Action.OPEN)],
        [Move((0, 0), Action.FLAG)],
        [Move((0, 0), Action.FLAG), Move((0, 1), Action.OPEN)],
    )
    with pytest.raises(BenchError, match=r"changed nothing in game seed 7"):
        play_game(strategy, game, seed=7)
    assert game.board[0, 0] == Tile.FLAG


@pytest.mark.parametrize("is_guess", [True, False])
def test_a_loss_on_a_move_called_certain_is_counted(is_guess: bool) -> None:
    outcome = play_game(scripted([Move((0, 0), Action.OPEN, is_guess)]), Game.from_layout(LINE))
    assert not outcome.won and outcome.lost_on_certain_move is not is_guess


def overconfident_opener(board: Board, rule: FirstClick) -> list[Move]:
    """The random opener, claiming every guess is certain."""
    return [Move(move.cell, move.action) for move in random_opener(board, rule)]


def test_the_benchmark_reports_losses_on_moves_called_certain() -> None:
    honest, liar = (
        run_benchmark(strategy, ["beginner"], ["safe"], 40, workers=1)[0]
        for strategy in (random_opener, overconfident_opener)
    )
    assert honest.certain_move_losses == 0 and honest.wins == liar.wins
    assert liar.certain_move_losses == liar.games - liar.wins > 0
    assert "WARNING" not in format_table([honest])
    assert f"{liar.certain_move_losses} games lost on a move" in format_table([liar])


def test_no_move_and_unknown_actions_are_errors() -> None:
    with pytest.raises(BenchError, match="no move"):
        play_game(scripted([]), Game.from_layout(LINE))
    with pytest.raises(BenchError, match="unknown action.*JUMP"):
        play_game(scripted([Move((0, 2), Action.JUMP)]), Game.from_layout(LINE))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "at least one game"),
        ({"workers": 0}, "at least one worker"),
        ({"levels": ["huge"]}, "unknown level 'huge'"),
        ({"rules": ["vista"]}, "unknown first-click rule 'vista'"),
    ],
)
def test_bad_settings_are_named(kwargs: dict, message: str) -> None:
    settings: dict = {"levels": ["beginner"], "rules": ["safe"], "games": 5, "workers": 1}
    with pytest.raises(ValueError, match=re.escape(message)):
        run_benchmark(random_opener, **{**settings, **kwargs})


def test_load_strategy_names_what_is_missing() -> None:
    assert load_strategy("test_run:random_opener") is random_opener
    with pytest.raises(ValueError, match="module:function"):
        load_strategy("random_opener")
    with pytest.raises(ValueError, match="no function 'nothing'"):
        load_strategy("test_run:nothing")
    with pytest.raises(ValueError, match="no module 'no_such_module'"):
        load_strategy("no_such_module:play")


def test_a_strategy_that_is_no_function_of_board_and_rule_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"'os:getcwd' is not a function of \(board, rule\)"):
        load_strategy("os:getcwd")
    with pytest.raises(ValueError, match=r"'math:pi' is not a function of \(board, rule\)"):
        load_strategy("math:pi")


def test_json_holds_results_settings_and_machine(tmp_path: Path) -> None:
    results = run_benchmark(random_opener, ["beginner"], ["xp"], 20, workers=1, seed=3)
    path = tmp_path / "bench.json"
    write_json(results, path, {"games": 20})
    document = json.loads(path.read_text())
    (row,) = document["results"]
    assert row["level"] == "beginner" and row["rule"] == "xp" and row["wins"] == results[0].wins
    assert document["settings"] == {"games": 20} and document["machine"]["cpus"] >= 1


def test_engine_speed_clears_every_game(capsys: pytest.CaptureFixture) -> None:
    speed = measure_engine("beginner", 30, seed=2)
    assert speed.games == 30 and 0 < speed.games_per_second < speed.opens_per_second
    assert main(["bench", "--engine", "--level", "expert", "--games", "3"]) == 0
    assert "expert" in capsys.readouterr().out


def test_the_default_strategy_plays_through_the_bench() -> None:
    strategy = load_strategy(DEFAULT_STRATEGY)
    (result,) = run_benchmark(strategy, ["beginner"], ["safe"], 10, workers=1, seed=7)
    assert result.games == 10 and result.certain_move_losses == 0


@pytest.mark.slow
@pytest.mark.parametrize("rule", list(FirstClick))
def test_the_default_strategy_never_loses_on_a_move_it_calls_certain(rule: FirstClick) -> None:
    strategy = load_strategy(DEFAULT_STRATEGY)
    for result in run_benchmark(strategy, ["beginner", "intermediate", "expert"], [rule], 100):
        assert result.certain_move_losses == 0, result


def test_settings_reach_every_worker_and_are_put_back() -> None:
    """A setting changes the games, the same way in one process as in a pool, and is restored
    after the run. A first click at the corner instead of an inner cell opens less of the board,
    so it needs more guesses (wins alone may not differ: Beginner is nearly always won)."""
    corner = {"inner_opening": (0, 0)}
    usual = run_benchmark(next_moves, ["beginner"], ["opening"], 40, workers=2, seed=11)
    moved = [
        run_benchmark(next_moves, ["beginner"], ["opening"], 40, w, 11, overrides=corner)
        for w in (1, 2)
    ]
    assert moved[0][0].outcomes == moved[1][0].outcomes
    assert moved[0][0].guesses_per_game == moved[1][0].guesses_per_game
    assert moved[0][0].guesses_per_game > usual[0].guesses_per_game
    assert moved[0][0].overrides == corner and usual[0].overrides == {}
    assert current().inner_opening == (3, 3)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"os.sep": "/"}, "'os.sep' is not a solver setting (they are: max_states,"),
        ({"first_click": 1}, "'first_click' is not a solver setting"),
        ({"no_such_setting": 1}, "'no_such_setting' is not a solver setting"),
        # the dotted names of the module globals that were the settings once
        (
            {"solver.strategy.ENDGAME_VISITS": 1},
            "'solver.strategy.ENDGAME_VISITS' is not a solver setting: it is named endgame_visits",
        ),
        ({"endgame_layouts": "x"}, "endgame_layouts takes int values, not str ('x')"),
        ({"endgame_layouts": True}, "endgame_layouts takes int values, not bool (True)"),
        ({"inner_opening": [0, 0]}, "inner_opening takes tuple[int, int] values, not list"),
        # max_states=0 once hung the run for good; every count or limit has its lowest value
        ({"max_states": 0}, "max_states must be at least 1, not 0"),
        ({"off_frontier_candidates": -1}, "at least 1, not -1"),
        ({"inner_opening": (3, -1)}, "inner_opening must be at least 0, not -1"),
        ({"second_safety_weight": -0.5}, "second_safety_weight must be between 0 and 1, not -0.5"),
        ({"second_safety_weight": float("nan")}, "between 0 and 1, not nan"),
        ({"candidate_safety_ratio": 1.5}, "between 0 and 1, not 1.5"),
        # a private constant is how the code works, not a setting (0 bits per need: wrong counts)
        ({"_BITS_PER_NEED": 0}, "not a solver setting"),
    ],
)
def test_bad_settings_are_refused_before_any_game(overrides: dict, message: str) -> None:
    before = current()
    with pytest.raises(BenchError, match=re.escape(message)):
        run_benchmark(
            random_opener,
            ["beginner"],
            ["safe"],
            5,
            workers=1,
            overrides={"endgame_layouts": 7, **overrides},
        )
    assert current() is before  # none applied when one is refused


def test_a_whole_number_is_taken_for_a_fraction_and_a_run_records_its_settings() -> None:
    (result,) = run_benchmark(
        random_opener, ["beginner"], ["safe"], 3, workers=1, overrides={"second_safety_weight": 1}
    )
    assert result.overrides == {"second_safety_weight": 1}
    assert current().changed(result.overrides).second_safety_weight == 1.0


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_ctrl_c_stops_a_run_on_workers_that_are_busy(tmp_path: Path) -> None:
    """Ctrl-C during a pooled run once waited for the busy workers (a hung solver: for good)."""
    psutil = pytest.importorskip("psutil")
    (tmp_path / "slow_strategy.py").write_text(
        "import time\n\ndef forever(board, rule):\n    time.sleep(3600)\n"
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    command = [sys.executable, "-m", "controller.cli", "bench", "--strategy"]
    run = subprocess.Popen(
        [*command, "slow_strategy:forever", "--workers", "2", "--games", "4"],
        env=environment,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        workers = []
        parent = psutil.Process(run.pid)
        deadline = time.monotonic() + 60
        while len(parent.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = parent.children(recursive=True)
        time.sleep(1.0)  # the workers take their games
        run.send_signal(signal.SIGINT)
        _, error = run.communicate(timeout=10)
        _, alive = psutil.wait_procs(workers, timeout=5)
    finally:
        for process in [run, *workers]:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
    assert run.returncode == 130 and error == "autosweeper bench: stopped by signal SIGINT\n", error
    assert not alive, f"workers left running: {alive}"


def test_a_saved_benchmark_larger_than_any_is_refused_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    import solver.bench.results as results_module

    monkeypatch.setattr(results_module, "MAX_RESULTS_BYTES", 2 << 20)
    big = tmp_path / "big.json"
    big.write_text(" " * ((2 << 20) + 1))
    assert main(["bench", "--compare", str(big), str(big)]) == 1
    assert capsys.readouterr().err == (
        f"autosweeper bench: {big} is larger than 2 MiB: no saved benchmark is\n"
    )
