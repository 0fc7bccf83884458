"""Finding the table to play: a game window open on the desktop, or a game started on a virtual
display (its skin learned first if none is stored), located through a stored skin and wrapped in
a :class:`ScreenTable` clicked through the guarded mouse. Used by ``autosweeper play`` and the
live benchmark."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Protocol

from calibration.dialogs import dialog_seen
from calibration.errors import CalibrationError
from calibration.learn import Calibration
from calibration.store import list_skins, load_skin, name_from, save_skin, skins_dir
from controller.desktop.boards import the_board_window
from controller.desktop.display import VirtualDisplay
from controller.desktop.games import launch_game
from controller.desktop.launchers import LAUNCHERS
from controller.desktop.sizes import Size
from controller.desktop.windows import desktop_windows
from controller.errors import SandboxError, SetupError, WindowError
from controller.learning import calibrate_game, calibrate_windows
from controller.locks import desktop_alone
from controller.mouse import Mouse
from controller.relaid import followed
from controller.screen_table import ScreenTable
from solver import LEVELS
from vision.capture import Screen, ScreenGrabber
from vision.errors import BoardNotFoundError, SkinError, VisionError
from vision.geometry import BoardGeometry, Rect
from vision.locate import locate_on_screen
from vision.skin import Skin

REDRAW_AFTER_MOVE = 0.3
"""Seconds a game is given to redraw a tile the pointer has left."""
KNOWN_FIRST_CLICK = {"winemine": "safe"}
"""First-click rules of the games we know (Wine's winemine moves a mine from under the first
click); other games are played assuming the first click may lose."""


def needs_virtual_display(
    platform: str = sys.platform, environ: Mapping[str, str] = os.environ
) -> bool:
    """True on a Linux (X11) machine with no ``DISPLAY``: there is nothing to see or click."""
    return platform.startswith("linux") and not environ.get("DISPLAY")


def desktop_table(
    stack: ExitStack, skin_name: str | None, level: str | None, mines: int | None
) -> ScreenTable:
    """The game window open on the desktop, found by skin ``skin_name`` (default: each stored
    skin in turn) at ``level``'s size (default: any); its screen is closed when ``stack`` exits.
    ``mines``: the mine count of a board that is not a standard level (default: the count
    the skin was calibrated with, for a board of its size)."""
    stack.enter_context(desktop_alone(os.environ.get("DISPLAY")))
    grabber = stack.enter_context(ScreenGrabber(os.environ.get("DISPLAY")))
    check_x_authority()
    skins = _stored_skins(skin_name)
    if not skins and skin_name:
        raise SetupError(
            f"no stored skin named {skin_name!r} in {skins_dir()}; "
            "learn one with 'autosweeper calibrate' first"
        )
    if not skins:
        skins = [_learn_window_skin(grabber, mines)]
    size = LEVELS.get(level or "")
    mouse = Mouse()
    skin, geometry = _locate_first(grabber, skins, mouse, shape=size[:2] if size else None)
    shape = geometry.rows, geometry.columns
    given = mines or (size[2] if size else skin.mines_for(*shape))
    game = str(skin.extra.get("game", skin.name))
    if given is not None:
        return _screen_table(grabber, skin, geometry, given, game, mouse)
    # Not told the count: the one the game shows, read on each new game, else the level's.
    table = _screen_table(
        grabber, skin, geometry, _standard_mines(*shape, 0), game, mouse, reads_count=True
    )
    if table.read_mine_count() is None and not table.mines:
        _standard_mines(*shape)  # says the count is not known
    return table


def check_x_authority(
    platform: str = sys.platform, environ: Mapping[str, str] = os.environ
) -> None:
    """On X11, refuse to go on without a readable X authority file: python-xlib, through which
    pyautogui clicks and the stop key is read, will not connect without one, even to a display
    that asks for no cookie."""
    if not platform.startswith("linux"):
        return
    display = environ.get("DISPLAY")
    if "XAUTHORITY" in environ:
        path, where = Path(environ["XAUTHORITY"]), "XAUTHORITY names"
    elif environ.get("HOME"):
        path, where = Path(environ["HOME"]) / ".Xauthority", "the default is"
    else:
        raise SetupError(
            f"display {display}: HOME and XAUTHORITY are unset, so python-xlib (which clicks) "
            "finds no X authority file: set XAUTHORITY to the display's authority file"
        )
    if not os.access(path, os.R_OK) or not path.is_file():
        raise SetupError(
            f"display {display}: no readable X authority file ({where} {path}), which python-xlib "
            f"(which clicks) needs: set XAUTHORITY to the display's authority file, or create an "
            f"empty {path} if the display asks for no cookie"
        )


def sandbox_table(
    stack: ExitStack, game: str, level: str, skin_name: str | None, click_pause: float | None = None
) -> ScreenTable:
    """Start Xvfb and ``game`` at ``level`` (closed when ``stack`` exits), learn the game's skin
    unless one is stored (or ``skin_name`` is given), and locate its board. ``click_pause``:
    seconds the mouse waits after each click at first (default: none; see
    :data:`controller.mouse.CLICK_PAUSES`)."""
    rows, columns, mines = LAUNCHERS[game].fitted(LEVELS[level])
    try:
        stack.enter_context(VirtualDisplay())
        print(f"playing {game} on virtual display {os.environ['DISPLAY']}")
        if skin_name or game in list_skins():
            skins = _stored_skins(skin_name or game)
        else:
            skins = [_learn_skin(game, (rows, columns, mines))]
        stack.enter_context(launch_game(game, (rows, columns, mines)))
    except SandboxError as error:
        raise SetupError(f"cannot start {game} on a virtual display: {error}") from error
    grabber = stack.enter_context(ScreenGrabber(os.environ.get("DISPLAY")))
    mouse = Mouse() if click_pause is None else Mouse(pause=click_pause)
    skin, geometry = _locate_first(grabber, skins, mouse, shape=(rows, columns))
    return _screen_table(grabber, skin, geometry, mines, game, mouse)


def _screen_table(
    grabber: Screen,
    skin: Skin,
    geometry: BoardGeometry,
    mines: int,
    game: str,
    mouse: Mouse,
    reads_count: bool = False,
) -> ScreenTable:
    screen, pointer = followed(grabber, mouse, skin, geometry)
    return ScreenTable(
        screen,
        skin,
        geometry,
        pointer,
        mines,
        game=game,
        first_click=_first_click(game, skin),
        save_skin=save_skin,  # a tile first seen in play, once labelled, is kept
        reads_count=reads_count,
    )


class MovablePointer(Protocol):
    """Whether the pointer is over a game window, and a way to move it out (a :class:`Mouse`)."""

    def hovers(self, area: Rect) -> bool: ...

    def leave(self, area: Rect) -> None: ...


def _locate_first(
    grabber: Screen,
    skins: Sequence[Skin],
    pointer: MovablePointer,
    shape: tuple[int, int] | None = None,
) -> tuple[Skin, BoardGeometry]:
    """The first skin whose board is on the screen, with where; else say why each failed.

    Some games light up the tile under the pointer, and a lit tile is no tile of the skin: the
    board is not found, or only the part of it on one side of that tile. So with the pointer
    over the window of a board found, or of a block of tiles that failed to be one only for
    cells matching nothing, the board is looked for once more with the pointer out of it.
    """
    problems: list[str] = []
    for skin in skins:
        try:
            geometry = _located(grabber, skin, shape)
        except BoardNotFoundError as error:
            hovered = [block for block in error.blocks if pointer.hovers(block)]
            if not hovered:
                problems.append(str(error))
                continue
            area = hovered[0]
        else:
            if not pointer.hovers(geometry.rect):
                return skin, geometry
            area = geometry.rect
        pointer.leave(area)
        time.sleep(REDRAW_AFTER_MOVE)
        try:
            return skin, _located(grabber, skin, shape)
        except BoardNotFoundError as again:
            problems.append(f"{again} (with the pointer moved out of the window at {area})")
    dialog = dialog_seen(grabber.grab(), (grabber.screen.left, grabber.screen.top))
    if dialog is not None:
        problems.append(dialog)
    raise SetupError("no Minesweeper board on the screen:\n  " + "\n  ".join(problems))


def _located(grabber: Screen, skin: Skin, shape: tuple[int, int] | None) -> BoardGeometry:
    """The board of ``skin`` on the screen, of ``shape`` if given. With none, of the size the
    skin was calibrated on if the screen shows one, else of any size: where no size is asked,
    an edge line of 0s is left out (as a plain border could be), so a board opened to its edge
    would be found, and its game played, a line short."""
    learned = skin.calibrated_shape if shape is None else None
    if learned is not None:
        try:
            return locate_on_screen(grabber, skin, shape=learned)
        except BoardNotFoundError:
            pass  # another size of board: found as it is
    return locate_on_screen(grabber, skin, shape=shape)


def _standard_mines(rows: int, columns: int, unknown: int | None = None) -> int:
    """The mine count of the standard level of this size; else ``unknown`` where given, or an
    error that says the count is not known."""
    for level_rows, level_columns, mines in LEVELS.values():
        if (level_rows, level_columns) == (rows, columns):
            return mines
    if unknown is not None:
        return unknown
    raise SetupError(
        f"the board is {rows}x{columns}, not a standard level, and shows no mine count that "
        "could be read: give its mine count with --mines"
    )


def _first_click(game: str, skin: Skin) -> str | None:
    rule = skin.extra.get("first_click", KNOWN_FIRST_CLICK.get(game))
    return None if rule is None else str(rule)


def _stored_skins(name: str | None) -> list[Skin]:
    """The stored skin called ``name`` (which must load), or every stored skin that loads."""
    if name:
        try:
            return [load_skin(name)]
        except SkinError as error:
            raise SetupError(str(error)) from error
    skins = []
    for stored in list_skins():
        try:
            skins.append(load_skin(stored))
        except SkinError as error:
            print(f"skipped a broken skin: {error}", file=sys.stderr)
    return skins


CALIBRATION_GAMES = 150
"""Games a skin learned for play may take at most (as ``autosweeper calibrate``'s default)."""


def _learn_window_skin(grabber: Screen, mines: int | None) -> Skin:
    """With no skin stored, learn one from the window that shows a fresh board, as
    ``autosweeper calibrate`` with no window named does, and store it."""
    try:
        window = the_board_window(desktop_windows(), grabber)
    except WindowError as error:
        raise SetupError(f"no stored skin in {skins_dir()}, and {error}") from error
    name = name_from(window.title or "skin")
    print(f"no stored skin: learning one from {window.describe()} (this plays some games)")
    try:
        learned = calibrate_windows(name, [window.frame], [mines], CALIBRATION_GAMES, None)
    except (CalibrationError, VisionError) as error:
        raise SetupError(f"could not learn the skin of {window.describe()}: {error}") from error
    return _kept(learned, window.describe())


def _kept(learned: Calibration, what: str) -> Skin:
    """The skin ``learned``, stored, if it can play; else a :class:`SetupError`."""
    if not learned.usable:
        raise SetupError(
            f"could not learn the skin of {what}: {learned.games} games never showed "
            f"{learned.describe_missing()}"
        )
    if not learned.complete:
        print(f"not seen yet: {learned.describe_missing()} (learned during play when they show)")
    skin = learned.skin
    print(f"learned skin {skin.name!r} in {learned.games} games, saved in {save_skin(skin)}")
    return skin


def _learn_skin(game: str, size: Size) -> Skin:
    """Calibrate ``game`` on boards of its own, or one of ``size`` (closed afterwards), and store
    the skin, as ``autosweeper calibrate`` does, once it can play: tiles it never saw are learned
    during play when they show."""
    print(f"no stored skin for {game}: learning it (this plays some throwaway games)")
    try:
        learned = calibrate_game(game, size=size)
    except (CalibrationError, VisionError) as error:
        raise SetupError(f"could not learn the skin of {game}: {error}") from error
    return _kept(learned, game)
