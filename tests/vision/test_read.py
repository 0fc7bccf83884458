"""Reading a board (vision/read.py) on synthetic screens: known skins drawn at known places, so
each read is exact, and a cell the skin cannot tell is refused, never guessed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from drawn_scenes import SCREEN, SKINS, darkened_loss, examples, read_scene, scenes
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pictures import read_picture

from solver import Board, Tile
from solver.board import PICTURED_TILES
from vision.errors import UnreadableCellError, UnreadableFaceError
from vision.locate import locate
from vision.match import AMBIGUITY_RATIO, Floats, TemplateBank
from vision.read import BoardReader, Reading
from vision.skin import FACE_STATES, MAX_SLACK, Skin
from vision.synthetic import OPENED, Scene, draw, make_skin, per_size_numbers


@st.composite
def uneven_scenes(draw_from: st.DrawFn) -> Scene:
    """A random board whose cells are each the pitch or a pixel wider, drawn with a skin that
    allows it, as :func:`scenes` draws even ones."""
    skin = replace(SKINS[draw_from(st.sampled_from(sorted(SKINS)))], slack=(1, 1))
    pitch = skin.pitch[0]
    rows, columns = draw_from(st.integers(2, 9)), draw_from(st.integers(2, 12))
    sizes = [
        draw_from(st.lists(st.sampled_from([pitch, pitch + 1]), min_size=n, max_size=n))
        for n in (columns, rows)
    ]
    edges = tuple(tuple(int(edge) for edge in np.cumsum([0, *axis])) for axis in sizes)
    tiles = np.random.default_rng(draw_from(st.integers(0, 2**32 - 1))).integers(
        0, len(PICTURED_TILES), size=(rows, columns), dtype=np.uint8
    )
    tiles[0, 0] = tiles[-1, -1] = Tile.HIDDEN  # every edge line shows a distinctive tile
    left = draw_from(st.integers(5, SCREEN[0] - edges[0][-1] - 5))
    top = draw_from(st.integers(45, SCREEN[1] - edges[1][-1] - 5))
    background = draw_from(st.sampled_from([OPENED, (0, 0, 0), (90, 40, 20)]))
    state = draw_from(st.sampled_from(FACE_STATES))
    return draw(skin, tiles, (left, top), SCREEN, background, state, edges)  # type: ignore[arg-type]


@examples
@given(scenes())
def test_locate_and_read_are_exact(tmp_path: Path, drawn: Scene) -> None:
    skin, tiles = drawn.skin, drawn.tiles
    geometry = locate(skin, drawn.screen)
    assert geometry == drawn.geometry
    reading = read_scene(skin, geometry, drawn.screen, tmp_path)
    assert np.array_equal(reading.board.tiles, tiles)
    assert reading.scores.shape == tiles.shape and float(reading.scores.max()) < 1e-3
    assert reading.face == drawn.face


@examples
@given(scenes(), st.integers(0, 2**32 - 1))
def test_unknown_tile_names_the_cell_and_saves_its_crop(
    tmp_path: Path, drawn: Scene, seed: int
) -> None:
    skin, tiles = drawn.skin, drawn.tiles
    rng = np.random.default_rng(seed)
    cell = (int(rng.integers(tiles.shape[0])), int(rng.integers(tiles.shape[1])))
    tile = drawn.geometry.tile_rect(cell)
    noise = rng.integers(0, 256, size=(tile.height, tile.width, 3), dtype=np.uint8)
    drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = noise
    with pytest.raises(UnreadableCellError) as raised:
        read_scene(skin, drawn.geometry, drawn.screen, tmp_path)
    assert raised.value.cell == cell and raised.value.cells == (cell,)
    assert f"cell (row {cell[0]}, column {cell[1]})" in str(raised.value)
    assert "more of the" not in str(raised.value)
    assert str(raised.value.crop_path) in str(raised.value)
    assert raised.value.crop_path.parent == tmp_path
    assert np.array_equal(read_picture(raised.value.crop_path), noise)


def test_a_covered_part_of_the_board_names_every_unreadable_cell(tmp_path: Path) -> None:
    """Something drawn over the board makes many cells unreadable at once; all are listed, so
    the play loop can tell a covered or moved board from one tile the skin lacks."""
    skin = SKINS[21]
    tiles = np.random.default_rng(5).integers(0, len(PICTURED_TILES), size=(6, 8), dtype=np.uint8)
    drawn = draw(skin, tiles, (30, 60), SCREEN)
    covered = [(row, column) for row in (1, 2) for column in (2, 3, 4)]
    for cell in covered:
        tile = drawn.geometry.tile_rect(cell)
        drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = (255, 0, 255)
    with pytest.raises(UnreadableCellError) as raised:
        read_scene(skin, drawn.geometry, drawn.screen, tmp_path)
    assert raised.value.cells == tuple(covered)
    assert raised.value.cell == (1, 2)
    assert "(row 1, column 2)" in str(raised.value)
    assert "5 more of the 48 cells are unreadable" in str(raised.value)


@examples
@given(
    scenes(),
    st.sampled_from(PICTURED_TILES),
    st.sampled_from(PICTURED_TILES),
    st.floats(0.4, 0.6),
)
def test_blends_of_two_tiles_are_never_guessed(
    tmp_path: Path, drawn: Scene, first: Tile, second: Tile, mix: float
) -> None:
    """A half-drawn cell, near the middle between two templates, is refused, not read as either."""
    skin = drawn.skin
    a, b = skin.templates[first].astype(float), skin.templates[second].astype(float)
    assume(np.sqrt(np.mean((a - b) ** 2)) / 255 > skin.threshold)
    # beside an opened 0 the game's rule leaves only opened tiles to choose from (see
    # test_opened.py, test_a_blend_beside_an_opened_zero_is_judged_among_opened_tiles): no guess
    assume(not (drawn.tiles[:2, :2] == Tile.ZERO).any())
    tile = drawn.geometry.tile_rect((0, 0))
    blend = np.round(mix * a + (1 - mix) * b).astype(np.uint8)
    drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = blend
    with pytest.raises(UnreadableCellError) as raised:
        read_scene(skin, drawn.geometry, drawn.screen, tmp_path)
    assert raised.value.cell == (0, 0)


def test_near_tie_between_similar_tiles_is_ambiguous(tmp_path: Path) -> None:
    base = SKINS[16]
    templates = dict(base.templates)
    seven = templates[Tile.ONE].copy()
    seven[2:5, 2:5] = 255 - seven[2:5, 2:5]  # a few pixels apart: within the threshold
    templates[Tile.SEVEN] = seven
    skin = Skin("close", base.pitch, base.tile_size, templates, base.threshold, base.new_game)
    tiles = np.full((3, 3), Tile.HIDDEN, dtype=np.uint8)
    tiles[1, 2] = Tile.ONE
    drawn = draw(skin, tiles, (40, 60), SCREEN, face=None)
    tile = drawn.geometry.tile_rect((1, 2))
    halfway = ((templates[Tile.ONE].astype(int) + seven) // 2).astype(np.uint8)
    drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = halfway
    with pytest.raises(
        UnreadableCellError, match=r"\(row 1, column 2\).*is ambiguous: (ONE|SEVEN)"
    ):
        read_scene(skin, drawn.geometry, drawn.screen, tmp_path)


def test_unreadable_face_saves_its_crop(tmp_path: Path) -> None:
    skin = SKINS[24]
    tiles = np.full((4, 5), Tile.HIDDEN, dtype=np.uint8)
    drawn = draw(skin, tiles, (40, 60), SCREEN)
    face = drawn.geometry.face
    assert face is not None
    drawn.screen[face.top : face.bottom, face.left : face.right] = 255
    with pytest.raises(UnreadableFaceError) as raised:
        read_scene(skin, drawn.geometry, drawn.screen, tmp_path)
    assert np.array_equal(read_picture(raised.value.crop_path), np.full((24, 24, 3), 255))


def test_a_face_the_skin_never_learned_leaves_the_outcome_to_the_board(tmp_path: Path) -> None:
    full = SKINS[16]
    skin = replace(full, faces={s: full.faces[s] for s in ("playing", "lost")})
    tiles = np.full((3, 4), Tile.ONE, dtype=np.uint8)
    tiles[0, 0] = Tile.FLAG
    drawn = draw(full, tiles, (40, 60), SCREEN, face="won")
    reading = read_scene(skin, drawn.geometry, drawn.screen, tmp_path, mines=1)
    assert (reading.face, reading.outcome) == (None, "won")
    tiles[0, 1] = Tile.HIDDEN
    drawn = draw(full, tiles, (40, 60), SCREEN, face="won")
    assert read_scene(skin, drawn.geometry, drawn.screen, tmp_path, mines=1).outcome == "playing"


@pytest.mark.parametrize(
    ("rows", "face", "outcome"),
    [
        (["1F", "11"], None, "won"),  # every safe cell open: won without a face
        (["1U", "11"], None, "won"),
        (["1U", "11"], "playing", "playing"),  # xdemineur: not won until the mine is flagged
        (["1F", "11"], "won", "won"),
        (["1X", "11"], "playing", "lost"),  # an exploded mine is a loss whatever the face says
        (["1X", "11"], None, "lost"),
        (["UU", "11"], None, "playing"),
    ],
)
def test_outcome_from_face_and_board(rows: list[str], face: str | None, outcome: str) -> None:
    board = Board.from_rows(rows, mines=1)
    assert Reading(board, np.zeros(board.tiles.shape, np.float32), face).outcome == outcome


def test_mines_shown_with_a_cell_still_closed_are_a_loss_when_no_face_says_otherwise() -> None:
    """Mines show only once a game is over, so with a cell still closed it was lost, even where
    the mine hit is a picture the skin never saw there (read as an opened cell, ``-``)."""
    board = Board.from_rows(["@2U", "-21", "111"], mines=2)
    scores = np.zeros(board.tiles.shape, np.float32)
    assert Reading(board, scores, None).outcome == "lost"
    assert Reading(board, scores, "playing").outcome == "playing"  # the face has its say


@pytest.mark.parametrize(
    ("level_weight", "fresh", "back"),
    [(1.0, 0, 0), (0.5, 54, 6)],
    ids=["exact", "over a gradient"],
)
def test_a_read_after_a_move_compares_only_the_cells_that_changed_with_every_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, level_weight: float, fresh: int, back: int
) -> None:
    """A cell whose pixels are those of the last read reads as it did; of the others, an
    exact skin certifies a cell as its last tile or the hidden one, a skin over a gradient
    (whose distance is no metric) compares each with every template: ``fresh`` of a first
    read, ``back`` when a new game hides the opened cells again."""
    skin = replace(SKINS[21], faces={}, level_weight=level_weight)
    tiles = np.full((6, 9), Tile.HIDDEN, dtype=np.uint8)
    before = draw(skin, tiles, (40, 60), SCREEN, face=None)
    reader = BoardReader(skin, before.geometry, crops_dir=tmp_path)
    region = reader.region
    compared: list[int] = []
    full = TemplateBank.distances

    def counted(bank: TemplateBank, patches: npt.NDArray[np.uint8]) -> Floats:
        compared.append(int(np.prod(patches.shape[:-3])))
        return full(bank, patches)

    monkeypatch.setattr(TemplateBank, "distances", counted)

    def read(scene: Scene) -> tuple[np.ndarray, int]:
        """The board ``scene`` shows as read, and how many cells were compared in full."""
        compared.clear()
        frame = scene.screen[region.top : region.bottom, region.left : region.right]
        return reader.read(np.ascontiguousarray(frame), 0).board.tiles, sum(compared)

    shown, in_full = read(before)
    assert np.array_equal(shown, tiles) and in_full == fresh  # no guess yet: tried as hidden
    opened = tiles.copy()
    opened[2:4, 3:6] = [[Tile.ONE, Tile.ZERO, Tile.TWO], [Tile.EIGHT, Tile.ZERO, Tile.FLAG]]
    shown, in_full = read(draw(skin, opened, (40, 60), SCREEN, face=None))
    assert np.array_equal(shown, opened) and in_full == 6
    shown, in_full = read(draw(skin, opened, (40, 60), SCREEN, face=None))
    assert np.array_equal(shown, opened) and in_full == 0  # unchanged: every cell its guess
    shown, in_full = read(before)  # a new game: the 6 opened cells hidden again
    assert np.array_equal(shown, tiles) and in_full == back


@settings(max_examples=20, deadline=None)
@given(st.one_of(scenes(), uneven_scenes()), st.integers(0, 2**32 - 1), st.sampled_from([1, 0.5]))
def test_a_reader_reads_each_frame_whatever_the_last_one_showed(
    drawn: Scene, seed: int, level_weight: float
) -> None:
    """A reader that remembers its last read reads each frame as a new reader does."""
    skin = replace(drawn.skin, level_weight=level_weight)
    reader = BoardReader(skin, drawn.geometry)
    region = reader.region
    other = np.random.default_rng(seed).integers(
        0, len(PICTURED_TILES), size=drawn.tiles.shape, dtype=np.uint8
    )
    other[::2] = drawn.tiles[::2]  # half the rows as before
    at = (drawn.geometry.left, drawn.geometry.top)
    edges = drawn.geometry.edges
    previous = draw(drawn.skin, other, at, SCREEN, face=drawn.face, edges=edges)
    for scene in (previous, drawn, previous, previous):
        frame = np.ascontiguousarray(
            scene.screen[region.top : region.bottom, region.left : region.right]
        )
        reading = reader.read(frame, 0)
        assert np.array_equal(reading.board.tiles, scene.tiles)
        fresh = BoardReader(skin, drawn.geometry).read(frame, 0)
        np.testing.assert_allclose(reading.scores, fresh.scores, atol=1e-3)


@settings(max_examples=15, deadline=None)
@given(uneven_scenes())
def test_locate_and_read_of_a_board_whose_cells_differ_by_a_pixel_are_exact(drawn: Scene) -> None:
    geometry = locate(drawn.skin, drawn.screen)
    assert geometry == drawn.geometry
    reader = BoardReader(drawn.skin, geometry)
    region = reader.region
    frame = drawn.screen[region.top : region.bottom, region.left : region.right]
    reading = reader.read(np.ascontiguousarray(frame), 0)
    assert np.array_equal(reading.board.tiles, drawn.tiles)
    assert reading.face == drawn.face
    # A single cell's capture (the click check) reads as the board read it.
    for cell in ((0, 0), (len(drawn.tiles) - 1, len(drawn.tiles[0]) - 1)):
        rect = geometry.tile_rect(cell)
        image = drawn.screen[rect.top : rect.bottom, rect.left : rect.right]
        assert reader.read_tile(image) == Tile(int(drawn.tiles[cell]))


def test_a_number_drawn_between_its_narrow_and_wide_pictures_is_located_and_read() -> None:
    """Where a cell's size class is not known (locate's walk, read_tile) a tile's pictures for
    several classes are one choice: a wide cell's 1 about as far from the narrow 1 as from the
    wide 1 is a 1, not an ambiguous cell."""
    skin = make_skin(16, seed=5)
    skin = replace(skin, slack=(MAX_SLACK, MAX_SLACK), variants=per_size_numbers(skin))
    narrow, wide = skin.templates[Tile.ONE], skin.variants[1][Tile.ONE]
    between = ((narrow.astype(np.uint16) + wide) // 2).astype(np.uint8)
    truth = replace(skin, variants={1: {Tile.ONE: between}})
    bank = TemplateBank([0, 1], [narrow, wide])
    near, far = sorted(bank.distances(between[None])[0])
    assert near > AMBIGUITY_RATIO * far and far <= skin.threshold  # ambiguous as two tiles
    tiles = np.full((9, 9), Tile.ONE, dtype=np.uint8)
    edges = (tuple(16 * i + min(i, 3) for i in range(10)), tuple(range(0, 160, 16)))
    scene = draw(truth, tiles, (50, 60), edges=edges)
    geometry = locate(skin, scene.screen)
    assert (geometry.rows, geometry.columns, geometry.edges) == (9, 9, scene.geometry.edges)
    reader = BoardReader(skin, geometry)
    region = reader.region
    frame = scene.screen[region.top : region.bottom, region.left : region.right]
    assert reader.read_tile(between) == Tile.ONE
    assert np.array_equal(reader.read(frame, 10).board.tiles, tiles)


@pytest.mark.parametrize("uneven", [False, True])
@pytest.mark.parametrize("kept_for", [(0, 1, 2, 3), (0,), (2,)])
def test_a_lost_board_drawn_darker_reads_with_the_pictures_of_a_finished_game(
    tmp_path: Path, uneven: bool, kept_for: tuple[int, ...]
) -> None:
    """gnome-mines' classic theme draws the whole field darker when a game is lost, its
    numbers and its closed cells with no mine: a skin that keeps those pictures
    (:attr:`vision.skin.Skin.finished`, per size class; ``kept_for`` those classes) reads the
    lost board, a class with none reading the other classes' pictures; without them the
    darkened cells are unreadable."""
    skin, darker, tiles, lost, fresh = darkened_loss(uneven)
    geometry = locate(skin, fresh.screen)
    region = geometry.rect.union(geometry.face) if geometry.face else geometry.rect
    frame = np.ascontiguousarray(
        lost.screen[region.top : region.bottom, region.left : region.right]
    )
    with pytest.raises(UnreadableCellError):
        BoardReader(skin, geometry, crops_dir=tmp_path).read(frame, 20)
    finished = replace(skin, finished={size_class: darker for size_class in kept_for})
    reading = BoardReader(finished, geometry, crops_dir=tmp_path).read(frame, 20)
    assert np.array_equal(reading.board.tiles, tiles)
