"""The first-click rule a game follows, told from the first clicks of its games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration.first_click import (
    RULES,
    FirstOpen,
    Shown,
    chance,
    first_click_rule,
)
from solver import Game, GameState, Tile
from solver.engine import FirstClick

LEVELS = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
    "dense": (12, 12, 100),
}


def first_open(rows: int, columns: int, mines: int, rule: str, seed: int) -> FirstOpen:
    """What a real game of ``rule`` shows under a first click on a random cell."""
    chooser = random.Random(seed)
    cell = (chooser.randrange(rows), chooser.randrange(columns))
    game = Game(rows, columns, mines, rule=rule, seed=seed)
    game.open(cell)
    if game.state is GameState.LOST:
        shown = Shown.MINE
    else:
        shown = Shown.ZERO if game.board.tiles[cell] == Tile.ZERO else Shown.NUMBER
    return FirstOpen((rows, columns), mines, cell, shown)


@given(
    rows=st.integers(1, 24),
    columns=st.integers(1, 30),
    data=st.data(),
)
def test_what_a_first_click_may_show_adds_up_to_certainty(
    rows: int, columns: int, data: st.DataObject
) -> None:
    mines = data.draw(st.integers(0, rows * columns - 1))
    cell = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, columns - 1)))
    block = FirstOpen((rows, columns), mines, cell, Shown.ZERO).neighbours + 1
    for rule in RULES:
        chances = [chance(rule, FirstOpen((rows, columns), mines, cell, s)) for s in Shown]
        assert all(0.0 <= p <= 1.0 for p in chances)
        # No board of the OPENING rule has more mines than cells outside the first 3x3 block.
        possible = rule is not FirstClick.OPENING or mines <= rows * columns - block
        assert sum(chances) == pytest.approx(1.0 if possible else 0.0), (rule, chances)


@pytest.mark.parametrize("rule", ["none", "safe", "opening"])
@pytest.mark.parametrize(("level", "cell"), [("beginner", (0, 0)), ("expert", (5, 7))])
def test_chances_agree_with_the_games_the_solver_deals(
    rule: str, level: str, cell: tuple[int, int]
) -> None:
    # 4,000 real first clicks per case: each outcome's share within 4 standard errors.
    rows, columns, mines = LEVELS[level]
    counts = dict.fromkeys(Shown, 0)
    games = 4000
    for seed in range(games):
        game = Game(rows, columns, mines, rule=rule, seed=seed)
        game.open(cell)
        lost = game.state is GameState.LOST
        zero = not lost and game.board.tiles[cell] == Tile.ZERO
        counts[Shown.MINE if lost else Shown.ZERO if zero else Shown.NUMBER] += 1
    for shown, count in counts.items():
        expected = chance(FirstClick(rule), FirstOpen((rows, columns), mines, cell, shown))
        error = (expected * (1 - expected) / games) ** 0.5
        assert abs(count / games - expected) <= 4 * error + 1e-9, (shown, count, expected)


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("rule", ["none", "safe", "xp", "opening"])
def test_the_rule_told_from_a_calibrations_first_clicks_is_never_a_wrong_one(
    rule: str, level: str
) -> None:
    rows, columns, mines = LEVELS[level]
    truth = FirstClick.SAFE if rule == "xp" else FirstClick(rule)
    told = []
    for trial in range(60):
        seen = [first_open(rows, columns, mines, rule, 1000 * trial + game) for game in range(25)]
        told.append(first_click_rule(seen))
    assert set(told) <= {truth, None}, told
    if rule in ("none", "opening") or level == "dense":
        # A first click that loses settles NONE; 25 0s in a row, OPENING; and on a board of
        # 69% mines (winemine's dense calibration board) 25 safe first clicks, SAFE.
        assert told.count(truth) >= 50, told


def test_no_clicks_and_impossible_clicks_tell_no_rule() -> None:
    assert first_click_rule([]) is None
    # A 0 where every neighbour must be a mine: no rule shows that.
    impossible = FirstOpen((3, 3), 8, (1, 1), Shown.ZERO)
    assert first_click_rule([impossible]) is None
