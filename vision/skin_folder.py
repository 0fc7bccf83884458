"""A skin's folder: a skin written into one, and read back with every file and field checked.

A skin is stored as a folder: ``skin.json`` plus one PNG per tile (``tiles/<TILE_NAME>.png``),
where the game has a face button one PNG per face (``faces/<state>.png``), where a new game
is a click on a point beside the board each look of the button there (``button.png``,
``button.2.png``, ...), and where some pixels of each tile are left out of comparisons the
mask of the rest (``mask.png``, white where compared).

Skins travel between machines as archives, so a skin folder is untrusted data: every field of
``skin.json`` is checked for its JSON type before use (and the skin made of them as a whole, by
:meth:`vision.skin.Skin.check`), file names come only from the known tiles and face states, no
file is read past a cap, and no picture is decoded before its header shows it is small.

Apart from :mod:`vision.skin` (what a skin is and what its fields must be) because this is the
part of a skin that touches files: :meth:`vision.skin.Skin.save` and
:meth:`vision.skin.Skin.load` hand their work to it.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from solver import Tile
from solver.board import PICTURED_TILES
from vision.errors import SkinError, shown
from vision.new_game import NewGame
from vision.skin import (
    FACE_STATES,
    MAX_BUTTONS,
    MAX_SIDE,
    SIZE_CLASSES,
    SKIN_FORMAT,
    Image,
    Skin,
    button_file,
    finished_file,
    is_number,
)

MAX_JSON_BYTES = 64 * 1024
MAX_PNG_BYTES = 1024 * 1024
"""Far above what a skin needs (an uncompressed 256x256 PNG is under 200 kB)."""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def write_skin(skin: Skin, folder: Path) -> Path:
    """Write ``skin`` into ``folder`` (created if needed) and return it (:meth:`Skin.save`)."""
    skin.check()
    meta = _skin_json(skin)
    try:
        text = json.dumps(meta, indent=2) + "\n"
    except (TypeError, ValueError) as error:
        raise SkinError(f"skin {skin.name!r}: extra is not JSON data ({error})") from error
    _write_pictures(skin, folder)
    (folder / "skin.json").write_text(text)
    return folder


def _skin_json(skin: Skin) -> dict[str, Any]:
    """The fields of ``skin``'s ``skin.json``, as JSON data but for ``extra`` (not checked)."""
    return {
        "format": SKIN_FORMAT,
        "name": skin.name,
        "pitch": list(skin.pitch),
        "tile_size": list(skin.tile_size),
        "tile_offset": list(skin.tile_offset),
        "slack": list(skin.slack),
        "threshold": skin.threshold,
        "level_weight": skin.level_weight,
        "new_game": skin.new_game.to_json(),
        "tiles": sorted(tile.name for tile in skin.templates),
        "variants": {
            str(size_class): sorted(tile.name for tile in variants)
            for size_class, variants in sorted(skin.variants.items())
        },
        "finished": {
            str(size_class): sorted(tile.name for tile in drawn)
            for size_class, drawn in sorted(skin.finished.items())
        },
        "seen": {
            str(size_class): sorted(tile.name for tile in tiles)
            for size_class, tiles in sorted(skin.seen.items())
        },
        "faces": sorted(skin.faces),
        "buttons": len(skin.buttons),
        "mask": skin.mask is not None,
        "extra": skin.extra,
    }


def _write_pictures(skin: Skin, folder: Path) -> None:
    """Write every picture of ``skin`` into ``folder``, each in its file."""
    (folder / "tiles").mkdir(parents=True, exist_ok=True)
    for tile, image in skin.templates.items():
        _write_png(folder / "tiles" / f"{tile.name}.png", image)
    for size_class, variants in skin.variants.items():
        for tile, image in variants.items():
            _write_png(folder / "tiles" / f"{tile.name}.{size_class}.png", image)
    for size_class, drawn in skin.finished.items():
        (folder / "tiles" / "finished").mkdir(exist_ok=True)
        for tile, image in drawn.items():
            _write_png(folder / finished_file(tile, size_class), image)
    if skin.faces:
        (folder / "faces").mkdir(exist_ok=True)
        for state, image in skin.faces.items():
            _write_png(folder / "faces" / f"{state}.png", image)
    for number, button in enumerate(skin.buttons, start=1):
        _write_png(folder / button_file(number), button)
    if skin.mask is not None:
        _write_png(folder / "mask.png", np.repeat(skin.mask[..., None] * np.uint8(255), 3, 2))


