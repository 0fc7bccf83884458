"""How fast ``autosweeper play`` stops on SIGTERM, and what its log keeps.

    python3 tests/controller/bench_stop_latency.py --trials 10 --seed 1

Starts xdemineur (9x12, 10 mines) on a virtual display of its own, then, per trial, a ``play``
run on it with a fresh outcome log, sends it SIGTERM after a random 3 to 8 s (seeded) and prints
the exit status, the seconds from the signal to the exit, and the log's rows by result (none may
be left ``in progress``). Needs a stored xdemineur skin (``autosweeper play --game xdemineur``
learns one). A benchmark, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The checkout's packages first: the test folders beside them would pass for namespace packages.
sys.path[:0] = [str(Path(__file__).resolve().parents[2])]

from controller.commands import positive_int  # noqa: E402
from controller.desktop.display import VirtualDisplay  # noqa: E402
from controller.desktop.games import launch_game  # noqa: E402

PLAY = ["play", "--games", "10000", "--skin", "xdemineur", "--mines", "10"]


def trial(log: Path, wait: float) -> str:
    """One run stopped by SIGTERM after ``wait`` seconds, as one line of figures."""
    bot = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", *PLAY, "--db", str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(wait)
    sent = time.monotonic()
    bot.send_signal(signal.SIGTERM)
    try:
        _, error = bot.communicate(timeout=30)
        took = f"{time.monotonic() - sent:.2f} s"
    except subprocess.TimeoutExpired:
        bot.kill()
        _, error = bot.communicate()
        took = "over 30 s"
    with sqlite3.connect(log) as db:
        rows = dict(db.execute("SELECT result, count(*) FROM games GROUP BY result").fetchall())
    last = (error.strip().splitlines() or [""])[-1]
    return f"exit {bot.returncode} after {took}; games {rows}; {last}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=positive_int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chance = random.Random(args.seed)
    with (
        tempfile.TemporaryDirectory() as folder,
        VirtualDisplay(first_number=60),
        launch_game("xdemineur", (9, 12, 10)),
    ):
        for number in range(args.trials):
            line = trial(Path(folder) / f"{number}.sqlite3", chance.uniform(3, 8))
            print(f"trial {number}: {line}", flush=True)


if __name__ == "__main__":
    main()
