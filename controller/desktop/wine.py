"""Wine for Wine's winemine: the prefix autosweeper reuses (made once, made anew when Wine
cannot run in it), and winemine's registry, which sets the size it opens."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import platformdirs
from filelock import FileLock

from controller.desktop.processes import find_binary
from controller.desktop.sizes import Size, opens_only
from controller.errors import SandboxError
from solver import LEVELS

RELAUNCH_PAUSE = 1.0
"""Seconds before a game that exited before opening its window is started once more, and a
Wine command that failed is run again: Wine started just after its last process closed now and
then exits with status 1, nothing said."""


WINEMINE_KEY = r"HKEY_CURRENT_USER\Software\Microsoft\WinMine"
_CUSTOM = 3
"""winemine's Difficulty value for a custom size."""
WINEMINE_ROWS = (8, 24)
WINEMINE_COLUMNS = (8, 30)
WINEMINE_MIN_MINES = 10
"""winemine silently clamps sizes outside these bounds, so they are refused instead."""


def wine_prefix() -> Path:
    """The Wine prefix autosweeper reuses (made once: ``wineboot`` takes about ten seconds)."""
    override = os.environ.get("AUTOSWEEPER_WINEPREFIX")
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir("autosweeper", appauthor=False)) / "wineprefix"


def wine_environment(prefix: Path) -> dict[str, str]:
    """The environment for Wine: our prefix, no debug output, no desktop menu entries, no Mono."""
    return {
        **os.environ,
        "WINEPREFIX": str(prefix),
        "WINEDEBUG": "-all",
        "WINEDLLOVERRIDES": "winemenubuilder.exe=d;mscoree,mshtml=",
    }


def _run_wine(command: list[str], env: dict[str, str], what: str, timeout: float = 120) -> None:
    try:
        result = subprocess.run(
            command,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            start_new_session=True,  # a Ctrl-C in our terminal is ours to handle, not Wine's
        )
    except subprocess.TimeoutExpired as error:
        raise SandboxError(f"{what} took longer than {timeout:.0f} s") from error
    if result.returncode != 0:
        raise SandboxError(
            f"{what} failed (status {result.returncode}): {result.stderr.strip()[-300:]}"
        )


def ensure_wine_prefix() -> Path:
    """The Wine prefix, made if it does not exist yet; a lock keeps parallel callers apart."""
    if find_binary("wine") is None:
        raise SandboxError("wine is not installed (apt-get install wine)")
    prefix = wine_prefix()
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(prefix.parent / "wineprefix.lock"):
        if not (prefix / _READY_MARK).exists():
            _make_wine_prefix(prefix)
    return prefix


def _remake_wine_prefix(prefix: Path, why: str) -> None:
    """Move aside a prefix Wine cannot run in (made for another architecture: before 32-bit
    Wine was installed, say), kept in case it holds anything of the user's, and make it anew."""
    with FileLock(prefix.parent / "wineprefix.lock"):
        aside = prefix.with_name(f"{prefix.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
        prefix.rename(aside)
        print(
            f"autosweeper: Wine could not run in its prefix {prefix} ({why}); moved it to "
            f"{aside} and making it anew",
            file=sys.stderr,
        )
        _make_wine_prefix(prefix)


def _make_wine_prefix(prefix: Path) -> None:
    env = wine_environment(prefix)
    _run_wine(["wineboot", "-i"], env, f"wineboot in {prefix}")
    _run_wine(["wineserver", "-w"], env, f"waiting for wineserver in {prefix}")
    (prefix / _READY_MARK).touch()


_READY_MARK = ".autosweeper-ready"


def winemine_refusal(size: Size) -> str | None:
    """Why winemine cannot play ``size``, or None: it silently clamps sizes out of bounds."""
    rows, columns, mines = size
    limits_ok = (
        WINEMINE_ROWS[0] <= rows <= WINEMINE_ROWS[1]
        and WINEMINE_COLUMNS[0] <= columns <= WINEMINE_COLUMNS[1]
        and WINEMINE_MIN_MINES <= mines <= (rows - 1) * (columns - 1)
    )
    if limits_ok:
        return None
    return (
        f"winemine cannot play {rows}x{columns} with {mines} mines (rows {WINEMINE_ROWS}, "
        f"columns {WINEMINE_COLUMNS}, mines {WINEMINE_MIN_MINES} to (rows-1)*(columns-1))"
    )


WINEMINE_LEVELS: dict[Size, int] = {size: index for index, size in enumerate(LEVELS.values())}
"""winemine's own levels (Wine 8's, as Windows': 9x9, 16x16, 16x30) and their Difficulty."""
FRESH_BEST_TIME = 999
"""The best time of each level on a fresh install: the first win asks for a name."""


def winemine_registry(rows: int, columns: int, mines: int, *, fresh_install: bool = False) -> str:
    """The .reg text that makes winemine open at this size with question marks enabled.

    The size is given as Custom, which never opens the best-time name box over the board, and
    best times of 0 make sure of it even if the user switches to a standard level. With
    ``fresh_install``, the size is one of winemine's own levels and the best times are a fresh
    install's: its first win asks for a name, then shows the best times, as a user meets it.
    """
    size = (rows, columns, mines)
    refusal = (
        opens_only("winemine at its own levels", WINEMINE_LEVELS)(size)
        if fresh_install
        else winemine_refusal(size)
    )
    if refusal is not None:
        raise SandboxError(refusal)
    best_time = FRESH_BEST_TIME if fresh_install else 0
    values = {
        "Difficulty": WINEMINE_LEVELS[size] if fresh_install else _CUSTOM,
        "Height": rows,
        "Width": columns,
        "Mines": mines,
        "Mark": 1,
        "Time1": best_time,
        "Time2": best_time,
        "Time3": best_time,
    }
    body = "\n".join(f'"{key}"=dword:{value:08x}' for key, value in values.items())
    return f"REGEDIT4\n\n[{WINEMINE_KEY}]\n{body}\n"


@contextlib.contextmanager
def winemine_prepared(size: Size, fresh_install: bool = False) -> Iterator[dict[str, str]]:
    """Wine's environment with winemine's registry set to ``size``, held while the window opens.

    winemine reads its size from the prefix's registry, which every process sharing the prefix
    writes: from the import until the window is open no other launch may change it."""
    registry = winemine_registry(*size, fresh_install=fresh_install)
    prefix = ensure_wine_prefix()
    env = wine_environment(prefix)
    with tempfile.NamedTemporaryFile("w", suffix=".reg", delete=False) as reg_file:
        reg_file.write(registry)
    try:
        with FileLock(prefix.parent / "winemine-launch.lock"):
            _import_registry(reg_file.name, prefix)
            yield env
    finally:
        os.unlink(reg_file.name)


def _import_registry(reg_file: str, prefix: Path) -> None:
    """Import ``reg_file`` into ``prefix``. Tried again after a pause, as winemine is (see
    :data:`RELAUNCH_PAUSE`), then once more in the prefix made anew; a failure then
    names the prefix."""
    importing = ["wine", "reg", "import", reg_file]
    for attempt in range(3):
        try:
            _run_wine(importing, wine_environment(prefix), "setting winemine's registry", 60)
            return
        except SandboxError as error:
            failure = error
        if attempt == 0:
            time.sleep(RELAUNCH_PAUSE)
        elif attempt == 1:
            _remake_wine_prefix(prefix, str(failure))
    raise SandboxError(f"Wine cannot run in its prefix {prefix}, even made anew: {failure}")
