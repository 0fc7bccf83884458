"""The game engine: flood fill, chords, flags, first-click rules and their exact distributions."""

from collections import Counter
from itertools import combinations
from math import sqrt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Board, BoardError, Cell, FirstClick, Game, GameState, Tile


def naive_counts(layout: np.ndarray) -> np.ndarray:
    rows, columns = layout.shape
    counts = np.zeros((rows, columns), dtype=int)
    for r in range(rows):
        for c in range(columns):
            counts[r, c] = sum(
                bool(layout[rr, cc])
                for rr in range(max(r - 1, 0), min(r + 2, rows))
                for cc in range(max(c - 1, 0), min(c + 2, columns))
                if (rr, cc) != (r, c)
            )
    return counts


def naive_reveal(layout: np.ndarray, cell: tuple[int, int], flagged: set) -> set:
    """The textbook recursive reveal: open the cell, and recurse into every neighbour of a 0."""
    counts = naive_counts(layout)
    rows, columns = layout.shape
    opened: set = set()

    def visit(r: int, c: int) -> None:
        if (r, c) in opened or (r, c) in flagged:
            return
        opened.add((r, c))
        if counts[r, c] == 0:
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, columns)):
                    visit(rr, cc)

    visit(*cell)
    return opened


@st.composite
def layouts(draw: st.DrawFn, max_side: int = 8) -> np.ndarray:
    rows = draw(st.integers(1, max_side))
    columns = draw(st.integers(1, max_side))
    flat = draw(st.lists(st.booleans(), min_size=rows * columns, max_size=rows * columns))
    return np.array(flat, dtype=bool).reshape(rows, columns)


def cells_of(mask: np.ndarray) -> list[Cell]:
    return [(int(r), int(c)) for r, c in np.argwhere(mask)]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_flood_fill_matches_the_recursive_reference(data: st.DataObject) -> None:
    layout = data.draw(layouts().filter(lambda lay: not lay.all()))
    cell = data.draw(st.sampled_from(cells_of(~layout)))
    others = [other for other in cells_of(np.ones_like(layout)) if other != cell]
    flagged = set(data.draw(st.lists(st.sampled_from(others), unique=True))) if others else set()
    game = Game.from_layout(layout)
    for flag in flagged:
        game.flag(flag)
    opened = game.open(cell)
    expected = naive_reveal(layout, cell, flagged)
    assert len(opened) == len(set(opened)) and set(opened) == expected
    counts = naive_counts(layout)
    for r, c in expected:
        assert game.board[r, c] == counts[r, c]
    for r, c in flagged:
        assert game.board[r, c] in (Tile.FLAG, Tile.WRONG_FLAG) or game.state is GameState.WON
    untouched = {(r, c) for r in range(layout.shape[0]) for c in range(layout.shape[1])}
    untouched -= expected | flagged
    if game.state is GameState.PLAYING:
        assert all(game.board[cell] == Tile.HIDDEN for cell in untouched)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_win_exactly_when_every_safe_cell_is_open(data: st.DataObject) -> None:
    layout = data.draw(layouts(max_side=5).filter(lambda lay: not lay.all()))
    game = Game.from_layout(layout)
    for cell in data.draw(st.permutations(cells_of(~layout))):
        game.open(cell)
        safe_hidden = (game.board.tiles[~layout] == Tile.HIDDEN).any()
        assert (game.state is GameState.WON) == (not safe_hidden)
    assert game.state is GameState.WON and game.board.is_won
    assert np.array_equal(game.board.tiles == Tile.FLAG, layout)
    assert game.mines_left == 0


# -- chords ---------------------------------------------------------------------------------

# Mines at (0,0) and (2,2); (1,1) shows 2.
CHORD_LAYOUT = np.array([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]], dtype=bool)


