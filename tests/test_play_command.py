"""``autosweeper play`` without a game: DPI awareness, when a virtual display is needed, errors."""

from __future__ import annotations

import ctypes
from collections.abc import Collection
from pathlib import Path

import pytest

from controller.cli import main
from controller.commands.play import declare_dpi_aware, needs_virtual_display


class FakeWindll:
    """Stands in for ctypes.windll: records calls; ``missing`` functions raise AttributeError."""

    def __init__(self, missing: Collection[str] = (), refusing: Collection[str] = ()) -> None:
        self.calls: list[tuple[str, tuple[object, ...]]] = []
        self.missing = set(missing)
        self.refusing = set(refusing)
        self.user32 = self._library()
        self.shcore = self._library()

    def _library(self) -> object:
        windll = self

        class Library:
            def __getattr__(self, name: str) -> object:
                if name in windll.missing:
                    raise AttributeError(name)

                def call(*arguments: object) -> int:
                    windll.calls.append((name, arguments))
                    refused = name in windll.refusing
                    if name == "SetProcessDpiAwareness":  # returns an HRESULT, 0 is S_OK
                        return 1 if refused else 0
                    return 0 if refused else 1

                return call

        return Library()


def test_no_dpi_declaration_off_windows() -> None:
    windll = FakeWindll()
    assert declare_dpi_aware("linux", windll) is None
    assert declare_dpi_aware("darwin", windll) is None
    assert windll.calls == []


def test_windows_is_declared_per_monitor_v2_first() -> None:
    windll = FakeWindll()
    assert declare_dpi_aware("win32", windll) == "per-monitor v2"
    ((name, (context,)),) = windll.calls
    assert name == "SetProcessDpiAwarenessContext"
    assert isinstance(context, ctypes.c_void_p)
    assert context.value == ctypes.c_void_p(-4).value  # DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2


def test_older_windows_fall_back_in_order() -> None:
    windll = FakeWindll(missing={"SetProcessDpiAwarenessContext"})
    assert declare_dpi_aware("win32", windll) == "per-monitor"
    assert windll.calls == [("SetProcessDpiAwareness", (2,))]
    windll = FakeWindll(
        missing={"SetProcessDpiAwarenessContext"}, refusing={"SetProcessDpiAwareness"}
    )
    assert declare_dpi_aware("win32", windll) == "system"
    assert [name for name, _ in windll.calls] == ["SetProcessDpiAwareness", "SetProcessDPIAware"]
    everything = {"SetProcessDpiAwarenessContext", "SetProcessDpiAwareness", "SetProcessDPIAware"}
    assert declare_dpi_aware("win32", FakeWindll(refusing=everything)) is None


def test_a_virtual_display_is_needed_only_on_linux_without_display() -> None:
    assert needs_virtual_display("linux", {})
    assert needs_virtual_display("linux", {"DISPLAY": ""})
    assert not needs_virtual_display("linux", {"DISPLAY": ":0"})
    assert not needs_virtual_display("win32", {})
    assert not needs_virtual_display("darwin", {})


def test_play_refuses_zero_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", "--games", "0", "--db", str(tmp_path / "log.db")])
    assert done.value.code == 2
    assert "--games" in capsys.readouterr().err


def test_play_names_a_display_it_cannot_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISPLAY", ":4242")
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    assert main(["play", "--db", str(tmp_path / "log.db")]) == 1
    assert ":4242" in capsys.readouterr().err


def test_play_says_when_no_skin_is_stored(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("Xlib")
    from controller.sandbox import VirtualDisplay, find_binary

    if find_binary("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    with VirtualDisplay(first_number=170):
        assert main(["play", "--db", str(tmp_path / "log.db")]) == 1
        assert main(["play", "--skin", "nothing", "--db", str(tmp_path / "log.db")]) == 1
    no_skin, no_such_skin = capsys.readouterr().err.splitlines()
    assert "no stored skin" in no_skin and str(tmp_path / "skins") in no_skin
    assert "'nothing'" in no_such_skin
