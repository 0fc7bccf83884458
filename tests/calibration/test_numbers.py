"""The numbers of opened-cell pictures from bounds: sound on random boards, and as strong as the
evidence allows."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.catalogue import Catalogue
from calibration.errors import CalibrationError
from calibration.inference import learn_from_loss
from calibration.meanings import Meanings, check_counting, new_meanings
from calibration.numbers import NumberBounds, label_from_play
from calibration.record import ClickKind, PlayedGame, Step
from solver import Board, GameState, Tile
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


HIDDEN, FLAG, QUESTION, EXPLODED, MINE, NUMBER, REDRAWN = 0, 1, 2, 3, 4, 5, 6
"""Appearance ids of a lost game with a question mark at (0, 0), a number at (1, 1) and the mine
hit at (2, 2), another mine shown at (2, 0)."""


def lost_beside_a_question_mark(mark_after: int) -> Meanings:
    """What the loss teaches where the question-marked cell shows ``mark_after`` after it."""
    meanings = new_meanings()
    meanings.give(FLAG, Tile.FLAG, "a right-click")
    meanings.give(QUESTION, Tile.QUESTION, "a right-click on a flag")
    before = np.array([[QUESTION, 0, 0], [0, NUMBER, 0], [0, 0, 0]])
    after = np.array([[mark_after, 0, 0], [0, NUMBER, 0], [MINE, 0, EXPLODED]])
    game = PlayedGame([Step(ClickKind.OPEN, (2, 2), before, after)], GameState.LOST)
    learn_from_loss(meanings, game, safe={NUMBER})
    return meanings


def test_a_question_mark_redrawn_on_a_lost_board_is_no_mine_picture_and_may_hide_one() -> None:
    """gnome-mines keeps a question mark on a lost board, redrawn on the darkened field, whether
    or not a mine is under it: its new picture is not the mine's (calibration once stopped on
    "MINE has two appearances"), and a number beside it counts the mines shown plus perhaps it."""
    meanings = lost_beside_a_question_mark(REDRAWN)
    assert meanings.tiles == {
        HIDDEN: Tile.HIDDEN,
        FLAG: Tile.FLAG,
        QUESTION: Tile.QUESTION,
        EXPLODED: Tile.EXPLODED,
        MINE: Tile.MINE,
    }
    assert meanings.numbers.interval(NUMBER) == (2, 3)  # the mine, the exploded one, the "?"


def test_a_question_mark_left_as_it_was_on_a_lost_board_is_no_mine() -> None:
    """Windows Minesweeper (winemine) shows the mine under a question mark on a loss and leaves
    the others as they were: a number beside an unchanged mark counts only the mines shown."""
    assert lost_beside_a_question_mark(QUESTION).numbers.interval(NUMBER) == (2, 2)


DARKENED = 7
"""The picture of a closed cell a loss redrew without a mine (the finished field's look)."""


def loss_on_a_darkened_field(
    mines: int | None, on_two: int = MINE, on_eight: int = DARKENED
) -> PlayedGame:
    """A loss where every closed cell changed: two cells show ``on_two`` (the mines besides the
    hit one), the eight other closed cells ``on_eight`` (darkened), on a board of ``mines``
    mines (None: not known)."""
    two, eight = on_two, on_eight
    before = np.array([[0, 0, 0, 0], [0, NUMBER, 0, 0], [0, 0, 0, 0]])
    after = np.array([[eight, eight, two, eight], [two, NUMBER, eight, eight], [0, 0, 0, 0]])
    after[2] = [eight, eight, EXPLODED, eight]
    return PlayedGame([Step(ClickKind.OPEN, (2, 2), before, after)], GameState.LOST, mines)


def lost_on_a_darkened_field(
    mines: int | None, on_two: int = MINE, on_eight: int = DARKENED
) -> Meanings:
    """What :func:`loss_on_a_darkened_field` teaches."""
    meanings = new_meanings()
    learn_from_loss(meanings, loss_on_a_darkened_field(mines, on_two, on_eight), safe={NUMBER})
    return meanings


@pytest.mark.parametrize("mines", [3, 7])
def test_a_picture_more_closed_cells_take_on_a_loss_than_there_are_mines_is_no_mine(
    mines: int,
) -> None:
    """gnome-mines' classic theme darkens every closed cell when a game is lost: calibration
    took them all for mines and stopped on "MINE has two appearances". Of the pictures a loss
    uncovers, one on more cells than the board has mines besides the one hit is the finished
    game's look of a closed cell with no mine: it reads as a hidden cell, and the numbers count
    only the mines shown."""
    meanings = lost_on_a_darkened_field(mines)
    assert meanings.tiles == {HIDDEN: Tile.HIDDEN, EXPLODED: Tile.EXPLODED, MINE: Tile.MINE}
    assert meanings.readable()[DARKENED] == Tile.HIDDEN
    assert meanings.numbers.interval(NUMBER) == (3, 3)  # two mines shown and the hit one


@pytest.mark.parametrize("narrow_cells", [1, 4])
def test_a_darkened_picture_of_a_wider_cell_is_no_mine_with_its_narrow_twin(
    narrow_cells: int,
) -> None:
    """A game whose cells differ in width has one appearance of a tile per size class: the
    darkened cells of either class are no mines where, counted together, they are more than
    the mines besides the one hit (4 and 4 of 7), or where the other class's alone are (7)."""
    rng = np.random.default_rng(5)
    plain = [np.full((12, 12, 3), level, np.uint8) for level in (200, 60)]
    drawn = [rng.integers(0, 256, (12, 12, 3), dtype=np.uint8) for _ in range(3)]
    catalogue = Catalogue(plain[0])
    number, exploded, mine = (catalogue.add(picture) for picture in drawn)
    dark, wide_dark = catalogue.add(plain[1]), catalogue.add(plain[1], size_class=1)
    assert catalogue.alike(dark, wide_dark) and not catalogue.share_class(dark, wide_dark)
    before = np.zeros((3, 4), np.int32)
    before[1, 1] = number
    after = before.copy()
    after[0, 0], after[2, 2] = mine, exploded
    others = [cell for cell in np.ndindex(3, 4) if after[cell] == 0]
    for index, cell in enumerate(others):
        after[cell] = wide_dark if index < 8 - narrow_cells else dark
    game = PlayedGame([Step(ClickKind.OPEN, (2, 2), before, after)], GameState.LOST, 7)
    meanings = new_meanings(catalogue)
    learn_from_loss(meanings, game, safe={number})
    assert meanings.ids_of(Tile.MINE) == [mine]
    assert meanings.readable()[dark] == meanings.readable()[wide_dark] == Tile.HIDDEN


def test_a_picture_a_loss_uncovers_on_no_more_cells_than_there_may_be_mines_is_a_mine() -> None:
    """Without the count the darkened cells may all be mines: two mine pictures are a
    contradiction, as before."""
    with pytest.raises(CalibrationError, match="MINE has two appearances"):
        lost_on_a_darkened_field(None)


def test_the_one_picture_on_as_many_cells_as_the_mines_shown_is_the_mine() -> None:
    """A loss that leaves few closed cells darkens fewer of them than there are mines: each
    darkened picture was taken for a mine ("MINE has two appearances", gnome-mines' classic
    theme, 2 of 3 calibrations). Such a loss shows every mine besides the hit one (9 - 1 here):
    where one picture is on exactly that many cells it is the mine, the others are no mine."""
    meanings = lost_on_a_darkened_field(9, on_two=DARKENED, on_eight=MINE)
    assert meanings.ids_of(Tile.MINE) == [MINE]
    assert meanings.readable()[DARKENED] == Tile.HIDDEN
    assert meanings.numbers.interval(NUMBER) == (6, 6)  # five mines shown and the hit one


def test_a_picture_learned_as_a_closed_cells_finished_look_is_no_mine_in_a_later_loss() -> None:
    """Once a loss has shown the darkened look to be no mine, a later loss reads it so, the
    counts saying nothing (here no mine count)."""
    meanings = lost_on_a_darkened_field(3)
    learn_from_loss(meanings, loss_on_a_darkened_field(None), safe={NUMBER})
    assert meanings.ids_of(Tile.MINE) == [MINE]
    assert meanings.readable()[DARKENED] == Tile.HIDDEN


DARK_FLAG, CROSSED_FLAG = 8, 9
"""A flag a loss redrew on the darkened field, and one it drew as a wrong flag."""


def test_a_flag_a_loss_redraws_is_a_mine_where_the_count_of_mines_says_so() -> None:
    """gnome-mines' classic theme redraws every flag on a loss: a right one on the darkened
    field, a wrong one crossed. Calibration took both for wrong flags ("WRONG_FLAG has two
    appearances", and a 1 next to a flagged mine counted none). Of the flags a loss changed, as
    many as the mines neither shown nor hit are right: one picture on that many flags is the
    flag as a finished game draws it, and counts as a mine."""
    meanings = new_meanings()
    meanings.give(FLAG, Tile.FLAG, "a right-click")
    learn_from_loss(meanings, loss_with_flags(DARK_FLAG, DARK_FLAG, CROSSED_FLAG), {NUMBER})
    assert meanings.ids_of(Tile.WRONG_FLAG) == [CROSSED_FLAG]
    assert meanings.readable()[DARK_FLAG] == Tile.FLAG
    assert meanings.readable()[DARKENED] == Tile.HIDDEN
    assert meanings.numbers.interval(NUMBER) == (4, 4)  # two shown, the hit one, a flag


@pytest.mark.parametrize("taught", [False, True])
def test_a_flag_picture_an_earlier_loss_told_apart_is_read_so_where_the_count_cannot(
    taught: bool,
) -> None:
    """One right flag and one wrong, each its own picture: the count cannot tell which is
    which, what an earlier loss taught can (calibration set such losses aside)."""
    meanings = new_meanings()
    meanings.give(FLAG, Tile.FLAG, "a right-click")
    if taught:
        learn_from_loss(meanings, loss_with_flags(DARK_FLAG, DARK_FLAG, CROSSED_FLAG), {NUMBER})
        learn_from_loss(meanings, loss_with_flags(DARK_FLAG, None, CROSSED_FLAG), {NUMBER})
        assert meanings.ids_of(Tile.WRONG_FLAG) == [CROSSED_FLAG]
        assert meanings.readable()[DARK_FLAG] == Tile.FLAG
    else:
        with pytest.raises(CalibrationError, match="WRONG_FLAG has two appearances"):
            learn_from_loss(meanings, loss_with_flags(DARK_FLAG, None, CROSSED_FLAG), {NUMBER})


def loss_with_flags(*flags_after: int | None) -> PlayedGame:
    """A loss on a darkened field with two mines shown and flags at (0, 0), (0, 3) and (2, 3)
    that show ``flags_after`` after it (None: the cell was not flagged, and is darkened); each
    flag redrawn as :data:`DARK_FLAG` is on a mine, and the board has as many mines as that."""
    flagged = [(0, 0), (0, 3), (2, 3)]
    before = np.array([[0, 0, 0, 0], [0, NUMBER, 0, 0], [0, 0, 0, 0]])
    after = np.array(
        [
            [DARKENED, DARKENED, MINE, DARKENED],
            [MINE, NUMBER, DARKENED, DARKENED],
            [DARKENED, DARKENED, EXPLODED, DARKENED],
        ]
    )
    for cell, shown in zip(flagged, flags_after, strict=True):
        if shown is not None:
            before[cell], after[cell] = FLAG, shown
    mines = 3 + flags_after.count(DARK_FLAG)
    return PlayedGame([Step(ClickKind.OPEN, (2, 2), before, after)], GameState.LOST, mines)


@pytest.mark.parametrize(("redrawn", "hint"), [((1, 1), True), ((0, 3), False)])
def test_a_number_changed_by_a_loss_beside_a_cell_it_uncovered_suggests_a_larger_window(
    redrawn: tuple[int, int], hint: bool
) -> None:
    """xbomb's Difficult board at its default size draws digits and mines past their 20-pixel
    cells: a loss that uncovers a mine changes the number beside it, which no game's rules do.
    The error says the window may be too small when the changed cell lies beside one the loss
    uncovered, and only then."""
    before = np.array([[0, 0, 0, NUMBER], [0, NUMBER, 0, 0], [0, 0, 0, 0]])
    after = before.copy()
    after[2, 0], after[2, 2], after[redrawn] = MINE, EXPLODED, REDRAWN
    game = PlayedGame([Step(ClickKind.OPEN, (2, 2), before, after)], GameState.LOST)
    with pytest.raises(CalibrationError, match="no rule of Minesweeper") as error:
        learn_from_loss(new_meanings(), game, safe={NUMBER})
    assert ("enlarge the window" in str(error.value)) == hint


def test_a_lost_board_with_a_question_mark_left_on_a_mine_obeys_the_counting_rules() -> None:
    lost = Board.from_rows(["?1", "3X", "@2"], mines=3)
    check_counting(lost, "a lost board")  # the 3 counts the mine shown, the hit one, the "?"
    with pytest.raises(CalibrationError, match=r"cell \(1, 0\) reads 3"):
        check_counting(Board.from_rows(["U1", "3X", "@2"], mines=3), "a lost board")


def test_a_tile_with_two_appearances_names_both_and_the_window_that_may_be_too_small() -> None:
    meanings = new_meanings()
    meanings.give(MINE, Tile.MINE, "a loss")
    with pytest.raises(CalibrationError, match=r"MINE has two appearances: #4 \(a loss\) and #6"):
        meanings.give(REDRAWN, Tile.MINE, "another loss")
    with pytest.raises(CalibrationError, match="draws past its cells .then enlarge the window"):
        meanings.give(REDRAWN, Tile.MINE, "another loss")


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
