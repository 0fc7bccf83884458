"""The paired benchmark against David Hill's solver: the layouts both play, the driver's lines
and his results as a benchmark result. His code is not here (nothing is fetched): the test that
plays his solver runs only where ``AUTOSWEEPER_HILL`` names a checkout of it and Java is
installed (``slow``)."""

import io
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from solver.bench import hill
from solver.bench.disagreements import Guess, file_under
from solver.bench.run import run_benchmark
from solver.bench.stats import paired_comparison
from solver.engine import FirstClick, Game
from solver.errors import BenchError
from solver.strategy import next_moves


@pytest.mark.parametrize("rule", hill.RULES)
def test_the_layouts_are_the_benchmarks_own_games(rule: FirstClick) -> None:
    for seed, layout in hill.layouts("expert", rule, 5, 1234):
        assert layout.shape == (16, 30) and layout.sum() == 99
        game = Game.from_layout(layout)
        replayed = Game.level("expert", rule, seed)
        start = (3, 3) if rule is FirstClick.OPENING else (0, 0)
        opened = replayed.open(start)
        assert opened == game.open(start)  # the same cells open, so the same mines around
        assert replayed.mine_layout is not None
        assert np.array_equal(replayed.mine_layout, layout)
        if rule is FirstClick.OPENING:
            assert not layout[2:5, 2:5].any()


def test_a_layout_goes_to_the_driver_as_one_line_of_cells() -> None:
    layout = np.zeros((2, 3), dtype=bool)
    layout[1, 0] = True
    stream = io.StringIO()
    stream.close = lambda: None  # type: ignore[method-assign]  # read it after
    hill._feed(stream, [(7, layout)])
    assert stream.getvalue() == "7\t000100\n"


def test_the_drivers_line_parses_into_a_game() -> None:
    game = hill._parse("7000001\t1\t1500000\t15,21,0.5 0,14,0.75\n")
    assert game == hill.HillGame(7000001, True, 0.0015, ((15, 21, 0.5), (0, 14, 0.75)))
    assert hill._parse("3\t0\t10\t\n").guesses == ()
    with pytest.raises(BenchError, match="printed 'LOOPSAFE check', not a game"):
        hill._parse("LOOPSAFE check\n")


def test_his_games_compare_game_for_game_with_a_benchmark_run() -> None:
    (ours,) = run_benchmark(next_moves, ["beginner"], ["safe"], 4, workers=1, seed=50)
    his = [hill.HillGame(50 + i, i % 2 == 0, 0.001, ()) for i in range(4)]
    result = hill.as_result(his, "beginner", FirstClick.SAFE, wall_seconds=1.0)
    assert (result.first_seed, result.games, result.outcomes) == (50, 4, "1010")
    assert result.wins == 2 and result.cpu_ms_per_game == pytest.approx(1.0)
    paired = paired_comparison(result.outcomes, ours.outcomes)
    assert paired.wins_before == 2 and paired.wins_after == ours.wins


def test_a_folder_that_is_not_his_code_is_refused_by_name(tmp_path: Path) -> None:
    if shutil.which("javac") is None:
        pytest.skip("no Java compiler here")
    (tmp_path / "checkout").mkdir()
    with pytest.raises(BenchError, match=r"checkout: .*MinesweeperGameState/src"):
        hill.build(tmp_path / "checkout", tmp_path / "cache")
    with pytest.raises(BenchError, match="no such folder"):
        hill.build(tmp_path / "nowhere", tmp_path / "cache")


def test_a_run_that_could_not_be_saved_or_has_a_bad_setting_is_refused_before_it_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = str(tmp_path / "not-played")
    out = str(tmp_path / "missing" / "run")
    assert hill.main(["--hill", checkout, "--out", out]) == 2
    assert "no folder" in capsys.readouterr().err
    assert hill.main(["--hill", checkout, "--set", "nope=1"]) == 2
    assert "'nope' is not a solver setting" in capsys.readouterr().err


def _guess(cell: tuple[int, int], kind: str) -> Guess:
    """A guess on a 2x3 board whose last column holds one mine, either cell as safe."""
    layout = np.zeros((2, 3), dtype=bool)
    layout[1, 2] = True
    game = Game.from_layout(layout)
    game.open((0, 0))
    return Guess(cell, 0.5, kind, game.board.copy())


def test_boards_are_filed_under_the_first_guess_where_the_two_part() -> None:
    ours = [_guess((0, 2), "50/50"), _guess((1, 2), "endgame")]
    assert file_under(ours, [(0, 2, 0.5), (1, 2, 0.5)]) is None
    assert file_under(ours, [(1, 2, 0.5)]) == "50/50, Hill's cell as safe, first guess"
    assert file_under(ours, [(0, 2, 0.5), (0, 2, 0.5)]) == (
        "endgame, Hill's cell as safe, later guess"
    )
    assert file_under(ours[:1], [(0, 2, 0.5), (1, 2, 0.5)]) == "none, Hill guessed more"
    assert file_under(ours, [(0, 2, 0.5)]) == "endgame, Hill guessed no more, later guess"


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("AUTOSWEEPER_HILL") or shutil.which("javac") is None,
    reason="needs AUTOSWEEPER_HILL (a checkout of DavidNHill/Minesweeper) and a Java JDK",
)
@pytest.mark.parametrize("rule", hill.RULES)
def test_his_solver_plays_the_layouts_and_repeats_itself(rule: FirstClick, tmp_path: Path) -> None:
    built = hill.build(Path(os.environ["AUTOSWEEPER_HILL"]), tmp_path)
    runs = [hill.play(built, "expert", rule, hill.layouts("expert", rule, 30, 99), 30, False)]
    runs.append(hill.play(built, "expert", rule, hill.layouts("expert", rule, 30, 99), 30, False))
    first, again = ([(game.seed, game.won, game.guesses) for game in run] for run in runs)
    assert first == again and [seed for seed, _, _ in first] == list(range(99, 129))
    assert all(0 < safety < 1 for _, _, guesses in first for _, _, safety in guesses)
    assert 0 < sum(won for _, won, _ in first) < 30
