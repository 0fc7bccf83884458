"""Calibration (calibration/learn.py): the skin built from what the games taught, its threshold,
and whole calibrations of games drawn in memory, each a quirk a real game showed."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from drawn_boards import focus_ring
from drawn_game import (
    DRAWN_BOARD_AT,
    DRAWN_BUTTON,
    DRAWN_SCREEN,
    DRAWN_WINDOW,
    DrawnGame,
    GuardedMouse,
    RefusingPointer,
    assert_learned_truly,
    calibrated,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration import hidden_tile
from calibration import learn as learn_module
from calibration.catalogue import GROUPING_TOLERANCE
from calibration.errors import CalibrationError, OutOfTimeError, PartialBoardError
from calibration.learn import WIN_ATTEMPTS, Calibration, calibrate
from calibration.meanings import Meanings
from calibration.record import PlayedGame
from calibration.session import CalibrationPlayer
from controller.outcomes import Result
from controller.relaid import followed
from controller.screen_table import ScreenTable
from solver import Game, GameState, Tile
from solver.engine import neighbour_counts
from vision import synthetic
from vision.geometry import Rect
from vision.locate import locate
from vision.match import TemplateBank
from vision.new_game import NewGame
from vision.read import BoardReader
from vision.skin import MAX_SLACK, Skin

# -- a whole calibration on a drawn game ------------------------------------------------------


def test_a_drawn_game_teaches_its_tiles_faces_and_first_click_rule_by_clicks_alone() -> None:
    screen = DrawnGame(seed=2, rule="opening")
    result = calibrated(screen, max_games=8)
    assert result.games > 8, "no game was played to win after the random ones"
    assert screen.clicks > 3
    learned = result.skin.templates
    assert {Tile.HIDDEN, Tile.FLAG, Tile.MINE, Tile.EXPLODED, Tile.ONE} <= set(learned)
    assert_learned_truly(result, screen, learned)
    assert sorted(result.skin.faces) == ["lost", "playing", "won"]
    for state, picture in result.skin.faces.items():
        assert np.array_equal(picture, screen.skin.faces[state]), state
    assert result.missing_faces == []
    assert result.skin.new_game == NewGame("face")
    assert Tile.QUESTION not in result.missing_tiles
    assert result.skin.extra["first_click"] == "opening"
    assert result.skin.mines_for(9, 9) == 10  # the count calibration was told
    assert "animation_still" not in result.skin.extra  # it draws each click at once


@pytest.mark.parametrize("step", [0.1, 0.25])
def test_a_game_that_animates_its_flood_a_ring_at_a_time_is_learned(step: float) -> None:
    """A game that draws what a click opened a ring of cells at a time, ``step`` seconds apart
    (issue 49 item 5): each click is judged by the board once the animation has settled, not
    by its first frame."""
    screen = DrawnGame(seed=2, rule="opening", flood_step=step)
    result = calibrated(screen, max_games=8)
    assert {Tile.HIDDEN, Tile.FLAG, Tile.MINE, Tile.EXPLODED, Tile.ONE} <= set(
        result.skin.templates
    )
    assert result.skin.extra["animation_still"] > step  # play's reads wait that long too
    assert_learned_truly(result, screen, result.skin.templates)


@pytest.mark.parametrize("step", [0.1, 0.25])
def test_a_game_that_animates_its_flood_is_played_from_boards_that_settled(
    step: float, tmp_path: Path
) -> None:
    """Play on the same game (issue 49 item 5, in play): every game ends won or lost as the
    game says, none stopped, from reads of the board once its animation settled."""
    screen = DrawnGame(seed=2, rule="opening", flood_step=step)
    skin = calibrated(screen, max_games=8).skin
    screen.start_new_game()
    geometry = locate(skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(
        screen, skin, geometry, GuardedMouse(screen), 10, game="drawn", first_click="opening"
    )
    ended_before = len(screen.endings)
    records = played_to_the_end(table, 4, tmp_path)
    assert [r.result for r in records] == [
        Result.WON if state is GameState.WON else Result.LOST
        for state in screen.endings[ended_before:]
    ]


def test_a_game_whose_columns_widen_as_their_cells_open_is_learned() -> None:
    """A grid of toolkit buttons sized by their content: a column with an opened cell widens
    (16 -> 21 px) and the columns right of it move (issue 49 item 1). Cells are followed by
    their place in the grid while their pixels move: read at their fresh pixels, a click
    seemed to change cells it never reached, and calibration gave up."""
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True, widen_opened_columns=5)
    result = calibrated(screen, max_games=8, new_game_at=DRAWN_BUTTON.centre)
    assert {Tile.HIDDEN, Tile.FLAG, Tile.ONE} <= set(result.skin.templates)
    assert_learned_truly(result, screen, result.skin.templates)
    assert result.skin.extra["relayout"] is True


BELOW_THE_BOARD = Rect(100, 270, 30, 20)
"""A "New game" button below the drawn board, in a window that ends at the board's right edge."""


