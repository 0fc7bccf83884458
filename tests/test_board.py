"""The board model and its text forms."""

import numpy as np
import pytest

from solver import Board, BoardError, Tile

METASWEEPER = """MINESWEEPER-BOARD v0.1
rows: 3
columns: 4
mines: 2
[view]
U1F1
U110
U100
[real]
.*.*
....
....
"""


def test_metasweeper_round_trip_keeps_view_and_real_layout() -> None:
    board = Board.from_text(METASWEEPER)
    assert (board.rows, board.columns, board.mines) == (3, 4, 2)
    assert board[0, 0] == Tile.HIDDEN and board[0, 2] == Tile.FLAG and board[1, 3] == Tile.ZERO
    assert board.real_mines is not None and board.real_mines[0, 1] and board.real_mines[0, 3]
    assert board.to_text() == METASWEEPER
    again = Board.from_text(board.to_text())
    assert again == board and again.real_mines is not None
    assert np.array_equal(again.real_mines, board.real_mines)


def test_every_view_character_reads_to_its_tile() -> None:
    board = Board.from_text(
        "MINESWEEPER-BOARD v0.1\nrows: 1\ncolumns: 15\nmines: 3\n[view]\n012345678UF?@X#\n"
    )
    assert [Tile(t) for t in board.tiles[0]] == list(Tile)


def test_jsminesweeper_form_reads_columns_then_rows() -> None:
    board = Board.from_text("4x2x1\nH1F1\n1110\n")
    assert (board.rows, board.columns, board.mines) == (2, 4, 1)
    assert board[0, 0] == Tile.HIDDEN and board[0, 2] == Tile.FLAG
    assert Board.from_text(board.to_jsminesweeper_text()) == board


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (
            "MINESWEEPER-BOARD v0.1\nrows: 1\ncolumns: 2\nmines: 1\n[view]\nUZ\n",
            "cell (row 0, column 1)",
        ),
        ("MINESWEEPER-BOARD v0.1\nrows: 2\ncolumns: 2\nmines: 1\n[view]\nUU\nU\n", "line 7"),
        ("MINESWEEPER-BOARD v0.1\nrows: 3\ncolumns: 2\nmines: 1\n[view]\nUU\nUU\n", "rows: 3"),
        ("MINESWEEPER-BOARD v0.1\nrows: 1\ncolumns: 2\n[view]\nUU\n", "mines:"),
        ("MINESWEEPER-BOARD v0.1\nrows: 1\ncolumns: 2\nmines: 9\n[view]\nUU\n", "9 mines"),
        ("2x1x1\nHQ\n", "cell (row 0, column 1)"),
        ("hello\n", "unknown board format"),
        ("", "empty"),
    ],
)
def test_malformed_text_names_the_place(text: str, where: str) -> None:
    with pytest.raises(BoardError, match=r".*") as caught:
        Board.from_text(text)
    assert where in str(caught.value)


def test_won_and_lost_are_read_from_the_tiles() -> None:
    assert Board.from_rows(["1F", "11"], mines=1).is_won
    assert Board.from_rows(["1U", "11"], mines=1).is_won
    assert not Board.from_rows(["UU", "11"], mines=1).is_won
    lost = Board.from_rows(["1X", "11"], mines=1)
    assert lost.is_lost and not lost.is_won
    assert Board.empty(2, 2, 1).is_fresh
