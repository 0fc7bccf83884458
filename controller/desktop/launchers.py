"""The games autosweeper can start, as data (:data:`LAUNCHERS`): how each is installed, started
at a board size and found on the screen: Wine's winemine, xdemineur, Simon Tatham's sgt-mines,
gnome-mines, kmines, the Ace of Penguins' ace-minesweeper and xbomb."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from controller.desktop.sizes import Size, opens_only, same_mines
from controller.desktop.wine import WINEMINE_LEVELS, winemine_prepared, winemine_refusal
from solver import LEVELS

XDEMINEUR_MIN_COLUMNS = 12
"""xdemineur refuses narrower boards (its counters and face need the room)."""


@contextlib.contextmanager
def _inherited_environment(size: Size) -> Iterator[dict[str, str] | None]:
    """No preparation: the game runs in this process's environment."""
    yield None


def _any_size(size: Size) -> str | None:
    return None


@dataclass(frozen=True)
class Launcher:
    """How one program is installed, started at a board size and found on the screen."""

    binary: str
    package: str
    """The Debian package that installs ``binary``."""
    window_class: str
    """Part of its main window's WM_CLASS (class or instance name), or of its title."""
    arguments: Callable[[Size], list[str]]
    """The command-line arguments that open a board of this size."""
    refusal: Callable[[Size], str | None] = _any_size
    """Why the game cannot open a size, as a one-line message, or None when it can."""
    config_files: Callable[[Size], dict[str, str]] | None = None
    """The settings files (path under XDG_CONFIG_HOME: text) for a size, written into private
    XDG folders made for each launch; None: the game runs without private folders."""
    environment: Mapping[str, str] = field(default_factory=dict)
    """Variables added to a game with private folders."""
    session_bus: bool = False
    """Run it under ``dbus-run-session``, on a private session bus that ends with it."""
    prepare: Callable[[Size], contextlib.AbstractContextManager[dict[str, str] | None]] = (
        _inherited_environment
    )
    """For a game without private folders: what must hold while its window opens, giving the
    environment to start it in (None: this process's)."""
    fitted: Callable[[Size], Size] = lambda size: size
    """The size nearest to a level's that the game opens (xdemineur's least width)."""
    by_title: bool = False
    """``window_class`` is part of the title: the game sets no WM_CLASS."""
    level_key: Callable[[Size], str | None] = lambda size: None
    """A key pressed over the open window to switch it to a size (xdotool's name), if any."""
    new_game_key: str | None = None
    """Its new-game key where calibration would not find it (none of
    :data:`vision.new_game.NEW_GAME_KEYS`): what its user tells ``calibrate --new-game``."""


def _xdemineur_refusal(size: Size) -> str | None:
    columns = size[1]
    if columns < XDEMINEUR_MIN_COLUMNS:
        return f"xdemineur needs at least {XDEMINEUR_MIN_COLUMNS} columns, not {columns}"
    return None


SGT_FREE_CELLS = 9
"""sgt-mines keeps the first click's cell and its 8 neighbours free of mines."""


def _sgt_refusal(size: Size) -> str | None:
    rows, columns, mines = size
    if rows < 3 or columns < 3:
        return f"sgt-mines needs at least 3 rows and 3 columns, not {rows}x{columns}"
    if mines > rows * columns - SGT_FREE_CELLS:
        return (
            f"sgt-mines cannot place {mines} mines on {rows}x{columns}: it keeps "
            f"{SGT_FREE_CELLS} cells free, so at most {rows * columns - SGT_FREE_CELLS}"
        )
    return None


GNOME_MINES_SIZES: dict[Size, str] = {
    (8, 8, 10): "--small",
    LEVELS["intermediate"]: "--medium",
    LEVELS["expert"]: "--big",
}
"""The only sizes gnome-mines opens from its command line (a custom size needs its picker)."""
GNOME_MINES_WINDOW = (1000, 600)
"""gnome-mines' window size (its own default, 600x400, cuts a 30x16 board off)."""


def _gnome_mines_settings(size: Size) -> dict[str, str]:
    """GSettings' keyfile backend: the window size, and the defaults the tests rely on written
    out (question marks on, as the user's game has them; no animations)."""
    width, height = GNOME_MINES_WINDOW
    return {
        "glib-2.0/settings/keyfile": (
            "[org/gnome/Mines]\n"
            f"window-width={width}\nwindow-height={height}\n"
            "use-question-marks=true\nuse-animations=false\n"
        )
    }


KMINES_LEVELS: dict[Size, str] = {
    LEVELS["beginner"]: "Easy",
    LEVELS["intermediate"]: "Medium",
    LEVELS["expert"]: "Hard",
}
KMINES_SIDE = (5, 50)
KMINES_FREE_CELLS = 10
"""kmines' custom sizes (``kmines.kcfg``): 5 to 50 cells a side, at least 10 cells free."""


def _kmines_refusal(size: Size) -> str | None:
    rows, columns, mines = size
    low, high = KMINES_SIDE
    sides_ok = low <= rows <= high and low <= columns <= high
    if size in KMINES_LEVELS or (sides_ok and mines <= rows * columns - KMINES_FREE_CELLS):
        return None
    return (
        f"kmines cannot play {rows}x{columns} with {mines} mines (custom: {low} to {high} "
        f"cells a side, at most rows*columns-{KMINES_FREE_CELLS} mines)"
    )


