"""Fewer clicks: the certain cells of a burst opened with chords where a chord saves clicks.

A chord (both buttons, or the middle one, on an opened number whose flags match it) opens every
closed neighbour of the number at once. It pays, as speed players count, when it opens more
cells than the clicks it costs: itself and the flags it needs first. Choosing the chords is a
weighted set cover (flags shared between chords), solved greedily: the chord saving the most
clicks first, until none saves any. Nothing here changes which cells a burst opens, only how.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.board import Board, Cell, Tile
from solver.engine import FirstClick
from solver.strategy import Action, Move, next_moves


@dataclass(frozen=True)
class Chord:
    """A chord the board allows: on the number at ``cell``, opening ``opens`` once ``flags``
    (known mines not flagged yet) are flagged."""

    cell: Cell
    opens: frozenset[Cell]
    flags: frozenset[Cell]


def possible_chords(board: Board, safe: Iterable[Cell], mines: Iterable[Cell]) -> list[Chord]:
    """Every chord that opens only ``safe`` cells: on a number beside one of them whose closed
    neighbours are each known safe or a known mine, and whose flags shown are known mines, as
    many as it shows with the known mines added. In reading order."""
    safe, mines = set(safe), set(mines)
    tiles = board.tiles.tolist()  # lists: a numpy lookup per cell would cost more than the plan
    numbers = {
        near
        for cell in safe
        for near in board.neighbours(cell)
        if Tile.ONE <= tiles[near[0]][near[1]] <= Tile.EIGHT
    }
    chords = []
    for cell in sorted(numbers):
        opens, flags, flagged = set(), set(), 0
        for near in board.neighbours(cell):
            tile = tiles[near[0]][near[1]]
            if tile == Tile.FLAG:
                if near not in mines:
                    break
                flagged += 1
            elif tile in (Tile.HIDDEN, Tile.QUESTION):
                if near in safe:
                    opens.add(near)
                elif near in mines:
                    flags.add(near)
                else:
                    break
        else:
            if opens and flagged + len(flags) == tiles[cell[0]][cell[1]]:
                chords.append(Chord(cell, frozenset(opens), frozenset(flags)))
    return chords


def choose_chords(chords: Sequence[Chord]) -> list[Chord]:
    """The chords worth their clicks, greedily: each in turn the one saving the most clicks
    over single clicks on the cells no chord chosen opens yet (flags chosen already are free),
    while one saves at least one."""
    chosen: list[Chord] = []
    opened: set[Cell] = set()
    flagged: set[Cell] = set()
    left = list(chords)
    while left:
        saving, index = max(
            (len(chord.opens - opened) - 1 - len(chord.flags - flagged), -i)
            for i, chord in enumerate(left)
        )
        if saving < 1:
            break
        chord = left.pop(-index)
        chosen.append(chord)
        opened |= chord.opens
        flagged |= chord.flags
    return chosen


def plan_clicks(board: Board, safe: Iterable[Cell], mines: Iterable[Cell]) -> list[Move]:
    """The moves that open every closed cell of ``safe`` in the fewest clicks found: the chords
    needing no new flag, single opens of the cells no chord opens, then the flags the other
    chords need, then those chords. Flags come last so that a player who must see them drawn
    before chording (:mod:`controller.loop`) opens everything else first."""
    closed = board.closed
    safe = [cell for cell in sorted(set(safe)) if closed[cell]]
    chosen = choose_chords(possible_chords(board, safe, mines))
    ready = [chord for chord in chosen if not chord.flags]
    later = [chord for chord in chosen if chord.flags]
    opened = set().union(*(chord.opens for chord in chosen))
    flags = sorted(set().union(*(chord.flags for chord in later)))
    return (
        [Move(chord.cell, Action.CHORD) for chord in ready]
        + [Move(cell, Action.OPEN) for cell in safe if cell not in opened]
        + [Move(cell, Action.FLAG) for cell in flags]
        + [Move(chord.cell, Action.CHORD) for chord in later]
    )


def chorded_moves(
    board: Board, rule: FirstClick | str = FirstClick.SAFE, *, flags: bool = False
) -> list[Move]:
    """:func:`solver.strategy.next_moves`'s cells, opened with chords where they save clicks
    (a strategy for the benchmark, ``solver.chords:chorded_moves``).

    The solver is asked about the board with its flags taken off, so that it decides exactly
    as it would had no flag been placed for a chord: the same cells, the same guesses. With
    ``flags``, every known mine is flagged too (after the plan's own moves)."""
    unflagged = board.copy()
    unflagged.tiles[unflagged.tiles == Tile.FLAG] = Tile.HIDDEN
    moves = next_moves(unflagged, rule, flags=True)
    mines = [move.cell for move in moves if move.action is Action.FLAG]
    opens = [move for move in moves if move.action is Action.OPEN]
    if any(move.is_guess for move in opens) or board.is_fresh:
        plan = opens
    else:
        plan = plan_clicks(board, [move.cell for move in opens], mines)
    if flags:
        planned = {move.cell for move in plan if move.action is Action.FLAG}
        plan += [
            Move(cell, Action.FLAG)
            for cell in mines
            if cell not in planned and board[cell] != Tile.FLAG
        ]
    return plan
