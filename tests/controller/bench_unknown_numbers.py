"""What a skin that lacks some numbers costs in won games, now that play labels them.

    python3 tests/controller/bench_unknown_numbers.py --skins 200 --games 5 --unknown 4,5,6,7,8

Plays the simulated games of ``tests/simulated_table.py`` (:class:`SimulatedTable`: the play
loop over ``solver.Game``, a safe first click, the loop's waits on a virtual clock) twice on the
same boards: once with a fresh skin per ``--games`` games that reads none of ``--unknown`` until
play labels them, once with a skin that reads every number. Skin ``i`` plays seeds ``1000 * i + 1``
onwards. It prints each column's games, wins (with a Wilson 95% interval), games neither won nor
lost, and CPU time. A benchmark, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

# The checkout's packages first: the test folders beside them would pass for namespace packages.
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent), str(HERE), str(HERE.parent)]

from simulated_table import SimulatedTable, play_all, quick_player  # noqa: E402
from virtual_clock import VirtualClock  # noqa: E402

import controller.loop  # noqa: E402
from controller.commands import positive_int  # noqa: E402
from controller.outcomes import OutcomeLog, Result  # noqa: E402
from solver import LEVELS  # noqa: E402
from solver.bench.stats import format_win_rate  # noqa: E402


def run(skins: int, games: int, size: tuple[int, int, int], unknown: frozenset[int]) -> str:
    """One column's line: ``skins`` fresh skins lacking ``unknown``, ``games`` games each."""
    started = time.process_time()
    won = unfinished = 0
    with tempfile.TemporaryDirectory() as folder, OutcomeLog(Path(folder) / "log.db") as log:
        for skin in range(skins):
            table = SimulatedTable(1000 * skin + 1, size=size, unknown_numbers=unknown)
            for report in play_all(quick_player(table, log), games):
                won += report.record.result == Result.WON
                unfinished += report.record.result not in (Result.WON, Result.LOST)
    played = skins * games
    lacking = ",".join(map(str, sorted(unknown))) or "none"
    return (
        f"numbers lacking {lacking}: {played} games, won {format_win_rate(won, played)}, "
        f"{unfinished} neither won nor lost, {time.process_time() - started:.0f} s CPU"
    )


def numbers(text: str) -> frozenset[int]:
    """``--unknown``'s numbers, each 1 to 8."""
    try:
        chosen = frozenset(int(number) for number in text.split(","))
    except ValueError:
        chosen = frozenset({0})
    if not chosen <= set(range(1, 9)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers from 1 to 8")
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skins", type=positive_int, default=200, help="fresh skins (default 200)")
    parser.add_argument("--games", type=positive_int, default=5, help="games per skin (default 5)")
    parser.add_argument("--level", choices=LEVELS, default="expert")
    parser.add_argument(
        "--unknown",
        type=numbers,
        default=numbers("4,5,6,7,8"),
        help="numbers the skin lacks at first, comma-separated (default 4,5,6,7,8)",
    )
    arguments = parser.parse_args(argv)
    unknown: frozenset[int] = arguments.unknown
    # a clock in place of the time module controller.loop imports (and does not export)
    controller.loop.time = VirtualClock()  # type: ignore[assignment, attr-defined]
    nothing: frozenset[int] = frozenset()
    for lacking in (unknown, nothing):
        line = run(arguments.skins, arguments.games, LEVELS[arguments.level], lacking)
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