def read_skin(folder: Path, make: type[Skin] = Skin) -> Skin:
    """The skin written into ``folder`` by :func:`write_skin`, made by ``make`` (:meth:`Skin.load`);
    raise :class:`SkinError` naming the file and the field that is wrong. Only files of known
    tiles and face states are read."""
    meta_path = folder / "skin.json"
    if not meta_path.is_file():
        raise SkinError(f"{meta_path}: no such file (is {folder} a skin folder?)")
    meta = _SkinJson(meta_path)
    version = meta.get("format", object)
    if type(version) is not int or version != SKIN_FORMAT:
        raise meta.error(f"format {shown(version)} is not {SKIN_FORMAT}")
    how = _new_game(meta)
    tiles = meta.names("tiles", [tile.name for tile in PICTURED_TILES])
    faces = meta.names("faces", FACE_STATES) if "faces" in meta.data else []
    name, pitch = meta.get("name", str), meta.pair("pitch")
    tile_size, tile_offset = meta.pair("tile_size"), meta.pair("tile_offset")
    slack = meta.pair("slack") if "slack" in meta.data else (0, 0)  # older skins: even
    threshold = meta.number("threshold")
    level_weight = meta.number("level_weight") if "level_weight" in meta.data else 1.0
    extra = meta.get("extra", dict) if "extra" in meta.data else {}
    templates, variants, finished, seen = _tile_fields(folder, meta, tiles)
    pictures = {state: _read_png(folder / "faces" / f"{state}.png") for state in faces}
    buttons = tuple(
        _read_png(folder / button_file(number)) for number in range(1, meta.buttons() + 1)
    )
    has_mask = meta.get("mask", bool) if "mask" in meta.data else False
    mask = _read_mask(folder / "mask.png") if has_mask else None
    try:
        return make(
            name,
            pitch,
            tile_size,
            templates,
            threshold,
            how,
            tile_offset,
            pictures,
            extra,
            slack,
            level_weight,
            variants,
            seen,
            buttons,
            mask,
            finished,
        )
    except SkinError as error:
        raise meta.error(str(error)) from error


def _new_game(meta: _SkinJson) -> NewGame:
    """The new-game action of ``skin.json``."""
    new_game = meta.get("new_game", dict)
    if set(new_game) - {"kind", "key", "at"}:
        raise meta.error(f"new_game has fields other than kind, key and at: {shown(new_game)}")
    at = new_game.get("at")
    try:
        return NewGame(
            new_game.get("kind"),
            new_game.get("key"),
            tuple(at) if isinstance(at, list) else at,
        )
    except SkinError as error:
        raise meta.error(str(error)) from error


def _tile_fields(
    folder: Path, meta: _SkinJson, tiles: list[str]
) -> tuple[
    dict[Tile, Image],
    dict[int, dict[Tile, Image]],
    dict[int, dict[Tile, Image]],
    dict[int, set[Tile]],
]:
    """The tile fields of the skin in ``folder`` whose ``skin.json`` lists ``tiles``: its
    templates, its size-class variants, the pictures of a finished game, and the tiles each
    size class was seen showing (see :class:`vision.skin.Skin`)."""
    templates = {Tile[tile]: _read_png(folder / "tiles" / f"{tile}.png") for tile in tiles}
    variants = {  # older skins: one size class
        size_class: {
            tile: _read_png(folder / "tiles" / f"{tile.name}.{size_class}.png") for tile in drawn
        }
        for size_class, drawn in meta.tiles_by_class("variants", 1, tiles).items()
    }
    finished = {  # older skins: none
        size_class: {tile: _read_png(folder / finished_file(tile, size_class)) for tile in drawn}
        for size_class, drawn in meta.tiles_by_class("finished", 0, tiles).items()
    }
    seen = {  # older skins: every template seen in every class
        size_class: set(drawn)
        for size_class, drawn in meta.tiles_by_class("seen", 0, tiles).items()
    }
    return templates, variants, finished, seen


