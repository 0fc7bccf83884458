"""A skin: how one Minesweeper program draws its board, learned by calibration.

A skin is stored as a folder: ``skin.json`` plus one PNG per tile (``tiles/<TILE_NAME>.png``)
and, where the game has a face button, one PNG per face (``faces/<state>.png``). Calibration
writes skins; vision only reads them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from solver import Tile
from vision.errors import VisionError

Image = npt.NDArray[np.uint8]
"""A BGR image, shape (height, width, 3)."""

FACE_STATES = ("playing", "won", "lost")
SKIN_FORMAT = 1


class SkinError(VisionError, ValueError):
    """A skin folder that is missing, incomplete or malformed. The message names the file."""


@dataclass
class NewGame:
    """How to start a new game: press ``key`` (e.g. ``"f2"``) or click the face (``"face"``)."""

    kind: str
    key: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key}


@dataclass
class Skin:
    """Tile templates and grid geometry of one game's look.

    ``pitch`` is the distance in pixels from one cell to the next (x, y); each template is the
    ``tile_size`` (width, height) crop taken at a cell's top-left corner plus ``tile_offset``.
    """

    name: str
    pitch: tuple[int, int]
    tile_size: tuple[int, int]
    templates: dict[Tile, Image]
    threshold: float
    """The largest template distance accepted (RMS pixel difference / 255, see vision.match)."""
    new_game: NewGame
    tile_offset: tuple[int, int] = (0, 0)
    faces: dict[str, Image] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    """Game-specific facts calibration learned (for example where the face sits from the board)."""

    def missing_tiles(self) -> list[Tile]:
        """Tiles the skin has no template for yet, so that a board showing one cannot be read.

        QUESTION is not missing from a game that calibration found to have no question marks
        (``extra["question_marks"]`` is False).
        """
        no_marks = self.extra.get("question_marks") is False
        return [
            tile
            for tile in Tile
            if tile not in self.templates and not (tile == Tile.QUESTION and no_marks)
        ]

    def save(self, folder: Path) -> Path:
        """Write the skin into ``folder`` (created if needed) and return it."""
        (folder / "tiles").mkdir(parents=True, exist_ok=True)
        for tile, image in self.templates.items():
            _write_png(folder / "tiles" / f"{tile.name}.png", image)
        if self.faces:
            (folder / "faces").mkdir(exist_ok=True)
            for state, image in self.faces.items():
                _write_png(folder / "faces" / f"{state}.png", image)
        meta = {
            "format": SKIN_FORMAT,
            "name": self.name,
            "pitch": list(self.pitch),
            "tile_size": list(self.tile_size),
            "tile_offset": list(self.tile_offset),
            "threshold": self.threshold,
            "new_game": self.new_game.to_json(),
            "tiles": sorted(tile.name for tile in self.templates),
            "faces": sorted(self.faces),
            "extra": self.extra,
        }
        (folder / "skin.json").write_text(json.dumps(meta, indent=2) + "\n")
        return folder

    @classmethod
    def load(cls, folder: Path) -> Skin:
        """Read a folder written by :meth:`save`; raise :class:`SkinError` naming what is wrong."""
        meta_path = folder / "skin.json"
        if not meta_path.is_file():
            raise SkinError(f"{meta_path}: no such file (is {folder} a skin folder?)")
        try:
            meta = json.loads(meta_path.read_text())
            templates = {
                Tile[name]: _read_png(folder / "tiles" / f"{name}.png") for name in meta["tiles"]
            }
            faces = {
                state: _read_png(folder / "faces" / f"{state}.png")
                for state in meta.get("faces", [])
            }
            return cls(
                name=meta["name"],
                pitch=(int(meta["pitch"][0]), int(meta["pitch"][1])),
                tile_size=(int(meta["tile_size"][0]), int(meta["tile_size"][1])),
                tile_offset=(int(meta["tile_offset"][0]), int(meta["tile_offset"][1])),
                templates=templates,
                threshold=float(meta["threshold"]),
                new_game=NewGame(**meta["new_game"]),
                faces=faces,
                extra=dict(meta.get("extra", {})),
            )
        except (KeyError, TypeError, ValueError, json.JSONDecodeError) as error:
            raise SkinError(f"{meta_path}: malformed skin ({error!r})") from error


def _write_png(path: Path, image: Image) -> None:
    if not cv2.imwrite(str(path), image):
        raise SkinError(f"{path}: could not write the PNG")


def _read_png(path: Path) -> Image:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise SkinError(f"{path}: missing or not a PNG")
    return np.asarray(image, dtype=np.uint8)
