"""A cell over a sharp edge of a game's background is refused, not guessed.

The fixture is a kmines Expert board (Debian's kmines 22.12 in a 1280x1024 Xvfb screen,
2026-11-26) with the skin calibration learned from that window. Cells (4, 24) and (4, 25),
opened 0s, show an edge of kmines' background across their lower part (12 levels; the pixel
ring around each tile shows the same edge), and read 0.019-0.022 from ZERO and 0.033-0.035 from
HIDDEN: too close to choose, so play stops on a misread rather than guess (issue 13, left open).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import UnreadableCellError
from vision.geometry import BoardGeometry
from vision.read import BoardReader
from vision.skin import Skin

DATA = Path(__file__).parent.parent / "data" / "kmines"


def test_cells_over_an_edge_of_the_background_are_refused_as_ambiguous(tmp_path: Path) -> None:
    skin = Skin.load(DATA / "expert16-skin")
    board = cv2.imread(str(DATA / "expert16-edge-board.png"))
    assert board is not None
    geometry = BoardGeometry(0, 0, skin.pitch, skin.tile_size, skin.tile_offset, 16, 30)
    reader = BoardReader(skin, geometry, crops_dir=tmp_path)
    with pytest.raises(
        UnreadableCellError, match="ZERO at distance 0.019 and HIDDEN at 0.033"
    ) as refused:
        reader.read(np.asarray(board), 99)
    assert refused.value.cells == ((4, 24), (4, 25))
