"""What a loss does to the flags: which picture a loss draws on a flag on a mine and which on a
wrong flag (a flag on a safe cell), proven from what losses show, never assumed from one game.

Games differ. Most leave a flag on a mine standing and draw a wrong one crossed; some draw a
flag on a mine anew (a cross on another ground) and leave a wrong one standing, or redraw it
in another ink; others redraw both, each its own way. Each picture flags show after a loss
(the flag's own, for a flag left standing) is one *kind*; a kind is true (on mines) or false.
On a loss that shows every mine but those under marks, a kind is proven where one choice
alone fits what the loss shows:

* the board's mine count: the mines neither shown nor hit are under marks
  (:func:`by_count`);
* the numbers: each counts the mines shown around it plus its neighbours of the true kinds,
  alike on every cell of its picture and within what earlier boards proved of it
  (:func:`by_numbers`).

Proofs add up over the games (:attr:`calibration.meanings.Meanings.flag_kinds`), and the
meanings follow (:func:`settle`): a kind proven false is the WRONG_FLAG, a true one a finished
look of the flag; beside a proven kind of a size class, its one other kind is the opposite.
Where nothing is proven, the one picture losses turned flags into is taken for the WRONG_FLAG,
the way most games draw it, and read so until a proof says otherwise; two unproven pictures are
left unread. Numbers next to an unproven flag are bounded as if it may hide a mine or not.

Some games draw a wrong flag as the number its cell would show (a game of toolkit buttons that
shows every cell on a loss). A picture seen where no flag was placed is no kind
(:func:`seen_unflagged`), and one that may be the number of every flag it was drawn on is not
taken for the WRONG_FLAG (:func:`may_be_number`): it is learned as a number where it opens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import product

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.meanings import Meanings
from calibration.numbers import HIGHEST
from solver import Tile
from solver.engine import neighbour_counts

Proofs = dict[int, bool]
"""Per kind (a picture flags show after a loss), whether it is proven on mines (True) or not."""
MAX_KINDS = 4
"""Kinds judged together at most (the choices double with each)."""


def agrees(truth: Mapping[int, bool], proven: Mapping[int, bool | None]) -> bool:
    """Whether ``truth`` keeps every kind ``proven`` so far."""
    return all(proven.get(kind) in (None, true) for kind, true in truth.items())


def by_count(
    kinds: npt.NDArray[np.int64],
    under_marks: int | None,
    marked: int,
    proven: Mapping[int, bool | None],
) -> Proofs:
    """The truth of the changed flags' ``kinds`` (one per flag) where one choice alone fits
    ``under_marks``, the mines the loss shows under no unmarked cell, of which ``marked`` other
    marked cells may hide some (None: the count is not known)."""
    pictures, counts = np.unique(kinds, return_counts=True)
    if under_marks is None or not len(pictures) or len(pictures) > MAX_KINDS:
        return {}
    fitting = []
    for chosen in product((False, True), repeat=len(pictures)):
        truth = dict(zip(pictures.tolist(), chosen, strict=True))
        flagged = sum(int(count) for count, taken in zip(counts, chosen, strict=True) if taken)
        if under_marks - marked <= flagged <= under_marks and agrees(truth, proven):
            fitting.append(truth)
    return fitting[0] if len(fitting) == 1 else {}


def by_numbers(
    kinds: npt.NDArray[np.int64],
    shown: npt.NDArray[np.bool_],
    unsure: npt.NDArray[np.bool_],
    numbers: npt.NDArray[np.int64],
    interval: Callable[[int], tuple[int, int]],
    proven: Mapping[int, bool | None],
) -> Proofs:
    """The kinds every choice that fits the numbers agrees on. ``kinds``: per cell the kind of
    its flag, -1 where none; ``shown``: the mines the loss shows; ``unsure``: cells that may
    hide one (question marks); ``numbers``: per cell its number picture, -1 where none;
    ``interval``: what earlier boards proved of a picture's value."""
    names = sorted(int(kind) for kind in np.unique(kinds[kinds >= 0]))
    if not names or len(names) > MAX_KINDS:
        return {}
    low = neighbour_counts(shown).astype(np.int64)
    slack = neighbour_counts(unsure).astype(np.int64)
    around = {kind: neighbour_counts(kinds == kind).astype(np.int64) for kind in names}
    fitting = []
    for chosen in product((False, True), repeat=len(names)):
        truth = dict(zip(names, chosen, strict=True))
        if not agrees(truth, proven):
            continue
        counted = low + sum((around[kind] for kind, true in truth.items() if true), start=0)
        if _numbers_fit(numbers, counted, counted + slack, interval):
            fitting.append(truth)
    if not fitting:
        return {}
    return {kind: fitting[0][kind] for kind in names if len({f[kind] for f in fitting}) == 1}