def test_chord_with_matching_flags_opens_the_other_neighbours() -> None:
    game = Game.from_layout(CHORD_LAYOUT)
    game.open((1, 1))
    game.flag((0, 0))
    game.flag((2, 2))
    opened = game.chord((1, 1))
    assert set(opened) >= {(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)}
    assert game.board[0, 1] == 1 and game.board[1, 0] == 1 and game.board[2, 1] == 1
    assert game.state is GameState.PLAYING


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_chord_with_right_flags_opens_what_opening_each_cell_opens(data: st.DataObject) -> None:
    layout = data.draw(layouts(max_side=6).filter(lambda lay: not lay.all()))
    start = data.draw(st.sampled_from(cells_of(~layout)))
    chorded, by_hand = Game.from_layout(layout), Game.from_layout(layout)
    chorded.open(start)
    by_hand.open(start)
    cell = data.draw(st.sampled_from(cells_of(chorded.board.tiles <= Tile.EIGHT)))
    around = list(chorded.board.neighbours(cell))
    for game in (chorded, by_hand):
        for mine in (n for n in around if layout[n] and game.board[n] == Tile.HIDDEN):
            game.flag(mine)
    opened = chorded.chord(cell)
    opened_by_hand = [c for n in around if not layout[n] for c in by_hand.open(n)]
    assert sorted(opened) == sorted(opened_by_hand)
    assert np.array_equal(chorded.board.tiles, by_hand.board.tiles)
    assert chorded.state is by_hand.state is not GameState.LOST


def test_chord_with_too_few_or_too_many_flags_does_nothing() -> None:
    game = Game.from_layout(CHORD_LAYOUT)
    game.open((1, 1))
    game.flag((0, 0))
    before = game.board.tiles.copy()
    assert game.chord((1, 1)) == [] and np.array_equal(game.board.tiles, before)
    game.flag((2, 2))
    game.flag((0, 1))
    before = game.board.tiles.copy()
    assert game.chord((1, 1)) == [] and np.array_equal(game.board.tiles, before)


def test_chord_on_an_unopened_cell_or_before_the_first_open_does_nothing() -> None:
    game = Game(4, 4, 2, seed=3)
    assert game.chord((1, 1)) == [] and game.mine_layout is None
    game = Game.from_layout(CHORD_LAYOUT)
    assert game.chord((1, 1)) == [] and game.board.is_fresh


def test_chord_with_a_wrong_flag_loses_like_the_real_games() -> None:
    game = Game.from_layout(CHORD_LAYOUT)
    game.open((1, 1))
    game.flag((0, 0))
    game.flag((0, 1))  # wrong: (2,2) is the other mine
    opened = game.chord((1, 1))
    assert game.state is GameState.LOST and game.board.is_lost
    assert (2, 2) in opened
    assert game.board[2, 2] == Tile.EXPLODED
    assert game.board[0, 1] == Tile.WRONG_FLAG
    assert game.board[0, 0] == Tile.FLAG
    assert game.board[1, 0] == 1  # the safe neighbours were opened too


# -- end of game ----------------------------------------------------------------------------


