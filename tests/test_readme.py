"""Every example of README's section "The solver as a library" runs: its Python, its board (which
must be a possible position, and is what to_text writes), its `autosweeper analyze` line and its
`autosweeper bench` comparison (with fewer games)."""

from __future__ import annotations

import re
import shlex
import textwrap
from pathlib import Path

import numpy as np
import pytest

from controller.cli import main
from solver import Board, Tile, analyze
from solver.engine import neighbour_counts

README = Path(__file__).parent.parent / "README.md"
SECTION = "## The solver as a library"


def examples() -> list[str]:
    """The section's indented blocks (a block runs until a line that is neither indented nor
    blank)."""
    text = README.read_text(encoding="utf-8")
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"(?:^(?: {4}.*)?\n)+", body, flags=re.MULTILINE)
    return [textwrap.dedent(block).strip("\n") + "\n" for block in blocks if block.strip()]


def example(starting: str) -> str:
    found = [block for block in examples() if block.startswith(starting)]
    assert len(found) == 1, f"README has {len(found)} examples starting {starting!r}"
    return found[0]


def test_every_example_of_the_section_is_one_this_file_runs() -> None:
    known = ("from solver", "# MINESWEEPER-BOARD", "autosweeper analyze", "autosweeper bench")
    assert all(block.startswith(known) for block in examples())


def test_board_example_is_a_possible_position_written_as_to_text_writes_it() -> None:
    text = example("# MINESWEEPER-BOARD")
    board = Board.from_text(text)
    assert board.to_text() == text
    assert board.real_mines is not None
    counts = neighbour_counts(board.real_mines)
    opened = board.tiles <= Tile.EIGHT
    assert np.array_equal(board.tiles[opened], counts[opened])
    assert not board.real_mines[opened].any()
    assert board.real_mines[board.tiles == Tile.FLAG].all()
    result = analyze(board)
    assert not any(board.real_mines[cell] for cell in result.safe)
    assert all(board.real_mines[cell] for cell in result.mines)


@pytest.fixture
def in_folder_with_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "position.txt").write_text(example("# MINESWEEPER-BOARD"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_python_example_runs_and_does_what_its_comments_say(in_folder_with_position: Path) -> None:
    names: dict[str, object] = {}
    exec(compile(example("from solver"), "README.md", "exec"), names)
    board, result, cell = names["board"], names["result"], names["cell"]
    assert isinstance(board, Board) and cell in analyze(board).safe
    assert result == analyze(board)
    assert 0 < names["chance"] <= 1  # type: ignore[operator]


def test_analyze_command_example_runs(
    in_folder_with_position: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = shlex.split(example("autosweeper analyze"))
    assert main(command[1:]) == 0
    assert "solutions: 2\n" in capsys.readouterr().out


def test_bench_comparison_example_runs_with_fewer_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The section's `autosweeper bench` lines, in order, with 8 games instead of thousands: the
    two seeded runs save their JSON and the comparison reads them back."""
    block = example("autosweeper bench")
    commands = [shlex.split(line) for line in block.replace("\\\n", " ").splitlines()]
    assert [command[:2] for command in commands] == [["autosweeper", "bench"]] * 3
    monkeypatch.chdir(tmp_path)
    for command in commands:
        argv = command[1:]
        if "--games" in argv:
            argv[argv.index("--games") + 1] = "8"
        assert main([*argv, "--workers", "1"] if "--compare" not in argv else argv) == 0
    output = capsys.readouterr().out
    assert "only before" in output and "expert" in output
    assert (tmp_path / "before.json").is_file() and (tmp_path / "after.json").is_file()
