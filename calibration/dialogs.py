"""Answering a dialog a game draws inside its own window, over a veil (a browser's "Cancel"/"OK"
box over the page it dims; see :mod:`vision.veil`): no window of its own to send Escape to, so
its button that leaves the game as it is gets clicked.

Its buttons are patches of one colour with letters inside, found only where the window is not
as the veil makes it (the dialog itself), and each is read alone
(:func:`calibration.labels.read_label`): tesseract misses a short label such as "OK" among the
dialog's other text. The button chosen says "Cancel", else "No", else "OK"
(:data:`calibration.labels.DISMISSING_WORDS`); one that says the game closes never is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum

import cv2
import numpy as np
import numpy.typing as npt

from calibration.labels import NoTextReader, dismissing_rank, read_label
from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.skin import Image
from vision.stable import Grabber, wait_stable
from vision.veil import find_veil

Mask = npt.NDArray[np.bool_]

COLOUR_STEPS = (16, 32)
"""Colour levels one button's face may span, tried in turn: a face may be shaded a little, or
ringed by an edge only a little lighter (a bevel)."""
BUTTON_HEIGHTS = (12, 64)
"""Pixels, least and most, of a button's height."""
BUTTON_WIDTHS = (20, 320)
"""Pixels, least and most, of a button's width."""
MIN_FILL = 0.45
"""Share of its box a button's face fills (the rest: its letters and rounded corners)."""
MIN_INK = 0.02
"""Share of the middle of a button's box its letters cover at least."""
MIN_IN_DIALOG = 0.8
"""Share of a button's box that must lie off the veil, in the dialog."""
MAX_BUTTONS = 12
"""Patches read at most (each read costs tesseract two runs)."""
INSET_PART = 6
"""A button's label is read inside its box, 1/INSET_PART of its height in from each side: an
edge or a focus ring drawn round it (a browser's default button) spoils tesseract's reading."""
PANEL_LEVELS = 6
"""Colour levels by which a pixel must change to count as drawn over."""
PANEL_GAP = 9
"""Pixels between two changed parts of one panel drawn over a window (its text, its frame and
its buttons, the plain parts between them unchanged where they match what lay under them)."""
MIN_UNCHANGED = 0.5
"""Share of a window a panel drawn over it leaves as it was, at least: a game that paints its
whole window over (a message, a menu) shows no dialog."""
DIALOGS_IN_A_ROW = 3
"""Dialogs answered at most one after another: answering one may open the next (a name asked
for a best time, then the table of best times)."""
DIALOG_SETTLING = 0.1
"""Seconds two captures of the window must be alike, apart, before a dialog in it is read: a
browser fades its dialog in over a few frames."""


class DialogAnswer(Enum):
    """What :func:`answer_dialog_over` found."""

    NO_VEIL = "no dialog veils the game"
    ANSWERED = "a dialog in the game's window was answered"
    UNANSWERED = (
        "a dialog drawn in the game's window veils it, and none of its buttons reads Cancel, No "
        "or OK"
    )


@dataclass(frozen=True)
class DialogButton:
    """A button read in a dialog: its label in plain lower-case letters, where it is (in the
    capture it was read in), and its picture there."""

    label: str
    rect: Rect
    picture: Image = field(repr=False)


@dataclass(frozen=True)
class VeiledDialog:
    """A dialog drawn in a window over a veil, and its button that keeps the game (None: no
    button says so, or no word can be read)."""

    button: DialogButton | None


