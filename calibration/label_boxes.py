"""Reading, box by box, the labels a read of the whole window misses.

Tesseract reads a window's scattered words (:func:`calibration.labels.read_words`) well when
they are large and dark on light; it misses a browser's 13-px "Restart!" on a grey button, and
letters in colour on a coloured button. So when that read finds no new-game label, each place
beside the board that stands out from the window's background (a button, a line of text) is
read alone: its letters are told from its own commonest colour (whatever the colours, either
way round), the frame around them dropped, scaled to a height tesseract reads well, and read as
one line. At most :data:`MAX_BOXES` places are read, nearest the board first.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.buttons import LABEL_JOIN, MARGIN
from calibration.faces import commonest_colour
from calibration.labels import (
    MIN_CONFIDENCE,
    NEAR_WORD,
    NEW_GAME_WORDS,
    QUITTING_WORDS,
    NoTextReader,
    Word,
    plain_letters,
)
from vision.geometry import Rect
from vision.skin import Image

MAX_BOXES = 12
"""Places read at most (each about 0.15 s): calibration waits no longer than two seconds."""
BOX_HEIGHTS, BOX_WIDTHS = (6, 100), (8, 400)
"""Heights and widths (pixels) of a place that may be a label or a button bearing one: smaller
is no word, larger is a panel (the board's frame, a page's banner)."""
TEXT_HEIGHT = 32
"""Pixels high the letters are read at: tesseract misses letters under about 20."""
PAD = 4
"""Pixels of the window kept around a place, and of white around its letters when they are
read: tesseract loses letters that touch the picture's edge."""
FRAME_SPAN = 0.9
"""A stroke spanning this share of a place's width and height is its frame, not a letter."""


def boxed_words(frame: Image, blank: list[Rect], known: list[Word]) -> list[Word]:
    """The words of new-game and quitting labels in ``frame`` (a BGR capture of the window)
    outside ``blank``, each place read alone, apart from the places whose words ``known`` holds
    already; a word near one of the new-game labels' words is taken for it ("restert" for
    "restart"). The words of one place are on lines of their own. Other words are left out: a
    misreading of a picture is no word that says what a place does.

    Raises :class:`calibration.labels.NoTextReader` without the tesseract program.
    """
    found: list[Word] = []
    for index, box in enumerate(label_places(frame, blank, [word.rect for word in known])):
        ink = ink_picture(frame, box)
        for text, rect, line in [] if ink is None else read_line(ink):
            word = nearest_word(text)
            if word in NEW_GAME_WORDS or word in QUITTING_WORDS:
                found.append(Word(word, rect, (-1 - index, 0, line)))
    return found


def read_line(ink: InkPicture) -> list[tuple[str, Rect, int]]:
    """Each word tesseract reads surely enough in ``ink`` as one line of text: its plain
    letters, where it is in the window, and its line's number.

    Raises :class:`calibration.labels.NoTextReader` without the tesseract program.
    """
    import pytesseract

    try:
        data = pytesseract.image_to_data(
            ink.picture, config="--psm 7", output_type=pytesseract.Output.DICT
        )
    except pytesseract.TesseractNotFoundError as error:
        raise NoTextReader(f"no label read: {error}") from error
    words = []
    for index, text in enumerate(data["text"]):
        letters = plain_letters(str(text))
        if letters and float(data["conf"][index]) >= MIN_CONFIDENCE:
            rect = Rect(*(int(data[key][index]) for key in ("left", "top", "width", "height")))
            words.append((letters, ink.rect_in_window(rect), int(data["line_num"][index])))
    return words


def label_places(frame: Image, blank: list[Rect], known: list[Rect]) -> list[Rect]:
    """The places of ``frame`` that stand out from its commonest colour, off ``blank`` and the
    window's edge, of a label's size and away from the ``known`` words: at most
    :data:`MAX_BOXES`, nearest the first of ``blank`` (the board) first. What stands out and is
    larger than a label (the board's frame) is left out before strokes are joined into places:
    a button beside it is not part of it."""
    height, width = frame.shape[:2]
    where = np.zeros((height, width), dtype=bool)
    where[MARGIN : height - MARGIN, MARGIN : width - MARGIN] = True
    for rect in blank:
        where[rect.top : rect.bottom, rect.left : rect.right] = False
    background = np.broadcast_to(commonest_colour(frame[::4, ::4]), frame.shape)
    stands_out = ((frame != background).any(axis=2) & where).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(stands_out, connectivity=8)
    larger = (stats[:, cv2.CC_STAT_HEIGHT] > BOX_HEIGHTS[1]) | (
        stats[:, cv2.CC_STAT_WIDTH] > BOX_WIDTHS[1]
    )
    larger[0] = False  # the background
    places = [
        place
        for place in joined_places(stands_out.astype(bool) & ~larger[labels])
        if BOX_HEIGHTS[0] <= place.height <= BOX_HEIGHTS[1]
        and BOX_WIDTHS[0] <= place.width <= BOX_WIDTHS[1]
        and not any(place.overlaps(rect) for rect in known)
    ]
    if blank:
        places.sort(key=lambda place: distance(place, blank[0]))
    return places[:MAX_BOXES]


