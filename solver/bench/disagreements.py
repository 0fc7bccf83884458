"""Why two solvers win different games: the kind of the first guess where they part.

On the boards of a paired run (:mod:`solver.bench.hill`) the two solvers see the same board
until one of them guesses a cell the other does not; from there on their games differ. So each
board that only one of them won is filed under that first differing guess, as autosweeper saw
it (its own game replayed, seeded, with every guess noted):

* the kind of autosweeper's guess: the exact ``endgame`` search, a forced ``50/50``, or the
  look-ahead's choice of a ``frontier`` or an ``off-frontier`` cell;
* how safe Hill's cell was against autosweeper's (its exact chance from autosweeper's
  analysis of that board): ``safer``, ``as safe`` or ``riskier``;
* how far into the game it came: the first guess or a later one.

A kind of guess filed under many more boards only Hill won than boards only autosweeper won is
one where autosweeper's choice loses games.

    python -m solver.bench.disagreements PREFIX     # PREFIX of `python -m solver.bench.hill --out`
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from solver.analysis import analyze
from solver.bench.play import MoveLike, play_game
from solver.bench.stats import binomial_test
from solver.board import Board, Cell
from solver.engine import FirstClick, Game
from solver.guess import forced_fifty_fifty
from solver.settings import current
from solver.strategy import next_moves

SAME_SAFETY = 1e-9
"""Safeties closer than this are the same (they come from the same exact counts)."""


@dataclass(frozen=True)
class Guess:
    """One guess autosweeper made: where, with what chance, of what kind, on which board."""

    cell: Cell
    safety: float
    kind: str
    board: Board


class _Recorder:
    """``next_moves``, noting every guess it makes with its kind."""

    def __init__(self) -> None:
        self.guesses: list[Guess] = []

    def __call__(self, board: Board, rule: FirstClick) -> list[MoveLike]:
        moves = next_moves(board, rule)
        for move in moves:
            if move.is_guess:
                self.guesses.append(
                    Guess(move.cell, move.safety, _kind(board, move.cell), board.copy())
                )
        return list(moves)


def _kind(board: Board, cell: Cell) -> str:
    """Which of the strategy's ways chose the guess at ``cell`` (as :func:`choose_guess` tries
    them)."""
    analysis = analyze(board.copy())
    if analysis.solutions <= current().endgame_layouts:
        return "endgame"
    if forced_fifty_fifty(analysis) is not None:
        return "50/50"
    return "off-frontier" if cell in analysis.off_frontier else "frontier"


def our_guesses(level: str, rule: FirstClick, seed: int) -> tuple[bool, list[Guess]]:
    """autosweeper's game on ``seed`` replayed: whether it won, and its guesses."""
    recorder = _Recorder()
    outcome = play_game(recorder, Game.level(level, rule, seed), seed)
    return outcome.won, recorder.guesses


def file_under(ours: list[Guess], his: Sequence[Sequence[float]]) -> str | None:
    """The class of the first guess where the two differ (None if they never do)."""
    for number, guess in enumerate(ours):
        if number < len(his) and (int(his[number][0]), int(his[number][1])) == guess.cell:
            continue
        stage = "first guess" if number == 0 else "later guess"
        if number >= len(his):
            return f"{guess.kind}, Hill guessed no more, {stage}"
        his_cell = (int(his[number][0]), int(his[number][1]))
        his_safety = 1 - float(analyze(guess.board.copy()).probability(his_cell))
        if abs(his_safety - guess.safety) < SAME_SAFETY:
            than = "as safe"
        else:
            than = "safer" if his_safety > guess.safety else "riskier"
        return f"{guess.kind}, Hill's cell {than}, {stage}"
    return None if len(his) <= len(ours) else "none, Hill guessed more"


def classify(prefix: str) -> Counter[tuple[str, str]]:
    """(class, who alone won) for every board only one of the two won in the saved run."""
    his_run = json.loads(Path(f"{prefix}-hill.json").read_text())
    our_run = json.loads(Path(f"{prefix}-autosweeper.json").read_text())
    (his_result,), (our_result,) = his_run["results"], our_run["results"]
    level, rule, first = (
        his_result["level"],
        FirstClick(his_result["rule"]),
        his_result["first_seed"],
    )
    tally: Counter[tuple[str, str]] = Counter()
    pairs = zip(his_result["outcomes"], our_result["outcomes"], strict=True)
    for offset, (his_won, our_won) in enumerate(pairs):
        if his_won == our_won:
            continue
        seed = first + offset
        won, guesses = our_guesses(level, rule, seed)
        if won != (our_won == "1"):
            raise ValueError(f"seed {seed}: the replay did not end as the saved run did")
        where = file_under(guesses, his_run["guesses"][str(seed)]) or "no differing guess"
        tally[(where, "Hill" if his_won == "1" else "autosweeper")] += 1
    return tally


def report(tally: Counter[tuple[str, str]]) -> str:
    """The classes, most boards first, with the exact sign test of each."""
    classes = sorted(
        {where for where, _ in tally}, key=lambda w: -tally[(w, "Hill")] - tally[(w, "autosweeper")]
    )
    lines = [f"{'first differing guess':<58}{'only Hill':>10}{'only ours':>10}{'p':>8}"]
    for where in classes:
        his, ours = tally[(where, "Hill")], tally[(where, "autosweeper")]
        lines.append(f"{where:<58}{his:>10}{ours:>10}{binomial_test(ours, his + ours):>8.3f}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(classify(sys.argv[1])))
