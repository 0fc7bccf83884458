"""The rules that prove what each appearance means (calibration/inference.py), from the games
calibration records."""

from __future__ import annotations

import numpy as np
import pytest
from drawn_boards import (
    EXPLODED,
    FLAG,
    HIDDEN,
    MINE,
    NUMBER,
    QUESTION,
    REDRAWN,
    numbers_of,
    simulated_loss,
)

from calibration.catalogue import Catalogue
from calibration.errors import CalibrationError
from calibration.inference import learn, learn_from_loss, learn_game, learn_marks
from calibration.meanings import Meanings, board_of, check_counting, new_meanings
from calibration.record import ClickKind, PlayedGame, Step
from solver import GameState, Tile
from solver.engine import neighbour_counts


@pytest.mark.parametrize("seed", range(5))
def test_meanings_follow_from_marks_and_a_loss(seed: int) -> None:
    game, ids = simulated_loss(seed)
    meanings = learn([game], numbers_of(ids))
    seen = set(np.unique(game.steps[-1].after).tolist()) | {ids[Tile.FLAG], ids[Tile.QUESTION]}
    for appearance in seen:
        assert ids[meanings.tiles[appearance]] == appearance
    assert meanings.has_question_marks is True
    lost_board = board_of(game.steps[-1].after, meanings)
    assert lost_board.is_lost
    check_counting(lost_board, "the simulated loss")


@pytest.mark.parametrize("seed", range(5))
def test_a_loss_that_leaves_a_wrong_flag_standing_is_learned(seed: int) -> None:
    """Some games (pages in a browser) show every mine on a loss but leave a wrong flag as a
    flag: a flag left standing is not known to be a mine, in such a game."""
    game, ids = simulated_loss(seed, marks_wrong_flags=False)
    meanings = learn([game], numbers_of(ids))
    for appearance, tile in meanings.tiles.items():
        assert ids[tile] == appearance
    assert Tile.WRONG_FLAG not in meanings.tiles.values()
    lost_board = board_of(game.steps[-1].after, meanings)
    check_counting(lost_board, "the simulated loss")


def test_the_flag_that_wins_a_game_redrawing_its_flags_is_no_second_flag_picture() -> None:
    """UXBgtk declares a win once the last mine is flagged, and greys every flag then: the
    right-click that won showed the greyed flag, and calibration stopped ("FLAG has two
    appearances"). A right-click that won the game, other cells changing with it, shows
    how a won game draws its flags."""
    flag, greyed = 5, 9
    board = np.zeros((2, 3), np.int32)
    first = board.copy()
    first[0, 0] = flag
    won = first.copy()
    won[0, 0] = won[0, 1] = greyed
    steps = [Step(ClickKind.MARK, (0, 0), board, first), Step(ClickKind.MARK, (0, 1), first, won)]
    meanings = new_meanings()
    learn_marks(meanings, PlayedGame(steps, GameState.WON))
    assert meanings.ids_of(Tile.FLAG) == [flag]


def test_a_misdrawn_number_is_a_contradiction() -> None:
    game, ids = simulated_loss(0)
    last = game.steps[-1]
    ones = np.argwhere(last.after == ids[Tile.ONE])
    twos = np.argwhere(last.after == ids[Tile.TWO])
    assert len(ones) and len(twos)
    last.before[tuple(twos[0])] = last.after[tuple(twos[0])] = ids[Tile.ONE]
    with pytest.raises(CalibrationError, match="no number is both"):
        learn([game], numbers_of(ids))


def test_opened_cells_a_loss_redraws_all_alike_are_finished_looks_and_some_a_contradiction() -> (
    None
):
    """Appearances: 0 hidden, 1 a number opened safely, 2 the mine hit, 3 a new picture. A loss
    that redraws every opened 1 as 3 (xbomb) teaches that 3 reads as that number; one that
    changes one opened cell and keeps another (a repaint caught halfway) is no rule."""
    before = np.array([[1, 0, 1, 0]])

    def loss(after: list[int]) -> PlayedGame:
        step = Step(ClickKind.OPEN, (0, 1), before, np.array([after]))
        return PlayedGame([step], GameState.LOST)

    assert learn([loss([3, 2, 3, 0])], {1}).finished == {3: 1}
    with pytest.raises(
        CalibrationError,
        match=r"cell \(0, 0\) changed from appearance #1 \(a "
        r"number not learned yet\) to #0 \(HIDDEN\)",
    ):
        learn([loss([0, 2, 1, 0])], {1})