def answer_dialog_over(
    grabber: Grabber,
    window: Rect,
    before: Image,
    board: tuple[Image, Rect] | None,
    click: Callable[[DialogButton], bool],
) -> DialogAnswer:
    """Answer the dialog drawn over a veil in ``window`` (a screen rectangle), if there is one,
    by ``click`` on its button that keeps the game (the button given in screen coordinates;
    ``click`` says whether it was clicked: a button gone by then is no dialog). ``before`` is
    the window before any dialog, and ``board`` the board as last read there with its place in
    the window: a board played since differs from ``before`` by more than a veil.

    Play and calibration both answer dialogs through this one function."""
    board_at = None
    if board is not None:
        before = with_part(before, *board)
        board_at = board[1]
    dialog = dialog_over(grabber, window, before, board_at)
    if dialog is None:
        return DialogAnswer.NO_VEIL
    if dialog.button is None:
        return DialogAnswer.UNANSWERED
    box = dialog.button.rect
    on_screen = replace(box, left=window.left + box.left, top=window.top + box.top)
    if not click(replace(dialog.button, rect=on_screen)):
        return DialogAnswer.NO_VEIL
    return DialogAnswer.ANSWERED


def dialog_over(
    grabber: Grabber, window: Rect, before: Image, board_at: Rect | None = None
) -> VeiledDialog | None:
    """The dialog drawn over a veil in ``window`` (a screen rectangle) once the window holds
    still (a browser fades its dialog in), ``before`` being the window before any dialog (see
    :func:`with_part`), in which the board lies at ``board_at``; None if no veil, or if the
    window never holds still. Its button's rectangle is in window coordinates."""
    try:
        now = wait_stable(grabber, window, interval=DIALOG_SETTLING)
    except UnstableFrameError:
        return None
    return veiled_dialog(before, now, board_at)


def veiled_dialog(before: Image, now: Image, board_at: Rect | None = None) -> VeiledDialog | None:
    """The dialog in ``now`` (a capture of a game's window) over a veil through which it shows
    ``before`` (the window before the dialog; see :func:`with_part`), or None if no veil. A
    page may also draw a window of its own over the board (at ``board_at`` in the window),
    undimmed (a best-time box on a fast win): that is a dialog too where one of its buttons
    answers it, else None."""
    veil = find_veil(before, now)
    if veil is not None:
        try:
            return VeiledDialog(dismissing_button(now, veil.off(before, now)))
        except NoTextReader:
            return VeiledDialog(None)
    panels = None if board_at is None else panels_over_the_board(before, now, board_at)
    if panels is None:
        return None
    try:
        button = dismissing_button(now, panels)
    except NoTextReader:
        return None
    return None if button is None else VeiledDialog(button)


def panels_over_the_board(before: Image, now: Image, board_at: Rect) -> Mask | None:
    """The boxes of the patches where ``now`` differs from ``before`` (two captures of a window)
    that lie over the board (at ``board_at``) and past its edge: a panel drawn over the board.
    A panel differs from what lies under it only in part (gray over gray does not change), so
    changes a few pixels apart are one patch. The game's own changes (cells opened, a loss
    that shows every cell) stay inside the board: they are no panel, and cost no reading.
    None where there is no panel, or most of the window changed (a game that paints its whole
    window over shows no dialog)."""
    changed = np.abs(now.astype(np.int16) - before.astype(np.int16)).max(axis=2) > PANEL_LEVELS
    if not changed.any() or changed.mean() > 1 - MIN_UNCHANGED:
        return None
    grown = cv2.dilate(changed.astype(np.uint8), np.ones((PANEL_GAP, PANEL_GAP), np.uint8))
    count, labels = cv2.connectedComponents(grown, connectivity=8)
    panels = np.zeros(changed.shape, dtype=bool)
    for label in range(1, count):
        ys, xs = np.nonzero(changed & (labels == label))
        box = Rect(int(xs.min()), int(ys.min()), int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1)
        over = box.intersection(board_at)
        if over.width and over.height and not board_at.contains_rect(box):
            panels[box.top : box.bottom, box.left : box.right] = True
    return panels if panels.any() else None


