"""The text forms of a board: reading them into a :class:`~solver.board.Board` and writing it.

Text forms read by :func:`read_text` (:meth:`Board.from_text`):

* MINESWEEPER-BOARD v0.1, the board standard of ms-toollib and Metasweeper (the file
  ``board标准.md`` of github.com/eee555/ms-toollib), which :meth:`Board.to_text` writes::

      # MINESWEEPER-BOARD v0.1
      # Render: ascii

      rows: 3
      columns: 4
      mines: 2

      game_mode: classic

      [real]
      *11*
      1111
      0000

      [view]
      F11U
      1111
      0000

  ``#`` lines before the first section are comments (the first names the format, ``# Render:``
  says ``ascii`` or ``emoji``); metadata is ``key: value``; ``[real]`` (``*`` a mine, digits
  the counts around) and ``[view]`` each hold ``rows`` lines of ``columns`` characters, and at
  least one of them is present. A ``[real]`` alone is a fresh board whose layout is known.
* The same without the ``#`` (what autosweeper wrote before it followed the standard), where
  ``rows``/``columns`` may be missing and ``[real]`` marks safe cells with ``.``.
* JSMinesweeper's form: a ``30x16x99`` header (columns x rows x mines) and rows of digits,
  ``H`` hidden, ``F`` flag.

Boards read from text have at most :data:`~solver.board.MAX_ROWS` rows and
:data:`~solver.board.MAX_COLUMNS` columns.

None of these forms has a character for :attr:`~solver.board.Tile.OPENED` (an opened cell whose
number is not known; the standard's ``[view]`` characters are ``U``, ``0``-``8``, ``F``, ``?``,
``X``, ``@`` and ``#``), so writing a board with one raises :class:`BoardError` naming the cell,
rather than inventing a character. ``str(board)``, ``repr(board)`` and :meth:`Board.from_rows` use
autosweeper's own :data:`OPENED_CHAR` for it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from solver.board import MAX_COLUMNS, MAX_ROWS, Board, Tile
from solver.errors import BoardError

_VIEW_CHARS: dict[str, Tile] = {
    **{str(n): Tile(n) for n in range(9)},
    "U": Tile.HIDDEN,
    "F": Tile.FLAG,
    "?": Tile.QUESTION,
    "@": Tile.MINE,
    "X": Tile.EXPLODED,
    "#": Tile.WRONG_FLAG,
}
_CHAR_OF_TILE: dict[Tile, str] = {tile: char for char, tile in _VIEW_CHARS.items()}
OPENED_CHAR = "-"
"""autosweeper's own character for :attr:`Tile.OPENED`, which the standard does not define:
``str(board)``, ``repr(board)`` and :meth:`Board.from_rows` use it, the text forms refuse it."""
_ROW_CHARS: dict[str, Tile] = {**_VIEW_CHARS, OPENED_CHAR: Tile.OPENED}
_CHAR_OF_ROW_TILE: dict[Tile, str] = {**_CHAR_OF_TILE, Tile.OPENED: OPENED_CHAR}
_JS_CHARS: dict[str, Tile] = {
    **{str(n): Tile(n) for n in range(9)},
    "H": Tile.HIDDEN,
    "F": Tile.FLAG,
}

_REAL_CHARS: dict[str, int] = {"*": 1, **dict.fromkeys("012345678", 0)}
"""``[real]``: a mine, or the number of mines around (not checked: the ``*`` decide)."""
_LEGACY_REAL: dict[str, int] = {**_REAL_CHARS, ".": 0}
"""autosweeper's earlier ``[real]`` marked every safe cell ``.``."""

STANDARD_HEADER = "# MINESWEEPER-BOARD v0.1"
_RENDERS = ("ascii", "emoji")
_SIZE_KEYS = ("rows", "columns", "mines")
_EMOJI_OF_TILE: dict[Tile, str] = {
    **{Tile(n): f"{n}\ufe0f\u20e3" for n in range(9)},
    Tile.HIDDEN: "\u2b1c",
    Tile.FLAG: "\U0001f6a9",
    Tile.QUESTION: "\u2753",
    Tile.EXPLODED: "\U0001f4a5",
    Tile.MINE: "\U0001f4a3",
    Tile.WRONG_FLAG: "\u274c",
}
"""The standard's emoji render of each tile (digits as keycaps: digit, U+FE0F, U+20E3)."""
_CHAR_OF_EMOJI: dict[str, str] = {
    emoji.replace("\ufe0f", ""): _CHAR_OF_TILE[tile] for tile, emoji in _EMOJI_OF_TILE.items()
}
_EMOJI_TOKEN = re.compile(
    "[0-8]\ufe0f?\u20e3|[" + "".join(e for e in _CHAR_OF_EMOJI if len(e) == 1) + "]\ufe0f?"
)
"""One emoji of the render, its variation selector (U+FE0F) optional."""