class _SkinJson:
    """The fields of one ``skin.json``, each read with its JSON type checked; errors name the
    file and the field."""

    def __init__(self, path: Path) -> None:
        self.path = path
        text = _read_capped(path, MAX_JSON_BYTES)
        try:
            data = json.loads(text.decode("utf-8"))
        except (ValueError, RecursionError) as error:
            raise self.error(f"not valid JSON ({error})") from error
        if not isinstance(data, dict):
            raise self.error(f"not a JSON object but {shown(data)}")
        self.data: dict[str, Any] = data

    def error(self, problem: str) -> SkinError:
        return SkinError(f"{self.path}: {problem}")

    def get(self, name: str, kind: type) -> Any:
        """Field ``name``, which must be there and of type ``kind`` (``object``: any)."""
        if name not in self.data:
            raise self.error(f"{name} is missing")
        value = self.data[name]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind not in (bool, object)):
            raise self.error(
                f"{name} {shown(value)} is not a {_JSON_NAMES.get(kind, kind.__name__)}"
            )
        return value

    def pair(self, name: str) -> tuple[int, int]:
        """Field ``name``: [x, y], two whole numbers (their range is :meth:`Skin.check`'s)."""
        value = self.get(name, list)
        if len(value) != 2 or not all(type(number) is int for number in value):
            raise self.error(f"{name} {shown(value)} is not [x, y], two whole numbers")
        return value[0], value[1]

    def buttons(self) -> int:
        """How many looks of a new-game button the skin keeps: ``buttons``, or (a skin saved
        before a button had several) one where ``button`` is true."""
        if "buttons" not in self.data:
            return int(self.get("button", bool)) if "button" in self.data else 0
        count = self.get("buttons", int)
        if not 0 <= count <= MAX_BUTTONS:
            raise self.error(f"buttons {shown(count)} is not from 0 to {MAX_BUTTONS}")
        return int(count)

    def number(self, name: str) -> float:
        value = self.get(name, object)
        if not is_number(value):
            raise self.error(f"{name} {shown(value)} is not a finite number")
        return float(value)

    def tiles_by_class(self, name: str, low: int, tiles: list[str]) -> dict[int, list[Tile]]:
        """Field ``name``, where present: per size class from ``low`` to 3 (a key "0" to "3"),
        a list of distinct names from ``tiles``."""
        found = {}
        for key, names in (self.get(name, dict) if name in self.data else {}).items():
            if not (
                key in [str(size_class) for size_class in range(low, SIZE_CLASSES)]
                and isinstance(names, list)
                and all(tile in tiles for tile in names)
                and len(set(names)) == len(names)
            ):
                raise self.error(
                    f"{name}.{key}: {shown(names)} is not a size class from {low} to 3 holding "
                    "distinct tiles of the skin"
                )
            found[int(key)] = [Tile[tile] for tile in names]
        return found

    def names(self, name: str, known: list[str] | tuple[str, ...]) -> list[str]:
        """Field ``name``: a list of distinct names from ``known`` (they become file names)."""
        value: list[str] = self.get(name, list)  # each item is checked to be in ``known``
        for item in value:
            if item not in known:
                raise self.error(f"{name}: {shown(item)} is not one of {', '.join(known)}")
        if len(set(value)) != len(value):
            raise self.error(f"{name} lists a name twice: {shown(value)}")
        return value


_JSON_NAMES = {dict: "JSON object", list: "JSON list", str: "string", object: "value"}


def _read_capped(path: Path, cap: int) -> bytes:
    """The bytes of regular file ``path``; refused past ``cap`` bytes (never read further)."""
    if not path.is_file():
        raise SkinError(f"{path}: missing or not a regular file")
    try:
        with path.open("rb") as file:
            data = file.read(cap + 1)
    except OSError as error:
        raise SkinError(f"{path}: cannot be read ({error.strerror})") from error
    if len(data) > cap:
        raise SkinError(f"{path}: larger than {cap} bytes, too large for a skin")
    return data


def _read_png(path: Path) -> Image:
    """The picture in PNG file ``path``, decoded only after its header shows a size a skin's
    pictures can have (a small file may hold a huge picture)."""
    data = _read_capped(path, MAX_PNG_BYTES)
    # The PNG signature, then the IHDR chunk (4-byte length, type) whose data begins with the
    # width and height as big-endian 4-byte integers.
    if len(data) < 24 or data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise SkinError(f"{path}: not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise SkinError(f"{path}: a {width}x{height} picture, over {MAX_SIDE} pixels a side")
    try:
        image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as error:
        raise SkinError(f"{path}: a damaged PNG file") from error
    if image is None:
        raise SkinError(f"{path}: a damaged PNG file")
    return np.asarray(image, dtype=np.uint8)


def _read_mask(path: Path) -> npt.NDArray[np.bool_]:
    """The mask in PNG file ``path``: white where compared, black where not, nothing else."""
    image = _read_png(path)
    white = np.asarray((image == 255).all(axis=2), dtype=np.bool_)
    if not (white | (image == 0).all(axis=2)).all():
        raise SkinError(f"{path}: a mask has only black and white pixels")
    return white


def _write_png(path: Path, image: Image) -> None:
    if not cv2.imwrite(str(path), image):
        raise SkinError(f"{path}: could not write the PNG")
