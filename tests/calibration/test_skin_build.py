"""The skin built from what calibration learned (calibration/skin_build.py): templates trimmed
to what differs, the pictures of a finished game, match thresholds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from drawn_boards import BACKGROUND, numbers_of, simulated_loss, tile_pictures
from drawn_game import (
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration.catalogue import HIDDEN_ID, Catalogue
from calibration.errors import CalibrationError
from calibration.inference import learn
from calibration.learn import Calibration
from calibration.meanings import board_of
from calibration.record import Evidence
from calibration.skin_build import build_skin, match_threshold, verify
from solver import Tile
from solver.board import PICTURED_TILES, Board
from vision.errors import BoardNotFoundError, UnreadableCellError
from vision.geometry import BoardGeometry, Rect
from vision.match import TemplateBank, flatness
from vision.new_game import NewGame
from vision.read import BoardReader
from vision.skin import Image, Skin
from vision.synthetic import OPENED, draw, make_skin


def test_skin_trims_the_grid_lines_every_tile_shares() -> None:
    pictures = tile_pictures(21, len(Tile))
    catalogue = Catalogue(pictures[0])
    for picture in pictures[1:]:
        catalogue.add(picture)
    meanings = learn([], set())
    for appearance, tile in enumerate((t for t in Tile if t != Tile.HIDDEN), start=1):
        meanings.give(appearance, tile, "drawn")
    skin = build_skin("drawn", Evidence(catalogue), meanings, {}, NewGame("key", "f2"))
    assert skin.pitch == (21, 21)
    assert (skin.tile_offset, skin.tile_size) == ((1, 1), (20, 20))
    assert np.array_equal(skin.templates[Tile.HIDDEN], pictures[0][1:, 1:])
    assert 0 < skin.threshold <= 0.5 * min_distance(skin.templates)


def test_numbers_a_lost_game_redraws_read_as_numbers_or_as_the_finished_game_s_pictures() -> None:
    """A redrawn number (:attr:`Meanings.finished`) that differs only on the grid line every
    tile shares reads as its number; one that differs inside the tile (a field drawn darker
    on a loss) is kept as the finished game's picture of that number, and reads as it."""
    pictures = tile_pictures(21, 3)
    ringed, changed = pictures[1].copy(), pictures[1].copy()
    ringed[0, :] = (0, 255, 0)
    changed[5:15, 5:15] = 0
    for look in (ringed, changed):
        catalogue = Catalogue(pictures[0])
        assert [catalogue.add(picture) for picture in (*pictures[1:], look)] == [1, 2, 3]
        meanings = learn([], set())
        meanings.give(1, Tile.ONE, "drawn")
        meanings.give(2, Tile.FLAG, "drawn")
        meanings.finished[3] = 1
        assert board_of(np.array([[3, 1]]), meanings).tiles.tolist() == [[Tile.ONE, Tile.ONE]]
        skin = build_skin("drawn", Evidence(catalogue), meanings, {}, NewGame("key", "f2"))
        assert (skin.tile_offset, skin.tile_size) == ((1, 1), (20, 20))
        if look is ringed:
            assert skin.finished == {}
        else:
            assert list(skin.finished) == [0] and list(skin.finished[0]) == [Tile.ONE]
            assert np.array_equal(skin.finished[0][Tile.ONE], changed[1:, 1:])
            geometry = BoardGeometry(0, 0, (21, 21), (20, 20), (1, 1), 1, 2)
            frame = np.concatenate([changed, pictures[1]], axis=1)
            read = BoardReader(skin, geometry).read(frame, 0)
            assert read.board.tiles.tolist() == [[Tile.ONE, Tile.ONE]]


def test_tiles_no_game_showed_are_named_by_the_calibration_its_skin_and_its_reader(
    tmp_path: Path,
) -> None:
    """A sparse game never shows a 7 or an 8: the calibration, the skin built from it and a
    read of a board showing one all say which tiles the skin lacks."""
    game, ids = simulated_loss(3)
    pictures = tile_pictures(21, len(PICTURED_TILES), seed=4)
    catalogue = Catalogue(pictures[HIDDEN_ID])
    assert [catalogue.add(picture) for picture in pictures[1:]] == list(range(1, len(pictures)))
    meanings = learn([game], numbers_of(ids))
    shown = {tile for tile, i in ids.items() if (game.steps[-1].after == i).any()}
    unseen = [t for t in PICTURED_TILES if t not in shown | {Tile.FLAG, Tile.QUESTION}]
    assert {Tile.SEVEN, Tile.EIGHT} <= set(unseen)
    assert meanings.missing() == unseen
    skin = build_skin("sparse", Evidence(catalogue, [game]), meanings, {}, NewGame("key", "f2"))
    assert skin.missing_tiles() == unseen
    calibration = Calibration(skin, meanings, 1, meanings.missing())
    assert not calibration.complete
    assert calibration.describe_missing() == "tiles " + ", ".join(t.name for t in unseen)

    rows, columns = game.steps[-1].after.shape
    frame = np.full((rows * 21 + 20, columns * 21 + 20, 3), BACKGROUND, dtype=np.uint8)
    for (row, column), appearance in np.ndenumerate(game.steps[-1].after):
        y, x = 10 + row * 21, 10 + column * 21
        frame[y : y + 21, x : x + 21] = pictures[appearance]
    frame[10 + 21 : 10 + 42, 10 + 21 : 10 + 42] = pictures[ids[Tile.EIGHT]]
    geometry = BoardGeometry(10, 10, skin.pitch, skin.tile_size, skin.tile_offset, rows, columns)
    reader = BoardReader(skin, geometry, crops_dir=tmp_path)
    region = reader.region
    with pytest.raises(UnreadableCellError) as raised:
        reader.read(frame[region.top : region.bottom, region.left : region.right], 0)
    assert raised.value.cells == ((1, 1),)
    lacking = ", ".join(tile.name for tile in unseen)
    assert f"the skin has no template for {lacking}, which the cell may show" in str(raised.value)


