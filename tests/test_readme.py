"""Every example of the documents `docs/solver.md` (the solver as a library, `autosweeper
analyze`, comparing two solvers with `autosweeper bench`) and `docs/formats.md` (the board text
format) runs: its Python, its board (which must be a possible position, and is what to_text
writes), its `autosweeper analyze` line and its `autosweeper bench` comparison (with fewer games).
They were README's section "The solver as a library"; README.md now links to them, and every
relative link of README.md and docs/*.md must lead to a file (and heading) that exists."""

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

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
DOCUMENTS = (DOCS / "solver.md", DOCS / "formats.md")
"""The documents whose every example this file runs (each document whole)."""
LINK = re.compile(r"\]\(([^)\s]+)\)")


def blocks(text: str) -> list[str]:
    """The indented blocks of a markdown text (a block runs until a line that is neither indented
    nor blank)."""
    found = re.findall(r"(?:^(?: {4}.*)?\n)+", text, flags=re.MULTILINE)
    return [textwrap.dedent(block).strip("\n") + "\n" for block in found if block.strip()]


def examples() -> list[str]:
    """Every indented block of the documents, in order."""
    return [block for path in DOCUMENTS for block in blocks(path.read_text(encoding="utf-8"))]


def example(starting: str) -> str:
    found = [block for block in examples() if block.startswith(starting)]
    assert len(found) == 1, f"the documents have {len(found)} examples starting {starting!r}"
    return found[0]


def test_every_example_of_the_documents_is_one_this_file_runs() -> None:
    known = ("from solver", "# MINESWEEPER-BOARD", "autosweeper analyze", "autosweeper bench")
    kinds = [
        next((kind for kind in known if block.startswith(kind)), block) for block in examples()
    ]
    assert sorted(kinds) == sorted(known), kinds


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
    exec(compile(example("from solver"), "docs/solver.md", "exec"), names)
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
    """The `autosweeper bench` lines of docs/solver.md, in order, with 8 games instead of
    thousands: the two seeded runs save their JSON and the comparison reads them back."""
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


def test_the_python_example_and_the_bench_comparison_live_in_the_solver_document() -> None:
    """README points readers to docs/solver.md for the solver; its examples are there."""
    text = (DOCS / "solver.md").read_text(encoding="utf-8")
    section = text.split("## The solver as a library", 1)[1]
    assert section.lstrip().startswith("from solver")
    assert "autosweeper bench --compare" in text
    assert "docs/solver.md" in README.read_text(encoding="utf-8")


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a markdown file: lower case, signs dropped, spaces
    made hyphens."""
    headings = re.findall(r"^#+ (.*)$", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("path", [README, *sorted(DOCS.glob("*.md"))], ids=lambda path: path.name)
def test_relative_links_lead_to_files_and_headings_that_exist(path: Path) -> None:
    targets = LINK.findall(path.read_text(encoding="utf-8"))
    broken = []
    for target in (target for target in targets if "://" not in target):
        name, _, anchor = target.partition("#")
        linked = (path.parent / name).resolve() if name else path
        if not linked.exists() or (anchor and anchor not in anchors(linked)):
            broken.append(target)
    assert not broken, f"{path.name} links to what does not exist: {broken}"
