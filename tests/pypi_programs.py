"""Minesweeper programs from PyPI that nobody here wrote, for the real-game tests.

Each is installed as its user would install it, with pip, into a virtual environment of its own
(two of them are imported as ``minesweeper``), made once and kept under
``~/.cache/autosweeper-pypi-games`` (or ``$AUTOSWEEPER_PYPI_GAMES``), and started on the test
display through the ``launch`` fixture, which stops it by its pid. The Debian packages they need
(python3-tk, python3-venv, and the headers Pillow 8 is built with) come from .ci/setup.sh.

A program that cannot be installed skips its test on a developer's machine (no network, say),
but fails it under CI (``CI=true``): a CI machine must have everything, and a skip there would
hide a test that never ran.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import pytest

from controller.desktop.launchers import Launcher
from controller.desktop.sizes import Size

INSTALL_TIMEOUT = 900.0
"""Seconds pip may take: mfranceschi-minesweeper pins Pillow 8, which has no wheel for Python
3.11 and is built from source (about a minute) the first time."""
MARKER = "installed.txt"
"""Written last in a venv, holding its requirements: a venv without it is made again."""


@dataclass(frozen=True)
class PypiProgram:
    """A program from PyPI: what pip installs, how it starts, how its window is found."""

    requirements: tuple[str, ...]
    """Pinned to the release measured, with what it imports without declaring it."""
    command: tuple[str, ...]
    """Its start: the first word a program in its venv's ``bin``, then the arguments."""
    title: str
    """Part of its window's title (Tk and pygame set a class calibration is not told)."""
    environment: Mapping[str, str] = field(default_factory=dict)
    """Variables its start needs beside ours."""
    tk: bool = False
    """It needs tkinter (Debian: python3-tk)."""
    window_class: str | None = None
    """Part of its WM_CLASS, by which the test's launcher finds its window (None: by title).
    xdotool 3.2016's search by name misses a WM_NAME typed UTF8_STRING, as SDL 2 sets it;
    calibration, told the title, reads ``_NET_WM_NAME``."""


SDL_ON_XVFB = {"SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
"""pygame on a virtual display with no sound card."""

PROGRAMS = {
    # Tk buttons sized by their content: a column widens once a cell in it opens, the window
    # grows; 8x8/10 at start; its new game the "OK (new game)" button of its level list.
    "mfranceschi-minesweeper": PypiProgram(
        ("mfranceschi-minesweeper==0.2.3",), ("mf-mines",), "Mfranceschi", tk=True
    ),
    # Tk, 16x16 only; 38 mines drawn with repeats (30-38 a game), the count shown in a label;
    # won once its flags number its mines; its Restart opens a new top-level window. It
    # imports numpy without declaring it, and has no command: its module's start() runs it.
    "minesweeper-python": PypiProgram(
        ("minesweeper-python==0.0.4", "numpy"),
        ("python", "-c", "from minesweeper.minesweeper import start; start()"),
        "Minesweeper",
        tk=True,
    ),
    # pygame; opens on a level menu (EASY is 9x9/10); an end paints the window over with a
    # message, then the menu comes back.
    "minesweeper-mvc": PypiProgram(
        ("minesweeper-mvc==1.1.0",),
        ("python", "-m", "minesweeper"),
        "Minesweeper",
        SDL_ON_XVFB,
        window_class="__main__.py",  # SDL names the class after the script run
    ),
}


class NotInstalled(Exception):
    """A program's venv could not be made; the message says what failed and what to install."""


def missing(reason: str) -> NoReturn:
    """Skip the test for ``reason``; under CI, fail it."""
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(f"{reason} (CI=true: every program must be installable here)", pytrace=False)
    pytest.skip(reason)


def cache() -> Path:
    """Where the programs' venvs are kept between runs."""
    folder = os.environ.get("AUTOSWEEPER_PYPI_GAMES")
    return Path(folder) if folder else Path.home() / ".cache" / "autosweeper-pypi-games"


def installed(name: str) -> Path:
    """The venv of program ``name``, made (once) with pip; :class:`NotInstalled` if it cannot
    be. Made from the Python running the tests, whose tkinter the venv shares."""
    program = PROGRAMS[name]
    venv = cache() / name
    wanted = "\n".join(program.requirements) + "\n"
    marker = venv / MARKER
    if marker.is_file() and marker.read_text(encoding="utf-8") == wanted:
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    _run(
        [sys.executable, "-m", "venv", str(venv)], "making its venv (apt-get install python3-venv)"
    )
    python = str(venv / "bin" / "python")
    if program.tk:
        _run([python, "-c", "import tkinter"], "importing tkinter (apt-get install python3-tk)")
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    _run([*pip, *program.requirements], f"pip install {' '.join(program.requirements)}")
    marker.write_text(wanted, encoding="utf-8")
    return venv


def _run(command: list[str], doing: str) -> None:
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired as error:
        raise NotInstalled(f"{doing}: no answer in {INSTALL_TIMEOUT:.0f} s") from error
    if result.returncode != 0:
        said = (result.stderr or result.stdout).strip().splitlines()[-3:]
        raise NotInstalled(f"{doing} failed (exit {result.returncode}): {' | '.join(said)}")


def launcher(name: str, venv: Path) -> Launcher:
    """How the test's ``launch`` starts program ``name`` from its venv and finds its window."""
    program = PROGRAMS[name]
    first, *arguments = program.command

    @contextlib.contextmanager
    def environment(size: Size) -> Iterator[dict[str, str] | None]:
        yield {**os.environ, **program.environment} if program.environment else None

    return Launcher(
        binary=str(venv / "bin" / first),
        package=f"pip: {program.requirements[0]}",
        window_class=program.window_class or program.title,
        by_title=program.window_class is None,
        arguments=lambda size: list(arguments),
        prepare=environment,
    )
