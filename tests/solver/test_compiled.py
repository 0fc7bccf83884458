"""The compiled rule modules (setup.py) play exactly as their Python source: the same moves,
with the same safeties, in every game."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from solver import deduce

pytestmark = pytest.mark.skipif(
    deduce.__file__ is None or deduce.__file__.endswith(".py"),
    reason="the solver's modules are not compiled in this checkout",
)

PLAY = """
import hashlib, sys
from solver import deduce
from solver.engine import Game
from solver.strategy import next_moves
print(deduce.__file__)
for rule in ("safe", "opening"):
    for seed in range(9_100_000, 9_100_040):
        game, moves = Game.level("expert", rule, seed=seed), []
        while not game.is_over:
            for move in next_moves(game.board, rule):
                moves.append(move.text())
                if not game.is_over:
                    game.open(move.cell)
        print(rule, seed, game.board.is_won, hashlib.sha1(" ".join(moves).encode()).hexdigest())
"""


def _play(package_parent: Path) -> list[str]:
    """Every game's moves (digested), played by the ``solver`` package in ``package_parent``,
    after the path of the module that found the certain moves."""
    run = subprocess.run(
        [sys.executable, "-c", PLAY],
        cwd=package_parent,  # ``-c`` puts the working folder first on the path
        env={"PYTHONPATH": str(package_parent), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout.splitlines()


def test_compiled_modules_make_the_moves_of_their_source(tmp_path: Path) -> None:
    source = Path(solver.__file__).parent
    shutil.copytree(source, tmp_path / "solver", ignore=shutil.ignore_patterns("*.so", "*.pyd"))
    compiled, python = _play(source.parent), _play(tmp_path)
    assert not compiled[0].endswith(".py") and python[0].endswith(".py")
    assert compiled[1:] == python[1:]
    assert len(python) == 1 + 80
