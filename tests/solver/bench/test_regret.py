"""The regret measure: exact on a known position, zero for best play, positive for bad play."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from controller.cli import main
from solver import Board
from solver.bench.regret import Guess, guess_regret, measure_regret
from solver.engine import FirstClick
from solver.errors import PositionTooLarge
from solver.settings import current
from solver.strategy import Action, Move, next_moves
from solver.winprob import guess_values

# Two mines: one beside the 1 (either side), one of the two cells on the left. Opening the
# left corner teaches nothing about the 1 (a quarter of the wins), a middle cell does (half).
UNEVEN = Board.from_rows(["UUU1U"], mines=2)


def test_the_regret_of_a_cell_is_what_it_wins_less_than_the_best() -> None:
    assert guess_regret(Guess(UNEVEN, (0, 0))) == Fraction(1, 4)
    assert guess_regret(Guess(UNEVEN, (0, 4))) == Fraction(1, 4)
    assert guess_regret(Guess(UNEVEN, (0, 1))) == 0


def test_a_position_the_search_cannot_finish_has_no_regret() -> None:
    assert guess_regret(Guess(UNEVEN, (0, 0)), max_visits=1) is None


def worst_guess(board: Board, rule: FirstClick) -> list[Move]:
    """Plays as the solver does, but every guess it can value exactly goes to the worst cell."""
    moves = next_moves(board, rule)
    if not any(move.is_guess for move in moves) or board.is_fresh:
        return moves
    try:
        values = guess_values(board)
    except PositionTooLarge:
        return moves
    worst = min(values, key=lambda cell: (values[cell], cell))
    return [Move(worst, Action.OPEN, 0.5)]


def test_the_solver_loses_nothing_where_its_own_exact_search_chooses() -> None:
    """Guesses within the in-play search's limits are the search's choices: each is best."""
    report = measure_regret(
        next_moves,
        "intermediate",
        FirstClick.SAFE,
        80,
        2,
        0,
        max_layouts=current().endgame_layouts,
        max_visits=current().endgame_visits,
        progress=False,
    )
    assert report.kept > 10 and report.solved == report.kept
    assert report.not_best == 0 and report.lost == 0


def test_choosing_the_worst_cell_shows_as_lost_wins() -> None:
    one = measure_regret(worst_guess, "intermediate", FirstClick.SAFE, 80, 1, 0, progress=False)
    two = measure_regret(worst_guess, "intermediate", FirstClick.SAFE, 80, 2, 0, progress=False)
    assert one == two
    assert one.solved > 10 and one.not_best > 0 and one.lost > 1


def test_the_size_window_keeps_only_guesses_within_it() -> None:
    every = measure_regret(worst_guess, "intermediate", FirstClick.SAFE, 80, 2, 0, progress=False)
    large = measure_regret(
        worst_guess, "intermediate", FirstClick.SAFE, 80, 2, 0, min_layouts=50, progress=False
    )
    assert 0 < large.kept < every.kept


def test_the_bench_command_prints_and_saves_the_regret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The printed row and the saved report agree, and a setting of the measure takes effect."""
    saved = tmp_path / "regret.json"
    command = "bench --regret --level intermediate --rule safe --games 40 --workers 2 --seed 0"
    options = ["--strategy", "test_regret:worst_guess", "--out", str(saved)]
    window = ["--set", "regret_max_layouts=400"]
    assert main([*command.split(), *options, *window]) == 0
    (report,) = json.loads(saved.read_text())["regret"]
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("interm"))
    counts = [report[key] for key in ("games", "kept", "solved", "not_best")]
    assert row.split()[2:6] == [str(n) for n in counts]
    assert report["max_layouts"] == 400 and report["kept"] > 0 and report["lost"] > 0


def test_a_bad_setting_is_refused_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--regret", "--set", "regret_no_such=1", "--games", "1"]) == 1
    assert "'regret_no_such' is not a solver setting" in capsys.readouterr().err
