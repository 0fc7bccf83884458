"""A display that asks for no cookie, set up as ``../shared/real-games.md`` says (Xvfb with no
``-auth``, ``XAUTHORITY`` an empty file): the bot's output carries no python-xlib notes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.desktop.processes import find_binary, start_alone, stop_process


@pytest.fixture
def open_display(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An Xvfb that takes any local client, and the environment of a user of it."""
    xvfb = find_binary("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed")
    ready_read, ready_write = os.pipe()
    command = [xvfb, "-nolisten", "tcp", "-noreset", "-displayfd", str(ready_write)]
    process = start_alone(command, pass_fds=(ready_write,))
    os.close(ready_write)
    try:
        with os.fdopen(ready_read, "rb") as ready:
            number = ready.readline().strip().decode()
        assert number, "Xvfb did not start"
        empty = tmp_path / "xauthority"
        empty.touch()
        yield {**os.environ, "DISPLAY": f":{number}", "XAUTHORITY": str(empty)}
    finally:
        stop_process(process)


def test_an_empty_authority_file_prints_no_xlib_note(open_display: dict[str, str]) -> None:
    # Every X connection the bot opens: its mouse (pyautogui connects as it is imported), its
    # stop key, and the window listing that finds a game by its title.
    script = (
        "from controller.mouse import Mouse\n"
        "from controller.stopping import StopKey\n"
        "from controller.desktop.windows import desktop_windows\n"
        "Mouse()\n"
        "StopKey().close()\n"
        "print(len(desktop_windows().windows()))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        env=open_display,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert (result.stdout, result.stderr) == ("0\n", "")