def test_right_clicks_that_mark_no_cell_show_a_game_that_takes_no_marks() -> None:
    """Issue 49 item 10: right-clicks on two cells that change nothing (a web game that flags
    with Ctrl+click) make a game that takes no right-click mark, and its marks are not missing;
    one such cell may be a missed click; such a cell and a flag elsewhere are no game."""
    grid = np.zeros((2, 2), dtype=np.int32)

    def unmarked(*cells: tuple[int, int]) -> list[Step]:
        return [Step(ClickKind.MARK, cell, grid, grid.copy()) for cell in cells]

    assert learn([PlayedGame(unmarked((0, 0)))], set()).takes_marks is None
    meanings = learn([PlayedGame(unmarked((0, 0), (1, 1)))], set())
    assert meanings.takes_marks is False
    assert not {Tile.FLAG, Tile.QUESTION, Tile.WRONG_FLAG} & set(meanings.missing())
    flagged = grid.copy()
    flagged[0, 1] = 1
    flag = Step(ClickKind.MARK, (0, 1), grid, flagged)
    assert learn([PlayedGame([flag])], set()).takes_marks is True
    with pytest.raises(CalibrationError, match=r"left cell \(0, 0\) unmarked"):
        learn([PlayedGame([*unmarked((0, 0)), flag])], set())


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


def test_a_number_of_another_size_a_loss_uncovers_is_that_number_not_a_closed_cell() -> None:
    """UXBgtk shows every cell on a loss: a 1 on its corner cell (a size class of its own, no
    click had opened it) was taken for a closed cell's finished look, as a darkened field's
    are; play then read an opened corner 1 as hidden and clicked it ("the game did not take
    the clicks on (0, 0)"). A picture alike a known number of another size class is that
    number."""
    rng = np.random.default_rng(7)
    plain = [np.full((12, 12, 3), level, np.uint8) for level in (200, 60)]
    number, exploded, mine = (rng.integers(0, 256, (12, 12, 3), dtype=np.uint8) for _ in range(3))
    catalogue = Catalogue(plain[0])
    one, hit, shown = (catalogue.add(picture) for picture in (number, exploded, mine))
    dark, corner_one = catalogue.add(plain[1]), catalogue.add(number, size_class=3)
    assert catalogue.alike(one, corner_one) and not catalogue.share_class(one, corner_one)
    before = np.zeros((3, 4), np.int32)
    before[1, 1] = one
    after = np.full((3, 4), dark, np.int32)
    after[1, 1], after[2, 2], after[0, 2], after[1, 0], after[0, 0] = (
        one,
        hit,
        shown,
        shown,
        corner_one,
    )
    game = PlayedGame([Step(ClickKind.OPEN, (2, 2), before, after)], GameState.LOST, 3)
    meanings = new_meanings(catalogue)
    meanings.give(one, Tile.ONE, "a click")
    meanings.finished[corner_one] = HIDDEN  # as an earlier loss, before the 1 was known, took it
    learn_from_loss(meanings, game, safe={one})
    assert meanings.readable()[dark] == Tile.HIDDEN
    assert meanings.readable()[corner_one] == Tile.ONE and corner_one not in meanings.finished


def test_a_number_of_another_size_a_later_loss_uncovers_is_no_mine() -> None:
    """Once a loss has shown a picture to be a known number of another size class, a later loss
    that uncovers it on a closed cell shows that number there, not a mine (UXBgtk: "appearance
    #5 looks like TWO ... but also like MINE"); here the mine count is not known."""
    rng = np.random.default_rng(7)
    drawn = [rng.integers(0, 256, (12, 12, 3), dtype=np.uint8) for _ in range(5)]
    catalogue = Catalogue(np.full((12, 12, 3), 200, np.uint8))
    one, two, three, hit, shown = (catalogue.add(picture) for picture in drawn)
    corner_one = catalogue.add(drawn[0], size_class=3)
    before = np.zeros((3, 4), np.int32)
    before[0, 3] = one  # mines at (2, 2), the one hit, (0, 2) and (1, 0)
    after = np.array(
        [[corner_one, two, shown, one], [shown, three, two, two], [one, two, hit, one]]
    )
    game = PlayedGame([Step(ClickKind.OPEN, (2, 2), before, after)], GameState.LOST)
    meanings = new_meanings(catalogue)
    for number, tile in ((one, Tile.ONE), (two, Tile.TWO), (three, Tile.THREE)):
        meanings.give(number, tile, "a click")
    meanings.give(corner_one, Tile.ONE, "an earlier loss: ONE of another cell size")
    learn_from_loss(meanings, game, safe={one, two, three})
    assert meanings.readable()[corner_one] == Tile.ONE
    assert meanings.ids_of(Tile.MINE) == [shown]


