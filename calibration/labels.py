"""Reading the words beside the board: a button labelled "Restart" or "Play Again" is one to
try for a new game, a place whose words say "Quit" is never clicked, and a dialog's "Cancel",
"No" or "OK" answers it.

Tesseract (through pytesseract) reads the window with the board and the face blanked out (a
board's numbers and mines only make it read noise there), as sparse text: buttons, counters
and menus are words scattered over the window. A label is a run of words on one line that
makes one of :data:`NEW_GAME_PHRASES` or holds one of :data:`QUITTING_WORDS`. Letters too small
or in colours that read misses (a browser's 13-px "Restart!") are read place by place
(:mod:`calibration.label_boxes`). Without the tesseract program no word is read, and
:class:`NoTextReader` says so.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.faces import commonest_colour
from solver import GameState
from vision.geometry import Rect
from vision.skin import Image

NEW_GAME_PHRASES = tuple(
    tuple(phrase.split())
    for phrase in (
        "new game",
        "play again",
        "start over",
        "try again",
        "restart",
        "replay",
        "retry",
        "reset",
        # The same in the languages of many desktops ("Play Again" as
        # translators put it, and the common words for a new game), accents dropped.
        "neues spiel",
        "noch einmal spielen",
        "neustart",
        "nouvelle partie",
        "refaire une partie",
        "rejouer",
        "recommencer",
        "nuevo juego",
        "nueva partida",
        "jugar otra vez",
        "reiniciar",
        "nuova partita",
        "rigioca",
        "ricomincia",
        "novo jogo",
        "jogar novamente",
        "nieuw spel",
        "opnieuw spelen",
        "nytt spel",
        "spela igen",
        "nowa gra",
        "zagraj jeszcze raz",
        "new",
        "neu",
        "nouveau",
        "nuevo",
        "nuovo",
        "novo",
        "nieuw",
    )
)
"""Labels of the buttons that start a new game in common games, the surest first: "Restart",
"Play Again" (shown after a game) and "Start Over" (during one)."""
QUITTING_WORDS = frozenset(
    {
        *("quit", "exit", "close"),
        *("beenden", "schliessen", "quitter", "fermer", "salir", "cerrar", "esci", "chiudi"),
        *("sair", "fechar", "afsluiten", "sluiten", "avsluta", "stang", "zakoncz", "zamknij"),
    }
)
"""Words on a button that closes the game ("Quit" and its like), in English and in the languages
of :data:`NEW_GAME_PHRASES`: never clicked."""
DISMISSING_WORDS = (
    ("cancel", "abbrechen", "annuler", "cancelar", "annulla", "annuleren", "avbryt", "anuluj"),
    ("no", "nein", "non", "nao", "nee", "nej", "nie"),
    ("ok",),
)
"""Words on the buttons of a dialog that answer it and leave the game as it is, in the order to
prefer them: "Cancel" (a name asked for a best time), then "No", then "OK" (a message with no
other button). In English and in the languages of :data:`NEW_GAME_PHRASES`."""
MIN_CONFIDENCE = 50
"""Tesseract's confidence (0 to 100) a word needs to count; noise read in a picture scores low."""
LABEL_SCALE = 2
"""How much larger a button's label is read than it is drawn (a dialog's 12-px "OK" is read so)."""
LABEL_BORDER = 10
"""Pixels of the button's edge repeated around its picture: tesseract reads no letter that
touches the picture's edge."""


@dataclass(frozen=True)
class Word:
    """A word read in the window: its letters in lower case, where it is, and which line of the
    text it is on (words on one line in order)."""

    text: str
    rect: Rect
    line: tuple[int, int, int]


class NoTextReader(Exception):
    """The tesseract program is not installed: no label can be read."""


def read_words(frame: Image, blank: list[Rect]) -> list[Word]:
    """The words in ``frame`` (a BGR capture of the window) outside ``blank`` (rectangles in
    its coordinates, painted over in the window's commonest colour first).

    Raises :class:`NoTextReader` without the tesseract program.
    """
    words = []
    for text, rect, line in read_text(frame, blank):
        letters = plain_letters(text)
        if letters:
            words.append(Word(letters, rect, line))
    return words


