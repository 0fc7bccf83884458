"""When play learns, and how a game's reads are checked at its end.

What a picture first seen in play is, and how the skin learns it, is
:mod:`calibration.learn_in_play`; here is when: after each read of a game (numbers its board
proves already count for the next move), at its end (the rest of the game's pictures, the won
face), and the check that every read of the game agrees with the board it ended on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import controller.reading as screen_reads  # its ANIMATION_REREADS read when used (tests set it)
from calibration.errors import CalibrationError
from calibration.learn_in_play import end_disagreement, proven_labels, relabelled, with_labels
from controller.game import GameAborted, GameInPlay, number_not_drawn_yet
from controller.outcomes import Result
from controller.reading import PatientReader
from solver import Board, Cell, GameState, Tile


def learn_won_face(game: GameInPlay, result: Result, reader: PatientReader) -> None:
    """A game won while its face matched none of the skin's shows the won face: the table
    learns it (see :meth:`controller.table.Table.learn_won_face`)."""
    reads = game.reads
    if result != Result.WON or not reads or reads[-1].face is not None:
        return
    if reads[-1].board is game.board and reader.table.learn_won_face():
        reader.stopwatch.counts["won faces learned in play"] += 1


def label_new_pictures(game: GameInPlay, reader: PatientReader) -> None:
    """Give the pictures first seen in the game the numbers its boards prove (see
    :func:`calibration.learn_in_play.proven_labels`); the table then reads them so."""
    if not any(reading.pictures for reading in game.reads):
        return
    boards = [(reading.board, reading.pictures) for reading in game.reads]
    if boards[-1][0] is not game.board:  # the end was read apart from the clicks
        opened = game.board.tiles == Tile.OPENED
        last = {cell: picture for cell, picture in boards[-1][1].items() if opened[cell]}
        boards.append((game.board, last))
    labels = _proven(boards, reader)
    if labels:
        reader.table.label(labels)
    game.board = with_labels(game.board, boards[-1][1], labels)


def label_in_play(game: GameInPlay, reader: PatientReader) -> None:
    """Give the pictures first seen in play the numbers the board just read proves, while
    the game goes on: the solver counts those numbers from its next move, not from the next
    game (the first game that shows a rare number no longer guesses without it). The reads
    so far are rewritten as the table reads them now, and the board is read again."""
    reads = game.reads
    if not reads or not reads[-1].pictures or reads[-1].outcome != GameState.PLAYING:
        return
    if number_not_drawn_yet(reads[-1].board) is not None:
        return  # a frame caught mid-drawing: its numbers may allow a picture a wrong value
    labels = _proven([(reads[-1].board, reads[-1].pictures)], reader)  # it knows the most
    if not labels:
        return
    reader.table.label(labels)
    reader.stopwatch.counts["pictures labelled in play"] += len(labels)
    reads[:] = [relabelled(reading, labels) for reading in reads]
    reading = reader.look()
    game.board = reading.board
    reads.append(reading)


def check_reads_against_the_end(game: GameInPlay, reader: PatientReader) -> None:
    """Every read of the game agrees with its end, or the game is misread: a cell read as a
    number shows that number at the end, and the end obeys the counting rules (see
    :func:`calibration.learn_in_play.end_disagreement`). A misread that no rule caught during
    play, and that a click did not expose, still does not go into the log as a real game.
    An end that disagrees may be a message the game draws over its board for a while, its
    inside read as cells (a "You have lost." message fading in): the board is read again,
    :data:`controller.reading.ANIMATION_REREADS` times at most, until it agrees."""
    for _ in range(screen_reads.ANIMATION_REREADS):
        if end_disagreement(game.board, game.reads) is None:
            return
        reader.pause()
        game.board = reader.look().board
    disagreement = end_disagreement(game.board, game.reads)
    if disagreement is not None:
        raise GameAborted(Result.MISREAD, disagreement)


def _proven(
    boards: Sequence[tuple[Board, Mapping[Cell, int]]], reader: PatientReader
) -> dict[int, Tile]:
    """The numbers ``boards`` (reads of this game, each with its pictures first seen)
    prove for those pictures; a contradiction ends the game misread."""
    table = reader.table
    try:
        return proven_labels(boards, table.known_numbers(), table.picture_classes())
    except CalibrationError as contradiction:
        raise GameAborted(
            Result.MISREAD, f"the pictures first seen in this game: {contradiction}"
        ) from contradiction