def _numbers_fit(
    numbers: npt.NDArray[np.int64],
    low: npt.NDArray[np.int64],
    high: npt.NDArray[np.int64],
    interval: Callable[[int], tuple[int, int]],
) -> bool:
    """Whether each number picture can show one value on all its cells, from ``low`` to
    ``high`` on each and within its ``interval``."""
    for picture in np.unique(numbers[numbers >= 0]).tolist():
        cells = numbers == picture
        least, most = interval(int(picture))
        if max(least, int(low[cells].max())) > min(most, HIGHEST, int(high[cells].min())):
            return False
    return True


def add_proofs(
    known: dict[int, bool | None], proofs: Proofs, seen: Iterable[int], where: str
) -> None:
    """Record the ``proofs`` of a loss, and the kinds it showed (``seen``) as unproven where
    nothing is; raise where a proof contradicts an earlier one."""
    for kind, true in proofs.items():
        if known.get(kind) not in (None, true):
            raise CalibrationError(
                f"{where}: flags drawn as appearance #{kind} are proven "
                f"{'on mines' if true else 'on safe cells'}, and the other way by an earlier loss"
            )
        known[kind] = true
    for kind in seen:
        known.setdefault(kind, None)


def truths(
    known: Mapping[int, bool | None], flags: Iterable[int], share_class: Callable[[int, int], bool]
) -> dict[int, bool]:
    """Per kind of ``known``, its truth: proven, or following from the proven kind of its size
    class (its one other kind is the opposite), or else, for the one changed kind of a class,
    false (the common way). ``flags``: the flag's own pictures (the kinds of flags left
    standing), never read otherwise."""
    flags = set(flags)
    result = {kind: true for kind, true in known.items() if true is not None}
    for kind, true in known.items():
        if true is not None or kind in flags:
            continue
        rivals = [other for other in known if other != kind and share_class(kind, other)]
        proven = [result[other] for other in rivals if other in result]
        if len(rivals) == 1 and proven:
            result[kind] = not proven[0]
        elif not proven and all(other in flags for other in rivals):
            result[kind] = False
    return result


def settle(meanings: Meanings) -> None:
    """Read every flag kind as :func:`truths` says, what was read before forgotten: a false
    kind as the WRONG_FLAG (unless it :func:`may_be_number`), a true one as a finished look of
    the flag. A kind seen where no flag was placed is forgotten."""
    flags = meanings.ids_of(Tile.FLAG)
    for kind in meanings.flag_kinds:
        if meanings.tiles.get(kind) == Tile.WRONG_FLAG:
            del meanings.tiles[kind], meanings.where[kind]
        if meanings.finished.get(kind) in flags:
            del meanings.finished[kind]
    for kind in meanings.not_flags & set(meanings.flag_kinds):
        del meanings.flag_kinds[kind]
        meanings.flag_counts.pop(kind, None)
    for kind, true in truths(meanings.flag_kinds, flags, meanings.share_class).items():
        if kind in flags:
            continue
        if true:
            meanings.finished[kind] = next(
                (f for f in flags if meanings.share_class(f, kind)), flags[0]
            )
        elif not may_be_number(meanings, kind):
            meanings.give(kind, Tile.WRONG_FLAG, meanings.flag_where.get(kind, "a loss"))


def seen_unflagged(meanings: Meanings, pictures: Iterable[int]) -> None:
    """Record ``pictures`` (but the flag's own) as seen where no flag was placed: a wrong flag
    is drawn only where the player put a flag, so none of them is a flag kind (a game drew a
    number on a wrong flag), and a kind among them is forgotten."""
    new = set(pictures) - set(meanings.ids_of(Tile.FLAG)) - meanings.not_flags
    meanings.not_flags |= new
    if new & set(meanings.flag_kinds):
        settle(meanings)


def count_flags(
    meanings: Meanings,
    kinds: npt.NDArray[np.int64],
    low: npt.NDArray[np.int64],
    slack: npt.NDArray[np.int64],
) -> None:
    """Record, per kind of ``kinds`` (per cell, -1 where none) not proven on mines, the mines
    around each of its flags that a loss showing every mine counts for sure: ``low`` shown
    (with flags proven on mines), none of the ``slack`` cells that may hide one beside it."""
    for kind in np.unique(kinds[kinds >= 0]).tolist():
        sure = (kinds == kind) & (slack == 0)
        if meanings.flag_kinds.get(kind) is not True and sure.any():
            meanings.flag_counts.setdefault(kind, set()).update(low[sure].tolist())


def may_be_number(meanings: Meanings, kind: int) -> bool:
    """Whether the flag ``kind`` may be the picture of the number its flags' cells would show (a
    game may draw a wrong flag so): every flag it was counted on had the same number of mines
    around it, and no other picture of that number is known in its size class. A wrong flag's
    own picture is drawn on cells of any count, or beside another picture of that number."""
    counts = meanings.flag_counts.get(kind, set())
    if len(counts) != 1:
        return False
    (value,) = counts
    known = meanings.ids_of(Tile(value))
    return not any(other != kind and meanings.share_class(other, kind) for other in known)
