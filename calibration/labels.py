"""Reading the words beside the board: a button labelled "Restart" or "Play Again" is one to
try for a new game, and a place whose words say "Quit" is never clicked.

Tesseract (through pytesseract) reads the window with the board and the face blanked out (a
board's numbers and mines only make it read noise there), as sparse text: buttons, counters
and menus are words scattered over the window. A label is a run of words on one line that
makes one of :data:`NEW_GAME_PHRASES` or holds one of :data:`QUITTING_WORDS`. Without the
tesseract program no word is read, and :class:`NoTextReader` says so.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import numpy as np

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
        # The same in the languages of many desktops (gnome-mines' "Play Again" as its
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
"""Labels of the buttons that start a new game in common games, the surest first: xbomb's
"Restart", gnome-mines' "Play Again" (after a game) and "Start Over" (during one)."""
QUITTING_WORDS = frozenset(
    {
        *("quit", "exit", "close"),
        *("beenden", "schliessen", "quitter", "fermer", "salir", "cerrar", "esci", "chiudi"),
        *("sair", "fechar", "afsluiten", "sluiten", "avsluta", "stang", "zakoncz", "zamknij"),
    }
)
"""Words on a button that closes the game (xbomb's "Quit"), in English and in the languages
of :data:`NEW_GAME_PHRASES`: never clicked."""
MIN_CONFIDENCE = 50
"""Tesseract's confidence (0 to 100) a word needs to count; noise read in a picture scores low."""


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
    import pytesseract

    picture = np.ascontiguousarray(frame[:, :, 2::-1])  # as RGB
    colours, counts = np.unique(picture[::4, ::4].reshape(-1, 3), axis=0, return_counts=True)
    for rect in blank:
        picture[rect.top : rect.bottom, rect.left : rect.right] = colours[int(np.argmax(counts))]
    try:
        data = pytesseract.image_to_data(
            picture, config="--psm 11", output_type=pytesseract.Output.DICT
        )
    except pytesseract.TesseractNotFoundError as error:
        raise NoTextReader(f"no words read beside the board: {error}") from error
    words = []
    for index, text in enumerate(data["text"]):
        letters = plain_letters(text)
        if letters and float(data["conf"][index]) >= MIN_CONFIDENCE:
            rect = Rect(*(int(data[key][index]) for key in ("left", "top", "width", "height")))
            line = (data["block_num"][index], data["par_num"][index], data["line_num"][index])
            words.append(Word(letters, rect, (int(line[0]), int(line[1]), int(line[2]))))
    return words


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


def quitting_places(words: list[Word]) -> list[Rect]:
    """Where the words say the game closes (:data:`QUITTING_WORDS`)."""
    return [word.rect for word in words if word.text in QUITTING_WORDS]
