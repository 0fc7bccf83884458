"""Where learned skins live: one folder per skin in the user's data folder, and zip archives to
move a skin between machines (``autosweeper skins export/import``).

An archive is untrusted data. Only the files a skin has are taken from it (``skin.json``,
``tiles/<TILE>.png``, ``faces/<state>.png``, ``button.png``, ``button.<N>.png``, ``mask.png``);
its directory must promise a small skin (few members, small sizes, a plausible compression
ratio) before anything is unpacked, and no member is read past its cap whatever the directory
says. A skin is saved into a new folder beside the old one and swapped in only when complete,
so a failed import or calibration loses nothing.
"""

from __future__ import annotations

import lzma
import os
import re
import shutil
import tempfile
import zipfile
import zlib
from pathlib import Path

import platformdirs

from solver.board import PICTURED_TILES
from vision.errors import SkinError, shown
from vision.skin import (
    FACE_STATES,
    MAX_BUTTONS,
    NAME_PATTERN,
    SIZE_CLASSES,
    Skin,
    button_file,
    finished_file,
)
from vision.skin_folder import MAX_PNG_BYTES

SKIN_FILES = frozenset(
    ["skin.json"]
    + [f"tiles/{tile.name}.png" for tile in PICTURED_TILES]
    + [
        f"tiles/{tile.name}.{size}.png"
        for tile in PICTURED_TILES
        for size in range(1, SIZE_CLASSES)
    ]
    + [finished_file(tile, size) for tile in PICTURED_TILES for size in range(SIZE_CLASSES)]
    + [f"faces/{state}.png" for state in FACE_STATES]
    + [button_file(number) for number in range(1, MAX_BUTTONS + 1)]
    + ["mask.png"]
)
"""The only member names an archive may have, besides the folders of :data:`SKIN_FOLDERS`."""
SKIN_FOLDERS = frozenset(["tiles/", "tiles/finished/", "faces/"])
MAX_MEMBERS = len(SKIN_FILES) + len(SKIN_FOLDERS)
MAX_MEMBER_BYTES = MAX_PNG_BYTES
MAX_ARCHIVE_BYTES = 8 * 1024 * 1024
"""Cap on the archive's file and on the sum of its members' sizes (a skin is tens of kB)."""
MAX_RATIO = 100
"""Cap on a member's size over its compressed size; PNG files barely compress and ``skin.json``
about five times, while a zip bomb expands a thousand times."""
RATIO_FLOOR = 4096
"""Members up to this size are exempt from :data:`MAX_RATIO`: too small to harm."""
ENCRYPTED = 0x1
"""Bit 0 of a zip member's general purpose flags: the member is encrypted."""

UNREADABLE_ZIP = (
    zipfile.BadZipFile,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    NotImplementedError,
    RuntimeError,
    ValueError,
    OSError,
)
"""What reading a damaged or unusual zip file raises (a bad CRC, truncated data, an unknown
compression method, a password, a bad bzip2 stream)."""


def skins_dir() -> Path:
    """The default skins folder (``AUTOSWEEPER_SKINS`` overrides it, for tests and sandboxes)."""
    override = os.environ.get("AUTOSWEEPER_SKINS")
    return (
        Path(override)
        if override
        else platformdirs.user_data_path("autosweeper", appauthor=False) / "skins"
    )


def check_name(name: str) -> str:
    """``name`` if it can name a skin folder; else :class:`SkinError` says why."""
    if not NAME_PATTERN.fullmatch(name):
        raise SkinError(
            f"{shown(name)} is not a skin name: use up to 64 letters, digits, '.', '_' and '-'"
        )
    return name


def name_from(text: str) -> str:
    """A skin name made of ``text`` (a window's title or class): its runs of letters, digits,
    '.' and '_' joined by '-', at most 64 characters; "skin" if it has none."""
    words = re.findall(r"[A-Za-z0-9][A-Za-z0-9_.]*", text)
    return "-".join(words)[:64].rstrip("-") or "skin"


def list_skins(folder: Path | None = None) -> list[str]:
    """Names of the skins saved in ``folder`` (default: :func:`skins_dir`); folders whose name
    is no skin name (a half-written ``.NAME.new-...``) are not skins."""
    folder = folder or skins_dir()
    if not folder.is_dir():
        return []
    return sorted(
        path.parent.name
        for path in folder.glob("*/skin.json")
        if NAME_PATTERN.fullmatch(path.parent.name)
    )


def save_skin(skin: Skin, folder: Path | None = None) -> Path:
    """Save ``skin`` under its name, replacing a skin of that name; return its folder.

    The skin is written into a new folder beside the target and swapped in only once complete:
    a failed write (a full disk) leaves the skin saved before it as it was.
    """
    root = folder or skins_dir()
    target = root / check_name(skin.name)
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{skin.name}.new-", dir=root))
    except OSError as error:
        raise SkinError(f"{root}: cannot save a skin there ({error.strerror or error})") from error
    try:
        skin.save(staging)
        _swap_in(staging, target)
    except OSError as error:
        raise SkinError(
            f"{target}: could not save skin {skin.name!r} ({error.strerror or error}); "
            "any skin saved there before is unchanged"
        ) from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _swap_in(complete: Path, target: Path) -> None:
    """Put folder ``complete`` at ``target``, removing what was there only once it is in."""
    if not target.exists():
        complete.rename(target)
        return
    retired = complete.with_name(complete.name.replace(".new-", ".old-", 1))
    target.rename(retired)
    try:
        complete.rename(target)
    except OSError:
        retired.rename(target)
        raise
    shutil.rmtree(retired, ignore_errors=True)


