"""What the screen must still show just before a click on a real game: the cells, the face and
the new-game button as last read (or as a click since could have made them). A check that fails
raises :class:`~controller.errors.NotAsRead` with what differs and where, and nothing is sent:
the window closed, moved or changed between the read and the click.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from controller.errors import NotAsRead
from controller.mouse import Grab
from solver import Board, Cell, Tile
from vision.geometry import Rect
from vision.match import TemplateBank, picture_distance
from vision.opened import opened_beside_a_zero
from vision.read import BoardReader
from vision.skin import Image


def cells_now(
    reader: BoardReader, board: Board, grab: Grab, cells: Iterable[Cell]
) -> dict[Cell, Tile]:
    """What ``cells`` show now; raises :class:`NotAsRead` unless each shows what ``board`` (the
    last read) did or what a click since could have made of it (a closed cell opened or
    flagged). A cell read opened beside a 0 is judged among the opened tiles, as the read
    judged it."""
    now = {}
    for cell in cells:
        opened = opened_beside_a_zero(board.tiles, cell)  # as the read judged it
        tile = reader.read_tile(grab(reader.check_rect(cell)), opened)
        if tile is None or not could_follow(Tile(board[cell]), tile):
            shown = "matches no tile of the skin" if tile is None else f"shows {tile.name}"
            raise NotAsRead(
                f"just before a click, cell {cell} at screen "
                f"{reader.geometry.cell_centre(cell)} {shown}, where the last read showed "
                f"{Tile(board[cell]).name}: the game window closed, moved or changed"
            )
        now[cell] = tile
    return now


def could_follow(read: Tile, now: Tile) -> bool:
    """Whether a cell read as ``read`` may show ``now`` after some clicks of a burst."""
    return now == read or (read.is_closed and (now.is_opened or now == Tile.FLAG))


def face_now(
    face_as_read: TemplateBank[str] | None, threshold: float, grab: Grab, face: Rect
) -> None:
    """Raise :class:`NotAsRead` unless the face shows what the last read did."""
    if face_as_read is None:
        raise NotAsRead("no click on the face before it is read")
    distance = float(face_as_read.distances(grab(face)[None])[0, 0])
    if distance > threshold:
        raise NotAsRead(
            f"just before a click, the face at screen ({face.left}, {face.top}) differs from "
            f"the last read (distance {distance:.3f}): the game window closed, moved or changed"
        )


def button_as_saved(
    buttons: Sequence[Image], threshold: float, grab: Grab, point: tuple[int, int]
) -> None:
    """Raise :class:`NotAsRead` unless the new-game button at screen ``point`` shows one of the
    looks calibration saw there (``buttons``; none kept: a skin saved before they were)."""
    if not buttons:
        return
    x, y = point
    distance = min(
        picture_distance(button, grab(Rect.around(x, y, button.shape[1], button.shape[0])))
        for button in buttons
    )
    if distance > threshold:
        raise NotAsRead(
            f"just before a click, the new-game button at screen ({x}, {y}) differs from "
            f"each look calibration saw there (distance {distance:.3f}): the game window "
            "closed, moved or changed"
        )
