"""The board model and its text forms (MINESWEEPER-BOARD v0.1, autosweeper's earlier form,
JSMinesweeper's)."""

import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver.board
import solver.board_text
from solver import Board, BoardError, Tile, analyze
from solver.board import MAX_COLUMNS, MAX_ROWS
from solver.engine import neighbour_counts

SPECIFICATION_EXAMPLE = """# MINESWEEPER-BOARD v0.1
# Render: ascii

author: eee555
comment: Example Board

rows: 16
columns: 30
mines: 99

game_mode: classic

[real]
1112*21
1112*21
1112*21

[view]
UUU2100
UF1X1?U
U@U#111
"""
"""Section 10 of the specification, verbatim: its boards are 3x7 under a 16x30 header."""

METASWEEPER_FILE = """# MINESWEEPER-BOARD v0.1
# Render: ascii

author: autosweeper
comment: a lost game: time: 12.5 s

rows: 4
columns: 5
mines: 3

game_mode: classic

[real]
*2110
23*10
1*210
11100

[view]
F211#
?3X10
U@210
11100
"""
"""Written by following the specification (header, render, metadata, [real], [view]): every
non-number character of the ascii render is used and the [real] digits are the counts."""

METASWEEPER_EMOJI = METASWEEPER_FILE.replace("# Render: ascii", "# Render: emoji").replace(
    "F211#\n?3X10\nU@210\n11100\n",
    "🚩2️⃣1️⃣1️⃣❌\n❓3️⃣💥1️⃣0️⃣\n⬜💣2️⃣1️⃣0️⃣\n1️⃣1️⃣1️⃣0️⃣0️⃣\n",
)

LEGACY = """MINESWEEPER-BOARD v0.1
rows: 3
columns: 4
mines: 2
[view]
F11U
1111
0000
[real]
*..*
....
....
"""
"""What autosweeper wrote before it followed the standard."""


def test_specification_example_is_refused_where_its_size_disagrees() -> None:
    with pytest.raises(BoardError, match=r"^line 13: \[real\] has 3 rows, .*rows: 16$"):
        Board.from_text(SPECIFICATION_EXAMPLE)


def test_specification_example_with_its_own_size_reads_and_round_trips() -> None:
    text = SPECIFICATION_EXAMPLE.replace(
        "rows: 16\ncolumns: 30\nmines: 99", "rows: 3\ncolumns: 7\nmines: 3"
    )
    board = Board.from_text(text)
    assert (board.rows, board.columns, board.mines) == (3, 7, 3)
    assert str(board) == "UUU2100\nUF1X1?U\nU@U#111"
    assert board.real_mines is not None
    assert [tuple(cell) for cell in np.argwhere(board.real_mines)] == [(0, 4), (1, 4), (2, 4)]
    assert board.metadata == {
        "author": "eee555",
        "comment": "Example Board",
        "game_mode": "classic",
    }
    written = board.to_text()
    # The only difference: the example's [real] digits are not the counts; written ones are.
    counts = "[real]\n0002*20\n0003*30\n0002*20\n"
    assert written == text.replace("[real]\n" + "1112*21\n" * 3, counts)
    again = Board.from_text(written)
    assert again == board and again.metadata == board.metadata
    assert again.real_mines is not None and np.array_equal(again.real_mines, board.real_mines)
    assert again.to_text() == written


@pytest.mark.parametrize(
    ("text", "render"), [(METASWEEPER_FILE, "ascii"), (METASWEEPER_EMOJI, "emoji")]
)
def test_metasweeper_file_round_trips_exactly_in_both_renders(text: str, render: str) -> None:
    board = Board.from_text(text)
    assert (board.rows, board.columns, board.mines) == (4, 5, 3)
    assert board[0, 0] == Tile.FLAG and board[1, 2] == Tile.EXPLODED
    assert board[0, 4] == Tile.WRONG_FLAG and board[2, 1] == Tile.MINE
    assert board[1, 0] == Tile.QUESTION and board[2, 0] == Tile.HIDDEN
    assert board.metadata["comment"] == "a lost game: time: 12.5 s"
    assert board.to_text(render) == text
    assert board == Board.from_text(METASWEEPER_FILE)


