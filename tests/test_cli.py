"""The ``autosweeper`` dispatcher: every subcommand is there, and bad counts are usage errors."""

import pytest

from controller.cli import SUBCOMMANDS, build_parser, main


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
