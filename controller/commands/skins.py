"""``autosweeper skins``: list the learned skins, export one to a zip file, import one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from calibration.store import export_skin, import_skin, list_skins, load_skin, skins_dir
from vision.errors import SkinError


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "skins", help="list, export or import learned skins", description=__doc__
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("list", help="the skins saved, with their cell pitch and tiles")
    export = actions.add_parser("export", help="write skin NAME to zip FILE")
    export.add_argument("name", metavar="NAME")
    export.add_argument("file", metavar="FILE", type=Path)
    imported = actions.add_parser("import", help="add the skin in zip FILE (replaces its name)")
    imported.add_argument("file", metavar="FILE", type=Path)
    return parser


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        return _list()
    if args.action == "export":
        print(f"wrote {export_skin(args.name, args.file)}")
    else:
        skin = import_skin(args.file)
        print(f"imported skin {skin.name!r} into {skins_dir() / skin.name}")
    return 0


def _list() -> int:
    """Print a line per saved skin, and one per broken skin saying what is wrong (exit code 1):
    a broken skin does not hide the others."""
    names = list_skins()
    if not names:
        print(f"no skins in {skins_dir()} (learn one with: autosweeper calibrate)")
    broken = 0
    for name in names:
        try:
            skin = load_skin(name)
        except SkinError as error:
            print(f"autosweeper skins: skin {name!r} is broken: {error}", file=sys.stderr)
            broken += 1
            continue
        missing = ", ".join(tile.name for tile in skin.missing_tiles()) or "none"
        print(
            f"{name}: pitch {skin.pitch[0]}x{skin.pitch[1]}, {len(skin.templates)} tiles "
            f"(missing: {missing}), faces: {', '.join(sorted(skin.faces)) or 'none'}, "
            f"new game by {skin.new_game.key or skin.new_game.kind}"
        )
    return 1 if broken else 0