def read_text(frame: Image, blank: list[Rect]) -> list[tuple[str, Rect, tuple[int, int, int]]]:
    """Each run of text tesseract reads in ``frame`` outside ``blank`` (see :func:`read_words`)
    surely enough, as read, with where it is and its line.

    Raises :class:`NoTextReader` without the tesseract program.
    """
    import pytesseract

    picture = np.ascontiguousarray(frame[:, :, 2::-1])  # as RGB
    background = commonest_colour(picture[::4, ::4])
    for rect in blank:
        picture[rect.top : rect.bottom, rect.left : rect.right] = background
    try:
        data = pytesseract.image_to_data(
            picture, config="--psm 11", output_type=pytesseract.Output.DICT
        )
    except pytesseract.TesseractNotFoundError as error:
        raise NoTextReader(f"no words read beside the board: {error}") from error
    found = []
    for index, text in enumerate(data["text"]):
        if text.strip() and float(data["conf"][index]) >= MIN_CONFIDENCE:
            rect = Rect(*(int(data[key][index]) for key in ("left", "top", "width", "height")))
            line = (data["block_num"][index], data["par_num"][index], data["line_num"][index])
            found.append((str(text), rect, (int(line[0]), int(line[1]), int(line[2]))))
    return found


def plain_letters(text: str) -> str:
    """``text``'s letters in lower case without their accents ("Réessayer" reads "reessayer",
    "Schließen" "schliessen"): tesseract may read an accent or not."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return re.sub(r"[^a-z]", "", decomposed)


def new_game_labels(words: list[Word]) -> list[Rect]:
    """Where the words make a label of :data:`NEW_GAME_PHRASES`, the surest phrase first (each
    the box around its words, a word in one label only)."""
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    found: list[Rect] = []
    for phrase in NEW_GAME_PHRASES:
        for line in lines.values():
            texts = [word.text for word in line]
            for start in range(len(line) - len(phrase) + 1):
                if tuple(texts[start : start + len(phrase)]) != phrase:
                    continue
                rect = line[start].rect
                for word in line[start + 1 : start + len(phrase)]:
                    rect = rect.union(word.rect)
                if not any(rect.overlaps(other) for other in found):
                    found.append(rect)
    return found


def menu_labels(words: list[Word]) -> list[Rect]:
    """Where the words make the label of a button that may bring a board back, on a window
    whose game took its board away (a level, "Play"): each line of words of
    :data:`MIN_LETTERS` letters or more, none of :data:`QUITTING_WORDS`, top to bottom."""
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        if len(word.text) >= MIN_LETTERS:
            lines.setdefault(word.line, []).append(word)
    found = []
    for line in lines.values():
        if any(word.text in QUITTING_WORDS for word in line):
            continue
        rect = line[0].rect
        for word in line[1:]:
            rect = rect.union(word.rect)
        found.append(rect)
    return sorted(found, key=lambda rect: (rect.top, rect.left))


END_WORDS = {
    GameState.WON: frozenset({"win", "won", "winner", "congratulations", "victory", "cleared"}),
    GameState.LOST: frozenset({"lose", "lost", "boom", "defeat", "gameover"}),
}
"""Words of a message that says how a game ended ("YOU WIN!", "YOU LOSE!", "Game over" read as
one word or two: "over" alone says nothing). A word read is taken for one near it and about as
long; two words read in a row only for one exactly."""


ALL_END_WORDS = sorted(word for words in END_WORDS.values() for word in words)
END_NEAR = 0.6
"""How alike a word read must be to one of :data:`END_WORDS` to be taken for it: a pixel font's
"WIN!" reads "wih"."""


def end_told(texts: list[str]) -> GameState | None:
    """How the game ended, where the words of a message (``texts``, in order, plain letters)
    say it (:data:`END_WORDS`, or words near them) and only one way; None where they do not."""
    pairs = {one + two for one, two in zip(texts, texts[1:], strict=False)}
    told = {state for state, words in END_WORDS.items() if pairs & words}
    for text in texts:
        alike = [word for word in ALL_END_WORDS if abs(len(word) - len(text)) <= 1]
        near = difflib.get_close_matches(text, alike, n=1, cutoff=END_NEAR)
        if len(text) >= MIN_LETTERS and near:
            told.update(state for state, words in END_WORDS.items() if near[0] in words)
    return told.pop() if len(told) == 1 else None


def read_end_message(frame: Image) -> GameState | None:
    """How the game ended, as a message in ``frame`` (a BGR capture of the board's place) says
    (:func:`end_told`): read as a block of text :data:`LABEL_SCALE` times as large as drawn,
    whatever tesseract's confidence (a pixel font's "WIN!" reads "wih", surely or not).

    Raises :class:`NoTextReader` without the tesseract program.
    """
    import pytesseract

    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(grey, None, fx=LABEL_SCALE, fy=LABEL_SCALE, interpolation=cv2.INTER_CUBIC)
    try:
        text = pytesseract.image_to_string(grey, config="--psm 6")
    except pytesseract.TesseractNotFoundError as error:
        raise NoTextReader(f"no message read: {error}") from error
    return end_told([plain_letters(word) for word in text.split()])


NEW_GAME_WORDS = frozenset(word for phrase in NEW_GAME_PHRASES for word in phrase)
NEAR_WORD = 0.75
"""How alike (:class:`difflib.SequenceMatcher` ratio) a word read must be to a word of
:data:`NEW_GAME_WORDS` to be taken for it: "pray" (tesseract's "Play") is, "send" is not."""
MIN_LETTERS = 3
"""Letters a word read needs to say what a button does ("to", "f" and other scraps do not)."""


def says_new_game(text: str) -> bool:
    """Whether ``text`` (one word, plain letters) is, or is a misreading of, a word of the
    labels that start a new game."""
    return bool(difflib.get_close_matches(text, NEW_GAME_WORDS, n=1, cutoff=NEAR_WORD))


def says_something_else(place: Rect, words: list[Word]) -> bool:
    """Whether the words read on ``place`` say what it is, and that is not a new game (a
    finished game's "Send to ..." link to another site): never clicked for one."""
    texts = [w.text for w in words if w.rect.overlaps(place) and len(w.text) >= MIN_LETTERS]
    return bool(texts) and not any(says_new_game(text) for text in texts)


def quitting_places(words: list[Word]) -> list[Rect]:
    """Where the words say the game closes (:data:`QUITTING_WORDS`)."""
    return [word.rect for word in words if word.text in QUITTING_WORDS]


def read_label(picture: Image) -> str:
    """The words of one button's label (``picture``, a BGR crop of the button alone), in plain
    lower-case letters, "" if none is read for sure. Read twice as large, dark on light and
    light on dark: tesseract misses a short label ("OK") in a whole window, and white letters on
    a coloured button.

    Raises :class:`NoTextReader` without the tesseract program.
    """
    import pytesseract

    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(grey, None, fx=LABEL_SCALE, fy=LABEL_SCALE, interpolation=cv2.INTER_CUBIC)
    for shown in (grey, 255 - grey):
        side = LABEL_BORDER
        bordered = cv2.copyMakeBorder(shown, side, side, side, side, cv2.BORDER_REPLICATE)
        try:
            data = pytesseract.image_to_data(
                bordered, config="--psm 7", output_type=pytesseract.Output.DICT
            )
        except pytesseract.TesseractNotFoundError as error:
            raise NoTextReader(f"no label read: {error}") from error
        words = [
            plain_letters(text)
            for text, confidence in zip(data["text"], data["conf"], strict=True)
            if float(confidence) >= MIN_CONFIDENCE
        ]
        label = " ".join(word for word in words if word)
        if label:
            return label
    return ""


def dismissing_rank(label: str) -> int | None:
    """Which group of :data:`DISMISSING_WORDS` the button ``label`` (plain letters) is, 0 the
    surest; None if it is none, or holds a word of :data:`QUITTING_WORDS`."""
    words = label.split()
    if len(words) != 1 or words[0] in QUITTING_WORDS:
        return None
    return next((rank for rank, group in enumerate(DISMISSING_WORDS) if words[0] in group), None)