def load_skin(name: str, folder: Path | None = None) -> Skin:
    """The saved skin called ``name``; :class:`SkinError` names the folder if there is none."""
    path = (folder or skins_dir()) / check_name(name)
    if not path.is_dir():
        known = ", ".join(list_skins(folder)) or "none"
        raise SkinError(f"no skin {name!r} in {path.parent} (saved skins: {known})")
    return Skin.load(path)


def export_skin(name: str, archive: Path, folder: Path | None = None) -> Path:
    """Write skin ``name`` as a zip archive of its own files to ``archive``."""
    source = (folder or skins_dir()) / check_name(name)
    skin = load_skin(name, folder)  # refuse to export something that would not load
    members = (
        ["skin.json"]
        + [f"tiles/{tile.name}.png" for tile in sorted(skin.templates)]
        + [
            f"tiles/{tile.name}.{size}.png"
            for size, variants in sorted(skin.variants.items())
            for tile in sorted(variants)
        ]
        + [
            finished_file(tile, size)
            for size, drawn in sorted(skin.finished.items())
            for tile in sorted(drawn)
        ]
        + [f"faces/{state}.png" for state in sorted(skin.faces)]
        + [button_file(number) for number in range(1, len(skin.buttons) + 1)]
        + (["mask.png"] if skin.mask is not None else [])
    )
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for member in members:
            zipped.write(source / member, member)
    return archive


def import_skin(archive: Path, folder: Path | None = None) -> Skin:
    """Check the skin in zip ``archive`` loads, then save it under its own name; return it."""
    members = _read_archive(archive)
    with tempfile.TemporaryDirectory(prefix="autosweeper-import-") as unpacked:
        root = Path(unpacked)
        try:
            for name, data in members.items():
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_bytes(data)
        except OSError as error:
            raise SkinError(
                f"{archive}: cannot unpack it into {root} ({error.strerror or error})"
            ) from error
        try:
            skin = Skin.load(root)
        except SkinError as error:
            # Name the file in the archive (archive.zip/skin.json), not in the temporary folder.
            raise SkinError(str(error).replace(str(root), str(archive))) from error
    save_skin(skin, folder)
    return skin


def _read_archive(archive: Path) -> dict[str, bytes]:
    """The files of the skin in zip ``archive`` by member name, after checking its directory."""
    try:
        size = archive.stat().st_size
    except OSError as error:
        raise SkinError(f"{archive}: cannot be read ({error.strerror or error})") from error
    if size > MAX_ARCHIVE_BYTES:
        raise SkinError(f"{archive}: {size} bytes, over the {MAX_ARCHIVE_BYTES} a skin may have")
    try:
        with zipfile.ZipFile(archive) as zipped:
            members = zipped.infolist()
            _check_directory(archive, members)
            return {
                member.filename: _read_member(archive, zipped, member)
                for member in members
                if member.filename in SKIN_FILES
            }
    except SkinError:
        raise
    except UNREADABLE_ZIP as error:
        raise SkinError(f"{archive}: not a readable zip archive of a skin ({error})") from error


def _check_directory(archive: Path, members: list[zipfile.ZipInfo]) -> None:
    """Refuse an archive whose directory lists more, other or bigger members than a skin has."""
    if len(members) > MAX_MEMBERS:
        raise SkinError(f"{archive}: {len(members)} members, more than a skin has ({MAX_MEMBERS})")
    seen: set[str] = set()
    for member in members:
        name, where = member.filename, f"{archive}: member {shown(member.filename)}"
        if name not in SKIN_FILES and name not in SKIN_FOLDERS:
            raise SkinError(
                f"{where} is not a file of a skin (skin.json, tiles/<TILE>.png, "
                "tiles/finished/<TILE>.<class>.png, faces/<state>.png, button.png, "
                "button.<N>.png, mask.png)"
            )
        if name in seen:
            raise SkinError(f"{where} is in the archive twice")
        seen.add(name)
        if member.flag_bits & ENCRYPTED:
            raise SkinError(f"{where} is encrypted")
        if member.file_size > MAX_MEMBER_BYTES:
            raise SkinError(f"{where} is {member.file_size} bytes, over {MAX_MEMBER_BYTES}")
        if member.file_size > max(RATIO_FLOOR, MAX_RATIO * member.compress_size):
            raise SkinError(
                f"{where} expands from {member.compress_size} to {member.file_size} bytes, "
                f"more than {MAX_RATIO} times"
            )
    total = sum(member.file_size for member in members)
    if total > MAX_ARCHIVE_BYTES:
        raise SkinError(f"{archive}: its members add up to {total} bytes, over {MAX_ARCHIVE_BYTES}")


def _read_member(archive: Path, zipped: zipfile.ZipFile, member: zipfile.ZipInfo) -> bytes:
    """The member's bytes, read no further than its cap even if the directory understates it."""
    with zipped.open(member) as stream:
        data = stream.read(MAX_MEMBER_BYTES + 1)
    if len(data) > member.file_size:
        raise SkinError(
            f"{archive}: member {shown(member.filename)} holds more than the "
            f"{member.file_size} bytes its directory says"
        )
    return data
