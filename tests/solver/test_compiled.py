"""The compiled rule modules (setup.py) play exactly as their Python source: the same moves,
with the same safeties, in every game."""

from __future__ import annotations

import ast
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

ROOT = Path(__file__).resolve().parents[2]
COMPILED_MODULES: list[str] = next(
    ast.literal_eval(node.value)
    for node in ast.parse((ROOT / "setup.py").read_text()).body
    if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "COMPILED_MODULES"
)
"""The modules setup.py compiles from their source (its list, read without running it)."""

PLAY = """
import hashlib, importlib, sys
from solver.engine import Game
from solver.strategy import next_moves
for name in sys.argv[1:]:
    print(importlib.import_module("solver." + name).__file__)
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
    after the paths of the modules setup.py compiles, as imported."""
    run = subprocess.run(
        [sys.executable, "-c", PLAY, *COMPILED_MODULES],
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
    modules = len(COMPILED_MODULES)
    assert not any(path.endswith(".py") for path in compiled[:modules]), compiled[:modules]
    assert all(path.endswith(".py") for path in python[:modules])
    assert compiled[modules:] == python[modules:]
    assert len(python) == modules + 80
