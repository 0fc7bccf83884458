"""The numbers of opened-cell pictures from bounds: sound on random boards, and as strong as the
evidence allows."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.errors import CalibrationError
from calibration.meanings import check_counting
from calibration.numbers import NumberBounds, label_from_play
from solver import Board, Tile
from solver.engine import neighbour_counts


def random_board(seed: int, rows: int, columns: int, density: float, opened_share: float):
    """Mines, numbers, and an opened set closed under the game's flood from zeros."""
    rng = np.random.default_rng(seed)
    mines = rng.random((rows, columns)) < density
    numbers = neighbour_counts(mines)
    opened = (rng.random((rows, columns)) < opened_share) & ~mines
    while True:
        flooded = (opened | (neighbour_counts(opened & (numbers == 0)) > 0)) & ~mines
        if (flooded == opened).all():
            return mines, numbers, opened
        opened = flooded


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    density=st.floats(0.05, 0.6),
    opened_share=st.floats(0.1, 0.9),
    exact_share=st.floats(0, 1),
)
def test_forced_numbers_are_the_true_ones(
    seed: int, density: float, opened_share: float, exact_share: float
) -> None:
    # Each number is drawn as its own picture (ids shuffled); upper bounds come from closed
    # neighbours, exact counts from some cells (a loss that showed every mine).
    mines, numbers, opened = random_board(seed, 8, 10, density, opened_share)
    rng = np.random.default_rng(seed + 1)
    picture_of = {number: int(p) for number, p in enumerate(rng.permutation(9) + 100)}
    closed_around = neighbour_counts(~opened)
    bounds = NumberBounds()
    for row, column in np.argwhere(opened):
        number = int(numbers[row, column])
        picture = picture_of[number]
        if rng.random() < exact_share:
            bounds.narrow(picture, number, number, "exact")
        else:
            bounds.narrow(picture, 0, int(closed_around[row, column]), "closed neighbours")
    seen = {picture_of[int(n)] for n in np.unique(numbers[opened])}
    truth = {p: n for n, p in picture_of.items()}
    forced = bounds.values(seen)
    assert all(truth[picture] == value for picture, value in forced.items())


def test_upper_bounds_and_distinct_values_force_the_low_numbers() -> None:
    bounds = NumberBounds()
    bounds.narrow(10, 0, 0, "a cell with no closed neighbour")
    bounds.narrow(11, 0, 1, "a cell with one")
    bounds.narrow(12, 0, 2, "a cell with two")
    bounds.narrow(13, 0, 5, "a cell with five")
    assert bounds.values([10, 11, 12, 13]) == {10: 0, 11: 1, 12: 2}


def test_pictures_that_cannot_be_distinct_numbers_are_refused() -> None:
    bounds = NumberBounds()
    bounds.narrow(10, 1, 1, "here")
    bounds.narrow(11, 0, 1, "there")
    bounds.narrow(12, 0, 0, "elsewhere")
    with pytest.raises(CalibrationError, match="cannot show distinct numbers"):
        bounds.values([10, 11, 12])
    with pytest.raises(CalibrationError, match="no number is both"):
        bounds.narrow(10, 2, 3, "later")


def test_a_won_game_labels_a_picture_by_its_closed_neighbours() -> None:
    during = Board.from_rows(["-UU", "UUU", "UUU"], mines=8)
    won = Board.from_rows(["-FF", "FFF", "FFF"], mines=8)
    boards = [(during, {(0, 0): 0}), (won, {(0, 0): 0})]
    assert label_from_play(boards, known={0: [0, 1, 2]}) == {0: Tile.THREE}


def test_a_loss_showing_only_the_mine_hit_bounds_its_neighbours_from_below() -> None:
    # At most 3 (closed neighbours), at least 1 (the mine hit): 1, since 2 and 3 are known.
    # (Two cells beyond its neighbours: on a 2x2 board the mine count alone would say 2.)
    during = Board.from_rows(["-UU", "UUU"], mines=2)
    lost = Board.from_rows(["-XU", "UUU"], mines=2)
    boards = [(during, {(0, 0): 0}), (lost, {(0, 0): 0})]
    assert label_from_play(boards, known={0: [0, 2, 3]}) == {0: Tile.ONE}
    assert label_from_play(boards, known={0: [0, 3]}) == {}


