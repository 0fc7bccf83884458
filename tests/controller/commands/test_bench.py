"""``autosweeper bench``: its options and their errors, what it prints and writes, and two saved
runs compared. The strategy is a simple test player (tests/bench_players.py): the command is tested,
not a solver."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from controller.cli import main
from controller.commands import unwritable
from solver.bench.results import read_json


def test_the_command_names_a_bad_strategy(capsys: pytest.CaptureFixture) -> None:
    assert main(["bench", "--strategy", "solver.engine:nothing", "--games", "1"]) == 1
    assert "no function 'nothing'" in capsys.readouterr().err


@pytest.mark.parametrize("workers", [1, 2])
def test_a_strategy_that_fails_mid_game_is_one_line_naming_the_game(
    workers: int, capsys: pytest.CaptureFixture
) -> None:
    arguments = ["--strategy", "os.path:join", "--level", "beginner", "--games", "2"]
    assert main(["bench", *arguments, "--workers", str(workers)]) == 1
    error = capsys.readouterr().err
    assert re.fullmatch(  # with two workers, either game may fail first
        r"autosweeper bench: the strategy failed in game seed [01]: TypeError: expected str, "
        r"bytes or os.PathLike object, not Board\n",
        error,
    ), error


def test_a_negative_seed_is_a_usage_error(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as done:
        main(["bench", "--seed", "-5", "--games", "2"])
    assert done.value.code == 2
    assert "argument --seed: must be at least 0, not -5" in capsys.readouterr().err


def test_the_command_prints_saves_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out, plot = tmp_path / "bench.json", tmp_path / "bench.png"
    options = "--level all --rule opening --games 10 --workers 1 --seed 5"
    code = main(
        ["bench", *options.split(), "--strategy", "bench_players:random_opener"]
        + ["--out", str(out), "--plot", str(plot)]
    )
    assert code == 0
    printed = capsys.readouterr().out
    for level in ("beginner", "intermediate", "expert"):
        assert level in printed
    document = json.loads(out.read_text())
    assert [row["level"] for row in document["results"]] == ["beginner", "intermediate", "expert"]
    assert document["settings"]["seed"] == 5
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_two_saved_runs_are_compared_game_for_game(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    base = "bench --level beginner --rule safe --games 60 --workers 1 --seed 21"
    weak, strong = tmp_path / "weak.json", tmp_path / "strong.json"
    assert (
        main([*base.split(), "--strategy", "bench_players:random_opener", "--out", str(weak)]) == 0
    )
    assert main([*base.split(), "--out", str(strong)]) == 0
    capsys.readouterr()
    assert main(["bench", "--compare", str(weak), str(strong)]) == 0
    line = capsys.readouterr().out.splitlines()[-1].split()
    (before,), (after,) = read_json(weak), read_json(strong)
    only_before = sum(a > b for a, b in zip(before.outcomes, after.outcomes, strict=True))
    only_after = sum(a < b for a, b in zip(before.outcomes, after.outcomes, strict=True))
    assert only_after > only_before and before.wins < after.wins
    assert line[:7] == [
        "beginner",
        "safe",
        "60",
        str(before.wins),
        str(after.wins),
        str(only_before),
        str(only_after),
    ]
    assert float(line[8]) < 0.001  # a random clicker against the solver: no doubt

    other = tmp_path / "other.json"
    assert main([*base.split()[:-1], "22", "--out", str(other)]) == 0
    assert main(["bench", "--compare", str(strong), str(other)]) == 1
    assert "played different games" in capsys.readouterr().err
    (tmp_path / "broken.json").write_text("{")
    assert main(["bench", "--compare", str(strong), str(tmp_path / "broken.json")]) == 1
    assert "broken.json is not a saved benchmark" in capsys.readouterr().err


def test_the_command_refuses_a_malformed_setting(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--set", "endgame_layouts", "--games", "1"])
    assert "NAME=VALUE" in capsys.readouterr().err
    assert main(["bench", "--set", "nope=1", "--games", "1"]) == 1
    assert "'nope' is not a solver setting" in capsys.readouterr().err


def test_the_strong_setting_is_saved_with_the_run_and_a_set_goes_on_top(tmp_path: Path) -> None:
    saved = tmp_path / "strong.json"
    run = ["bench", "--level", "beginner", "--games", "2", "--workers", "1", "--out", str(saved)]
    assert main([*run, "--strength", "strong", "--set", "rollout_candidates=2"]) == 0
    (result,) = read_json(saved)
    assert result.overrides == {"rollout_layouts": 20, "rollout_candidates": 2}


QUICK_RUN = ["bench", "--level", "beginner", "--games", "4", "--workers", "1"]


QUICK_RUN += ["--strategy", "bench_players:random_opener"]


@pytest.mark.parametrize("option", [["--json"], ["--out", "-"]])
def test_json_goes_to_standard_output_and_the_table_to_standard_error(
    option: list[str], capsys: pytest.CaptureFixture
) -> None:
    assert main([*QUICK_RUN, *option]) == 0
    printed = capsys.readouterr()
    document = json.loads(printed.out)
    assert [row["games"] for row in document["results"]] == [4]
    assert "beginner" in printed.err


def test_an_unwritable_output_is_refused_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the benchmark ran")

    monkeypatch.setattr("controller.commands.bench.run_benchmark", no_run)
    out = tmp_path / "no such folder" / "bench.json"
    assert main([*QUICK_RUN, "--out", str(out)]) == 1
    assert f"autosweeper bench: cannot write {out}" in capsys.readouterr().err
    assert main([*QUICK_RUN, "--plot", str(tmp_path)]) == 1  # a folder
    assert f"cannot write {tmp_path}" in capsys.readouterr().err
    assert main([*QUICK_RUN, "--plot", "-"]) == 1
    assert "--plot draws a PNG file" in capsys.readouterr().err
    assert not (tmp_path / "no such folder").exists()


def test_a_write_that_fails_after_the_run_prints_the_results_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "gone" / "bench.json"  # as if its folder were removed during the run
    monkeypatch.setattr("controller.commands.bench.unwritable", lambda path: None)
    assert main([*QUICK_RUN, "--out", str(out)]) == 1
    printed = capsys.readouterr()
    assert f"cannot write {out}" in printed.err and "printed above instead" in printed.err
    assert json.loads(printed.out[printed.out.index("{") :])["results"][0]["games"] == 4


def test_the_writability_check_leaves_no_file_behind(tmp_path: Path) -> None:
    fresh, kept = tmp_path / "fresh.json", tmp_path / "kept.json"
    kept.write_text("old")
    assert unwritable(fresh) is None and not fresh.exists()
    assert unwritable(kept) is None and kept.read_text() == "old"
    assert unwritable(Path("-")) is None


def test_a_bad_rule_is_named_with_the_choices_as_typed(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as done:
        main(["bench", "--rule", "huge"])
    assert done.value.code == 2
    error = capsys.readouterr().err
    assert "invalid choice: 'huge'" in error
    assert "'safe', 'xp', 'opening', 'none', 'all'" in error and "FirstClick" not in error


def test_a_plot_that_fails_after_the_run_is_named_and_the_results_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    out, plot = tmp_path / "bench.json", tmp_path / "gone" / "bench.png"
    monkeypatch.setattr("controller.commands.bench.unwritable", lambda path: None)
    assert main([*QUICK_RUN, "--out", str(out), "--plot", str(plot)]) == 1
    assert f"autosweeper bench: cannot use {plot}" in capsys.readouterr().err
    assert json.loads(out.read_text())["results"][0]["games"] == 4


def test_clicks_are_counted_with_and_without_chords(capsys: pytest.CaptureFixture) -> None:
    options = "--clicks --level beginner --games 4 --workers 2"
    assert main(["bench", *options.split()]) == 0
    printed = capsys.readouterr().out
    assert "solver.strategy:next_moves" in printed
    assert "solver.chords:chorded_moves" in printed
    assert "games won by one only: 0" in printed