def test_a_picture_a_loss_that_shows_numbers_uncovers_is_no_closed_cells_look() -> None:
    """A loss that draws known numbers on closed cells shows every cell: another picture there,
    on no more cells than a number may be, is a number not seen yet (UXBgtk's green 5), not
    how a finished game draws a closed cell. Taken so, play read an opened 5 as hidden and
    clicked it again ("the game did not take the clicks on (5, 1)")."""
    rng = np.random.default_rng(8)
    plain = np.full((12, 12, 3), 200, np.uint8)
    drawn = [rng.integers(0, 256, (12, 12, 3), dtype=np.uint8) for _ in range(5)]
    catalogue = Catalogue(plain)
    one, two, hit, shown, five = (catalogue.add(picture) for picture in drawn)
    before = np.zeros((3, 4), np.int32)
    before[0, 0] = one  # mines at (2, 2), the one hit, (0, 2) and (1, 0)
    after = np.array([[one, two, shown, one], [shown, five, two, two], [one, two, hit, one]])
    game = PlayedGame([Step(ClickKind.OPEN, (2, 2), before, after)], GameState.LOST, 3)
    meanings = new_meanings(catalogue)
    meanings.give(one, Tile.ONE, "a click")
    learn_from_loss(meanings, game, safe={one})
    assert five not in meanings.finished and meanings.readable().get(five) != Tile.HIDDEN


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