def _kmines_settings(size: Size) -> dict[str, str]:
    """``kminesrc``: the level, a custom size's keys, and question marks on (its default)."""
    rows, columns, mines = size
    level = KMINES_LEVELS.get(size, "Custom")
    text = f"[KgDifficulty]\nLevel={level}\n\n[General]\nquestion mark=true\n"
    if level == "Custom":
        text += f"\n[Options]\ncustom width={columns}\ncustom height={rows}\ncustom mines={mines}\n"
    return {"kminesrc": text}


ACE_LEVELS: dict[Size, str] = {
    (8, 8, 6): "1",
    (11, 11, 20): "2",
    (16, 16, 45): "3",
    (32, 32, 200): "4",
}
"""ace-minesweeper's four boards and the key that switches to each; it opens at the last
(``games/minesweeper.c`` of the Ace of Penguins: no options, no settings file)."""


def _ace_fitted(size: Size) -> Size:
    """The ace-minesweeper board whose mine density is nearest ``size``'s (Expert's: 32x32)."""
    return min(ACE_LEVELS, key=lambda board: abs(_density(board) - _density(size)))


def _density(size: Size) -> float:
    rows, columns, mines = size
    return mines / (rows * columns)


XBOMB_LEVELS: dict[Size, str] = {(8, 8, 10): "-1", (16, 16, 40): "-2", LEVELS["expert"]: "-3"}
"""xbomb's three boards and the option that opens each (``xbomb.c``: widths, heights, nbombs)."""
XBOMB_CELL = 40
"""Pixels a side of xbomb's cells: it scales them to its window (at its own size for Expert, 20
pixels: see ``xbomb-own-size``)."""


def _xbomb_arguments(size: Size) -> list[str]:
    """The level's option, and a window that scales its cells to :data:`XBOMB_CELL` pixels."""
    rows, columns, _ = size
    width, height = columns * XBOMB_CELL + 50, rows * XBOMB_CELL + 110
    return [XBOMB_LEVELS[size], "-geometry", f"{width}x{height}"]


XBOMB = Launcher(
    binary="xbomb",
    package="xbomb",
    window_class="xbomb",
    arguments=_xbomb_arguments,
    refusal=opens_only("xbomb", XBOMB_LEVELS),
    fitted=same_mines(XBOMB_LEVELS),
    new_game_key="s",
)

GTK_QUIET = {"GSETTINGS_BACKEND": "keyfile", "NO_AT_BRIDGE": "1"}
"""GTK settings from a file in the private config folder (no dconf service), and no
accessibility bus to look for."""

LAUNCHERS: dict[str, Launcher] = {
    "winemine": Launcher(
        binary="wine",
        package="wine",
        window_class="winemine",
        arguments=lambda size: ["winemine"],
        refusal=winemine_refusal,
        prepare=winemine_prepared,
    ),
    # winemine as a fresh install has it: its own levels, best times of 999 s, so that a win
    # opens its name prompt, then its best-times table (as Microsoft's Minesweeper does).
    "winemine-fresh-install": Launcher(
        binary="wine",
        package="wine",
        window_class="winemine",
        arguments=lambda size: ["winemine"],
        refusal=opens_only("winemine at its own levels", WINEMINE_LEVELS),
        prepare=functools.partial(winemine_prepared, fresh_install=True),
    ),
    "xdemineur": Launcher(
        binary="xdemineur",
        package="xdemineur",
        window_class="xdemineur",
        # always 21 px cells (no option or X resource for another size): sizes vary, not scales
        arguments=lambda size: ["-geometry", f"{size[1]}x{size[0]}", "-m", str(size[2])],
        refusal=_xdemineur_refusal,
        fitted=lambda size: (size[0], max(size[1], XDEMINEUR_MIN_COLUMNS), size[2]),
    ),
    "sgt-mines": Launcher(
        binary="sgt-mines",
        package="sgt-puzzles",
        window_class="sgt-mines",
        arguments=lambda size: [f"{size[1]}x{size[0]}n{size[2]}"],
        refusal=_sgt_refusal,
        config_files=lambda size: {},
        environment=GTK_QUIET,
    ),
    "gnome-mines": Launcher(
        binary="gnome-mines",
        package="gnome-mines",
        window_class="gnome-mines",
        arguments=lambda size: [GNOME_MINES_SIZES[size]],
        refusal=opens_only("gnome-mines", GNOME_MINES_SIZES),
        config_files=_gnome_mines_settings,
        fitted=same_mines(GNOME_MINES_SIZES),
        environment=GTK_QUIET,
        session_bus=True,
    ),
    "kmines": Launcher(
        binary="kmines",
        package="kmines",
        window_class="kmines",
        arguments=lambda size: [],
        refusal=_kmines_refusal,
        config_files=_kmines_settings,
        session_bus=True,  # KDE programs exit without a session bus
    ),
    "ace-minesweeper": Launcher(
        binary="ace-minesweeper",
        package="ace-of-penguins",
        window_class="ace-minesweeper",
        by_title=True,
        arguments=lambda size: [],
        refusal=opens_only("ace-minesweeper", ACE_LEVELS),
        fitted=_ace_fitted,
        level_key=lambda size: None if size == (32, 32, 200) else ACE_LEVELS[size],
    ),
    "xbomb": XBOMB,
    # xbomb in the window it opens by itself: at Expert 20-px cells, whose digits are drawn
    # taller than the cells, over the top of the cells below.
    "xbomb-own-size": replace(XBOMB, arguments=lambda size: [XBOMB_LEVELS[size]]),
}
"""Every game autosweeper can start, by name."""
GAMES = tuple(LAUNCHERS)
