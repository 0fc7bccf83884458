"""A skin (vision/skin.py) is untrusted data: never arbitrary keys, never a field that would crash
``play`` later (issue 10, section 2), checked where a skin is made and loaded. Its archives and
saves are tested in tests/calibration/test_store.py, its folder in test_skin_folder.py."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from skin_documents import GOOD, button_looks, edit_json, one_line_naming, saved, zip_of

from calibration.store import import_skin, list_skins, save_skin
from solver import GameState, Tile
from vision.errors import SkinError
from vision.new_game import NEW_GAME_KEYS, NewGame
from vision.skin import FACE_STATES, MAX_BUTTONS, Skin, board_text, parse_board
from vision.synthetic import make_skin

# --- 2. the new-game key is one that starts a new game -----------------------------------------


def test_a_button_picture_needs_a_new_game_point() -> None:
    with pytest.raises(SkinError, match="buttons: pictures of a new-game button, but new_game"):
        replace(make_skin(16), buttons=button_looks(1))


def test_a_skin_keeps_at_most_max_buttons_looks_of_its_button(tmp_path: Path) -> None:
    point = NewGame("point", at=(-30, 12))
    with pytest.raises(SkinError, match=f"buttons: not a tuple of at most {MAX_BUTTONS} pictures"):
        replace(make_skin(16), new_game=point, buttons=button_looks(MAX_BUTTONS + 1))
    folder = saved(tmp_path)
    edit_json(folder, new_game={"kind": "point", "key": None, "at": [-30, 12]}, buttons=9)
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / "skin.json"), f"buttons 9 is not from 0 to {MAX_BUTTONS}")


def test_a_new_game_of_no_known_kind_cannot_be_made() -> None:
    with pytest.raises(SkinError, match="not a new-game key"):
        NewGame("key", "win")
    with pytest.raises(SkinError, match="names no key"):
        NewGame("key")


@pytest.mark.parametrize("key", [*NEW_GAME_KEYS, "s", "r", "ctrl+s", "f12", "5"])
def test_a_new_game_key_is_a_letter_digit_or_function_key_with_or_without_ctrl(key: str) -> None:
    """xbomb starts a new game with S, ace-minesweeper with R (or F2): a user may name any
    plain key of that kind."""
    assert NewGame("key", key).key == key


@pytest.mark.parametrize(
    "key",
    [
        "q",
        "ctrl+q",
        "ctrl+w",
        "ctrl+c",
        "escape",
        "esc",
        "alt+f4",
        "shift+s",
        "ctrl+alt+t",
        "ctrl+alt+delete",
        "S",
        "win",
        "delete",
        "ctrl+",
        "f13",
        "enter",
        "space",
        "ss",
        "",
    ],
)
def test_a_key_that_quits_a_common_game_or_is_no_plain_key_is_refused(key: str) -> None:
    """Q quits xbomb, ace-minesweeper and xdemineur, Ctrl+Q gnome-mines, kmines and sgt-mines,
    Ctrl+W closes a GTK or KDE window, Ctrl+C ace-minesweeper; Escape quits xdemineur."""
    with pytest.raises(SkinError, match="not a new-game key"):
        NewGame("key", key)


def test_a_finished_game_s_picture_of_a_tile_the_skin_lacks_is_refused() -> None:
    skin = make_skin(16, name="f")
    seven = skin.templates.pop(Tile.SEVEN)
    with pytest.raises(SkinError, match="SEVEN has a finished game's picture only"):
        replace(skin, finished={0: {Tile.SEVEN: seven}})
    with pytest.raises(SkinError, match="finished: 4 is not a size class"):
        replace(skin, finished={4: {Tile.ONE: skin.templates[Tile.ONE]}})


# --- 5. broken skins are refused at import and load, naming the file and the field -------------


BROKEN_FIELDS = [
    ({"pitch": [0, 16]}, "pitch"),
    ({"pitch": [16]}, "pitch"),
    ({"pitch": [16, "16"]}, "pitch"),
    ({"pitch": [16.5, 16]}, "pitch"),
    ({"pitch": [True, 16]}, "pitch"),
    ({"tile_size": [0, 0]}, "tile_size"),
    ({"tile_size": [2_000_000, 15]}, "tile_size"),
    ({"threshold": float("nan")}, "threshold"),
    ({"threshold": float("inf")}, "threshold"),
    ({"threshold": 0}, "threshold"),
    ({"threshold": "0.1"}, "threshold"),
    ({"level_weight": 0}, "level_weight"),
    ({"level_weight": 1.5}, "level_weight"),
    ({"level_weight": float("nan")}, "level_weight"),
    ({"level_weight": "0.5"}, "level_weight"),
    ({"tile_offset": [5, 5]}, "tile_offset"),
    ({"tile_offset": [-1, 0]}, "tile_offset"),
    ({"extra": []}, "extra"),
    ({"extra": {"first_click": "always"}}, "extra.first_click"),
    ({"extra": {"question_marks": "no"}}, "extra.question_marks"),
    ({"extra": {"board": 81}}, "extra.board"),
    ({"extra": {"board": "9x9"}}, "extra.board"),
    ({"extra": {"board": "9x9x81"}}, "extra.board"),
    ({"extra": {"board": "0x9x1"}}, "extra.board"),
    ({"extra": {"board": "9x9x10\n"}}, "extra.board"),
    ({"extra": {"animation_still": 0.0}}, "extra.animation_still"),
    ({"extra": {"animation_still": 3600.0}}, "extra.animation_still"),
    ({"extra": {"animation_still": 1}}, "extra.animation_still"),
    ({"tiles": "HIDDEN"}, "tiles"),
    ({"tiles": []}, "tiles"),
    ({"tiles": ["HIDDEN", "HIDDEN"]}, "tiles"),
    ({"faces": ["smiling"]}, "faces"),
    ({"new_game": "f2"}, "new_game"),
    ({"new_game": {"kind": "key", "key": "f2", "then": "alt+f4"}}, "new_game"),
    ({"name": "../up"}, "name"),
    ({"name": 7}, "name"),
    ({"format": 2}, "format"),
    ({"format": True}, "format"),
    ({"seen": {"4": ["ONE"]}}, "seen.4"),
    ({"seen": {"0": ["ONE", "../x"]}}, "seen.0"),
    ({"seen": ["ONE"]}, "seen"),
    ({"finished": {"4": ["ONE"]}}, "finished.4"),
    ({"finished": {"0": ["ONE", "ONE"]}}, "finished.0"),
    ({"finished": {"1": ["../x"]}}, "finished.1"),
    ({"finished": ["ONE"]}, "finished"),
]


@pytest.mark.parametrize(("change", "field"), BROKEN_FIELDS)
def test_broken_skin_json_is_refused_at_load_and_import(
    tmp_path: Path, change: dict[str, Any], field: str
) -> None:
    folder = saved(tmp_path / "made")
    edit_json(folder, **change)
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / "skin.json"), field)
    with pytest.raises(SkinError) as raised:
        import_skin(zip_of(folder, tmp_path / "broken.zip"), tmp_path / "skins")
    one_line_naming(raised, "broken.zip/skin.json", field)
    assert list_skins(tmp_path / "skins") == []


def test_a_skin_that_could_not_be_read_cannot_be_made_or_saved(tmp_path: Path) -> None:
    with pytest.raises(SkinError, match="pitch"):
        Skin("x", (0, 16), GOOD.tile_size, GOOD.templates, GOOD.threshold, GOOD.new_game)
    broken = make_skin(16, name="x")
    broken.templates[Tile.ONE] = np.zeros((1, 1, 3), dtype=np.uint8)
    with pytest.raises(SkinError, match="tile ONE"):
        save_skin(broken, tmp_path)
    assert list_skins(tmp_path) == []


def test_a_skin_gives_the_mine_count_calibration_was_told_for_its_board_s_size_only(
    tmp_path: Path,
) -> None:
    folder = replace(GOOD, extra={"board": "8x8x10"}).save(tmp_path / "skin")
    loaded = Skin.load(folder)
    assert loaded.mines_for(8, 8) == 10
    assert loaded.mines_for(9, 9) is None and loaded.mines_for(8, 9) is None
    assert GOOD.mines_for(8, 8) is None


@given(rows=st.integers(1, 999), columns=st.integers(1, 999), data=st.data())
def test_a_board_s_text_form_parses_back(rows: int, columns: int, data: st.DataObject) -> None:
    mines = data.draw(st.integers(0, min(rows * columns - 1, 999_999)))
    assert parse_board(board_text(rows, columns, mines)) == (rows, columns, mines)
    assert parse_board(board_text(rows, columns, rows * columns)) is None


def test_a_skin_of_a_game_without_question_marks_does_not_lack_them() -> None:
    skin = make_skin(16)
    del skin.templates[Tile.QUESTION]
    assert skin.missing_tiles() == [Tile.QUESTION]
    skin.extra["question_marks"] = False
    assert skin.missing_tiles() == []


def test_the_face_states_a_skin_stores_are_the_game_states() -> None:
    assert set(FACE_STATES) == {state.value for state in GameState}
