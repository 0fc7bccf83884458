"""Whether the board found is the whole board: a board found short of an edge line (a cell
drawn like the frame, a window edge) is found again, larger, once more of it shows."""

from __future__ import annotations

from vision.capture import Screen
from vision.errors import BoardNotFoundError
from vision.geometry import BoardGeometry
from vision.locate import locate_on_screen
from vision.skin import Skin


def whole_board(grabber: Screen, skin: Skin, ours: BoardGeometry) -> BoardGeometry | None:
    """The board on screen that holds ``ours`` and is larger, on the same lattice; None if the
    board found is whole (or nothing larger is found)."""
    try:
        found = locate_on_screen(grabber, skin)
    except BoardNotFoundError:
        return None
    if found != ours and not found.rect.contains_rect(ours.rect):
        # Short of another edge line this time: the board spans both, on one lattice.
        shape = _spanned(ours, found)
        try:
            found = ours if shape is None else locate_on_screen(grabber, skin, shape=shape)
        except BoardNotFoundError:
            return None
    if found == ours or not found.rect.contains_rect(ours.rect):
        return None
    return found


def _spanned(first: BoardGeometry, second: BoardGeometry) -> tuple[int, int] | None:
    """The shape of the board that holds two boards found on one lattice, overlapping by a
    cell at least (the same board found short of different edges); None if they are not."""
    lines = []
    for axis in (1, 0):  # rows (edges along y), then columns
        ours, theirs = (
            {(board.left, board.top)[axis] + edge for edge in board.spacing[axis].starts}
            for board in (first, second)
        )
        shared = ours & theirs
        low, high = max(min(ours), min(theirs)), min(max(ours), max(theirs))
        inside = {edge for edge in ours | theirs if low <= edge <= high}
        if len(shared) < 2 or inside != shared:
            return None
        lines.append(len(ours | theirs) - 1)
    return lines[0], lines[1]
