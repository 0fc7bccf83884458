"""How a game's new game is started, as a skin records it: a key, the face, or a point beside
the board; and which keys a skin may name at all.

A skin is untrusted data (it travels as an archive), so the only keys the bot may press are the
ones games use for a new game (:func:`is_new_game_key`), never one that quits a game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from vision.errors import SkinError, shown

NEW_GAME_KINDS = ("key", "face", "point")
"""Press the skin's key, click the face button (which is located on the screen, above the
board, so the click is on the game window), or click a point the user named beside the board
(a "New game" button)."""
MAX_POINT_OFFSET = 10_000
"""How far from the board's corner a new-game point may be, in pixels (a sanity bound)."""
KEYS_BEFORE_LABELS = ("f2", "n")
"""The new-game keys calibration presses before it looks for a button labelled for a new game."""
KEYS_AFTER_LABELS = ("ctrl+r", "ctrl+n")
"""The new-game keys calibration presses only after the buttons labelled for a new game: a
browser takes them for its own (Ctrl+R reloads the page, losing the game's settings; Ctrl+N
opens another window)."""
NEW_GAME_KEYS = KEYS_BEFORE_LABELS + KEYS_AFTER_LABELS
"""pyautogui names of the keys that start a new game in real games, in the order calibration
tries them: F2 (the classic game's key, kept by most others), N (the letter some games take
alone or with Ctrl), Ctrl+R ("replay this size", in a game whose Ctrl+N opens a size picker),
Ctrl+N. A user may name another key (:func:`is_new_game_key`)."""
PLAIN_KEY = re.compile(r"(ctrl\+)?([a-z0-9]|f[1-9]|f1[0-2])")
"""The keys a skin may name: a letter, a digit or F1 to F12, alone or with Ctrl (some games
start a new one on a plain S or R); never Alt, Shift, Escape, Delete or a system key."""
QUITTING_KEYS = ("q", "ctrl+q", "ctrl+w", "ctrl+c")
"""Plain keys that quit or close common games: Q (many small games), Ctrl+Q (most desktop
games), Ctrl+W (closes a window of the common desktop toolkits), Ctrl+C (which some games quit
on as a terminal does)."""
NEW_GAME_KEY_RULE = (
    f"a letter, a digit or f1 to f12, alone or after ctrl+; not {', '.join(QUITTING_KEYS)}"
)
""":func:`is_new_game_key` in words, for messages and help."""


def is_new_game_key(key: object) -> bool:
    """Whether a skin may press ``key`` (a pyautogui name) to start a new game."""
    return (
        isinstance(key, str) and PLAIN_KEY.fullmatch(key) is not None and key not in QUITTING_KEYS
    )


@dataclass
class NewGame:
    """How to start a new game: press ``key`` (see :func:`is_new_game_key`), click the face
    (``"face"``), or click the point ``at`` (``"point"``: pixels right of and below the board's
    top-left corner, so that it follows a moved window); with a click, ``key`` may name a key to
    try when the click does nothing."""

    kind: str
    key: str | None = None
    at: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.kind not in NEW_GAME_KINDS:
            raise SkinError(
                f"new_game kind {shown(self.kind)} is not one of {', '.join(NEW_GAME_KINDS)}"
            )
        if self.key is None and self.kind == "key":
            raise SkinError("new_game kind 'key' names no key")
        if self.key is not None and not is_new_game_key(self.key):
            raise SkinError(
                f"new_game key {shown(self.key)} is not a new-game key ({NEW_GAME_KEY_RULE})"
            )
        if self.at is None and self.kind == "point":
            raise SkinError("new_game kind 'point' names no point")
        if self.at is not None and self.kind != "point":
            raise SkinError(f"new_game kind {shown(self.kind)} takes no point")
        if self.at is not None and not (
            isinstance(self.at, tuple)
            and len(self.at) == 2
            and all(type(v) is int and abs(v) <= MAX_POINT_OFFSET for v in self.at)
        ):
            raise SkinError(
                f"new_game point {shown(self.at)} is not [x, y], two whole numbers within "
                f"{MAX_POINT_OFFSET} pixels of the board"
            )

    def to_json(self) -> dict[str, Any]:
        shown_at = {} if self.at is None else {"at": list(self.at)}
        return {"kind": self.kind, "key": self.key, **shown_at}
