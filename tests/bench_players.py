"""Simple players for the benchmark's tests: moves as a strategy returns them, and a seeded random
opener that any module path of a strategy can name (``bench_players:random_opener``)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from enum import Enum

import numpy as np

from solver import Board, Cell, FirstClick, Tile


class Action(Enum):
    OPEN = "open"
    FLAG = "flag"
    CHORD = "chord"
    JUMP = "jump"


@dataclass(frozen=True)
class Move:
    cell: Cell
    action: Action
    is_guess: bool = False


def random_opener(board: Board, rule: FirstClick) -> list[Move]:
    """Open one hidden cell picked by a generator seeded with the board: repeatable anywhere."""
    rng = np.random.default_rng(zlib.crc32(board.tiles.tobytes()))
    hidden = np.argwhere(board.tiles == Tile.HIDDEN)
    r, c = hidden[rng.integers(len(hidden))]
    return [Move((int(r), int(c)), Action.OPEN, is_guess=True)]
