"""``autosweeper analyze``: the report on a board file, its JSON form and its errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from bruteforce import enumerate_solutions, random_position
from conftest import BOARDS

from controller.cli import main
from solver import Board, Game, Tile, analyze
from solver.board_text import MAX_TEXT_BYTES
from solver.settings import current, using


@pytest.fixture
def small_board_file(tmp_path: Path) -> tuple[Path, Board]:
    board = random_position(random.Random(7), 5, 6, 6, openings=2, flag_share=0.5)
    path = tmp_path / "small.txt"
    path.write_text(board.to_text())
    return path, board


def test_json_report_agrees_with_brute_force(
    small_board_file: tuple[Path, Board], capsys: pytest.CaptureFixture[str]
) -> None:
    path, board = small_board_file
    assert main(["analyze", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    truth = enumerate_solutions(board)
    assert report["solutions"] == truth.solutions
    assert report["mines_left"] == board.mines - int((board.tiles == Tile.FLAG).sum())
    assert {tuple(cell) for cell in report["safe"]} == {
        cell for cell, mined in truth.mined.items() if mined == 0
    }
    for key, chance in report["exact_probabilities"].items():
        r, c = (int(x) for x in key.split(","))
        assert Fraction(chance) == Fraction(truth.mined[r, c], truth.solutions)
    layouts = {frozenset(tuple(cell) for cell in layout) for layout in report["frontier_layouts"]}
    assert layouts == truth.frontier_layouts
    assert 0 < Fraction(report["win_probability"]) <= 1


def test_text_report_lists_certain_cells_layouts_and_a_probability_grid(
    small_board_file: tuple[Path, Board], capsys: pytest.CaptureFixture[str]
) -> None:
    path, board = small_board_file
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    result = analyze(board)
    assert f"solutions: {result.solutions}\n" in out
    assert f"certain safe ({len(result.safe)}):" in out
    assert f"frontier layouts: {result.frontier_layout_count}\n" in out
    assert "win probability with best play:" in out
    grid = out.split("F a flag):\n")[1].splitlines()
    assert len(grid) == board.rows + 1
    for r in range(board.rows):
        cells = grid[r + 1].split()[1:]
        assert len(cells) == board.columns
        for c, text in enumerate(cells):
            tile = board[r, c]
            if tile.is_number:
                assert text == f"[{int(tile)}]"
            elif tile == Tile.FLAG:
                assert text == "F"
            elif (r, c) in result.safe:
                assert text == "0"


def test_big_positions_count_layouts_instead_of_listing_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = BOARDS / "expert_wide_frontier.txt"
    assert main(["analyze", str(path), "--layouts", "5"]) == 0
    out = capsys.readouterr().out
    count = analyze(Board.from_text(path.read_text())).frontier_layout_count
    assert count > 5 and f"frontier layouts: {count} (too many to list)" in out
    assert "position too large for the exact search" in out


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("contradicting_numbers.txt", "cell (row 1, column 0)"),
        ("lost_game.txt", "cell (row 0, column 1)"),
    ],
)
def test_impossible_board_exits_1_naming_the_cell(
    name: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(BOARDS / name)]) == 1
    captured = capsys.readouterr()
    assert where in captured.err and captured.out == ""


def test_malformed_missing_or_oversized_file_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("# MINESWEEPER-BOARD v0.1\nrows: 1\ncolumns: 2\nmines: 1\n[view]\nUZ\n")
    assert main(["analyze", str(bad)]) == 1
    assert "cell (row 0, column 1)" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read" in capsys.readouterr().err
    huge = tmp_path / "huge.txt"
    huge.write_text("100x1000x1\n" + ("H" * 100 + "\n") * 1000)
    assert main(["analyze", str(huge)]) == 1
    assert "a 1000x100 board (rows x columns) is larger than the 100x100" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize("rule", ["safe", "xp", "opening", "none"])
def test_a_board_of_mines_only_is_already_won_under_every_rule(
    rule: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mines.txt"
    path.write_text(Board.empty(2, 2, 4).to_text())
    assert main(["analyze", str(path), "--rule", rule]) == 0
    out = capsys.readouterr().out
    assert "certain mines (4)" in out and "win probability with best play: 1 = 100.0000%" in out


def test_an_approximate_analysis_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    path = BOARDS / "expert_wide_frontier.txt"
    with using(replace(current(), max_exact_products=0)):
        assert main(["analyze", str(path)]) == 0
        solutions = analyze(Board.from_text(path.read_text())).solutions
        assert f"solutions: {solutions} (approximate: combining the groups takes" in (
            capsys.readouterr().out
        )
        assert main(["analyze", str(path), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
    assert not report["exact"] and "significant digits" in report["approximation"]


def test_emoji_rendered_file_gives_the_same_report(
    small_board_file: tuple[Path, Board], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, board = small_board_file
    emoji_path = tmp_path / "small.board"
    emoji_path.write_text(board.to_text("emoji"), encoding="utf-8")
    assert main(["analyze", str(path), "--json"]) == 0
    ascii_report = json.loads(capsys.readouterr().out)
    assert main(["analyze", str(emoji_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == ascii_report


def test_jsminesweeper_file_gives_the_same_report(
    small_board_file: tuple[Path, Board], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, board = small_board_file
    js_path = tmp_path / "small.js.txt"
    js_path.write_text(board.to_jsminesweeper_text())
    assert main(["analyze", str(path), "--json"]) == 0
    from_metasweeper = json.loads(capsys.readouterr().out)
    assert main(["analyze", str(js_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_metasweeper


def test_a_big_board_with_one_solution_is_won_for_sure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hidden rows between opened rows: one solution, in a frontier part of 1,800 cells, which
    the search lists without recursion (it once overflowed the stack and gave no answer)."""
    rng = random.Random(0)
    layout = np.zeros((60, 60), dtype=bool)
    for r in range(0, 60, 2):
        layout[r] = [rng.random() < 0.5 for _ in range(60)]
    game = Game.from_layout(layout)
    for r in range(1, 60, 2):
        for c in range(60):
            game.open((r, c))
    path = tmp_path / "stripes.txt"
    path.write_text(game.board.to_text())
    assert main(["analyze", str(path), "--layouts", "1"]) == 0
    out = capsys.readouterr().out
    assert "solutions: 1\n" in out
    assert "win probability with best play: 1 = 100.0000%" in out


def test_a_file_larger_than_any_board_is_refused_before_it_is_read_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(b"0" * (MAX_TEXT_BYTES + 1))
    assert main(["analyze", str(path)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert str(path) in error and "larger than" in error


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_refused_in_bounded_memory() -> None:
    """``analyze /dev/zero`` once read without limit (23 GB in a minute); under a 1 GB address
    space limit it must end with one line, not a MemoryError."""
    resource = pytest.importorskip("resource")

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "analyze", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit_memory,
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "/dev/zero" in result.stderr, result.stderr