def test_every_view_character_reads_to_its_tile_in_both_renders() -> None:
    board = Board.from_text(
        "# MINESWEEPER-BOARD v0.1\nrows: 1\ncolumns: 15\nmines: 3\ngame_mode: classic\n"
        "[view]\n012345678UF?@X#\n"
    )
    assert [Tile(t) for t in board.tiles[0]] == list(solver.board.PICTURED_TILES)
    emoji = board.to_text("emoji")
    assert "0️⃣1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣8️⃣⬜🚩❓💣💥❌" in emoji
    assert Board.from_text(emoji) == board
    assert Board.from_text(emoji).to_text("emoji") == emoji


def test_real_section_alone_is_a_fresh_board_with_a_known_layout() -> None:
    text = (
        "# MINESWEEPER-BOARD v0.1\n# Render: ascii\n\nrows: 2\ncolumns: 3\nmines: 1\n\n"
        "game_mode: classic\n\n[real]\n*10\n110\n"
    )
    board = Board.from_text(text)
    assert board.is_fresh and board.real_mines is not None and board.real_mines[0, 0]
    assert board.to_text() == text


def test_byte_order_mark_crlf_comments_and_unknown_keys_are_accepted() -> None:
    text = "\ufeff" + METASWEEPER_FILE.replace(
        "author: autosweeper", "# a comment\nauthor: autosweeper\nfuture_key: x: y"
    ).replace("\n", "\r\n")
    board = Board.from_text(text)
    assert board == Board.from_text(METASWEEPER_FILE)
    assert board.metadata["future_key"] == "x: y"


def test_missing_game_mode_is_read_and_written_as_classic() -> None:
    board = Board.from_text("# MINESWEEPER-BOARD v0.1\nrows: 1\ncolumns: 2\nmines: 1\n[view]\nU1\n")
    assert "\ngame_mode: classic\n" in board.to_text()


def test_earlier_autosweeper_form_is_still_read() -> None:
    board = Board.from_text(LEGACY)
    assert str(board) == "F11U\n1111\n0000" and board.mines == 2
    assert board.real_mines is not None
    assert [tuple(cell) for cell in np.argwhere(board.real_mines)] == [(0, 0), (0, 3)]
    assert Board.from_text(board.to_text()) == board
    assert "[real]\n*11*\n1111\n0000\n" in board.to_text()


def test_jsminesweeper_form_reads_columns_then_rows() -> None:
    board = Board.from_text("4x2x1\nH1F1\n1110\n")
    assert (board.rows, board.columns, board.mines) == (2, 4, 1)
    assert board[0, 0] == Tile.HIDDEN and board[0, 2] == Tile.FLAG
    assert Board.from_text(board.to_jsminesweeper_text()) == board


