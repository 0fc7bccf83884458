"""The board's grid (calibration/grid.py): the lattice of a fresh board's tiles, settled by the
click that opened a cell, the sides a capture cuts off; and a fresh board told in a window's
capture with no skin (the quick look `autosweeper calibrate` uses to find the game when no
window is named)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import TESTS
from drawn_boards import BACKGROUND, SIDES, WINDOWS, tile_pictures, xbomb_small
from hypothesis import given, settings
from hypothesis import strategies as st
from pictures import read_picture

from calibration.errors import GridNotFoundError
from calibration.grid import Grid, find_lattice, fresh_board_shape
from calibration.hidden_tile import only_changes_around

DATA = TESTS / "data"


@pytest.mark.parametrize(
    ("capture", "shape"),
    [
        ("windows/winemine_fresh.png", (9, 9)),
        ("windows/xbomb_small_fresh.png", (16, 30)),
        ("windows/pygame-minesweeper-monochrome_fresh.png", (16, 30)),
        ("web98/window.png", (9, 9)),
        # kmines draws its tiles over a gradient that shows through: no two equal, but alike
        # (its edge row and column, lighter, are left out: a quick look, not the grid)
        ("kmines/expert16-fresh.png", (16, 30)),
        ("kmines/beginner-fresh.png", (8, 8)),
    ],
)
def test_a_fresh_board_is_told_with_its_size(capture: str, shape: tuple[int, int]) -> None:
    assert fresh_board_shape(read_picture(DATA / capture)) == shape


@pytest.mark.parametrize(
    "capture",
    [
        "windows/winemine_flood_to_left_edge.png",
        "vision_real/xdemineur-playing.png",
        "kmines/expert-lost.png",
        "gnome-mines/medium-lost.png",
        "web98/prompt.png",
        "webcanvas/boom.png",
    ],
)
def test_a_board_in_play_or_ended_or_covered_is_no_fresh_board(capture: str) -> None:
    assert fresh_board_shape(read_picture(DATA / capture)) is None


def test_a_plain_window_and_a_toolbar_of_alike_buttons_are_no_board() -> None:
    assert fresh_board_shape(np.full((200, 300, 3), 200, np.uint8)) is None
    button = read_picture(DATA / "vision_real/winemine/tiles/HIDDEN.png")
    toolbar = np.full((120, 40 + 12 * button.shape[1], 3), 200, np.uint8)
    toolbar[20 : 20 + button.shape[0], 20 : 20 + 12 * button.shape[1]] = np.tile(button, (1, 12, 1))
    assert fresh_board_shape(toolbar) is None  # one row of 12: no board
    board = np.full((60 + 9 * button.shape[0], 40 + 9 * button.shape[1], 3), 200, np.uint8)
    board[40:-20, 20:-20] = np.tile(button, (9, 9, 1))
    assert fresh_board_shape(board) == (9, 9)


def draw(
    cells: np.ndarray,
    pictures: list[np.ndarray],
    origin: tuple[int, int],
    sizes: tuple[list[int], list[int]] | None = None,
) -> np.ndarray:
    """A 400x300 window with the board of picture indices ``cells`` at ``origin`` (x, y).

    ``sizes`` gives each column's width and each row's height (default: the pictures' size); a
    cell wider than its picture repeats the picture's middle line, as GTK widens a flat tile."""
    pitch = pictures[0].shape[0]
    widths, heights = sizes or ([pitch] * cells.shape[1], [pitch] * cells.shape[0])
    frame = np.full((300, 400, 3), BACKGROUND, dtype=np.uint8)
    frame[5:25, 300:340] = (0, 0, 200)  # a counter, not part of the board
    lefts = origin[0] + np.r_[0, np.cumsum(widths)]
    tops = origin[1] + np.r_[0, np.cumsum(heights)]
    middle = (pitch + 1) // 2

    def stretched(size: int) -> np.ndarray:
        return np.r_[0:middle, np.full(size - pitch, middle - 1), middle:pitch].astype(int)

    for (row, column), index in np.ndenumerate(cells):
        picture = pictures[index][stretched(heights[row])][:, stretched(widths[column])]
        frame[tops[row] : tops[row + 1], lefts[column] : lefts[column + 1]] = picture
    return frame


def find_grid(frame: np.ndarray) -> Grid:
    """The grid of a fresh board: its most common detailed picture is the hidden tile."""
    lattice = find_lattice(frame)
    return lattice.grid(lattice.ranked[0])


@pytest.mark.parametrize(
    ("pitch", "origin", "shape"), [(16, (7, 40), (9, 9)), (21, (30, 61), (8, 12))]
)
def test_grid_of_a_fresh_board(pitch: int, origin: tuple[int, int], shape: tuple[int, int]) -> None:
    pictures = tile_pictures(pitch, 1)
    grid = find_grid(draw(np.zeros(shape, dtype=int), pictures, origin))
    assert (grid.origin, grid.pitch, (grid.rows, grid.columns)) == (origin, (pitch, pitch), shape)
    assert np.array_equal(grid.hidden, pictures[0])


@pytest.mark.parametrize("pitch", [18, 26, 36])
def test_grid_of_a_fresh_board_of_stippled_tiles(pitch: int) -> None:
    """xbomb draws its hidden tiles as a 2-pixel stipple between black lines: the stipple
    repeats under every even shift, more often than the tiles do (they lose a row at the
    board's end); the tiles' pitch is still the one found."""
    picture = np.full((pitch, pitch, 3), 127, dtype=np.uint8)
    picture[(np.add.outer(np.arange(pitch), np.arange(pitch)) % 2) == 0] = 255
    picture[:2, :] = picture[:, :2] = 0
    frame = draw(np.zeros((7, 8), dtype=int), [picture], (6, 38))
    bottom, right = 38 + 7 * pitch, 6 + 8 * pitch
    frame[38 : bottom + 2, right : right + 2] = frame[bottom : bottom + 2, 6 : right + 2] = 0
    grid = find_grid(frame)
    assert (grid.pitch, (grid.rows, grid.columns)) == ((pitch, pitch), (7, 8))
    assert grid.origin in ((6, 38), (7, 39))  # the 2-pixel lines between tiles cut either way


@pytest.mark.parametrize("pitch", [20, 30])
def test_grid_of_flat_tiles_between_wide_lines(pitch: int) -> None:
    """Flat tiles between 4-pixel lines (minesweeper-mvc's 60-pixel cells): one side of each
    edge repeats under every shift that lands in a line, both sides only under the pitch
    (57 was found for 60)."""
    picture = np.full((pitch, pitch, 3), (157, 123, 69), dtype=np.uint8)
    picture[:2] = picture[-2:] = picture[:, :2] = picture[:, -2:] = (87, 53, 29)
    grid = find_grid(draw(np.zeros((7, 9), dtype=int), [picture], (10, 50)))
    assert (grid.pitch, (grid.rows, grid.columns)) == ((pitch, pitch), (7, 9))


def test_grid_of_checkerboard_tiles_inside_a_framed_window() -> None:
    """pygame-minesweeper's monochrome look (its Expert window, captured): tiles of a
    checkerboard stipple whose edges share the stipple's colours, in a window whose frame draws
    lines across its whole width 50 px apart. The tiles' pitch is found, not the frame's
    (it was 16x48, five rows of three cells)."""
    frame = read_picture(WINDOWS / "pygame-minesweeper-monochrome_fresh.png")
    grid = find_grid(frame)
    assert (grid.pitch, (grid.rows, grid.columns), grid.origin) == ((16, 16), (16, 30), (9, 59))


def cell_sizes(pitch: int) -> st.SearchStrategy[list[int]]:
    """Cell sizes along one axis: ``pitch``, and ``pitch + 1`` for a run of cells at the start
    or the end, as a toolkit hands out a board's leftover pixels."""
    return st.tuples(st.integers(5, 11), st.integers(0, 11), st.booleans()).map(
        lambda drawn: (
            [pitch + 1] * min(drawn[1], drawn[0]) + [pitch] * max(drawn[0] - drawn[1], 0)
        )[:: 1 if drawn[2] else -1]
    )


@settings(max_examples=40, deadline=None)
@given(
    origin=st.tuples(st.integers(0, 30), st.integers(30, 40)),
    sizes=st.integers(10, 20).flatmap(
        lambda pitch: st.tuples(cell_sizes(pitch), cell_sizes(pitch))
    ),
)
def test_grid_of_a_fresh_board_whose_cells_differ_by_a_pixel(
    origin: tuple[int, int], sizes: tuple[list[int], list[int]]
) -> None:
    # (Sizes interleaved in a short cycle, as 10, 10, 11, 10, 10, 11, are found with the cycle
    # as the pitch: not handled.)
    widths, heights = sizes
    pitch = min(widths + heights)
    pictures = tile_pictures(pitch, 2)
    # As calibration does: click the middle cell, which opens it, and take the hidden tile as
    # the block under the click.
    fresh = np.zeros((len(heights), len(widths)), dtype=int)
    (row, column), opened = (len(heights) // 2, len(widths) // 2), fresh.copy()
    opened[row, column] = 1
    sized = (widths, heights)
    point = (
        origin[0] + sum(widths[:column]) + pitch // 2,
        origin[1] + sum(heights[:row]) + pitch // 2,
    )
    lattice = find_lattice(
        draw(fresh, pictures, origin, sized), draw(opened, pictures, origin, sized)
    )
    grid = lattice.grid(lattice.hash_at(0, *point))
    assert grid.origin == origin
    assert (grid.rows, grid.columns) == (len(heights), len(widths))
    assert [np.diff(axis.starts).tolist() for axis in grid.spacing] == [widths, heights]
    # The hidden tile as the narrowest cells show it.
    narrowest = (min(widths), min(heights))
    one_cell = draw(np.zeros((1, 1), dtype=int), pictures, (0, 0), ([narrowest[0]], [narrowest[1]]))
    assert np.array_equal(grid.hidden, one_cell[: narrowest[1], : narrowest[0]])
    assert grid.cell_at(*point) == (row, column)


def test_a_click_settles_the_cut_when_the_fresh_board_fits_two() -> None:
    # The hidden tile's right column is the background colour, so a fresh board fits a cut one
    # pixel to the left as well as the right one; the opened cell tells them apart.
    pictures = tile_pictures(16, 2)
    pictures[0][:, -1] = BACKGROUND
    fresh_cells = np.zeros((9, 9), dtype=int)
    opened_cells = fresh_cells.copy()
    opened_cells[4, 4] = 1
    fresh = draw(fresh_cells, pictures, (20, 50))
    after = draw(opened_cells, pictures, (20, 50))
    lattice = find_lattice(fresh, after)
    grid = lattice.grid(lattice.hash_at(0, 20 + 4 * 16 + 8, 50 + 4 * 16 + 8))
    assert grid.origin == (20, 50)
    assert (grid.rows, grid.columns) == (9, 9)


def test_a_first_click_that_opens_cells_to_the_board_edge_settles_the_aligned_cut() -> None:
    """winemine's 9x9 window before and after a first click that opened cells up to the
    board's left edge. A cut half a cell off, one column short, left that column out and so saw
    fewer blocks change than the aligned cut: calibration read every later board half a cell
    off (a CI run, 2026-11-27: "MINE has two appearances")."""
    fresh, after = (
        read_picture(WINDOWS / f"winemine_{name}.png") for name in ("fresh", "flood_to_left_edge")
    )
    lattice = find_lattice(fresh, after)
    grid = lattice.grid(lattice.hash_at(0, 77, 108))
    assert (grid.rows, grid.columns) == (9, 9)
    assert grid.origin == (5, 52)


def test_a_first_click_that_redraws_only_the_opened_cells_frames_settles_the_aligned_cut() -> None:
    """minesweeper-for-web's 9x9 window (Chromium) before and after a first click that opened
    23 cells. An opened cell differs from a hidden one only in its bevelled frame, so a cut
    8 px right and 7 px down saw the frames' edge pieces as strips under a button frame's
    allowance and fewer blocks changed than the aligned cut: calibration found an 8x1 board
    and stopped ("the first click ... changed every hidden cell", 1 of 4 tries, 2026-12-07)."""
    fresh, after = (
        read_picture(WINDOWS / f"minesweeper-for-web_{name}.png")
        for name in ("fresh", "first_click")
    )
    point = (359, 404)
    lattice = find_lattice(fresh, only_changes_around(fresh, after, point))
    grid = lattice.grid(lattice.hash_at(0, *point))
    assert (grid.rows, grid.columns, grid.pitch) == (9, 9, (40, 40))
    assert grid.origin == (19, 144)


def bevelled_pictures(pitch: int, depth: int) -> list[np.ndarray]:
    """A hidden tile raised by a bevel ``depth`` pixels deep (light top and left, dark bottom
    and right) and an opened one of the same flat grey between dark one-pixel lines: opening a
    cell redraws its frame alone, as minesweeper-for-web's does."""
    hidden = np.full((pitch, pitch, 3), 185, dtype=np.uint8)
    hidden[-depth:], hidden[:, -depth:] = 117, 117
    hidden[:depth, : pitch - depth], hidden[: pitch - depth, :depth] = 253, 253
    opened = np.full((pitch, pitch, 3), 185, dtype=np.uint8)
    opened[[0, -1]], opened[:, [0, -1]] = 117, 117
    return [hidden, opened]


@settings(max_examples=30, deadline=None)
@given(
    pitch=st.integers(14, 40),
    corner=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    area=st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(2, 6), st.integers(2, 6)),
)
def test_a_first_click_that_redraws_only_an_area_s_frames_finds_the_board(
    pitch: int, corner: tuple[float, float], area: tuple[int, int, int, int]
) -> None:
    """Whatever the pitch, the board's place and the opened area's, a first click that redrew
    only the opened cells' frames (an eighth of a cell deep) finds the board. Cuts half a cell
    off won before by pieces of the frames under a strip's pixels (as on minesweeper-for-web),
    and so did the cut on the frames' inner edge, whose pieces along the area's far sides look
    like a shadow drawn past a cell, but with no changed cell beside them."""
    side, depth = 6, max(2, pitch // 8)
    room = (400 - side * pitch, 300 - 30 - side * pitch)  # below the window's counter
    origin = (int(corner[0] * room[0]), 30 + int(corner[1] * room[1]))
    top, left, height, width = area
    cells = np.zeros((side, side), dtype=int)
    opened = cells.copy()
    opened[top : top + height, left : left + width] = 1
    pictures = bevelled_pictures(pitch, depth)
    lattice = find_lattice(draw(cells, pictures, origin), draw(opened, pictures, origin))
    click = (origin[0] + left * pitch + pitch // 2, origin[1] + top * pitch + pitch // 2)
    grid = lattice.grid(lattice.hash_at(0, *click))
    assert (grid.origin, grid.pitch, (grid.rows, grid.columns)) == (
        origin,
        (pitch, pitch),
        (side, side),
    )


@settings(max_examples=40, deadline=None)
@given(
    pitch=st.integers(12, 24),
    side=st.sampled_from(SIDES),
    shown=st.floats(0.2, 0.8),
    margin=st.integers(0, 20),
)
def test_a_board_cut_by_the_capture_s_edge_is_said_to_be(
    pitch: int, side: str, shown: float, margin: int
) -> None:
    """A capture that shows only part of the board's outermost cells on one side: that side is
    cut; the whole board, however near the edges (flush with them, too), is not. As calibration
    does, the grid is found from the fresh board and a click that opened one cell."""
    pictures = tile_pictures(pitch, 2)
    pictures[1][0, :] = pictures[1][:, 0] = 200  # the opened cell differs in its every line
    part = max(3, round(pitch * shown))
    origin, (rows, columns) = (30, 40), (8, 10)
    left, top = origin
    right, bottom = left + columns * pitch, top + rows * pitch
    # Per side: the pixels kept (x from, x to, y from, y to) and the cell the click opens.
    views = {
        None: ((left - margin, right + margin, top - margin, bottom + margin), (4, 5)),
        "right": ((left - margin, left + 5 * pitch + part, top - margin, bottom + margin), (4, 2)),
        "left": ((right - 5 * pitch - part, right + margin, top - margin, bottom + margin), (4, 7)),
        "bottom": ((left - margin, right + margin, top - margin, top + 5 * pitch + part), (2, 5)),
        "top": (
            (left - margin, right + margin, bottom - 5 * pitch - part, bottom + margin),
            (5, 5),
        ),
    }
    for expected, ((x0, x1, y0, y1), (row, column)) in ((s, views[s]) for s in (None, side)):
        cells = np.zeros((rows, columns), dtype=int)
        fresh = draw(cells, pictures, origin)[y0:y1, x0:x1]
        cells[row, column] = 1
        opened = draw(cells, pictures, origin)[y0:y1, x0:x1]
        lattice = find_lattice(np.ascontiguousarray(fresh), np.ascontiguousarray(opened))
        point = (left + column * pitch + pitch // 2 - x0, top + row * pitch + pitch // 2 - y0)
        grid = lattice.grid(lattice.hash_at(0, *point))
        assert grid.cut_sides(np.ascontiguousarray(fresh)) == (
            [] if expected is None else [expected]
        )


def test_a_real_board_cut_by_the_capture_is_said_to_be() -> None:
    """xbomb's fresh Expert board captured 584 px wide, as a region drawn too small or a window
    shrunk below its board shows it: 28 columns and 19 pixels of the 29th. Its grid takes that
    part for a narrower cell."""
    fresh = np.ascontiguousarray(xbomb_small("fresh")[:, :584])
    assert find_grid(fresh).cut_sides(fresh) == ["right"]


def test_grid_grows_over_an_opened_edge_row() -> None:
    pictures = tile_pictures(21, 3)
    cells = np.zeros((8, 12), dtype=int)
    cells[:3, :] = 1  # a starting area covering the whole top of the board...
    cells[3, 4:9] = 1  # ...and reaching into the row below it,
    cells[2, 5] = cells[3, 3] = 2  # edged with numbers
    frame = draw(cells, pictures, (30, 61))
    lattice = find_lattice(frame)
    grid = lattice.grid(lattice.hash_at(0, 30 + 10, 61 + 7 * 21 + 10))
    assert (grid.origin, grid.rows, grid.columns) == ((30, 61), 8, 12)


def test_no_grid_in_a_plain_or_patternless_window() -> None:
    with pytest.raises(GridNotFoundError, match="one plain colour"):
        find_grid(np.full((200, 200, 3), 7, dtype=np.uint8))
    noise = np.random.default_rng(1).integers(0, 255, size=(200, 200, 3), dtype=np.uint8)
    with pytest.raises(GridNotFoundError, match="identical detailed tiles"):
        find_grid(noise)


def test_a_board_of_flat_hidden_cells_is_refused_with_a_reason() -> None:
    """minex (a Minesweeper drawn in a terminal) paints its hidden cells one flat green, edge to
    edge: a fresh board is a green rectangle with no line between its cells, and calibration
    stopped with a numpy error. Cells that show nothing of their own cannot be told from the
    window around them, so the game is refused, saying why."""
    fresh = np.zeros((300, 400, 3), dtype=np.uint8)
    fresh[60:240, 100:370] = (0, 255, 0)  # 9 rows of 20 px, 9 columns of 30 px
    after = fresh.copy()
    after[100:140, 160:220] = (220, 245, 245)  # four opened cells ...
    after[105:115, 175:178] = after[125:135, 205:208] = (255, 0, 0)  # ... two showing a 1
    lattice = find_lattice(fresh, after)
    with pytest.raises(GridNotFoundError, match="hidden tile .*plain"):
        lattice.grid(lattice.hash_at(0, 110, 70))


@given(
    origin=st.tuples(st.integers(0, 50), st.integers(0, 50)),
    pitch=st.tuples(st.integers(8, 40), st.integers(8, 40)),
    cell=st.tuples(st.integers(0, 29), st.integers(0, 29)),
)
def test_the_cell_at_a_cells_centre_is_that_cell(
    origin: tuple[int, int], pitch: tuple[int, int], cell: tuple[int, int]
) -> None:
    grid = Grid(origin, pitch, 30, 30, np.zeros((pitch[1], pitch[0], 3), np.uint8))
    assert grid.cell_at(*grid.cell_centre(*cell)) == cell
