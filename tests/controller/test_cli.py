"""The ``autosweeper`` dispatcher: every subcommand is there, bad counts are usage errors, and
every error of ours is caught once, as one line with its exit code."""

import argparse
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from calibration.errors import CalibrationError
from controller.cli import SUBCOMMANDS, build_parser, main, package_version
from controller.commands import analyze as analyze_command
from controller.errors import SandboxError
from solver import AutosweeperError, Board, BoardError
from vision.errors import SkinError


def test_every_subcommand_is_registered() -> None:
    for name in SUBCOMMANDS:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "--games", "-5"], "must be at least 1, not -5"),
        (["bench", "--workers", "0"], "must be at least 1, not 0"),
        (["play", "--games", "many"], "expected a whole number, not 'many'"),
        (["analyze", "board.txt", "--layouts", "0"], "must be at least 1, not 0"),
        (
            ["play", "--games", "99999999999999999999999"],
            "must be at most 1,000,000,000, not 99,999,999,999,999,999,999,999",
        ),
        (["bench", "--workers", "1000000001"], "must be at most 1,000,000,000"),
        (["play", "--mines", "0"], "must be at least 1, not 0"),
        (["calibrate", "--game", "winemine", "--max-games", "1e3"], "not '1e3'"),
    ],
)
def test_a_bad_count_is_a_usage_error_naming_the_value(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(argv)
    assert done.value.code == 2
    assert message in capsys.readouterr().err


def test_version_names_the_installed_package(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"autosweeper {package_version()}"
    assert package_version()[0].isdigit()


def _failing_run(error: BaseException) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        raise error

    return run


@pytest.mark.parametrize(
    "error",
    [
        BoardError("no mine layout fits", cell=(2, 3)),
        SkinError("skins/x/skin.json: malformed"),
        CalibrationError("the grid moved"),
        SandboxError("Xvfb is not installed"),
    ],
)
def test_every_family_error_is_one_line_on_stderr_and_exit_1(
    error: AutosweeperError,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The entry point catches the root once: no command needs its own tuple of error types."""
    monkeypatch.setattr(analyze_command, "run", _failing_run(error))
    assert main(["analyze", "board.txt"]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"autosweeper analyze: {error}\n"
    assert captured.out == ""


def test_an_interrupt_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(analyze_command, "run", _failing_run(KeyboardInterrupt()))
    assert main(["analyze", "board.txt"]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_a_reader_that_goes_away_is_no_traceback(tmp_path: Path) -> None:
    """``autosweeper analyze FILE | head`` used to end in a BrokenPipeError traceback: the read
    end here is closed before the command has written anything."""
    board = tmp_path / "board.txt"
    board.write_text(Board.from_text(EXAMPLE).to_text())
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "analyze", str(board)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait(60) == 1
    assert "Traceback" not in errors
    assert errors == ""


EXAMPLE = """\
3x3x1
111
1H1
111
"""
