"""Finding an uneven board (cells of 35 to 37 px) in a real capture: gnome-mines' Medium window
after a loss, kept from a calibration whose last check could not find it (session 32), with the
skin that calibration learned and the board it saw (``tests/data/gnome-mines``)."""

from __future__ import annotations

from pathlib import Path

from captured_screen import CapturedScreen
from pictures import read_picture

from solver import Board
from vision.locate import locate
from vision.read import BoardReader
from vision.skin import Skin

DATA = Path(__file__).parent.parent / "data" / "gnome-mines"


def test_a_board_whose_first_rows_show_only_zeros_on_one_side_is_found_whole() -> None:
    # The cells lattice-spaced at the pitch read for sure include 0s a few pixels off their
    # cells (an opened 0 still matches shifted): the walk must not start from one of those.
    frame = read_picture(DATA / "medium-lost.png")
    skin = Skin.load(DATA / "medium-skin")
    seen = Board.from_text((DATA / "medium-lost.txt").read_text())
    geometry = locate(skin, frame, shape=(16, 16))
    assert (geometry.left, geometry.top) == (25, 19)
    reader = BoardReader(skin, geometry)
    reading = reader.read(CapturedScreen(frame).grab(reader.region), seen.mines)
    assert reading.board.to_text() == seen.to_text()