def test_a_closed_cells_finished_look_later_seen_opened_safely_is_a_number() -> None:
    """A game that shows every cell on a loss draws each safe cell's number there; one whose
    picture no safe click had shown yet (a 0 of a size class only a corner cell has) was
    learned as a closed cell's finished look and read as hidden ever after, beside a 0 ("cell
    (0, 1) reads 0 but has 1 hidden neighbours", UXBgtk). Once it shows on a cell opened
    safely (a new game opened it by itself), it is a number, the loss's bounds still hold."""
    meanings = lost_on_a_darkened_field(3)
    assert meanings.readable()[DARKENED] == Tile.HIDDEN
    shown = np.full((2, 2), DARKENED)
    later = PlayedGame([Step(ClickKind.OPEN, (0, 0), shown, shown)])
    learn_game(meanings, later, safe={NUMBER, DARKENED})
    assert DARKENED not in meanings.finished
    assert DARKENED not in meanings.readable() or meanings.readable()[DARKENED].is_number


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
    which, what an earlier loss taught can. Untaught, neither picture is read (calibration
    stopped at "WRONG_FLAG has two appearances", and set such losses aside)."""
    meanings = new_meanings()
    meanings.give(FLAG, Tile.FLAG, "a right-click")
    if taught:
        learn_from_loss(meanings, loss_with_flags(DARK_FLAG, DARK_FLAG, CROSSED_FLAG), {NUMBER})
    learn_from_loss(meanings, loss_with_flags(DARK_FLAG, None, CROSSED_FLAG), {NUMBER})
    if taught:
        assert meanings.ids_of(Tile.WRONG_FLAG) == [CROSSED_FLAG]
        assert meanings.readable()[DARK_FLAG] == Tile.FLAG
    else:
        assert DARK_FLAG not in meanings.readable() and CROSSED_FLAG not in meanings.readable()


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


def number_picture(value: int) -> int:
    """The appearance of the number ``value`` on a loss of :func:`shown_all`."""
    return 10 + value


def shown_all(
    mines: list[tuple[int, int]],
    flags: list[tuple[int, int]],
    opened: list[tuple[int, int]],
    questions: tuple[tuple[int, int], ...] = (),
) -> tuple[PlayedGame, set[int]]:
    """A 4x5 game lost on the first of ``mines``, as mfranceschi-minesweeper's Tk buttons draw
    it: every cell shown, every mine as the one hit, every other cell as its number, flagged
    or not (a wrong flag shows its number); before it, ``flags`` flagged, ``questions``
    question-marked and ``opened`` opened. Also the pictures of the cells opened."""
    layout = np.zeros((4, 5), dtype=bool)
    layout[tuple(np.array(mines).T)] = True
    counts = neighbour_counts(layout)
    before = np.full(layout.shape, HIDDEN, dtype=np.int32)
    for cell in opened:
        before[cell] = number_picture(int(counts[cell]))
    for cells, mark in ((flags, FLAG), (questions, QUESTION)):
        for cell in cells:
            before[cell] = mark
    after = np.where(layout, EXPLODED, number_picture(0) + counts.astype(np.int32))
    for cell in questions:  # the mark left as it was
        after[cell] = QUESTION
    step = Step(ClickKind.OPEN, mines[0], before, after)
    return PlayedGame([step], GameState.LOST, len(mines)), {int(before[c]) for c in opened}


def marked_meanings() -> Meanings:
    meanings = new_meanings()
    meanings.give(FLAG, Tile.FLAG, "a right-click")
    meanings.give(QUESTION, Tile.QUESTION, "a right-click on a flag")
    return meanings


TOP_MINES = [(0, 0), (0, 1), (0, 2), (1, 0)]
"""Four mines around (1, 1) (the game's 4), each beside a 2 or a 3 below or beside it."""
OPENED_BELOW = [(r, c) for r in range(2, 4) for c in range(2, 5)] + [(1, 3), (1, 4)]
"""Cells opened safely before the loss: 0s and the 1 at (1, 3)."""


def test_a_number_first_seen_on_a_wrong_flag_is_no_wrong_flag() -> None:
    """mfranceschi-minesweeper's loss shows every cell, a wrong flag as its number. A flag on
    (1, 1), beside four mines, showed a 4 never seen before: calibration proved that flag wrong
    and kept the 4 as the WRONG_FLAG, and play stopped where a 4 opened ("the board shows
    WRONG_FLAG: the game is over"). A picture a flag shows after a loss that may be the number
    of its cell (a 4 is not known) is not taken for the wrong flag; the 4 is learned as a
    number where one opens safely."""
    game, safe = shown_all(TOP_MINES, [(1, 1)], OPENED_BELOW)
    meanings = marked_meanings()
    learn_game(meanings, game, safe)
    four = number_picture(4)
    assert four not in meanings.readable()
    before = game.steps[0].before.copy()
    before[1, 1] = HIDDEN
    after = before.copy()
    after[1, 1] = four
    later = PlayedGame([Step(ClickKind.OPEN, (1, 1), before, after)])
    learn_game(meanings, later, safe | {four})  # a later game opens a 4: no contradiction
    assert four not in meanings.ids_of(Tile.WRONG_FLAG)


def test_a_picture_a_loss_shows_where_no_flag_was_is_no_flags() -> None:
    """A wrong flag beside a question mark left standing may have one mine more around it than
    shown, so its number does not say whether its picture is one. The same loss shows that
    picture where no flag was placed (the 2s at (2, 3) and (2, 4)): it is no flag's picture,
    the wrong flag's at (1, 2) less than any."""
    mines = [(0, 0), (0, 1), (0, 2), (1, 0), (3, 3), (3, 4)]
    opened = [(2, 0), (2, 1), (3, 0), (3, 1)]
    game, safe = shown_all(mines, [(1, 2)], opened, questions=((1, 3),))
    meanings = marked_meanings()
    learn_game(meanings, game, safe)
    two = number_picture(2)
    assert game.steps[0].after[1, 2] == game.steps[0].after[2, 3] == two
    assert two not in meanings.readable()


def test_a_picture_a_wrong_flag_shows_is_the_wrong_flag_where_it_cannot_be_its_number() -> None:
    """Where a loss shows a wrong flag as a picture of its own (most games cross it), on a cell
    whose number's picture is known, that picture is the WRONG_FLAG, as before."""
    game, safe = shown_all(TOP_MINES, [(1, 2)], OPENED_BELOW)
    crossed = 99
    game.steps[0].after[1, 2] = crossed
    meanings = marked_meanings()
    meanings.give(number_picture(2), Tile.TWO, "an earlier game")
    learn_game(meanings, game, safe)
    assert meanings.ids_of(Tile.WRONG_FLAG) == [crossed]
