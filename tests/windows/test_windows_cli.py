"""Every command of the installed ``autosweeper.exe`` answers ``--help`` (and the program
``--version``) under Windows CPython: the console script pip made from the wheel starts, and
each command's module and its imports load on Windows."""

from __future__ import annotations

import tomllib

import pytest

from controller.cli import SUBCOMMANDS

from .conftest import REPO, WindowsPython

pytestmark = pytest.mark.wine

VERSION = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def test_version(windows_python: WindowsPython) -> None:
    result = windows_python.run(windows_python.autosweeper, "--version")
    assert result.returncode == 0, result.describe()
    assert result.stdout.strip() == f"autosweeper {VERSION}", result.describe()


def test_help(windows_python: WindowsPython) -> None:
    result = windows_python.run(windows_python.autosweeper, "--help")
    assert result.returncode == 0, result.describe()
    assert result.stdout.startswith("usage: autosweeper "), result.describe()
    for command in SUBCOMMANDS:
        assert f"\n    {command} " in result.stdout, f"{command} is not listed: {result.describe()}"


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_command_help(windows_python: WindowsPython, command: str) -> None:
    result = windows_python.run(windows_python.autosweeper, command, "--help")
    assert result.returncode == 0, result.describe()
    assert result.stdout.startswith(f"usage: autosweeper {command} "), result.describe()
    assert "Traceback" not in result.stderr, result.describe()