def test_a_loss_shows_exploded_mine_other_mines_and_wrong_flags() -> None:
    layout = np.array([[1, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    game = Game.from_layout(layout)
    game.flag((0, 2))  # right
    game.flag((2, 2))  # wrong
    game.flag((1, 1))  # wrong
    assert game.open((0, 0)) == [(0, 0)]
    assert game.state is GameState.LOST
    expected = Board.from_rows(["XUF", "U#U", "@U#"], mines=3).tiles
    assert np.array_equal(game.board.tiles, expected)
    assert game.open((0, 1)) == [] and game.flag((1, 0)) is False and game.chord((0, 1)) == []


# -- first-click rules ----------------------------------------------------------------------

boards = st.tuples(st.integers(1, 9), st.integers(1, 9)).flatmap(
    lambda shape: st.tuples(
        st.just(shape),
        st.integers(0, shape[0] * shape[1] - 1),
        st.tuples(st.integers(0, shape[0] - 1), st.integers(0, shape[1] - 1)),
        st.integers(0, 2**32 - 1),
    )
)


@given(boards)
def test_safe_first_click_is_never_a_mine(case: tuple) -> None:
    (rows, columns), mines, click, seed = case
    game = Game(rows, columns, mines, FirstClick.SAFE, seed)
    game.open(click)
    layout = game.mine_layout
    assert layout is not None and not layout[click] and int(layout.sum()) == mines
    assert game.state is not GameState.LOST


@given(boards)
def test_opening_first_click_is_always_a_zero(case: tuple) -> None:
    (rows, columns), mines, click, seed = case
    block = (min(click[0] + 2, rows) - max(click[0] - 1, 0)) * (
        min(click[1] + 2, columns) - max(click[1] - 1, 0)
    )
    if mines > rows * columns - min(rows, 2) * min(columns, 2):
        with pytest.raises(BoardError, match="do not fit"):
            Game(rows, columns, mines, FirstClick.OPENING, seed)
        return
    game = Game(rows, columns, mines, FirstClick.OPENING, seed)
    if mines > rows * columns - block:
        with pytest.raises(BoardError, match="3x3 block"):
            game.open(click)
        return
    game.open(click)
    layout = game.mine_layout
    assert layout is not None and int(layout.sum()) == mines
    assert game.board[click] == Tile.ZERO


@given(boards)
def test_xp_moves_a_mine_under_the_first_click_to_the_first_free_cell(case: tuple) -> None:
    (rows, columns), mines, click, seed = case
    unprotected = Game(rows, columns, mines, FirstClick.NONE, seed)
    unprotected.open(click)
    raw = unprotected.mine_layout
    assert raw is not None
    expected = raw.copy()
    if raw[click]:
        expected[click] = False
        first_free = next((r, c) for r in range(rows) for c in range(columns) if not raw[r, c])
        expected[first_free] = True
    game = Game(rows, columns, mines, FirstClick.XP, seed)
    game.open(click)
    assert game.mine_layout is not None and np.array_equal(game.mine_layout, expected)
    assert game.state is not GameState.LOST


def exact_distribution(rows: int, columns: int, mines: int, rule: FirstClick, click: tuple) -> dict:
    """Each final layout's probability, by enumerating every equally likely placement."""
    cells = [(r, c) for r in range(rows) for c in range(columns)]
    near = {(r, c) for r, c in cells if abs(r - click[0]) <= 1 and abs(c - click[1]) <= 1}
    forbidden = {FirstClick.SAFE: {click}, FirstClick.OPENING: near}.get(rule, set())
    allowed = [cell for cell in cells if cell not in forbidden]
    weights: Counter = Counter()
    for chosen in combinations(allowed, mines):
        layout = set(chosen)
        if rule is FirstClick.XP and click in layout:
            layout.remove(click)
            layout.add(next(cell for cell in cells if cell not in chosen))
        weights[frozenset(layout)] += 1
    total = sum(weights.values())
    return {layout: count / total for layout, count in weights.items()}


def chi_square_rejects(observed: Counter, expected: dict, games: int) -> bool:
    """Whether a chi-square test rejects ``expected`` at the 0.1% level (Wilson-Hilferty)."""
    if set(observed) - set(expected):
        return True
    statistic = sum((observed[k] - games * p) ** 2 / (games * p) for k, p in expected.items())
    df = len(expected) - 1
    critical = df * (1 - 2 / (9 * df) + 3.09 * sqrt(2 / (9 * df))) ** 3
    return statistic > critical


def sample_layouts(rows: int, columns: int, mines: int, rule: FirstClick, click: tuple, games: int):
    observed: Counter = Counter()
    for seed in range(games):
        game = Game(rows, columns, mines, rule, seed=seed)
        game.open(click)
        layout = game.mine_layout
        assert layout is not None
        observed[frozenset(cells_of(layout))] += 1
    return observed


@pytest.mark.parametrize(
    "size, rule, click",
    [
        ((3, 3, 2), FirstClick.SAFE, (1, 1)),
        ((3, 3, 2), FirstClick.XP, (0, 1)),
        ((2, 4, 3), FirstClick.XP, (0, 0)),
        ((3, 3, 2), FirstClick.OPENING, (0, 0)),
        ((4, 3, 2), FirstClick.OPENING, (1, 1)),
        ((3, 3, 2), FirstClick.NONE, (2, 2)),
    ],
)
def test_mine_placement_follows_the_exact_distribution_of_its_rule(
    size: tuple[int, int, int], rule: FirstClick, click: Cell
) -> None:
    games = 3000
    observed = sample_layouts(*size, rule, click, games)
    assert not chi_square_rejects(observed, exact_distribution(*size, rule, click), games)


def test_the_uniformity_check_notices_a_different_rule() -> None:
    """XP favours the top-left corner, so its layouts must fail the 'safe' distribution."""
    games = 4000
    observed = sample_layouts(3, 3, 2, FirstClick.XP, (1, 1), games)
    assert chi_square_rejects(observed, exact_distribution(3, 3, 2, FirstClick.SAFE, (1, 1)), games)


# -- seeds, levels, bad input ---------------------------------------------------------------


def test_same_seed_and_click_give_the_same_game_and_other_seeds_differ() -> None:
    def layout(seed: int) -> np.ndarray:
        game = Game.level("expert", FirstClick.SAFE, seed)
        game.open((5, 5))
        assert game.mine_layout is not None
        return game.mine_layout

    assert np.array_equal(layout(11), layout(11))
    assert len({layout(seed).tobytes() for seed in range(10)}) == 10


@pytest.mark.parametrize("name", ["beginner", "Intermediate", "EXPERT"])
def test_levels_have_their_standard_size(name: str) -> None:
    game = Game.level(name, "opening", seed=1)
    sizes = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
    assert (game.rows, game.columns, game.mines) == sizes[name.lower()]
    assert game.mine_layout is None and game.board.is_fresh
    game.open((0, 0))
    assert game.mine_layout is not None and int(game.mine_layout.sum()) == game.mines


def test_opening_an_opened_or_flagged_cell_is_a_no_op() -> None:
    game = Game.from_layout(CHORD_LAYOUT)
    game.open((1, 1))
    assert game.flag((3, 3)) is True and game.mines_left == 1
    before = game.board.tiles.copy()
    assert game.open((1, 1)) == [] and game.open((3, 3)) == []
    assert game.flag((1, 1)) is False
    assert np.array_equal(game.board.tiles, before)
    assert game.flag((3, 3)) is False and game.board[3, 3] == Tile.HIDDEN


@pytest.mark.parametrize("cell", [(9, 0), (0, 9), (-1, 0), (0, -1)])
def test_a_cell_off_the_board_is_a_clear_error(cell: tuple) -> None:
    game = Game.level("beginner", seed=0)
    with pytest.raises(BoardError, match=rf"row {cell[0]}, column {cell[1]}.*off the 9x9"):
        game.open(cell)
    with pytest.raises(BoardError, match="off the 9x9"):
        game.flag(cell)


def test_bad_rules_levels_and_sizes_are_named() -> None:
    with pytest.raises(ValueError, match="'windows'; choose from safe, xp, opening, none"):
        Game(9, 9, 10, "windows")
    with pytest.raises(ValueError, match="'huge'.*beginner"):
        Game.level("huge")
    with pytest.raises(BoardError, match="10 mines do not fit in 3x3"):
        Game(3, 3, 10, FirstClick.NONE)
    with pytest.raises(BoardError, match="9 mines do not fit in 3x3 cells under the 'safe'"):
        Game(3, 3, 9)
    with pytest.raises(BoardError, match="pair of integers"):
        Game(3, 3, 1).open("a1")  # type: ignore[arg-type]


def test_the_board_view_is_live_and_read_only() -> None:
    game = Game.level("beginner", seed=5)
    board = game.board
    game.open((4, 4))
    assert not board.is_fresh
    with pytest.raises(ValueError, match="read-only"):
        board.tiles[0, 0] = Tile.FLAG
    copy = board.copy()
    copy.tiles[0, 0] = Tile.FLAG  # a copy is the caller's own
