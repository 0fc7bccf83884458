"""Where learned skins live: one folder per skin in the user's data folder, and zip archives to
move a skin between machines (``autosweeper skins export/import``)."""

from __future__ import annotations

import os
import re
import tempfile
import zipfile
from pathlib import Path

import platformdirs

from vision.skin import Skin, SkinError

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def skins_dir() -> Path:
    """The default skins folder (``AUTOSWEEPER_SKINS`` overrides it, for tests and sandboxes)."""
    override = os.environ.get("AUTOSWEEPER_SKINS")
    return Path(override) if override else platformdirs.user_data_path("autosweeper") / "skins"


def check_name(name: str) -> str:
    """``name`` if it can name a skin folder; else :class:`SkinError` says why."""
    if not NAME_PATTERN.fullmatch(name):
        raise SkinError(f"{name!r} is not a skin name: use letters, digits, '.', '_' and '-'")
    return name


def list_skins(folder: Path | None = None) -> list[str]:
    """Names of the skins saved in ``folder`` (default: :func:`skins_dir`)."""
    folder = folder or skins_dir()
    if not folder.is_dir():
        return []
    return sorted(path.parent.name for path in folder.glob("*/skin.json"))


def save_skin(skin: Skin, folder: Path | None = None) -> Path:
    """Save ``skin`` under its name, replacing a skin of that name; return its folder."""
    target = (folder or skins_dir()) / check_name(skin.name)
    if target.exists():
        for old in sorted(target.rglob("*"), reverse=True):
            if old.is_file():
                old.unlink()
    return skin.save(target)


def load_skin(name: str, folder: Path | None = None) -> Skin:
    """The saved skin called ``name``; :class:`SkinError` names the folder if there is none."""
    path = (folder or skins_dir()) / check_name(name)
    if not path.is_dir():
        known = ", ".join(list_skins(folder)) or "none"
        raise SkinError(f"no skin {name!r} in {path.parent} (saved skins: {known})")
    return Skin.load(path)


def export_skin(name: str, archive: Path, folder: Path | None = None) -> Path:
    """Write skin ``name`` as a zip archive (the skin folder's files) to ``archive``."""
    source = (folder or skins_dir()) / check_name(name)
    load_skin(name, folder)  # refuse to export something that would not load
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted(source.rglob("*")):
            if path.is_file():
                zipped.write(path, path.relative_to(source).as_posix())
    return archive


def import_skin(archive: Path, folder: Path | None = None) -> Skin:
    """Check the skin in zip ``archive`` loads, then save it under its own name; return it."""
    if not zipfile.is_zipfile(archive):
        raise SkinError(f"{archive}: not a zip archive of a skin")
    with tempfile.TemporaryDirectory() as unpacked, zipfile.ZipFile(archive) as zipped:
        root = Path(unpacked).resolve()
        for member in zipped.namelist():
            if not (root / member).resolve().is_relative_to(root):
                raise SkinError(f"{archive}: member {member!r} would land outside the skin folder")
        zipped.extractall(root)
        skin = Skin.load(root)
    save_skin(skin, folder)
    return skin