HEAD = "# MINESWEEPER-BOARD v0.1\n# Render: ascii\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEAD + "rows: 1\ncolumns: 2\nmines: 1\n[view]\nUZ\n", "line 7, cell (row 0, column 1)"),
        (HEAD + "rows: 1\ncolumns: 2\nmines: 1\n[view]\nuu\n", "unknown [view] character 'u'"),
        (HEAD + "rows: 2\ncolumns: 2\nmines: 1\n[view]\nUU\nU\n", "line 8: a [view] row has 1"),
        (HEAD + "rows: 3\ncolumns: 2\nmines: 1\n[view]\nUU\nUU\n", "[view] has 2 rows"),
        (HEAD + "columns: 2\nmines: 1\n[view]\nUU\n", "no 'rows:' line"),
        (HEAD + "rows: 1\ncolumns: 2\n[view]\nUU\n", "no 'mines:' line"),
        (HEAD + "rows: 1\ncolumns: 2\nmines: ²\n[view]\nUU\n", "line 5: 'mines:' needs a whole"),
        (HEAD + "rows: 1\ncolumns: 2\nmines: 9\n[view]\nUU\n", "9 mines do not fit"),
        (HEAD + "rows: 1\ncolumns: 2\nmines: 1\n", "neither a [real] nor a [view]"),
        (HEAD + "rows: 1\ncolumns: 2\nmines: 1\n[board]\nUU\n", "line 6: expected a [real]"),
        (HEAD + "rows: 1\ncolumns: 2\nmines: 1\n[real]\n**\n", "[real] holds 2 mines"),
        (HEAD + "rows: 1\ncolumns: 2\nmines: 1\nnot metadata\n[view]\nUU\n", "line 6: expected"),
        ("# MINESWEEPER-BOARD v1.0\n", "line 1: the first line must be"),
        ("# Render: emoji\n", "line 1: the first line must be '# MINESWEEPER-BOARD v0.1'"),
        ("# MINESWEEPER-BOARD v0.1\n# Render: html\n", "line 2: unknown render 'html'"),
        (f"{HEAD}rows: 100000\ncolumns: 100\nmines: 1\n", "100000x100 board"),
        ("MINESWEEPER-BOARD v0.1\nmines: 1\n[view]\n" + "U" * 101 + "\n", "1x101 board"),
        ("100x100000x1\n", "100000x100 board"),
        ("2x1x1\nHQ\n", "cell (row 0, column 1)"),
        ("2x1x¹\nHH\n", "unknown board format"),
        ("2x1x1234567890\nHH\n", "line 1: the header needs a whole number of at most 9 digits"),
        ("hello\n", "unknown board format"),
        ("\ufeff \r\n", "empty"),
    ],
)
def test_malformed_text_is_refused_naming_the_place(text: str, message: str) -> None:
    with pytest.raises(BoardError) as caught:
        Board.from_text(text)
    assert message in str(caught.value)


def test_size_limit_is_checked_from_the_header_before_the_rows() -> None:
    rows = "U" * 100 + "\n"
    huge = f"{HEAD}rows: 100000\ncolumns: 100\nmines: 1\n[view]\n" + rows * 100_000
    with pytest.raises(BoardError, match=f"larger than the {MAX_ROWS}x{MAX_COLUMNS}"):
        Board.from_text(huge)
    biggest = Board.empty(MAX_ROWS, MAX_COLUMNS, 1000)
    assert Board.from_text(biggest.to_text()) == biggest


def test_writing_refuses_metadata_that_would_not_read_back() -> None:
    board = Board.empty(1, 1, 0)
    board.metadata["comment"] = "two\nlines"
    with pytest.raises(BoardError, match="spans lines"):
        board.to_text()


def test_won_and_lost_are_read_from_the_tiles() -> None:
    assert Board.from_rows(["1F", "11"], mines=1).is_won
    assert Board.from_rows(["1U", "11"], mines=1).is_won
    assert not Board.from_rows(["UU", "11"], mines=1).is_won
    lost = Board.from_rows(["1X", "11"], mines=1)
    assert lost.is_lost and not lost.is_won
    assert Board.empty(2, 2, 1).is_fresh


def test_an_opened_cell_whose_number_is_not_known_is_safe_and_constrains_nothing() -> None:
    assert [int(tile) for tile in Tile] == list(range(16)) and Tile.OPENED == 15
    opened = Tile.OPENED
    assert opened.is_opened and not opened.is_number
    assert not opened.is_closed and not opened.is_unopened
    assert all(tile.is_opened == (tile.is_number or tile == opened) for tile in Tile)


def test_won_lost_and_playing_boards_with_unread_numbers() -> None:
    assert Board.from_rows(["-U", "11"], mines=1).is_won
    assert Board.from_rows(["--", "F-"], mines=1).is_won
    assert Board.from_rows(["--", "--"], mines=0).is_won
    playing = Board.from_rows(["-U", "U1"], mines=1)
    assert not playing.is_won and not playing.is_lost and not playing.is_fresh
    lost = Board.from_rows(["-X", "1-"], mines=1)
    assert lost.is_lost and not lost.is_won
    assert not Board.from_rows(["-#", "@-"], mines=1).is_won


