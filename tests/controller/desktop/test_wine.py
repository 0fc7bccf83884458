"""Wine for winemine (controller/desktop/wine.py): a prefix Wine cannot run in is made anew."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.desktop.games import launch_game
from controller.desktop.processes import find_binary


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
