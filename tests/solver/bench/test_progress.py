"""Progress bars are drawn only on a terminal: logs and pipes get no carriage-return frames."""

from __future__ import annotations

import io
import sys

import pytest

from solver.bench.progress import on_terminal, print_above_bars, progress_bar


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_is_silent_when_standard_error_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert not on_terminal()
    assert list(progress_bar(range(3), desc="games")) == [0, 1, 2]
    assert capsys.readouterr().err == ""


def test_a_bar_is_drawn_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert on_terminal()
    assert list(progress_bar(range(3), desc="games")) == [0, 1, 2]
    assert "games" in terminal.getvalue() and "\r" in terminal.getvalue()


def test_show_overrides_the_terminal_check(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar(total=2, desc="forced", show=True) as bar:
        bar.update(2)
    assert "forced" in capsys.readouterr().err
    assert not on_terminal(io.StringIO()) and on_terminal(FakeTerminal())


def test_lines_above_bars_go_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    print_above_bars("game 1 won")
    assert capsys.readouterr() == ("game 1 won\n", "")