def test_the_standard_has_no_character_for_an_unread_number_so_writing_one_fails() -> None:
    board = Board.from_rows(["U1", "1-"], mines=1)
    for write in (board.to_text, lambda: board.to_text("emoji"), board.to_jsminesweeper_text):
        with pytest.raises(BoardError, match=r"cell \(row 1, column 1\): opened") as caught:
            write()
        assert "\n" not in str(caught.value)
    with pytest.raises(BoardError, match="unknown \\[view\\] character '-'"):
        Board.from_text("# MINESWEEPER-BOARD v0.1\nrows: 1\ncolumns: 2\nmines: 1\n[view]\nU-\n")


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda columns: st.lists(
            st.lists(st.sampled_from(list(Tile)), min_size=columns, max_size=columns),
            min_size=1,
            max_size=5,
        )
    )
)
def test_every_board_has_a_repr_that_reads_back(rows: list[list[Tile]]) -> None:
    """The standard's text when it can say the board, else rows with '-' for an unread number."""
    board = Board(len(rows), len(rows[0]), 1, np.array(rows, dtype=np.uint8))
    text = repr(board)
    assert eval(text, {"Board": Board}) == board
    assert ("Board.from_rows" in text) == (Tile.OPENED in board.tiles)
    opened = int((board.tiles == Tile.OPENED).sum())
    assert str(board).count(solver.board_text.OPENED_CHAR) == opened


# -- fuzzing: whatever the text, the only exception is BoardError ---------------------------------

VALID_TEXTS = [
    METASWEEPER_FILE,
    METASWEEPER_EMOJI,
    LEGACY,
    SPECIFICATION_EXAMPLE,
    "4x2x1\nH1F1\n1110\n",
]
ALPHABET = st.sampled_from(
    list("#:[]*.xX0123456789UF?@Hrowsclumneiv \n\r\t²¹٣\ufeff\ufe0f\u20e3")
    + ["⬜", "🚩", "💣", "rows: ", "columns: ", "mines: ", "[real]", "[view]", "# Render: emoji"]
)


def _read_or_refuse(text: str) -> None:
    try:
        board = Board.from_text(text)
    except BoardError:
        return
    for render in ("ascii", "emoji"):
        assert Board.from_text(board.to_text(render)) == board


@settings(max_examples=500, deadline=None)
@given(st.lists(ALPHABET, max_size=80).map("".join))
def test_random_text_raises_only_board_errors(text: str) -> None:
    _read_or_refuse(text)


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(VALID_TEXTS),
    st.lists(
        st.tuples(
            st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 10**6), ALPHABET
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_valid_files_raise_only_board_errors(
    text: str, edits: list[tuple[str, int, str]]
) -> None:
    for kind, where, piece in edits:
        at = where % (len(text) + 1)
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + len(piece) :]
        else:
            text = text[:at] + piece + text[at + len(piece) :]
    _read_or_refuse(text)


def test_module_docstring_example_is_a_possible_board_written_as_to_text_writes_it() -> None:
    doc = solver.board_text.__doc__ or ""
    block = doc.split("writes::\n\n", 1)[1].split("\n\n  ``#``", 1)[0]
    text = textwrap.dedent(block) + "\n"
    board = Board.from_text(text)
    assert board.to_text() == text
    assert board.real_mines is not None
    opened = board.tiles <= Tile.EIGHT
    assert np.array_equal(board.tiles[opened], neighbour_counts(board.real_mines)[opened])
    assert board.real_mines[board.tiles == Tile.FLAG].all()
    result = analyze(board)
    assert result.mines == {(0, 3)} and not any(board.real_mines[cell] for cell in result.safe)


@pytest.mark.parametrize("key", ["rows", "a:b", "#note", "[view]", "two\nlines", " padded"])
def test_writing_refuses_metadata_keys_that_would_not_read_back(key: str) -> None:
    board = Board.empty(1, 1, 0)
    board.metadata[key] = "x"
    with pytest.raises(BoardError, match="cannot be written"):
        board.to_text()


def test_a_lone_carriage_return_ends_a_line_as_when_written_back() -> None:
    """Found by the fuzz test: a key holding a CR was read, then refused when written."""
    with pytest.raises(BoardError, match="line 2: expected 'key: value' metadata, found 'r'"):
        Board.from_text("# MINESWEEPER-BOARD v0.1\nr\rows: 3\n")
    board = Board.from_text(METASWEEPER_FILE.replace("\n", "\r"))
    assert board == Board.from_text(METASWEEPER_FILE)