MAX_TEXT_BYTES = 1 << 20
"""The largest board file read: a 100x100 board with both layouts drawn in emoji (up to 7
bytes a cell) fills about 140 kB, so a file over 1 MiB is no board and is refused before it is
read whole (``/dev/zero`` once filled the memory)."""


def read_text(text: str) -> Board:
    """Read any of the module's text forms (:meth:`Board.from_text`); raise
    :class:`BoardError` naming the line."""
    lines = [
        (number, line.strip())
        for number, line in enumerate(re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")), start=1)
    ]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise BoardError("the board text is empty")
    number, first = lines[0]
    if first.startswith("#"):
        return _parse_board_standard(lines)
    if first.upper().startswith("MINESWEEPER-BOARD"):
        return _parse_board_standard(lines, legacy=True)
    if re.fullmatch(r"[0-9]+x[0-9]+x[0-9]+", first):
        return _parse_jsminesweeper(lines)
    raise BoardError(
        f"unknown board format: expected a '{STANDARD_HEADER}' header or a "
        f"JSMinesweeper 'COLUMNSxROWSxMINES' header, found {first[:40]!r}",
        line=number,
    )


def read_file(path: str | os.PathLike[str]) -> Board:
    """Read a board file as :func:`read_text` (:meth:`Board.read_file`), refusing one over
    :data:`MAX_TEXT_BYTES` without reading it whole. Raise :class:`OSError` or
    :class:`UnicodeDecodeError` for a file that cannot be read, :class:`BoardError` for one that
    is no board."""
    with open(path, "rb") as file:
        data = file.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise BoardError(
            f"the file is larger than {MAX_TEXT_BYTES // 1024} KiB, more than any board "
            f"of at most {MAX_ROWS}x{MAX_COLUMNS} cells takes"
        )
    return read_text(data.decode("utf-8"))


def read_rows(lines: list[str], mines: int) -> Board:
    """A board from rows of MINESWEEPER-BOARD view characters (``U``, ``F``, digits...), and
    :data:`OPENED_CHAR` for :attr:`~solver.board.Tile.OPENED`, as :func:`view_rows` writes them
    (:meth:`Board.from_rows`)."""
    rows = [(number, line) for number, line in enumerate(lines, start=1)]
    if not rows:
        raise BoardError("the board has no rows")
    return Board(len(rows), len(rows[0][1]), mines, _read_grid(rows, "row", _ROW_CHARS))


def write_text(board: Board, render: str = "ascii") -> str:
    """The board as MINESWEEPER-BOARD v0.1 text, ``render`` ``ascii`` or ``emoji``
    (:meth:`Board.to_text`).

    ``[real]`` is written when the layout is known and ``[view]`` unless the board is fresh
    with a known layout (a ``[real]`` alone reads back as that board). A board with an
    :attr:`~solver.board.Tile.OPENED` cell is refused: the standard has no character for it.
    """
    if render not in _RENDERS:
        raise BoardError(f"unknown render {render!r}: expected ascii or emoji")
    _refuse_opened(board, "MINESWEEPER-BOARD v0.1")
    for key, value in board.metadata.items():
        if key.lower() in _SIZE_KEYS or not re.fullmatch(r"[^:#\[\s]([^:\r\n]*[^:\s])?", key):
            raise BoardError(f"metadata key {key!r} cannot be written")
        if "\n" in value or "\r" in value:
            raise BoardError(f"metadata {key!r} spans lines; a value is one line")
    extra = [f"{key}: {value}" for key, value in board.metadata.items() if key != "game_mode"]
    game_mode = board.metadata.get("game_mode", "classic")
    out = [STANDARD_HEADER, f"# Render: {render}", ""]
    if extra:
        out += [*extra, ""]
    out += [f"rows: {board.rows}", f"columns: {board.columns}", f"mines: {board.mines}", ""]
    out += [f"game_mode: {game_mode}", ""]
    if board.real_mines is not None:
        out += ["[real]", *_real_rows(board.real_mines), ""]
    if board.real_mines is None or not board.is_fresh:
        chars = _CHAR_OF_TILE if render == "ascii" else _EMOJI_OF_TILE
        out += ["[view]", *("".join(chars[Tile(t)] for t in row) for row in board.tiles)]
    return "\n".join(out).rstrip("\n") + "\n"


def write_jsminesweeper(board: Board) -> str:
    """The board in JSMinesweeper's form (unopened cells other than flags become ``H``);
    like :func:`write_text`, it refuses an :attr:`~solver.board.Tile.OPENED` cell
    (:meth:`Board.to_jsminesweeper_text`)."""
    _refuse_opened(board, "JSMinesweeper's form")
    out = [f"{board.columns}x{board.rows}x{board.mines}"]
    for row in board.tiles:
        chars = []
        for t in row:
            tile = Tile(t)
            chars.append(str(int(tile)) if tile.is_number else "F" if tile == Tile.FLAG else "H")
        out.append("".join(chars))
    return "\n".join(out) + "\n"


def view_rows(board: Board) -> str:
    """The ``[view]`` rows (:data:`OPENED_CHAR` for :attr:`~solver.board.Tile.OPENED`):
    ``str(board)``."""
    return "\n".join("".join(_CHAR_OF_ROW_TILE[Tile(t)] for t in row) for row in board.tiles)


def _refuse_opened(board: Board, form: str) -> None:
    """Raise :class:`BoardError` naming the first :attr:`~solver.board.Tile.OPENED` cell, if
    any: no text form autosweeper writes has a character for it, and writing it as hidden would
    lose that it is safe."""
    opened = np.argwhere(board.tiles == Tile.OPENED)
    if opened.size:
        raise BoardError(
            f"opened with its number not known, which {form} has no character for",
            cell=(int(opened[0][0]), int(opened[0][1])),
        )


def check_size(rows: int, columns: int, line: int | None = None) -> None:
    """Refuse a board bigger than autosweeper reads, before any of its rows is read."""
    if rows > MAX_ROWS or columns > MAX_COLUMNS:
        raise BoardError(
            f"a {rows}x{columns} board (rows x columns) is larger than the {MAX_ROWS}x"
            f"{MAX_COLUMNS} autosweeper reads",
            line=line,
        )


def _whole_number(text: str, what: str, line: int) -> int:
    """A header number: ASCII digits only (``str.isdigit`` would take ``²``), and short."""
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise BoardError(
            f"{what} needs a whole number of at most 9 digits, found {text[:40]!r}", line=line
        )
    return int(text)


def _from_emoji(line: str) -> str:
    """The ASCII form of an emoji-rendered row (ASCII characters stay as they are)."""
    return _EMOJI_TOKEN.sub(lambda m: _CHAR_OF_EMOJI.get(m[0].replace("\ufe0f", ""), m[0]), line)


def _read_grid(
    rows: list[tuple[int, str]], label: str, chars: Mapping[str, int]
) -> npt.NDArray[np.uint8]:
    """Rows of characters (with their line numbers) as an array of ``chars``' values."""
    width = len(rows[0][1])
    grid = np.empty((len(rows), width), dtype=np.uint8)
    for r, (number, text) in enumerate(rows):
        if len(text) != width:
            raise BoardError(
                f"{label} row {r} has {len(text)} cells, its first row has {width}",
                line=number,
            )
        for c, char in enumerate(text):
            value = chars.get(char)
            if value is None:
                raise BoardError(f"unknown {label} character {char!r}", cell=(r, c), line=number)
            grid[r, c] = value
    return grid


def _real_rows(mines: npt.NDArray[np.bool_]) -> list[str]:
    """A layout as ``[real]`` rows: ``*`` for a mine, else the count of mines around."""
    padded = np.pad(mines.astype(np.uint8), 1)
    around = np.zeros(mines.shape, dtype=np.uint8)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                around += padded[1 + dr : 1 + dr + mines.shape[0], 1 + dc : 1 + dc + mines.shape[1]]
    return [
        "".join("*" if mine else str(count) for mine, count in zip(row, counts, strict=True))
        for row, counts in zip(mines, around, strict=True)
    ]


def _parse_board_standard(lines: list[tuple[int, str]], legacy: bool = False) -> Board:
    """MINESWEEPER-BOARD text; ``legacy`` is autosweeper's earlier form without the ``#``."""
    number, header = lines[0]
    # A later v0.x is read alike: the standard keeps older readers working across versions.
    if not re.fullmatch(r"#?\s*MINESWEEPER-BOARD\s+v0\.[0-9]+", header, re.IGNORECASE):
        raise BoardError(
            f"the first line must be '{STANDARD_HEADER}', found {header[:40]!r}", line=number
        )
    index = next((i for i, (_, line) in enumerate(lines) if i and line.startswith("[")), len(lines))
    render, size, metadata = _read_metadata(lines[1:index])
    missing = [key for key in _SIZE_KEYS if key not in size and not (legacy and key != "mines")]
    if missing:
        raise BoardError(f"the metadata has no '{missing[0]}:' line")
    if "rows" in size and "columns" in size:
        check_size(size["rows"], size["columns"])
    sections = _read_sections(lines[index:], render, size)
    shape = next(iter(sections.values()))
    rows, columns = len(shape), len(shape[0][1])
    if any(len(body) != rows or len(body[0][1]) != columns for body in sections.values()):
        raise BoardError("the [real] and [view] sections differ in size")

    mines = size["mines"]
    tiles = (
        _read_grid(sections["view"], "[view]", _VIEW_CHARS)
        if "view" in sections
        else np.full((rows, columns), Tile.HIDDEN, dtype=np.uint8)
    )
    board = Board(rows, columns, mines, tiles, metadata=metadata)
    if "real" in sections:
        layout = _read_grid(sections["real"], "[real]", _LEGACY_REAL if legacy else _REAL_CHARS)
        board.real_mines = layout.astype(bool)
        if int(layout.sum()) != mines:
            raise BoardError(f"[real] holds {int(layout.sum())} mines, the metadata says {mines}")
    return board


def _read_metadata(
    lines: list[tuple[int, str]],
) -> tuple[str, dict[str, int], dict[str, str]]:
    """The lines between the header and the first section: the render (from a ``# Render:``
    comment), the size keys as numbers, and every other ``key: value`` kept as text."""
    render = "ascii"
    metadata: dict[str, str] = {}
    size: dict[str, int] = {}
    for number, line in lines:
        if line.startswith("#"):
            found = re.fullmatch(r"#\s*render\s*:\s*(.*)", line, re.IGNORECASE)
            if found:
                render = found[1].lower()
                if render not in _RENDERS:
                    raise BoardError(
                        f"unknown render {found[1][:40]!r}: expected ascii or emoji", line=number
                    )
            continue
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon or not key:
            raise BoardError(f"expected 'key: value' metadata, found {line[:40]!r}", line=number)
        if key.lower() in _SIZE_KEYS:
            if key.lower() in size:
                raise BoardError(f"'{key.lower()}:' is given twice", line=number)
            size[key.lower()] = _whole_number(value, f"'{key}:'", number)
        else:
            metadata[key] = value
    return render, size, metadata


def _read_sections(
    lines: list[tuple[int, str]], render: str, size: dict[str, int]
) -> dict[str, list[tuple[int, str]]]:
    """The ``[real]`` and ``[view]`` sections' rows (in ascii), each checked against the size
    the metadata gives; at least one of them."""
    sections: dict[str, list[tuple[int, str]]] = {}
    index = 0
    while index < len(lines):
        number, line = lines[index]
        name = line.lower()
        if name not in ("[real]", "[view]"):
            raise BoardError(
                f"expected a [real] or [view] section, found {line[:40]!r}", line=number
            )
        if name in sections:
            raise BoardError(f"a second {name} section", line=number)
        index += 1
        body = []
        while index < len(lines) and not lines[index][1].startswith("["):
            row_number, row = lines[index]
            body.append((row_number, _from_emoji(row) if render == "emoji" else row))
            index += 1
        if not body:
            raise BoardError(f"the {name} section has no rows", line=number)
        rows = size.get("rows", len(body))
        columns = size.get("columns", len(body[0][1]))
        check_size(len(body), len(body[0][1]), line=number)
        if len(body) != rows:
            raise BoardError(
                f"{name} has {len(body)} rows, the metadata says rows: {rows}", line=number
            )
        for row_number, row in body:
            if len(row) != columns:
                raise BoardError(
                    f"a {name} row has {len(row)} cells, the metadata says columns: {columns}",
                    line=row_number,
                )
        sections[name[1:-1]] = body
    if not sections:
        raise BoardError("the text has neither a [real] nor a [view] section")
    return sections


def _parse_jsminesweeper(lines: list[tuple[int, str]]) -> Board:
    number, header = lines[0]
    columns, rows, mines = (_whole_number(x, "the header", number) for x in header.split("x"))
    check_size(rows, columns, line=number)
    body = lines[1:]
    if len(body) != rows:
        raise BoardError(f"the header says {rows} rows, the text has {len(body)}", line=number)
    for row_number, text in body:
        if len(text) != columns:
            raise BoardError(
                f"a row has {len(text)} cells, the header says {columns}", line=row_number
            )
    upper = [(row_number, text.upper()) for row_number, text in body]
    return Board(rows, columns, mines, _read_grid(upper, "JSMinesweeper", _JS_CHARS))