def test_threshold_refuses_a_plain_hidden_tile() -> None:
    plain = np.full((16, 16, 3), 128, dtype=np.uint8)
    other = tile_pictures(16, 1)[0]
    with pytest.raises(CalibrationError, match="too plain"):
        match_threshold({Tile.HIDDEN: plain, Tile.ZERO: other})


def test_a_faint_hidden_texture_gets_a_threshold_that_keeps_a_flat_patch_out() -> None:
    """minegauler's "Textured" look: a dark green hidden tile only 0.044 from a flat patch, while
    the other tiles lie far apart (the usual share of their gap, 0.064, would take the flat patch
    in). The threshold shrinks to keep the patch out, no lower than the game's own spread."""
    rng = np.random.default_rng(3)
    faint = np.clip(rng.normal(60, 12, size=(20, 20, 3)), 0, 255).astype(np.uint8)
    others = tile_pictures(20, 2)
    grouped = 0.03
    assert (
        grouped < flatness(faint) < 0.4 * min_distance({Tile.ONE: others[0], Tile.TWO: others[1]})
    )
    templates = {Tile.HIDDEN: faint, Tile.ZERO: others[0], Tile.ONE: others[1]}
    threshold = match_threshold(templates, grouped=grouped)
    flat = np.full_like(faint, int(round(float(faint.mean()))))
    bank = TemplateBank([Tile.HIDDEN], [faint])
    assert grouped <= threshold < float(bank.distances(flat[None])[0, 0])
    assert float(bank.distances(faint[None])[0, 0]) <= threshold


def min_distance(templates: dict[Tile, np.ndarray]) -> float:
    pictures = [t.astype(float) for t in templates.values()]
    return min(
        float(np.sqrt(np.mean((a - b) ** 2)) / 255)
        for i, a in enumerate(pictures)
        for b in pictures[i + 1 :]
    )


def _drawn_beside_a_plain_window(skin: Skin, tiles: npt.NDArray[np.uint8]) -> Image:
    """``tiles`` drawn at (40, 60) in a window as plain as the skin's 0, right up to the board's
    right edge (no frame there)."""
    screen = draw(skin, tiles, (40, 60), background=OPENED).screen
    screen[:, 40 + tiles.shape[1] * skin.pitch[0] :] = OPENED
    return screen


def test_a_finished_board_is_read_where_the_fresh_board_shows_it() -> None:
    """A finished board whose first column shows only 0s, beside a window as plain as a 0,
    fits two places (the board, or one column to its right): the check of a calibration's
    skin finds the board on a new game's capture, as play does at a game's start, and reads
    the finished one there (xbomb in its own window, at random, failed calibration so)."""
    skin = make_skin(24)
    tiles = np.full((8, 8), Tile.HIDDEN, dtype=np.uint8)
    tiles[:, 0] = Tile.ZERO
    tiles[:, 1] = [Tile.TWO] + [Tile.THREE] * 6 + [Tile.TWO]
    finished = _drawn_beside_a_plain_window(skin, tiles)
    fresh = _drawn_beside_a_plain_window(skin, np.full_like(tiles, Tile.HIDDEN))
    window = Rect(0, 0, finished.shape[1], finished.shape[0])
    with pytest.raises(BoardNotFoundError, match="fit 2 different 8x8 boards"):
        verify(skin, window, finished, Board(8, 8, 10, tiles))
    verify(skin, window, finished, Board(8, 8, 10, tiles), lambda: fresh)
    tiles[0, 0] = Tile.ONE
    with pytest.raises(CalibrationError, match=r"reads cell \(0, 0\) as ZERO"):
        verify(skin, window, finished, Board(8, 8, 10, tiles), lambda: fresh)