def joined_places(strokes: npt.NDArray[np.bool_]) -> list[Rect]:
    """The bounding boxes of the ``strokes`` (a mask) less than :data:`LABEL_JOIN` pixels apart
    (the letters and words of a label, a button and its label)."""
    joined = cv2.dilate(strokes.astype(np.uint8), np.ones(LABEL_JOIN, np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    places = []
    for label in range(1, count):
        left, top, width, height = (int(value) for value in stats[label][:4])
        ys, xs = np.nonzero(strokes[top : top + height, left : left + width])
        x, y = left + int(xs.min()), top + int(ys.min())
        places.append(Rect(x, y, left + int(xs.max()) + 1 - x, top + int(ys.max()) + 1 - y))
    return places


def distance(one: Rect, other: Rect) -> int:
    """Pixels between two rectangles along the farther apart axis (0 where they overlap)."""
    across = max(other.left - one.right, one.left - other.right, 0)
    down = max(other.top - one.bottom, one.top - other.bottom, 0)
    return max(across, down)


@dataclass(frozen=True)
class InkPicture:
    """A place's letters, dark on white at :data:`TEXT_HEIGHT` with a border of :data:`PAD`,
    the window point its letters start at, and how much larger they are shown."""

    picture: npt.NDArray[np.uint8]
    left: int
    top: int
    scale: float

    def rect_in_window(self, rect: Rect) -> Rect:
        """``rect`` (in the picture) in the window's coordinates."""
        x = self.left + (rect.left - PAD) / self.scale
        y = self.top + (rect.top - PAD) / self.scale
        size = (max(1, round(rect.width / self.scale)), max(1, round(rect.height / self.scale)))
        return Rect(round(x), round(y), *size)


def ink_picture(frame: Image, box: Rect) -> InkPicture | None:
    """The letters in ``box`` of ``frame``: how far each pixel is from the box's commonest
    colour (its fill), the strokes that touch the picture's edge or span the box (its frame)
    left out, cut to the letters and scaled to :data:`TEXT_HEIGHT`. None if no letter is left."""
    height, width = frame.shape[:2]
    left, top = max(box.left - PAD, 0), max(box.top - PAD, 0)
    crop = frame[top : min(box.bottom + PAD, height), left : min(box.right + PAD, width)]
    fill = commonest_colour(crop).astype(np.int16)
    far = np.abs(crop.astype(np.int16) - fill).max(axis=2).astype(np.uint8)
    _, strokes = cv2.threshold(far, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    letters = _letters(strokes, box)
    if not letters.any():
        return None
    ys, xs = np.nonzero(letters)
    cut = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
    scale = max(1.0, TEXT_HEIGHT / (ys.max() + 1 - ys.min()))
    ink = cv2.resize(np.where(letters, far, 0)[cut].astype(np.uint8), None, fx=scale, fy=scale)
    shown = 255 - cv2.normalize(ink, None, 0, 255, cv2.NORM_MINMAX)
    picture = cv2.copyMakeBorder(shown, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=255)
    return InkPicture(
        np.asarray(picture, dtype=np.uint8), left + int(xs.min()), top + int(ys.min()), scale
    )


def _letters(strokes: npt.NDArray[np.uint8], box: Rect) -> npt.NDArray[np.bool_]:
    """The strokes (a mask) that may be letters: none touching the picture's edge (the window's
    background round a button), nor spanning :data:`FRAME_SPAN` of the box both ways."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    height, width = strokes.shape
    keep = np.zeros(count, dtype=bool)
    for label in range(1, count):
        x, y, across, down = (int(value) for value in stats[label][:4])
        on_edge = x == 0 or y == 0 or x + across == width or y + down == height
        frame = across >= FRAME_SPAN * box.width and down >= FRAME_SPAN * box.height
        keep[label] = not on_edge and not frame
    return np.asarray(keep[labels], dtype=np.bool_)


def nearest_word(text: str) -> str:
    """``text``, or the word of the new-game labels it is a misreading of."""
    close = difflib.get_close_matches(text, NEW_GAME_WORDS, n=1, cutoff=NEAR_WORD)
    return close[0] if close else text
