"""Wine for winemine (controller/desktop/wine.py): a prefix Wine cannot run in is made anew, and
winemine's registry asks for the exact size, or refuses one it would change."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.desktop.games import launch_game
from controller.desktop.processes import find_binary
from controller.desktop.wine import winemine_registry
from controller.errors import SandboxError


@pytest.mark.realgame
def test_a_wine_prefix_wine_cannot_run_in_is_moved_aside_and_made_anew(
    virtual_display: object,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A prefix marked ready but made for another architecture (as one made before 32-bit Wine
    was installed) was used for ever, each launch failing without naming it."""
    if find_binary("wine") is None:
        pytest.skip("wine is not installed")
    prefix = tmp_path / "wineprefix"
    prefix.mkdir()
    (prefix / ".autosweeper-ready").touch()
    (prefix / "system.reg").write_text("WINE REGISTRY Version 2\n\n#arch=win32\n")
    monkeypatch.setenv("AUTOSWEEPER_WINEPREFIX", str(prefix))
    with launch_game("winemine", (9, 9, 10)) as window:
        assert window.geometry.width > 0
    (aside,) = tmp_path.glob("wineprefix.broken-*")
    assert "#arch=win32" in (aside / "system.reg").read_text()  # kept, not deleted
    note = capsys.readouterr().err
    assert f"Wine could not run in its prefix {prefix}" in note and str(aside) in note


def test_winemine_registry_asks_for_the_exact_size_and_no_name_box() -> None:
    text = winemine_registry(16, 30, 99)
    assert '"Height"=dword:00000010' in text
    assert '"Width"=dword:0000001e' in text
    assert '"Mines"=dword:00000063' in text
    assert '"Difficulty"=dword:00000003' in text
    assert '"Time1"=dword:00000000' in text


@pytest.mark.parametrize("size", [(7, 9, 10), (9, 31, 10), (9, 9, 9), (9, 9, 65)])
def test_winemine_refuses_sizes_it_would_silently_change(size: tuple[int, int, int]) -> None:
    with pytest.raises(SandboxError, match="winemine cannot play"):
        winemine_registry(*size)
