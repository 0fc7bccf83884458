"""The virtual display (controller/desktop/display.py): an Xvfb made the current display and put
back, that only holders of its cookie may use, and only on Linux."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import alive

from controller.desktop.display import VirtualDisplay
from controller.errors import SandboxError


@pytest.mark.realgame
def test_virtual_display_sets_and_restores_the_environment(virtual_display: VirtualDisplay) -> None:
    outer = os.environ["DISPLAY"]
    with VirtualDisplay(first_number=virtual_display.first_number + 5) as inner:
        assert os.environ["DISPLAY"] == inner.name != outer
        pid = inner.pid
        assert pid is not None
        answer = subprocess.run(["xdpyinfo"], capture_output=True, text=True)
        assert answer.returncode == 0 and "1280x1024" in answer.stdout
    assert os.environ["DISPLAY"] == outer
    assert not alive(pid)


@pytest.mark.realgame
def test_only_holders_of_the_cookie_may_connect(virtual_display: VirtualDisplay) -> None:
    with_cookie = subprocess.run(["xdpyinfo"], capture_output=True)
    without = {key: value for key, value in os.environ.items() if key != "XAUTHORITY"}
    stranger = subprocess.run(["xdpyinfo"], capture_output=True, env=without)
    assert with_cookie.returncode == 0
    assert stranger.returncode != 0


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_a_virtual_display_on_windows_or_macos_says_it_is_linux_only(
    platform: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    with pytest.raises(SandboxError) as refused:
        VirtualDisplay().start()
    message = str(refused.value)
    assert f"only on Linux, not on {platform}: open the game and leave out --game" in message
    assert "apt-get" not in message
