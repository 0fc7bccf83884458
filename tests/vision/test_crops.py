"""The crops of unreadable cells: one file a picture, the folder bounded to the newest."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pictures import read_picture

import vision.crops as crops_module
from vision.errors import UnreadableCellError
from vision.read import BoardReader
from vision.synthetic import draw, make_skin

SKIN = make_skin(16, seed=16)
SCREEN = (640, 480)


def read_unreadable_board(seed: int, crops: Path) -> tuple[Path, np.ndarray]:
    """Read a board with one cell of noise (``seed``'s), its crops saved in ``crops``: the
    crop's path, and the noise."""
    drawn = draw(SKIN, np.zeros((3, 4), dtype=np.uint8), (30, 60), SCREEN)
    tile = drawn.geometry.tile_rect((1, 2))
    noise = np.random.default_rng(seed).integers(0, 256, (tile.height, tile.width, 3), np.uint8)
    drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = noise
    reader = BoardReader(drawn.skin, drawn.geometry, crops_dir=crops)
    region = reader.region
    frame = drawn.screen[region.top : region.bottom, region.left : region.right]
    with pytest.raises(UnreadableCellError) as raised:
        reader.read(np.ascontiguousarray(frame), 0)
    return raised.value.crop_path, noise


def test_one_unreadable_picture_read_again_and_again_is_saved_once(tmp_path: Path) -> None:
    """The play loop reads an unreadable board again for seconds: one file, not one a read."""
    paths = {read_unreadable_board(1, tmp_path)[0] for _ in range(5)}
    assert len(paths) == 1 and list(tmp_path.iterdir()) == list(paths)


def test_a_crop_saved_again_leaves_the_crops_folder_unlisted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a new file can take the folder past its bound: listing a full folder to prune it
    cost every read of a board under a message (kmines' for 4 s a game) 4 ms."""
    listed: list[Path] = []
    prune = crops_module._keep_newest

    def listing(folder: Path, count: int) -> None:
        listed.append(folder)
        prune(folder, count)

    monkeypatch.setattr(crops_module, "_keep_newest", listing)
    for seed in (0, 0, 0, 1, 1):
        read_unreadable_board(seed, tmp_path)
    assert listed == [tmp_path, tmp_path] and len(list(tmp_path.iterdir())) == 2


def test_the_saved_crops_are_bounded_the_newest_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(crops_module, "MAX_SAVED_CROPS", 3)
    saved = []
    for seed in range(5):
        path, noise = read_unreadable_board(seed, tmp_path)
        saved.append(path)
        assert np.array_equal(read_picture(path), noise)
    assert sorted(tmp_path.iterdir()) == sorted(saved[-3:])
