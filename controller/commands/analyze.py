"""``autosweeper analyze FILE``: what the exact solver knows about a board saved as text."""

from __future__ import annotations

import argparse
import json
import math
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller.commands import positive_int
from solver.analysis import Analysis, analyze
from solver.board import Board, Cell, Tile
from solver.engine import FirstClick
from solver.errors import BoardError, PositionTooLarge
from solver.winprob import MAX_LAYOUTS, win_probability

DEFAULT_LAYOUT_LIMIT = 20


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "analyze",
        help="exact mine probabilities of a board file",
        description=(
            "Read a board (MINESWEEPER-BOARD v0.1 or JSMinesweeper text) and print the certain "
            "safe cells and mines, every unknown cell's mine probability, the number of "
            "consistent mine layouts, the distinct layouts of the cells next to numbers, and "
            "for small positions the exact chance of winning with best play."
        ),
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="the board text file")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument(
        "--layouts",
        type=positive_int,
        default=DEFAULT_LAYOUT_LIMIT,
        metavar="N",
        help="list the frontier layouts when there are at most N (default: %(default)s)",
    )
    parser.add_argument(
        "--rule",
        choices=[rule.value for rule in FirstClick],
        default="safe",
        help="first-click rule, for the win probability of a fresh board (default: %(default)s)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        board = Board.read_file(args.file)
        analysis = analyze(board)
    except (OSError, UnicodeDecodeError) as error:
        print(f"autosweeper analyze: cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    except BoardError as error:
        print(f"autosweeper analyze: {args.file}: {error}", file=sys.stderr)
        return 1
    layouts = analysis.frontier_layouts(args.layouts)
    winning = _win_probability(analysis, args.rule)
    if args.json:
        print(json.dumps(_as_json(analysis, layouts, winning)))
    else:
        print(_as_text(analysis, layouts, winning))
    return 0


def _win_probability(analysis: Analysis, rule: str) -> Fraction | None:
    """The exact chance of winning with best play, or None when the position is too large."""
    if analysis.board.is_won:
        # Nothing left to open (every unknown cell a mine, say): no first click to protect.
        return Fraction(1)
    if analysis.solutions > MAX_LAYOUTS:
        # The search would refuse it too, but only after listing that many layouts.
        return None
    try:
        return win_probability(analysis.board, rule=rule)
    except PositionTooLarge:
        return None


def _cells(cells: frozenset[Cell] | list[Cell]) -> str:
    return " ".join(f"({r},{c})" for r, c in sorted(cells)) or "none"


def _percent(chance: Fraction) -> str:
    """A mine chance in whole percent, never rounding an uncertain cell to 0 or 100."""
    if 0 < chance < Fraction(1, 200):
        return "<1"
    if Fraction(199, 200) < chance < 1:
        return ">99"
    return str(round(chance * 100))


def _probability_grid(analysis: Analysis) -> list[str]:
    """Rows of the board with each unknown cell's mine chance in percent."""
    board = analysis.board
    width = 4
    lines = ["    " + "".join(f"{c:>{width}}" for c in range(board.columns))]
    for r in range(board.rows):
        row = []
        for c in range(board.columns):
            tile = board[r, c]
            if tile.is_number:
                row.append(f"[{int(tile)}]")
            elif tile == Tile.FLAG:
                row.append("F")
            else:
                row.append(_percent(analysis.probability((r, c))))
        lines.append(f"{r:>4}" + "".join(f"{text:>{width}}" for text in row))
    return lines


def _as_text(
    analysis: Analysis, layouts: list[frozenset[Cell]] | None, winning: Fraction | None
) -> str:
    board = analysis.board
    flags = int((board.tiles == Tile.FLAG).sum())
    grouped = sum(len(group.cells) for group in analysis.groups)
    lines = [
        f"board: {board.rows} rows x {board.columns} columns, {board.mines} mines, {flags} flagged",
        f"solutions: {analysis.solutions}"
        + ("" if analysis.exact else f" (approximate: {analysis.approximation})"),
        f"certain safe ({len(analysis.safe)}): {_cells(analysis.safe)}",
        f"certain mines ({len(analysis.mines)}): {_cells(analysis.mines)}",
        f"frontier groups: {len(analysis.groups)} ({grouped} cells); "
        f"unknown cells touching no number: {len(analysis.off_frontier)}",
    ]
    if layouts is None:
        lines.append(f"frontier layouts: {analysis.frontier_layout_count} (too many to list)")
    else:
        lines.append(f"frontier layouts: {len(layouts)}")
        lines += [f"  mines at {_cells(sorted(layout))}" for layout in sorted(layouts, key=sorted)]
    if winning is None:
        lines.append("win probability with best play: position too large for the exact search")
    else:
        lines.append(f"win probability with best play: {winning} = {float(winning):.4%}")
    lines.append("mine probability in percent ([n] an opened number, F a flag):")
    lines += _probability_grid(analysis)
    return "\n".join(lines)


def _as_json(
    analysis: Analysis, layouts: list[frozenset[Cell]] | None, winning: Fraction | None
) -> dict[str, Any]:
    grid = analysis.probabilities()
    board = analysis.board
    return {
        "rows": board.rows,
        "columns": board.columns,
        "mines": board.mines,
        "mines_left": analysis.mines_left,
        "solutions": analysis.solutions,
        "exact": analysis.exact,
        "approximation": analysis.approximation,
        "safe": sorted(analysis.safe),
        "certain_mines": sorted(analysis.mines),
        "probabilities": [
            [None if math.isnan(value) else float(value) for value in row] for row in grid
        ],
        "exact_probabilities": {
            f"{r},{c}": str(analysis.probability((r, c)))
            for r, c in board.cells()
            if board[r, c].is_closed
        },
        "groups": [
            {"cells": sorted(group.cells), "layouts": group.layout_count}
            for group in analysis.groups
        ],
        "frontier_layout_count": analysis.frontier_layout_count,
        "frontier_layouts": None
        if layouts is None
        else [sorted(layout) for layout in sorted(layouts, key=sorted)],
        "win_probability": None if winning is None else str(winning),
    }