def test_a_flag_left_on_a_loss_that_shows_the_mines_counts_only_where_flags_are_proven() -> None:
    # (0, 0) is a 2 or a 3: the mine shown and the hit one, and perhaps the flagged cell. A game
    # may leave a wrong flag standing; the bot flags only proven mines, and a game that marks
    # its wrong flags (a WRONG_FLAG on the board) leaves only right ones.
    during = Board.from_rows(["-F", "UU"], mines=3)
    lost = Board.from_rows(["-F", "@X"], mines=3)
    boards = [(during, {(0, 0): 0}), (lost, {(0, 0): 0})]
    assert label_from_play(boards, known={0: [0, 1]}) == {}
    assert label_from_play(boards, known={0: [0, 1]}, flags_are_mines=True) == {0: Tile.THREE}
    marked = Board.from_rows(["-FU#", "@XUU"], mines=3)
    assert label_from_play([(marked, {(0, 0): 0})], known={0: [0, 1]}) == {0: Tile.THREE}
    check_counting(Board.from_rows(["2F", "@X"], mines=3), "a wrong flag left standing")
    with pytest.raises(CalibrationError, match="between 3 and 3"):
        check_counting(Board.from_rows(["2F", "@X"], mines=3), "proven flags", True)


def test_a_picture_of_a_size_class_may_be_a_number_another_class_reads() -> None:
    # Cell (0, 0) is of size class 1, where the skin has only ever seen 0 and 2; class 0 reads
    # 1 to 3. The won board forces 1 for the class-1 picture: class 0's 1 is no rival. With one
    # class for all (as before size classes), 1 is taken and the picture is refused.
    during = Board.from_rows(["-U", "11"], mines=1)
    won = Board.from_rows(["-F", "11"], mines=1)
    boards = [(during, {(0, 0): 0}), (won, {(0, 0): 0})]
    known = {0: [0, 1, 2, 3], 1: [0, 2]}
    assert label_from_play(boards, known, classes={0: 1}) == {0: Tile.ONE}
    with pytest.raises(CalibrationError, match="cannot show distinct numbers"):
        label_from_play(boards, {0: [0, 1, 2, 3]})


def test_pictures_of_two_size_classes_may_be_one_number() -> None:
    # Two pictures both forced to 1, one per class: distinct only within a class.
    during = Board.from_rows(["-UU-", "UUUU"], mines=6)
    won = Board.from_rows(["-FF-", "FFFF"], mines=6)
    pictures = {(0, 0): 0, (0, 3): 1}
    boards = [(during, pictures), (won, pictures)]
    assert label_from_play(boards, {0: [0], 1: [0]}, classes={0: 0, 1: 1}) == {
        0: Tile.THREE,
        1: Tile.THREE,
    }
    with pytest.raises(CalibrationError, match="cannot show distinct numbers"):
        label_from_play(boards, {0: [0]})


def test_a_picture_in_play_takes_the_one_number_the_other_numbers_allow() -> None:
    # (1, 1) has six closed neighbours: 0 to 4 are known, so it is a 5 or a 6 by its bounds. A 6
    # would make (1, 2) and (2, 2) both mines, and the 2 at (2, 1) would count three (the 1 at
    # (2, 0) proves (1, 0) a mine): only 5 fits the board, which is still in play.
    board = Board.from_rows(["UUUUU", "U-UUU", "12UUU"], mines=8)
    boards = [(board, {(1, 1): 0})]
    assert label_from_play(boards, known={0: [0, 1, 2, 3, 4]}) == {0: Tile.FIVE}


def test_a_picture_in_play_stays_unlabelled_while_two_numbers_fit() -> None:
    # Without the 2 at (2, 1), (2, 2) may be a mine: a 5 and a 6 both fit.
    board = Board.from_rows(["UUUUU", "U-UUU", "1UUUU"], mines=8)
    assert label_from_play([(board, {(1, 1): 0})], known={0: [0, 1, 2, 3, 4]}) == {}


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    density=st.floats(0.1, 0.4),
    opened_share=st.floats(0.2, 0.8),
    flag_share=st.floats(0, 1),
)
def test_numbers_labelled_in_play_are_the_true_ones(
    seed: int, density: float, opened_share: float, flag_share: float
) -> None:
    # A board in play whose numbers of one value the skin cannot read (opened cells of unknown
    # number, one picture) while it reads some of the others, some mines flagged (proven, as
    # the bot flags): every label is the true number.
    mines, numbers, opened = random_board(seed, 8, 10, density, opened_share)
    if mines.sum() == 0 or not opened.any() or (opened | mines).all():
        return
    rng = np.random.default_rng(seed + 1)
    tiles = np.where(opened, numbers, Tile.HIDDEN).astype(np.uint8)
    tiles[mines & (rng.random(mines.shape) < flag_share)] = Tile.FLAG
    value = int(rng.choice(np.unique(numbers[opened])))
    cells = [(int(r), int(c)) for r, c in np.argwhere(opened & (numbers == value))]
    for cell in cells:
        tiles[cell] = Tile.OPENED
    known = [n for n in range(9) if n != value and rng.random() < 0.7]
    board = Board(8, 10, int(mines.sum()), tiles)
    pictures = dict.fromkeys(cells, 0)
    labels = label_from_play([(board, pictures)], known={0: known}, flags_are_mines=True)
    assert labels in ({}, {0: Tile(value)})
