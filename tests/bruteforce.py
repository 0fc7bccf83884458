"""Test helpers: a deliberately naive solution counter, and positions from random real play
(small ones, which it can count, drawn by hypothesis as :data:`small_positions`).

The counter tries every way to put the unflagged mines into the unknown cells and keeps those
that make every number right. It shares nothing with :mod:`solver.analysis` (no frontier, no
groups, no boxes, no weighting), which is what makes it a useful referee on small boards.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from solver import Board, Cell, Tile
from solver.engine import Game


@dataclass(frozen=True)
class BruteForce:
    solutions: int
    mined: dict[Cell, int]
    """Per unknown cell, in how many solutions it is a mine."""
    frontier_layouts: frozenset[frozenset[Cell]]
    """The distinct mine sets on the cells next to a number."""
    solution_mines: list[frozenset[Cell]]
    """Every solution, as its unflagged mines."""


def enumerate_solutions(board: Board, unread: frozenset[Cell] = frozenset()) -> BruteForce:
    """Count every mine layout consistent with ``board`` by trying them all; the numbers at
    ``unread`` cells are left out (those cells only known to be opened, so safe)."""
    cells = list(board.cells())
    unknown = [c for c in cells if board[c] in (Tile.HIDDEN, Tile.QUESTION)]
    flags = {c for c in cells if board[c] == Tile.FLAG}
    numbers = [c for c in cells if board[c].is_number and c not in unread]
    frontier = {n for c in numbers for n in board.neighbours(c) if n in set(unknown)}
    mined = dict.fromkeys(unknown, 0)
    layouts: set[frozenset[Cell]] = set()
    solution_mines: list[frozenset[Cell]] = []
    for chosen in itertools.combinations(unknown, board.mines - len(flags)):
        mines = flags | set(chosen)
        if all(sum(n in mines for n in board.neighbours(c)) == int(board[c]) for c in numbers):
            solution_mines.append(frozenset(chosen))
            for cell in chosen:
                mined[cell] += 1
            layouts.add(frozenset(frontier & set(chosen)))
    return BruteForce(len(solution_mines), mined, frozenset(layouts), solution_mines)


def layout_count(board: Board) -> int:
    """How many layouts :func:`enumerate_solutions` would try."""
    unknown = int(np.isin(board.tiles, (Tile.HIDDEN, Tile.QUESTION)).sum())
    flags = int((board.tiles == Tile.FLAG).sum())
    return math.comb(unknown, board.mines - flags) if board.mines >= flags else 0


def random_position(
    rng: random.Random,
    rows: int,
    columns: int,
    mines: int,
    openings: int,
    flag_share: float = 0.0,
    question_share: float = 0.0,
) -> Board:
    """A position from random play: mines placed at random, ``openings`` random safe cells
    opened (a 0 opens its neighbours), then some real mines flagged and some hidden cells
    question-marked.

    The board's ``real_mines`` holds the layout, so tests can check claims against the truth.
    """
    layout = np.zeros((rows, columns), dtype=bool)
    for index in rng.sample(range(rows * columns), mines):
        layout[divmod(index, columns)] = True
    game = Game.from_layout(layout)
    for _ in range(openings):
        closed = [c for c in game.board.cells() if game.board[c] == Tile.HIDDEN and not layout[c]]
        if not closed:
            break
        game.open(rng.choice(closed))
    board = Board(rows, columns, mines, game.board.tiles.copy(), layout)
    for cell in board.cells():
        if board[cell] == Tile.HIDDEN:
            if layout[cell] and rng.random() < flag_share:
                board.tiles[cell] = Tile.FLAG
            elif rng.random() < question_share:
                board.tiles[cell] = Tile.QUESTION
    return board


def with_unread(board: Board, cells: frozenset[Cell]) -> Board:
    """A copy of ``board`` whose numbers at ``cells`` show as :attr:`Tile.OPENED`, as a skin
    that has not learned their pictures reads them (the ``[real]`` layout is kept)."""
    unread = board.copy()
    for cell in cells:
        assert board[cell].is_number, cell
        unread.tiles[cell] = Tile.OPENED
    return unread


BRUTE_FORCE_LIMIT = 3000
"""Most layouts the brute-force referee is asked to try for one position."""


def small_position(
    seed: int,
    rows: int,
    columns: int,
    density: float,
    openings: int,
    flag_share: float,
    question_share: float,
) -> Board:
    """A random small position from play, opened further until brute force is affordable."""
    mines = min(rows * columns - 1, round(density * rows * columns))
    while True:
        board = random_position(
            random.Random(seed), rows, columns, mines, openings, flag_share, question_share
        )
        if layout_count(board) <= BRUTE_FORCE_LIMIT:
            return board
        openings += 1


small_positions = st.builds(
    small_position,
    seed=st.integers(0, 2**32),
    rows=st.integers(1, 5),
    columns=st.integers(1, 6),
    density=st.floats(0.0, 0.6),
    openings=st.integers(0, 3),
    flag_share=st.sampled_from([0.0, 0.0, 0.3, 1.0]),
    question_share=st.sampled_from([0.0, 0.0, 0.2]),
)