def with_part(window: Image, part: Image, at: Rect) -> Image:
    """A copy of ``window`` (a capture) with ``part`` (a capture of a region of it, such as the
    board as last read) pasted at ``at`` (that region in window coordinates; what lies outside
    the window is left out)."""
    pasted = window.copy()
    inside = at.intersection(Rect(0, 0, window.shape[1], window.shape[0]))
    if inside.width and inside.height:
        pasted[inside.top : inside.bottom, inside.left : inside.right] = part[
            inside.top - at.top : inside.bottom - at.top,
            inside.left - at.left : inside.right - at.left,
        ]
    return pasted


def button_patches(picture: Image, dialog: npt.NDArray[np.bool_]) -> list[Rect]:
    """Boxes (in ``picture``'s coordinates) of the patches of one colour shaped like a button,
    with letters inside, that lie in ``dialog`` (a mask of ``picture``'s pixels), top to bottom,
    then left to right."""
    found: set[Rect] = set()
    for step in COLOUR_STEPS:
        codes = (picture // step).astype(np.int32)
        code = codes[:, :, 0] * 65536 + codes[:, :, 1] * 256 + codes[:, :, 2]
        code[~dialog] = -1
        values, counts = np.unique(code[code >= 0], return_counts=True)
        for value in values[counts >= MIN_FILL * BUTTON_HEIGHTS[0] * BUTTON_WIDTHS[0]]:
            found.update(_buttons_of_one_colour((code == value).astype(np.uint8), dialog))
    return sorted(found, key=lambda box: (box.top, box.left))[:MAX_BUTTONS]


def _buttons_of_one_colour(
    face: npt.NDArray[np.uint8], dialog: npt.NDArray[np.bool_]
) -> list[Rect]:
    """The boxes of the patches of ``face`` (a mask of one colour) shaped like a button."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(face, connectivity=4)
    found = []
    for left, top, width, height, area in stats[1:count].tolist():
        if not (
            BUTTON_HEIGHTS[0] <= height <= BUTTON_HEIGHTS[1]
            and BUTTON_WIDTHS[0] <= width <= BUTTON_WIDTHS[1]
            and width >= height
            and area >= MIN_FILL * width * height
        ):
            continue
        box = Rect(left, top, width, height)
        inside = dialog[box.top : box.bottom, box.left : box.right].mean()
        middle = face[
            top + height // 4 : top + height - height // 4,
            left + width // 4 : left + width - width // 4,
        ]
        if inside >= MIN_IN_DIALOG and middle.size and 1 - middle.mean() >= MIN_INK:
            found.append(box)
    return found


def dialog_seen(picture: Image, origin: tuple[int, int]) -> str | None:
    """Where ``picture`` (a capture whose top-left is screen ``origin``) shows a dialog's button
    that answers it, said for an error, or None (also without tesseract). For a window in which
    no board was found: a page's dialog dims the board under it, so that no tile matches. With
    no veil known the whole picture is read, and the button is only named, never clicked."""
    try:
        button = dismissing_button(picture, np.ones(picture.shape[:2], dtype=bool))
    except NoTextReader:
        return None
    if button is None:
        return None
    x, y = origin[0] + button.rect.centre[0], origin[1] + button.rect.centre[1]
    return (
        f"a dialog's {button.label!r} button shows at ({x}, {y}): if a dialog covers the game, "
        "answer it, then start again"
    )


def dismissing_button(picture: Image, dialog: npt.NDArray[np.bool_]) -> DialogButton | None:
    """The button of the dialog in ``picture`` (where ``dialog`` is true) that answers it and
    leaves the game as it is (see the module docstring), or None.

    Raises :class:`calibration.labels.NoTextReader` without the tesseract program.
    """
    best: tuple[int, DialogButton] | None = None
    for box in button_patches(picture, dialog):
        inset = max(1, box.height // INSET_PART)  # off the button's edge and any ring round it
        label = read_label(
            picture[box.top + inset : box.bottom - inset, box.left + inset : box.right - inset]
        )
        rank = dismissing_rank(label)
        if rank is not None and (best is None or rank < best[0]):
            seen = picture[box.top : box.bottom, box.left : box.right]
            best = (rank, DialogButton(label, box, seen))
    return None if best is None else best[1]
