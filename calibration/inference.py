"""Inferring what each appearance means from the game's own logic, with no hand labelling.

Calibration records what every click did (:mod:`calibration.record`): the board before and
after as a grid of appearance ids (one id per pitch-sized picture, grouped by distance, see
:mod:`calibration.catalogue`). The meanings follow from the rules every Minesweeper obeys:

* a right-click on a hidden cell shows a FLAG (or nothing, in a game that takes no right-click
  mark); a second one a QUESTION mark (or hidden again when the game has no question marks);
* on a loss the clicked cell shows the EXPLODED mine, every other hidden cell that changes is a
  MINE (or a number, in a game that shows everything), and a flag that changes was a WRONG_FLAG;
  a game may draw every mine as the one hit, and may redraw the cells opened before the loss,
  each number into a look of its own: that look reads as the number it replaced;
* a picture seen on a cell opened without losing is a number; its value follows from the bounds
  the boards put on it (:mod:`calibration.numbers`): exact where a loss showed every mine, else
  at most its closed neighbours and at least the mines shown around it.

Contradictions (one appearance counting two different numbers, a cell changing on a board
where nothing else could) stop calibration with :class:`CalibrationError` naming the cell.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.catalogue import HIDDEN_ID, Ids
from calibration.errors import CalibrationError
from calibration.loss_flags import (
    add_proofs,
    by_count,
    by_numbers,
    count_flags,
    seen_unflagged,
    settle,
)
from calibration.meanings import Meanings, new_meanings
from calibration.numbers import HIGHEST
from calibration.record import ClickKind, PlayedGame, Step
from solver import Cell, GameState, Tile
from solver.engine import neighbour_counts


def learn_marks(meanings: Meanings, game: PlayedGame) -> None:
    """FLAG from a right-click on a hidden cell, or none (a game that takes no right-click mark,
    see :attr:`Meanings.takes_marks`); QUESTION (or none) from a right-click on a flag."""
    for step in game.steps:
        if step.click != ClickKind.MARK or _won_by(game, step):
            continue
        before, after = int(step.before[step.cell]), int(step.after[step.cell])
        where = f"right-click on cell {step.cell}"
        if before == HIDDEN_ID:
            if after == HIDDEN_ID:
                meanings.unmarked.add(step.cell)
            else:
                meanings.give(after, Tile.FLAG, where)
            if meanings.unmarked and meanings.ids_of(Tile.FLAG):
                raise CalibrationError(
                    f"{where}: a right-click left cell {sorted(meanings.unmarked)[0]} unmarked, "
                    "and another drew a flag"
                )
        elif meanings.tiles.get(before) == Tile.FLAG:
            if after == HIDDEN_ID:
                meanings.has_question_marks = False
            else:
                meanings.has_question_marks = True
                meanings.give(after, Tile.QUESTION, where + " showing a flag")


def _won_by(game: PlayedGame, step: Step) -> bool:
    """Whether ``step`` is the right-click that won ``game`` (a game may declare a win once
    the last mine is flagged), other cells changing with it: its cell shows a flag as the won
    board draws its flags, which may differ from a flag in play (greyed)."""
    won = game.state is GameState.WON and step is game.steps[-1]
    return won and int(step.changed.sum()) > 1


def redrawn_numbers(before: Ids, after: Ids, safe: set[int]) -> dict[int, int] | None:
    """How a finished board ``after`` redrew the cells that showed numbers (``safe``
    appearances) on ``before``: each new picture with the number appearance it replaced.

    Empty when no such cell changed. A game that redraws them (one rings them in green)
    redraws every one, each number into one picture of its own never seen on a safe cell;
    anything else (some cells redrawn and others not, two numbers alike, a picture of another
    tile) is a board caught in the middle of its repaint, and gives None.
    """
    opened = np.isin(before, list(safe))
    changed = opened & (after != before)
    if not changed.any():
        return {}
    if (opened & ~changed).any():
        return None
    pairs = set(zip(after[opened].tolist(), before[opened].tolist(), strict=True))
    looks = dict(pairs)
    if len(looks) != len(pairs) or len(set(looks.values())) != len(looks):
        return None
    if HIDDEN_ID in looks or set(looks) & safe:
        return None
    return {int(look): int(number) for look, number in looks.items()}


def learn_from_loss(meanings: Meanings, game: PlayedGame, safe: set[int]) -> None:
    """EXPLODED, MINE and WRONG_FLAG from the last, losing step of ``game``, and what the loss
    proves about the numbers around (``safe``: the appearances seen on cells opened safely).

    A hidden cell that changes on the loss shows a MINE, unless its new picture is a number
    (a game that shows everything on a loss) or the EXPLODED one (a game that draws every mine
    as the one hit; on a cell of another size class, a picture alike is EXPLODED there). A
    question-marked one teaches nothing: some games show the mine under it, others keep the
    mark, redrawn on the finished board, mine or not. Cells opened before the loss
    keep their numbers, or are all redrawn, each number into a finished look of its own
    (:func:`redrawn_numbers`). A game that showed the
    mines shows all of them but perhaps those under marks
    redrawn so, so a number counts the mines shown plus at most its neighbours of that kind; one
    that shows only the mine hit bounds its neighbours.
    """
    if game.state is not GameState.LOST or not game.steps:
        return
    loss = _read_loss(meanings, game, safe)
    _learn_changed_cells(meanings, loss, safe)
    apart = bool(np.isin(loss.step.after[loss.changed], meanings.ids_of(Tile.MINE)).any())
    _learn_how_mines_are_drawn(meanings, loss.alike, apart, loss.where)
    kinds = _judge_flags(meanings, loss, safe)
    _bound_numbers_after_loss(meanings, loss, kinds, safe)


@dataclass(frozen=True)
class _Loss:
    """What the losing step of a game showed, read as the meanings stood before its cells
    were learned (see :func:`_read_loss`)."""

    step: Step
    where: str
    """The loss, for messages."""
    changed: npt.NDArray[np.bool_]
    """The cells the loss changed, but the one clicked."""
    uncovered: npt.NDArray[np.bool_]
    """Of those, the ones closed before (hidden, flagged or question-marked)."""
    flagged: npt.NDArray[np.bool_]
    """The cells flagged before the loss."""
    hits: list[int]
    """The pictures of the mine hit (one per size class it is drawn differently in)."""
    alike: bool
    """Whether the loss drew other mines as the one hit."""
    looks: dict[int, int]
    """The finished looks of the numbers opened before (see :func:`redrawn_numbers`)."""
    no_mines: set[int]
    """The pictures of closed cells the loss shows with no mine (see :func:`_no_mines`)."""
    under_marks: int | None
    """The mines the loss shows on no unmarked cell, where the board's mine count is known and
    the loss draws the mines apart from the hit one."""


def _read_loss(meanings: Meanings, game: PlayedGame, safe: set[int]) -> _Loss:
    """EXPLODED from the last, losing step of ``game`` (the picture on the cell clicked, and
    one alike on a cell of another size class), and what else the loss showed."""
    last = game.steps[-1]
    before, after = last.before, last.after
    where = f"the loss at cell {last.cell}"
    hit = int(after[last.cell])
    meanings.give(hit, Tile.EXPLODED, where)
    looks = redrawn_numbers(before, after, safe) or {}
    changed = last.changed
    changed[last.cell] = False
    closed = [i for i, tile in meanings.tiles.items() if tile.is_closed]
    uncovered = changed & np.isin(before, closed)
    catalogue = meanings.catalogue
    others = {int(i) for i in np.unique(after[uncovered])} - {hit} - safe
    if catalogue is not None:  # the mine hit's picture, on a cell of another size class
        for other in others:
            if not catalogue.share_class(hit, other) and catalogue.alike(hit, other):
                meanings.give(other, Tile.EXPLODED, f"{where}, drawn as the mine hit")
    hits = meanings.ids_of(Tile.EXPLODED)
    alike = bool(np.isin(after[uncovered], hits).any())
    marks = np.isin(before, [i for t in (Tile.FLAG, Tile.QUESTION) for i in meanings.ids_of(t)])
    mines = None if alike else game.mines  # with every mine drawn as the hit, no other is one
    no_mines = _no_mines(meanings, after[uncovered & ~marks], hit, mines, int(marks.sum()))
    flagged = np.isin(before, meanings.ids_of(Tile.FLAG))
    shown = uncovered & ~marks & ~np.isin(after, list(no_mines))
    under_marks = None if mines is None else mines - 1 - int(shown.sum())
    return _Loss(
        last, where, changed, uncovered, flagged, hits, alike, looks, no_mines, under_marks
    )


def _learn_changed_cells(meanings: Meanings, loss: _Loss, safe: set[int]) -> None:
    """MINE from the cells the loss changed, and the finished looks of closed cells with no
    mine and of the numbers opened before; raise at a change no rule explains."""
    before, after, where = loss.step.before, loss.step.after, loss.where
    uncovered, alike, looks, no_mines = loss.uncovered, loss.alike, loss.looks, loss.no_mines
    # A loss that draws known numbers on closed cells shows every cell: its other pictures with
    # no mine are numbers not seen yet (learned where they show in play), no closed cell's look.
    shows_numbers = bool((uncovered & np.isin(after, list(safe))).any())
    for row, column in zip(*np.nonzero(loss.changed), strict=True):
        cell = (int(row), int(column))
        was, now = int(before[cell]), int(after[cell])
        was_tile = meanings.tiles.get(was)
        known = meanings.tiles.get(now)
        if now in safe or was_tile == Tile.QUESTION or (known is not None and known.is_number):
            continue  # a number (one of another size class, too) shows no mine
        if now in no_mines:
            twin = _number_twin(meanings, now, safe)
            if twin is not None:  # a game that shows every cell: a number no click opened here
                meanings.give(now, twin, f"{where}, cell {cell}: {twin.name} of another cell size")
                meanings.finished.pop(now, None)  # taken for a closed cell's look before
            elif (
                was_tile == Tile.HIDDEN
                and not shows_numbers
                and meanings.finished.get(now, was) == was
            ):
                meanings.finished[now] = was
            continue
        if uncovered[cell]:
            # With every mine drawn as the one hit, any other picture uncovered is a number
            # (perhaps one never opened yet): it is learned where a cell opens safely.
            if not alike:
                meanings.give(now, Tile.MINE, f"{where}, cell {cell} uncovered")
        elif was_tile == Tile.FLAG:
            continue  # judged with every flag of the loss (see _judge_flags)
        elif was_tile is None and was not in safe:
            # A picture that never lasted: the board before the click was caught mid-draw (a game
            # on a loaded machine may pause in the middle of drawing a flood); it teaches nothing.
            continue
        elif (
            looks.get(now) == was
            and meanings.finished.get(now, was) == was
            and now not in meanings.tiles
        ):
            meanings.finished[now] = was
        else:
            raise _unexplained_change(meanings, loss, cell, safe)


def _number_twin(meanings: Meanings, look: int, safe: set[int]) -> Tile | None:
    """The number ``look`` shows, where it is a known number's picture on cells of another
    size class (a closed cell with no mine that a loss drew so shows its number, not a
    finished game's look of a closed cell); None if it is none."""
    catalogue = meanings.catalogue
    if catalogue is None:
        return None
    for other in sorted(safe):
        tile = meanings.tiles.get(other)
        if tile is None or not tile.is_number or catalogue.share_class(look, other):
            continue
        if catalogue.alike(look, other):
            return tile
    return None


def _unexplained_change(
    meanings: Meanings, loss: _Loss, cell: Cell, safe: set[int]
) -> CalibrationError:
    """The error for a cell the loss changed as no rule of Minesweeper does."""
    was, now = int(loss.step.before[cell]), int(loss.step.after[cell])
    known = {i: _known_as(meanings, i, safe) for i in (was, now)}
    beside = bool(neighbour_counts(loss.uncovered)[cell])
    return CalibrationError(
        f"{loss.where}: cell {cell} changed from appearance #{was} ({known[was]}) to "
        f"#{now} ({known[now]}) on losing, and not as every cell opened before; "
        "that is no rule of Minesweeper"
        + (
            ", but a neighbour the loss uncovered may have drawn over it: if the "
            "game's numbers or mines spill out of their cells, enlarge the window"
            if beside
            else ""
        )
    )


def _judge_flags(meanings: Meanings, loss: _Loss, safe: set[int]) -> npt.NDArray[np.int64]:
    """The kind of each flag of the loss (see :mod:`calibration.loss_flags`), -1 where none or
    where the loss shows a mine or a number there; what the loss proves of the kinds, added to
    what earlier losses did, and the flags' pictures read anew."""
    before, after, where = loss.step.before, loss.step.after, loss.where
    marks = loss.flagged | np.isin(before, meanings.ids_of(Tile.QUESTION))
    seen_unflagged(meanings, np.unique(after[~marks]).tolist())
    flag_tiles = (Tile.FLAG, Tile.WRONG_FLAG)
    other_tiles = [i for i, tile in meanings.tiles.items() if tile not in flag_tiles]
    no_kinds = other_tiles + list(safe | meanings.not_flags)
    kinds = np.where(loss.flagged & ~np.isin(after, no_kinds), after, -1).astype(np.int64)
    changed = loss.changed & (kinds >= 0)
    known = meanings.flag_kinds
    proofs = by_count(kinds[changed], loss.under_marks, int(marks.sum() - changed.sum()), known)
    if _mines_shown(meanings, loss):
        shown = np.isin(after, meanings.ids_of(Tile.MINE) + meanings.ids_of(Tile.EXPLODED))
        numbers = _number_pictures(meanings, loss, safe)
        unsure = _marks_redrawn(meanings, loss)
        for kind, true in by_numbers(
            kinds, shown, unsure, numbers, meanings.numbers.interval, known
        ).items():
            if proofs.setdefault(kind, true) != true:
                raise CalibrationError(
                    f"{where}: the mine count and the numbers disagree on the flags drawn as "
                    f"appearance #{kind}"
                )
    seen = {int(kind) for kind in np.unique(kinds[kinds >= 0])}
    for kind in seen:
        meanings.flag_where.setdefault(kind, f"{where}, a flag drawn so")
    add_proofs(known, proofs, seen, where)
    if _mines_shown(meanings, loss) and _numbers_uncovered(meanings, loss, marks):
        count_flags(meanings, kinds, *_counted(meanings, loss, kinds))
    settle(meanings)
    return kinds


def _mines_shown(meanings: Meanings, loss: _Loss) -> bool:
    """Whether the loss shows every mine (but those under marks), not only the one hit."""
    return bool(np.isin(loss.step.after, meanings.ids_of(Tile.MINE)).any()) or loss.alike


def _number_pictures(meanings: Meanings, loss: _Loss, safe: set[int]) -> npt.NDArray[np.int64]:
    """Per cell of the lost board, the number picture it shows (a finished look read as the
    number it replaced), -1 elsewhere. A flag that turned into a number's picture may be the
    game's sign of a wrong flag (one draws it as its blank 0), not that number: it is none."""
    after = loss.step.after
    numbers = after.astype(np.int64)
    for look, number in meanings.finished.items():
        numbers[after == look] = number
    numbers[~np.isin(numbers, list(safe)) | loss.flagged] = -1
    return numbers


def _marks_redrawn(meanings: Meanings, loss: _Loss) -> npt.NDArray[np.bool_]:
    """The question-marked cells the loss drew as no known tile: each may hide a mine. (One
    that shows a known tile, the mine under it or the mark unchanged on a cell with none, as
    some games leave it, is counted as what it shows.)"""
    before, after = loss.step.before, loss.step.after
    questions = np.isin(before, meanings.ids_of(Tile.QUESTION))
    return questions & ~np.isin(after, list(meanings.tiles))


def _numbers_uncovered(meanings: Meanings, loss: _Loss, marks: npt.NDArray[np.bool_]) -> bool:
    """Whether the loss drew numbers on closed cells it uncovered, not only mines (a game that
    shows every cell): only such a game may draw a wrong flag as its cell's number too. A
    picture there that is no other known tile nor a closed cell's look is a number."""
    shown = loss.step.after[loss.uncovered & ~marks]
    closed = {look for look, was in meanings.finished.items() if was == HIDDEN_ID}
    others = {i for i, tile in meanings.tiles.items() if not tile.is_number}
    return not np.isin(shown, list(others | closed | loss.no_mines)).all()


def _counted(
    meanings: Meanings, loss: _Loss, kinds: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per cell of the lost board, the mines shown around it (the mine hit, the MINEs, the
    flags of a kind proven on mines; ``kinds``: see :func:`_judge_flags`), and its neighbours
    whose mark or flag of an unproven kind may hide one."""
    on_mines = [kind for kind, true in meanings.flag_kinds.items() if true]
    unproven = [kind for kind, true in meanings.flag_kinds.items() if true is None]
    shown = np.isin(loss.step.after, meanings.ids_of(Tile.MINE) + meanings.ids_of(Tile.EXPLODED))
    counts = neighbour_counts(shown).astype(np.int64)
    counts += neighbour_counts(np.isin(kinds, on_mines))
    slack = neighbour_counts(_marks_redrawn(meanings, loss) | np.isin(kinds, unproven))
    return counts, slack.astype(np.int64)


def _bound_numbers_after_loss(
    meanings: Meanings, loss: _Loss, kinds: npt.NDArray[np.int64], safe: set[int]
) -> None:
    """What the loss proves about the numbers on its board: each counts at least the mines
    shown around it (the mine hit, the MINEs, the flags of a kind proven on mines, see
    :func:`_judge_flags`); on a board that shows the mines, at most those plus its neighbours
    whose mark or flag of an unproven kind may hide one."""
    where = loss.where
    mines_shown = _mines_shown(meanings, loss)
    counts, slack = _counted(meanings, loss, kinds)
    numbers = _number_pictures(meanings, loss, safe)
    for row, column in zip(*np.nonzero(numbers >= 0), strict=True):
        cell = (int(row), int(column))
        number = int(counts[cell])
        high = number + int(slack[cell]) if mines_shown else HIGHEST
        meanings.numbers.narrow(
            int(numbers[cell]), number, high, f"{where}, cell {cell} next to {number} mines shown"
        )


def _no_mines(
    meanings: Meanings,
    uncovered: npt.NDArray[np.int32],
    hit: int,
    mines: int | None,
    marked: int = 0,
) -> set[int]:
    """The pictures of the unmarked closed cells a loss changed (``uncovered``, besides the
    mine ``hit``) that cannot be mines, where the board's mine count ``mines`` is known and the
    loss draws the mines apart from the hit one. A game
    that darkens its whole field on a loss so draws its closed
    cells with no mine. Pictures alike (one tile's in other size classes) count together.

    Such a loss shows every mine but the hit one and those under the ``marked`` cells: with
    more pictures than that, a picture on more cells than there are mines besides the hit one
    is none; so is every other picture where exactly one picture's cells are as many as the
    mines shown may be (a loss leaving few closed cells), and one already learned as a closed
    cell's finished look."""
    pictures, counts = np.unique(uncovered[uncovered != hit], return_counts=True)
    cells = dict(zip(pictures.tolist(), counts.tolist(), strict=True))
    learned = {picture for picture in cells if meanings.finished.get(picture) == HIDDEN_ID}
    most = -1 if mines is None else mines - 1
    if most < 0 or sum(cells.values()) <= most:
        return learned
    catalogue = meanings.catalogue

    def one_tile(first: int, second: int) -> bool:
        return first == second or catalogue is not None and catalogue.alike(first, second)

    def counted(picture: int) -> int:
        return sum(count for other, count in cells.items() if one_tile(picture, other))

    # Comparing pictures is slow across size classes: those over the count alone come first.
    over = {picture for picture, count in cells.items() if count > most} or {
        picture for picture in cells if counted(picture) > most
    }
    over |= learned
    rest = [picture for picture in cells if not any(one_tile(picture, no) for no in over)]
    if sum(cells[picture] for picture in rest) > most:
        fits = [picture for picture in rest if most - marked <= counted(picture) <= most]
        if fits and all(one_tile(fits[0], other) for other in fits):
            over |= {picture for picture in rest if not one_tile(fits[0], picture)}
    return {picture for picture in cells if any(one_tile(picture, no) for no in over)}


def _known_as(meanings: Meanings, appearance: int, safe: set[int]) -> str:
    """What ``appearance`` is known to be, for an error message."""
    tile = meanings.tiles.get(appearance)
    if tile is not None:
        return tile.name
    return "a number not learned yet" if appearance in safe else "never seen opened safely"


def _learn_how_mines_are_drawn(meanings: Meanings, alike: bool, apart: bool, where: str) -> None:
    """Record whether this loss drew the other mines as the one hit (``alike``) or as MINEs
    (``apart``); raise if it did both, or an earlier loss did the other."""
    if not alike and not apart:
        return  # only the mine hit was shown: nothing said
    if alike and apart or meanings.hit_mine_apart is alike:
        raise CalibrationError(
            f"{where}: the other mines were drawn {'as' if alike else 'unlike'} the one hit "
            f"{'and also unlike it' if alike and apart else 'and the other way on an earlier loss'}"
        )
    meanings.hit_mine_apart = apart


def learn_from_play(meanings: Meanings, game: PlayedGame, safe: set[int]) -> None:
    """Upper bounds on the numbers from every board of ``game`` before its end: a number is at
    most its count of neighbours not opened (those whose picture is not in ``safe``)."""
    if not safe:
        return
    steps = game.steps[:-1] if game.state is GameState.LOST else game.steps
    opened_ids = np.array(sorted(safe))
    for index, step in enumerate(steps, start=1):
        opened = np.isin(step.after, opened_ids)
        closed_around = neighbour_counts(~opened)
        for appearance in np.unique(step.after[opened]).tolist():
            cells = opened & (step.after == appearance)
            high = int(closed_around[cells].min())
            where = f"click {index} (on {step.cell}), a cell with {high} closed neighbours"
            meanings.numbers.narrow(int(appearance), 0, high, where)


def learn_numbers(meanings: Meanings, safe: set[int]) -> None:
    """Give every number picture whose value the bounds force its tile."""
    for appearance, value in meanings.numbers.values(safe, meanings.share_class).items():
        meanings.give(appearance, Tile(value), meanings.numbers.where.get(appearance, "bounds"))


def learn_game(meanings: Meanings, game: PlayedGame, safe: set[int]) -> None:
    """Add what one finished game proves (its marks first: its loss needs to know its flags);
    ``safe`` are the appearances seen on cells opened safely, in this game or any other."""
    seen_unflagged(meanings, safe)  # a flag kind opened safely since is a number
    meanings.opened_after_all(safe)
    learn_marks(meanings, game)
    if game.gone is not None:
        meanings.ends_off_board = True
    learn_from_loss(meanings, game, safe)
    learn_from_play(meanings, game, safe)
    learn_numbers(meanings, safe)
    settle(meanings)  # a number learned may tell a flag kind is none


def learn(games: Iterable[PlayedGame], safe: set[int]) -> Meanings:
    """All meanings the recorded games prove."""
    meanings = new_meanings()
    games = list(games)
    for game in games:
        learn_game(meanings, game, safe)
    return meanings
