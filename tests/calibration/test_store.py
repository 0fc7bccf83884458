"""The skin store (calibration/store.py): skins saved, listed, exported and imported, and their
names. Archives are untrusted data: never file paths, never unbounded, never half-saved (issue 10,
section 2; the skin's own fields: tests/vision/test_skin.py)."""

from __future__ import annotations

import io
import json
import struct
import tempfile
import zipfile
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from drawn_boards import tile_pictures
from hypothesis import given
from hypothesis import strategies as st
from skin_documents import (
    FUZZ,
    GOOD,
    GOOD_DOCUMENT,
    button_looks,
    edit_json,
    one_line_naming,
    png,
    same,
    saved,
    skin_documents,
    zip_of,
)

import calibration.store as store
from calibration.catalogue import Catalogue
from calibration.inference import learn
from calibration.record import Evidence
from calibration.skin_build import build_skin
from calibration.store import (
    check_name,
    export_skin,
    import_skin,
    list_skins,
    load_skin,
    name_from,
    save_skin,
)
from solver import Tile
from solver.board import PICTURED_TILES
from vision.bench import ring_mask
from vision.errors import SkinError
from vision.new_game import NewGame
from vision.skin import MAX_BUTTONS
from vision.synthetic import make_skin


def test_skins_are_saved_listed_exported_and_imported(tmp_path: Path) -> None:
    pictures = tile_pictures(16, 2)
    catalogue = Catalogue(pictures[0])
    catalogue.add(pictures[1])
    meanings = learn([], set())
    meanings.give(1, Tile.ZERO, "drawn")
    skin = build_skin("my-game", Evidence(catalogue), meanings, {}, NewGame("face"))
    home, other = tmp_path / "home", tmp_path / "other"
    save_skin(skin, home)
    assert list_skins(home) == ["my-game"]
    archive = export_skin("my-game", tmp_path / "my-game.zip", home)
    imported = import_skin(archive, other)
    assert list_skins(other) == ["my-game"]
    assert imported.new_game == NewGame("face")
    assert np.array_equal(
        load_skin("my-game", other).templates[Tile.ZERO], skin.templates[Tile.ZERO]
    )
    with pytest.raises(SkinError, match="no skin 'nothing'"):
        load_skin("nothing", home)
    with pytest.raises(SkinError, match="not a skin name"):
        load_skin("../escape", home)
    (tmp_path / "junk.zip").write_text("not a zip")
    with pytest.raises(SkinError, match="not a zip"):
        import_skin(tmp_path / "junk.zip", other)
    with zipfile.ZipFile(tmp_path / "sly.zip", "w") as sly:
        sly.writestr("../../outside.json", "{}")
    with pytest.raises(SkinError, match="is not a file of a skin"):
        import_skin(tmp_path / "sly.zip", other)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Minesweeper | Game", "Minesweeper-Game"),
        ("xdemineur", "xdemineur"),
        ("Démineur (niveau 2)", "D-mineur-niveau-2"),
        ("|||", "skin"),
        ("x" * 80, "x" * 64),
    ],
)
def test_a_window_s_title_gives_a_skin_name(text: str, name: str) -> None:
    """A title with spaces or signs ("Minesweeper | Game", a browser game's) names the skin
    with its letters and digits, rather than being refused."""
    assert name_from(text) == name


@given(st.text(max_size=100))
def test_any_title_gives_a_valid_skin_name(text: str) -> None:
    assert check_name(name_from(text)) == name_from(text)


# --- 1. names in skin.json are known names, never paths ----------------------------------------