def test_a_board_whose_first_click_widens_it_past_its_window_is_found_where_it_was_fresh() -> None:
    """mfranceschi-minesweeper's Tk buttons fill their window to its right edge; the first click
    widened the columns it opened and pushed the board past that edge (the window grew after).
    The cut that the click's changes chose, a few pixels off the cells, was then taken for a
    board cut by its window: "runs past its right edge", once in ten runs. A click that moved
    the cells cannot say where they are: the board is the fresh capture's, as the click
    re-laid it out once it held still, past the window's edge too."""
    screen = DrawnGame(
        seed=26, rule="opening", button=BELOW_THE_BOARD, faceless=True, widen_opened_columns=4
    )
    right_edge = Rect(60, 60, DRAWN_BOARD_AT[0] + 16 * 9 - 60, 240)
    result = calibrated(screen, 8, BELOW_THE_BOARD.centre, window=right_edge)
    assert {Tile.HIDDEN, Tile.FLAG, Tile.ONE} <= set(result.skin.templates)
    assert_learned_truly(result, screen, result.skin.templates)
    assert result.skin.extra["relayout"] is True


def test_a_game_whose_columns_widen_as_their_cells_open_is_played(tmp_path: Path) -> None:
    """Play follows the cells of a board that re-lays itself out, as calibration does: it reads
    each cell at its place in the grid and clicks it where it is now."""
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True, widen_opened_columns=5)
    result = calibrated(screen, max_games=8, new_game_at=DRAWN_BUTTON.centre)
    screen.start_new_game()
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    relaid, mouse = followed(screen, GuardedMouse(screen), result.skin, geometry)
    table = ScreenTable(relaid, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    records = played_to_the_end(table, 6, tmp_path)
    assert len(records) == 6 and Result.WON in {record.result for record in records}


def test_a_game_whose_face_shows_its_won_picture_at_launch_learns_its_playing_face() -> None:
    """minesweeper 0.1.4 (PyPI) grins at launch as it does on a win, and shows another face
    once a game is under way: taken from the launch frame, the grin stood for "playing", no
    face read during play matched, every click was probed and no cell was ever marked."""
    screen = DrawnGame(seed=2, rule="opening", won_face_at_launch=True)
    result = calibrated(screen, max_games=8)
    assert result.missing_faces == []
    for state, picture in result.skin.faces.items():
        assert np.array_equal(picture, screen.skin.faces[state]), state
    assert Tile.FLAG in result.skin.templates
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_calibration_that_never_marked_a_cell_says_so_instead_of_asking_for_more_games() -> None:
    """Every click probed, no game reached its turn to mark: "try more --max-games" sent the
    user to play longer where more games would have shown no flag either (issue 49 item 8)."""
    never = Calibration(synthetic.make_skin(16), cast(Meanings, None), 28, [Tile.FLAG], probes=40)
    assert "no cell was ever right-clicked" in never.advice()
    assert "40 clicks were probed" in never.advice()
    assert "--max-games" not in never.advice()
    marked = replace(never, marks=3)
    assert "--max-games" in marked.advice()


def test_calibration_stops_playing_to_win_when_its_time_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(learn_module, "WIN_SECONDS", 0.0)
    screen = DrawnGame(seed=2, rule="opening")
    result = calibrated(screen, max_games=8)
    assert result.games == 8
    assert result.missing_faces == ["won"]
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_game_whose_won_face_is_its_playing_face_is_not_played_to_win_again_and_again() -> None:
    """PyMines keeps its playing face on a won board (it never says a game is won): every game
    calibration played to win waited 5 s for a won face and the next began, until its 45 s
    were spent. Two wins that show no face of their own say the game has none."""
    screen = DrawnGame(seed=2, rule="opening", won_face=False)
    result = calibrated(screen, max_games=8)
    played_to_win = screen.new_games["face"] - 7  # after the random games' new games
    assert result.missing_faces == ["won"]
    assert 2 <= played_to_win < WIN_ATTEMPTS, played_to_win
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_game_left_fresh_for_lack_of_time_is_not_started_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Calibration leaves a fresh board for play: when the time to play to win ran out just as
    a new game began, the board is fresh already. Starting one more found that no way changed
    it, and went on to try every key (PyMines, 12 s)."""

    def out_of_time(
        self: CalibrationPlayer, meanings: Meanings, mines: int, deadline: float
    ) -> PlayedGame:
        time.sleep(max(0.0, deadline - time.monotonic()))
        raise OutOfTimeError("left after 0 clicks")

    monkeypatch.setattr(CalibrationPlayer, "play_to_win", out_of_time)
    monkeypatch.setattr(learn_module, "WIN_SECONDS", 1.0)
    screen = DrawnGame(seed=2, rule="opening")
    result = calibrated(screen, max_games=8)
    assert screen.keys == []
    assert result.skin.new_game == NewGame("face")


def test_a_window_that_shows_part_of_the_board_is_refused_after_its_first_click() -> None:
    # The drawn board spans x 100 to 244: a window ending at x 236 shows half its last column.
    screen = DrawnGame(seed=2)
    with pytest.raises(CalibrationError, match="runs past its right edge .* enlarge the window"):
        calibrated(screen, max_games=4, window=Rect(60, 60, 176, 240))
    assert screen.clicks == 1  # the click that found the hidden tile


def test_a_game_whose_numbers_paint_the_cells_below_is_learned_from_the_rest_of_the_cells() -> None:
    """Each number paints the top 3 lines of the hidden cell below it: calibration leaves
    them out of what it compares (reading the games played so far again), so the hidden tile is one
    appearance, and the skin it saves reads such a board right."""
    screen = DrawnGame(seed=2, paint_below=3)
    result = calibrated(screen, max_games=12)
    skin = result.skin
    assert result.usable and skin.tile_offset[1] >= 3 + 2, skin.tile_offset
    (x, y), (width, height) = skin.tile_offset, skin.tile_size
    for tile, template in skin.templates.items():
        assert np.array_equal(template, screen.skin.templates[tile][y : y + height, x : x + width])
    screen.game = Game(9, 9, 10, rule="opening", seed=7)
    screen.game.open((4, 4))
    tiles = screen.game.board.tiles
    numbers = (tiles[:-1] >= Tile.ONE) & (tiles[:-1] <= Tile.EIGHT)
    assert (numbers & (tiles[1:] == Tile.HIDDEN)).sum() > 3  # hidden cells painted over
    frame = screen.grab()
    reader = BoardReader(skin, locate(skin, frame))
    region = reader.region
    shown = reader.read(frame[region.top : region.bottom, region.left : region.right], 10)
    assert np.array_equal(shown.board.tiles, screen.game.board.tiles)


def test_games_learned_before_calibration_compares_a_smaller_part_of_the_cells_are_kept() -> None:
    """Numbers start painting into the cells below only once the games played to win have
    begun (a paint first caught there). Calibration then compares less of each cell, and reads
    the games played so far again that way: it forgot them all, and with no random game left
    to play, it ended with nothing learned (an xdemineur Expert calibration in a slow test run:
    "the games never showed tiles ZERO, ONE, ..." after its one start-over)."""
    screen = DrawnGame(seed=2, paint_below=3, paint_from_game=7)
    result = calibrated(screen, max_games=6)
    assert screen.games > 7, "no game was played to win after the random ones"
    assert result.skin.tile_offset[1] >= 3 + 2, "calibration compares the painted band still"
    assert result.usable, result.describe_missing()
    (x, y), (width, height) = result.skin.tile_offset, result.skin.tile_size
    for tile, template in result.skin.templates.items():
        expected = screen.skin.templates[tile][y : y + height, x : x + width]
        assert np.array_equal(template, expected), tile


def test_a_focus_ring_is_left_out_of_the_tiles_compared_and_play_reads_through_it(
    tmp_path: Path,
) -> None:
    """The ring on the cell clicked last made each tile two appearances ("the number pictures
    cannot show distinct numbers", DangerUXB's tk buttons). Calibration learns the ring's pixels
    from the cell it moves off, leaves them out of every comparison, and saves them as the
    skin's mask; play then reads the cell clicked last, ring and all."""
    screen = DrawnGame(seed=2, focus_ring=True)
    result = calibrated(screen, max_games=8)
    skin = result.skin
    assert result.usable and skin.mask is not None
    (x, y), (width, height) = skin.tile_offset, skin.tile_size
    ringed = np.full((16, 16, 3), 255, dtype=np.uint8)
    focus_ring(ringed[:15, :15])
    ring = (ringed != 255).any(axis=2)[y : y + height, x : x + width]
    assert not (skin.mask & ring).any(), "a pixel of the ring is compared"
    assert skin.mask.mean() >= 0.5
    for tile, template in skin.templates.items():
        expected = screen.skin.templates[tile][y : y + height, x : x + width]
        assert np.array_equal(template[skin.mask], expected[skin.mask]), tile
    screen.start_new_game()
    mouse = GuardedMouse(screen)
    geometry = locate(skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(screen, skin, geometry, mouse, 10, game="drawn", first_click="safe")
    records = played_to_the_end(table, 3, tmp_path)
    assert len(records) == 3 and {r.result for r in records} <= {Result.WON, Result.LOST}


def test_a_new_game_point_not_beside_the_board_in_its_window_is_refused() -> None:
    """A point off the window is refused before any click; one over a board that stays is
    refused at the first new game, unclicked (a menu's button may lie where a board was that a
    game's end takes away)."""
    for point, before_a_game in [((350, 150), True), ((150, 150), False)]:
        screen = DrawnGame(seed=2, button=DRAWN_BUTTON)
        with pytest.raises(CalibrationError, match=rf"new-game point \({point[0]}, {point[1]}\)"):
            calibrated(screen, max_games=2, new_game_at=point)
        # Only the clicks that found the board, or those of one game.
        assert (screen.clicks <= hidden_tile.HIDDEN_CANDIDATES) == before_a_game
        assert screen.new_games == {"face": 0, "button": 0}


def test_one_early_game_that_every_later_one_contradicts_is_outvoted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The first loss draws the mine hit in a way no other shows: each later loss then says
    EXPLODED looks otherwise. Once more games disagree with that one than calibration sets
    aside, the odd game is set aside in their stead and they are learned."""
    screen = DrawnGame(seed=2, odd_losses=frozenset({1}))
    result = calibrated(screen, max_games=12)
    assert screen.losses > learn_module.SET_ASIDE + 2
    assert "outvoted" in caplog.text
    assert_learned_truly(result, screen, result.skin.templates)
    assert Tile.EXPLODED in result.skin.templates


def test_a_board_found_in_part_at_first_is_found_whole_when_a_new_game_shows_the_rest(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The first frame showed only the top six rows (the rest not drawn yet, as a window
    another one lay over may be on a busy machine): the first new game shows hidden tiles
    below the board found, and calibration starts the window over on the whole board, the
    games of the part forgotten (they counted mines they could not see)."""
    screen = DrawnGame(seed=2, rows_covered_at_first=3)
    result = calibrated(screen, max_games=8)
    assert "starts over on the whole board" in caplog.text
    assert result.usable and result.games >= 8
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_part_found_at_first_cut_off_its_cells_is_no_hidden_tile_to_hold_the_whole_to() -> None:
    """UXBgtk's start left a 6x6 block hidden, found as the board 3 px off its cells (its
    opened cells' frames reach into their neighbours): its hidden tile was that cut's. The
    whole board, found when a new game showed the rest, cut the tiles right, and calibration
    stopped: "the hidden tile ... differs from the one calibrated before". No game of another
    window holds the catalogue to the part's cut: it starts anew with the whole board."""
    screen = DrawnGame(seed=2, rows_covered_at_first=3)
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=4)
    player.play_game()
    with pytest.raises(PartialBoardError):
        player.start_new_game()
    catalogue = player.evidence.catalogue
    catalogue.images[0] = np.roll(catalogue.images[0], 3, axis=(0, 1))  # the part's cut
    whole = player.on_the_whole_board()
    assert whole.view.grid.rows == 9 and whole.evidence.catalogue is not catalogue


def test_a_question_mark_drawn_almost_as_the_flag_is_learned_apart_from_it() -> None:
    screen = DrawnGame(seed=2, question_like_flag=True)
    flag, question = (screen.skin.templates[tile] for tile in (Tile.FLAG, Tile.QUESTION))
    assert 0 < TemplateBank([0], [flag]).distances(question[None])[0, 0] < GROUPING_TOLERANCE
    result = calibrated(screen, max_games=8)
    assert_learned_truly(result, screen, (Tile.FLAG, Tile.QUESTION))


def test_numbers_drawn_differently_in_wider_cells_are_learned_per_size_class(
    tmp_path: Path,
) -> None:
    screen = DrawnGame(seed=2, numbers_per_size=True)
    result = calibrate(
        "drawn", screen, screen, [Rect(60, 60, 240, 240)], mines=[10], max_games=8, seed=1
    )
    assert result.usable
    skin, truth = result.skin, screen.skin
    width, height = skin.tile_size
    assert skin.slack == (MAX_SLACK, MAX_SLACK)
    for tile, template in skin.templates.items():
        assert np.array_equal(template, truth.templates[tile][:height, :width]), tile
    assert skin.variants, "no number was learned apart for wider cells"
    for size_class, variants in skin.variants.items():
        for tile, template in variants.items():
            drawn = truth.variants[size_class][tile][:height, :width]
            assert np.array_equal(template, drawn), (size_class, tile)
    scene = synthetic.draw(
        truth, revealed_board(seed=4), DRAWN_BOARD_AT, DRAWN_SCREEN, edges=screen.edges
    )
    skin = Skin.load(skin.save(tmp_path / "drawn"))  # the variants are saved and loaded
    assert {c: set(v) for c, v in skin.variants.items()} == {
        c: set(v) for c, v in result.skin.variants.items()
    }
    assert skin.seen == result.skin.seen
    for size_class, variants in skin.variants.items():  # each class saw its own pictures
        assert set(variants) <= skin.seen[size_class]
    assert Tile.HIDDEN in set.intersection(*skin.seen.values())
    geometry = locate(skin, scene.screen)
    reader = BoardReader(skin, geometry)
    frame = reader.region
    shown = reader.read(scene.screen[frame.top : frame.bottom, frame.left : frame.right], 10)
    assert np.array_equal(shown.board.tiles, revealed_board(seed=4))


def revealed_board(seed: int) -> np.ndarray:
    """A 9x9 board with 10 mines left hidden and every other cell opened: numbers in cells of
    every size class."""
    mines = np.zeros((9, 9), dtype=bool)
    mines.flat[np.random.default_rng(seed).choice(81, 10, replace=False)] = True
    return np.where(mines, Tile.HIDDEN, neighbour_counts(mines)).astype(np.uint8)


def test_no_window_to_calibrate_is_an_error_before_any_click() -> None:
    with pytest.raises(CalibrationError, match="no game window to calibrate"):
        calibrate("none", RefusingPointer(), DrawnGame(seed=0), [], progress=False)


def test_a_first_click_that_loses_the_game_is_told_as_such() -> None:
    """A game with no safe first click may lose on calibration's first click and show every
    cell (DangerUXB at Beginner, one time in six): the board cannot be found from that click,
    and the user is told to start a new game and calibrate again, not that no board is there."""
    screen = DrawnGame(seed=10, rule="none", reveal_on_loss=True)
    lost_on_first_click = r"first click, .* changed every hidden cell .* if it lost the game"
    with pytest.raises(CalibrationError, match=lost_on_first_click):
        calibrated(screen, max_games=2)
    assert screen.clicks == 1


def test_a_mine_count_the_board_cannot_hold_is_refused_before_any_game_is_played() -> None:
    """Told 99 mines for a 9x9 window, calibration played 40 s of random games before saying
    the mines do not fit; it says so once the board is found."""
    screen = DrawnGame(seed=2)
    started = time.monotonic()
    with pytest.raises(CalibrationError, match=r"99 mines do not fit in the 9x9 board in window"):
        calibrate("drawn", screen, screen, [DRAWN_WINDOW], mines=[99], max_games=8, seed=1)
    assert screen.games == 1 and time.monotonic() - started < 5