@pytest.mark.parametrize("how", ["relative", "absolute"])
def test_import_refuses_face_names_that_are_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    victim = tmp_path / "outside" / "victim.png"
    victim.parent.mkdir()
    picture = np.full((24, 24, 3), 7, dtype=np.uint8)
    victim.write_bytes(cv2.imencode(".png", picture, [cv2.IMWRITE_PNG_COMPRESSION, 0])[1].tobytes())
    before = victim.read_bytes()
    folder = saved(tmp_path / "made")
    # Unpacked into tmp_path/temp/<random>/, "../../../" from its faces/ folder is tmp_path.
    (tmp_path / "temp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    escape = "../../../outside/victim" if how == "relative" else str(victim.with_suffix(""))
    edit_json(folder, faces=["playing", escape])
    skins = tmp_path / "skins"
    with pytest.raises(SkinError) as raised:
        import_skin(zip_of(folder, tmp_path / "sly.zip"), skins)
    one_line_naming(raised, "skin.json", "faces")
    assert victim.read_bytes() == before
    assert list_skins(skins) == []


def test_import_refuses_members_that_are_not_skin_files(tmp_path: Path) -> None:
    folder = saved(tmp_path / "made")
    beyond = f"button.{MAX_BUTTONS + 1}.png"
    for member in ("../evil.png", "/etc/evil.png", "tiles/../../evil.png", "notes.txt", beyond):
        archive = zip_of(folder, tmp_path / "extra.zip")
        with zipfile.ZipFile(archive, "a") as zipped:
            zipped.writestr(member, b"x")
        with pytest.raises(SkinError) as raised:
            import_skin(archive, tmp_path / "skins")
        one_line_naming(raised, "extra.zip", "is not a file of a skin")


# --- 3. archives are bounded before and while they are read ------------------------------------


def bomb(archive: Path, member: str = "skin.json", size: int = 50 * 1024 * 1024) -> Path:
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr(member, b"\0" * size)
    return archive


def refuse_to_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reading any member fail the test: the directory alone must refuse the archive."""

    def opened(*args: object, **kwargs: object) -> None:
        raise AssertionError("a member was read before the directory was checked")

    monkeypatch.setattr(zipfile.ZipFile, "open", opened)


def test_a_zip_bomb_is_refused_from_its_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = bomb(tmp_path / "bomb.zip")
    assert archive.stat().st_size < 100_000
    refuse_to_read(monkeypatch)
    with pytest.raises(SkinError) as raised:
        import_skin(archive, tmp_path / "skins")
    one_line_naming(raised, "bomb.zip", "'skin.json'", "bytes")


def test_a_member_that_expands_too_much_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = bomb(tmp_path / "dense.zip", "tiles/HIDDEN.png", 500_000)  # under the size cap
    refuse_to_read(monkeypatch)
    with pytest.raises(SkinError) as raised:
        import_skin(archive, tmp_path / "skins")
    one_line_naming(raised, "dense.zip", "'tiles/HIDDEN.png'", "times")


def test_too_many_members_or_too_much_in_all_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    noise = np.random.default_rng(0).integers(0, 2, 300_000, dtype=np.uint8).tobytes()
    archive = tmp_path / "big.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for tile in list(Tile)[:4]:
            zipped.writestr(f"tiles/{tile.name}.png", noise)
    monkeypatch.setattr(store, "MAX_ARCHIVE_BYTES", 1_000_000)  # four members of 300 kB pass
    refuse_to_read(monkeypatch)
    with pytest.raises(SkinError) as raised:
        import_skin(archive, tmp_path / "skins")
    one_line_naming(raised, "big.zip", "add up to 1200000 bytes")
    monkeypatch.setattr(store, "MAX_MEMBERS", 3)
    with pytest.raises(SkinError) as raised:
        import_skin(archive, tmp_path / "skins")
    one_line_naming(raised, "big.zip", "4 members")


def test_an_archive_whose_directory_understates_a_member_is_refused(tmp_path: Path) -> None:
    """The central directory says skin.json is 300 bytes; its data inflates to 2 MB."""
    archive = tmp_path / "liar.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("skin.json", b" " * 2_000_000)
    data = bytearray(archive.read_bytes())
    directory = data.rindex(b"PK\x01\x02")  # the central directory entry of skin.json
    struct.pack_into("<I", data, directory + 24, 300)  # its uncompressed size
    archive.write_bytes(bytes(data))
    assert zipfile.ZipFile(archive).getinfo("skin.json").file_size == 300
    with pytest.raises(SkinError) as raised:
        import_skin(archive, tmp_path / "skins")
    one_line_naming(raised, "liar.zip")
    assert list_skins(tmp_path / "skins") == []


def test_a_member_is_read_no_further_than_its_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the zip reader yield more than the directory says, reading stops at the cap."""
    archive = zip_of(saved(tmp_path / "made"), tmp_path / "good.zip")
    asked: list[int] = []

    def endless(self: zipfile.ZipExtFile, size: int = -1) -> bytes:
        asked.append(size)
        return b"x" * size

    monkeypatch.setattr(zipfile.ZipExtFile, "read", endless)
    with pytest.raises(SkinError) as raised:
        import_skin(archive, tmp_path / "skins")
    one_line_naming(raised, "good.zip", "holds more than")
    assert asked == [store.MAX_MEMBER_BYTES + 1]


def test_an_archive_too_large_for_a_skin_is_not_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = zip_of(saved(tmp_path / "made"), tmp_path / "good.zip")
    monkeypatch.setattr(store, "MAX_ARCHIVE_BYTES", archive.stat().st_size - 1)
    with pytest.raises(SkinError) as raised:
        import_skin(archive, tmp_path / "skins")
    one_line_naming(raised, "good.zip", "bytes")


def test_a_skin_survives_its_own_export_and_import(tmp_path: Path) -> None:
    home = tmp_path / "home"
    saved(home)
    (home / "good" / "notes.txt").write_text("not part of the skin, so not exported")
    archive = export_skin("good", tmp_path / "good.zip", home)
    imported = import_skin(archive, tmp_path / "other")
    assert same(imported, GOOD) and same(load_skin("good", tmp_path / "other"), GOOD)
    with zipfile.ZipFile(archive) as zipped:
        assert "notes.txt" not in zipped.namelist()


def test_a_skin_with_a_new_game_button_survives_export_and_import(tmp_path: Path) -> None:
    looks = button_looks(2)
    skin = replace(make_skin(16, name="b"), new_game=NewGame("point", at=(5, -20)), buttons=looks)
    save_skin(skin, tmp_path / "home")
    imported = import_skin(export_skin("b", tmp_path / "b.zip", tmp_path / "home"), tmp_path)
    assert same(imported, skin)


def test_a_skin_with_a_mask_survives_save_load_export_and_import(tmp_path: Path) -> None:
    skin = make_skin(16, name="m")
    skin = replace(skin, mask=ring_mask(skin))
    save_skin(skin, tmp_path / "home")
    assert same(load_skin("m", tmp_path / "home"), skin)
    imported = import_skin(export_skin("m", tmp_path / "m.zip", tmp_path / "home"), tmp_path)
    assert same(imported, skin)


def test_a_finished_game_s_pictures_survive_save_load_export_and_import(tmp_path: Path) -> None:
    skin = make_skin(16, name="f")
    darker = {tile: skin.templates[tile] * 3 // 4 for tile in (Tile.ONE, Tile.HIDDEN)}
    skin = replace(skin, finished={0: darker, 2: {Tile.ONE: darker[Tile.ONE] // 2}})
    save_skin(skin, tmp_path / "home")
    assert same(load_skin("f", tmp_path / "home"), skin)
    assert not same(load_skin("f", tmp_path / "home"), replace(skin, finished={0: darker}))
    imported = import_skin(export_skin("f", tmp_path / "f.zip", tmp_path / "home"), tmp_path)
    assert same(imported, skin)


# --- 4. a failed save keeps the skin saved before ----------------------------------------------


def failing_after(writes: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every PNG write after the first ``writes`` fail, as on a full disk."""
    real = cv2.imwrite
    count = [0]

    def imwrite(path: str, image: np.ndarray) -> bool:
        count[0] += 1
        if count[0] > writes:
            raise OSError(28, "No space left on device")
        return bool(real(path, image))

    monkeypatch.setattr(cv2, "imwrite", imwrite)


def test_a_failed_save_keeps_the_old_skin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "skins"
    old = make_skin(16, seed=1, name="game")
    save_skin(old, home)
    failing_after(3, monkeypatch)
    with pytest.raises(SkinError) as raised:
        save_skin(make_skin(16, seed=2, name="game"), home)
    one_line_naming(raised, str(home / "game"), "No space left")
    kept = load_skin("game", home)
    assert all(np.array_equal(kept.templates[t], old.templates[t]) for t in PICTURED_TILES)
    assert [path.name for path in home.iterdir()] == ["game"]  # no half-written folder left


def test_a_failed_import_keeps_the_old_skin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "skins"
    old = make_skin(16, seed=1, name="game")
    save_skin(old, home)
    archive = zip_of(saved(tmp_path / "made", "game"), tmp_path / "game.zip")
    failing_after(0, monkeypatch)
    with pytest.raises(SkinError):
        import_skin(archive, home)
    kept = load_skin("game", home)
    assert all(np.array_equal(kept.templates[t], old.templates[t]) for t in PICTURED_TILES)
    assert [path.name for path in home.iterdir()] == ["game"]


def test_a_failed_json_write_keeps_the_old_skin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "skins"
    save_skin(make_skin(16, seed=1, name="game"), home)
    before = (home / "game" / "skin.json").read_text()

    def full(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(SkinError, match="unchanged"):
        save_skin(make_skin(21, seed=2, name="game"), home)
    monkeypatch.undo()
    assert (home / "game" / "skin.json").read_text() == before
    assert load_skin("game", home).pitch == (16, 16)


# --- fuzz: anything an archive or a skin.json holds ends in a skin or a SkinError --------------


def good_picture(member: str) -> bytes:
    if member.startswith("tiles/"):
        return png(*GOOD.tile_size)
    return png(24, 24)


MEMBER_NAMES = sorted(store.SKIN_FILES | store.SKIN_FOLDERS) + ["../x.png", "/abs", "a\\b", "//"]


def member_contents(name: str) -> st.SearchStrategy[bytes]:
    """What a member named ``name`` holds: a skin.json, its right picture, any PNG, any bytes."""
    return (
        skin_documents().map(lambda document: json.dumps(document).encode())
        | st.just(good_picture(name))
        | st.tuples(st.integers(1, 40), st.integers(1, 40)).map(lambda size: png(*size))
        | st.binary(max_size=200)
    )


def good_members() -> dict[str, bytes]:
    members = {name: good_picture(name) for name in store.SKIN_FILES - {"skin.json"}}
    return {"skin.json": json.dumps(GOOD_DOCUMENT).encode(), **members}


@st.composite
def archives(draw: st.DrawFn) -> bytes:
    """Zip bytes: a good skin's members or none, then members removed, replaced or added (known
    or random names; JSON, PNG or random bytes), each stored or deflated; sometimes damaged."""
    members = list(good_members().items()) if draw(st.booleans()) else []
    for _ in range(draw(st.integers(0, 4))):
        how = draw(st.sampled_from(["remove", "replace", "add"]))
        if how != "add" and members:
            index = draw(st.integers(0, len(members) - 1))
            name = members.pop(index)[0]
            if how == "replace":
                members.insert(index, (name, draw(member_contents(name))))
        else:
            name = draw(st.sampled_from(MEMBER_NAMES) | st.text(min_size=1, max_size=20))
            if not name.split("\0")[0].strip("/"):
                # zipfile cuts a name at its first NUL and cannot write a member with no name
                name = "x" + name
            members.append((name, draw(member_contents(name))))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        for name, content in members:
            method = draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]))
            zipped.writestr(name, content, compress_type=method)
    data = buffer.getvalue()
    if data and draw(st.integers(0, 3)) == 0:  # damage it: cut it short or flip a byte
        at = draw(st.integers(0, len(data) - 1))
        data = (
            data[:at]
            if draw(st.booleans())
            else data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]
        )
    return data


@FUZZ
@pytest.mark.filterwarnings("ignore:Duplicate name")  # archives with a member twice are meant
@given(archives())
def test_fuzz_import_gives_a_skin_or_a_skin_error(archive_bytes: bytes) -> None:
    with tempfile.TemporaryDirectory() as work:
        root = Path(work)
        archive = root / "fuzz.zip"
        archive.write_bytes(archive_bytes)
        skins = root / "skins"
        try:
            skin = import_skin(archive, skins)
        except SkinError as error:
            assert "\n" not in str(error)
            assert list_skins(skins) == []
        else:
            assert list_skins(skins) == [skin.name]
            assert same(load_skin(skin.name, skins), skin)
        assert sorted(path.name for path in root.iterdir()) in (["fuzz.zip"], ["fuzz.zip", "skins"])
        if skins.exists():
            assert all(path.name[0].isalnum() for path in skins.iterdir())  # nothing half-saved
