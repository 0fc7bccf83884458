# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: overflowcheck=False
"""The two steps every move runs, compiled: reading a board's numbers
(:func:`solver.constraints._number_keys`) and the cheap rules
(:func:`solver.deduce._certain_bits`).

Each function computes what its Python twin computes, or returns ``None`` where the twin
raises (an impossible board): the caller then runs the Python, which raises with its message.
So the messages stay in one place, and tests/solver/test_rules_core.py holds the two equal on
the boards of real games and on random ones. The rules read a number's cells from its key
(:attr:`solver.constraints.Constraints.keys`, 8 bits for its neighbours), where the Python
reads the board-wide int made from the same key.
"""

from libc.stdint cimport uint64_t
from libcpp.vector cimport vector


from solver.board import TILE_COUNT as _TILE_COUNT, Tile

cdef int HIDDEN = Tile.HIDDEN, FLAG = Tile.FLAG, QUESTION = Tile.QUESTION, EIGHT = Tile.EIGHT
cdef int MINE = Tile.MINE, EXPLODED = Tile.EXPLODED, WRONG_FLAG = Tile.WRONG_FLAG
cdef int TILE_COUNT = _TILE_COUNT

cdef enum:
    MOST_CELLS = 8


cdef int[8] ROW_STEP = [-1, -1, -1, 0, 0, 1, 1, 1]
cdef int[8] COLUMN_STEP = [-1, 0, 1, -1, 1, -1, 0, 1]
"""The eight neighbours in the order of solver.constraints._DIRECTIONS."""


def number_keys(const unsigned char[:, :] tiles, long long mines):
    """``solver.constraints._number_keys(board)`` for a board with these ``tiles`` and
    ``mines``: (the keys of its numbers, its unknown cells, its flags), or ``None`` where that
    raises."""
    cdef Py_ssize_t rows = tiles.shape[0], columns = tiles.shape[1]
    cdef Py_ssize_t r, c, nr, nc, k
    cdef long long flags = 0, unknown = 0
    cdef int tile, near, flags_around, unknown_around, pattern
    for r in range(rows):
        for c in range(columns):
            tile = tiles[r, c]
            if tile >= TILE_COUNT or tile == MINE or tile == EXPLODED or tile == WRONG_FLAG:
                return None
            flags += tile == FLAG
            unknown += tile == HIDDEN or tile == QUESTION
    if flags > mines or mines - flags > unknown:
        return None
    keys = []
    for r in range(rows):
        for c in range(columns):
            tile = tiles[r, c]
            if tile > EIGHT:
                continue
            flags_around = unknown_around = pattern = 0
            for k in range(8):
                nr, nc = r + ROW_STEP[k], c + COLUMN_STEP[k]
                if 0 <= nr < rows and 0 <= nc < columns:
                    near = tiles[nr, nc]
                    if near == FLAG:
                        flags_around += 1
                    elif near == HIDDEN or near == QUESTION:
                        unknown_around += 1
                        pattern |= 1 << k
            if flags_around > tile or flags_around + unknown_around < tile:
                return None
            if unknown_around:
                keys.append(((r * columns + c) << 12) | (pattern << 4) | (tile - flags_around))
    return keys, unknown, flags


cdef struct Number:
    int index
    int need
    int count
    int cells[MOST_CELLS]


cdef class _Cells:
    """A set of cells as a row of 64-bit words (bit ``i % 64`` of word ``i // 64``)."""

    cdef vector[uint64_t] words
    cdef int count

    def __cinit__(self, int cells):
        self.words.assign((cells + 63) // 64, 0)
        self.count = 0

    cdef inline bint has(self, int cell) noexcept:
        return self.words[cell >> 6] >> (cell & 63) & 1

    cdef inline void add(self, int cell) noexcept:
        if not self.has(cell):
            self.words[cell >> 6] |= (<uint64_t>1) << (cell & 63)
            self.count += 1

    cdef object to_int(self):
        cdef bytearray raw = bytearray(8 * self.words.size())
        cdef size_t i
        for i in range(8 * self.words.size()):
            raw[i] = (self.words[i >> 3] >> (8 * (i & 7))) & 0xFF
        return int.from_bytes(raw, "little")


cdef bint _in(const Number* number, int cell) noexcept:
    cdef int i
    for i in range(number.count):
        if number.cells[i] == cell:
            return True
    return False


cdef int _pair_rule(const Number* a, const Number* b, _Cells mines, _Cells safe) noexcept:
    """deduce._pair_rule for B against A, its cells added to ``mines`` and ``safe``; -1 where
    it raises."""
    cdef int only_b = 0, only_a = 0, i
    for i in range(b.count):
        only_b += not _in(a, b.cells[i])
    for i in range(a.count):
        only_a += not _in(b, a.cells[i])
    cdef int difference = b.need - a.need
    if difference > only_b or -difference > only_a:
        return -1
    if difference == only_b:
        for i in range(b.count):
            if not _in(a, b.cells[i]):
                mines.add(b.cells[i])
        for i in range(a.count):
            if not _in(b, a.cells[i]):
                safe.add(a.cells[i])
    return 0


cdef int _pair_rules(vector[Number]& numbers, int cells, _Cells mines, _Cells safe):
    """deduce._apply_pair_rules, its cells added to ``mines`` and ``safe``; -1 where it raises.
    Pairs are met in another order, which only decides which impossible pair the Python names."""
    cdef int n = numbers.size(), p, q, i, j, cell, other
    cdef vector[int] start = vector[int](cells + 1, 0)
    for p in range(n):
        for i in range(numbers[p].count):
            start[numbers[p].cells[i] + 1] += 1
    for cell in range(cells):
        start[cell + 1] += start[cell]
    cdef vector[int] fill = vector[int](start.begin(), start.end() - 1)
    cdef vector[int] touching = vector[int](start[cells])
    for p in range(n):
        for i in range(numbers[p].count):
            cell = numbers[p].cells[i]
            touching[fill[cell]] = p
            fill[cell] += 1
    cdef vector[int] seen = vector[int](n, -1)
    for p in range(n):
        for i in range(numbers[p].count):
            cell = numbers[p].cells[i]
            for j in range(start[cell], start[cell + 1]):
                other = touching[j]
                if other <= p or seen[other] == p:
                    continue
                seen[other] = p
                if (
                    _pair_rule(&numbers[p], &numbers[other], mines, safe) < 0
                    or _pair_rule(&numbers[other], &numbers[p], mines, safe) < 0
                ):
                    return -1
    return 0


def certain_bits(
    tuple keys,
    long long unknown_count,
    long long mines_left,
    const unsigned char[:, :] unknown_mask,
):
    """``solver.deduce._certain_bits`` of a position with these :attr:`Constraints.keys`,
    unknown cell and unflagged mine counts and unknown mask: (safe, mines) as ints, or ``None``
    where that raises."""
    cdef int rows = unknown_mask.shape[0], columns = unknown_mask.shape[1]
    cdef int cells = rows * columns
    cdef vector[Number] held
    cdef Number number
    cdef long long key
    cdef int r, c, k, bit, i, kept
    for key in keys:
        number.index, number.need, number.count = key >> 12, key & 0xF, 0
        r, c = number.index // columns, number.index % columns
        for k in range(8):
            if key >> (4 + k) & 1:
                number.cells[number.count] = (r + ROW_STEP[k]) * columns + c + COLUMN_STEP[k]
                number.count += 1
        held.push_back(number)
    cdef _Cells safe = _Cells(cells), mines = _Cells(cells)
    cdef int before, reduced = 0, undecided, left
    cdef Number* current
    while True:
        before = safe.count + mines.count
        if before != reduced:
            # Drop the decided cells; a number whose need no longer fits its cells is impossible.
            kept = 0
            for i in range(held.size()):
                current = &held[i]
                number.index, number.need, number.count = current.index, current.need, 0
                for bit in range(current.count):
                    if mines.has(current.cells[bit]):
                        number.need -= 1
                    elif not safe.has(current.cells[bit]):
                        number.cells[number.count] = current.cells[bit]
                        number.count += 1
                if not 0 <= number.need <= number.count:
                    return None
                if number.count:
                    held[kept] = number
                    kept += 1
            held.resize(kept)
            reduced = before
        for i in range(held.size()):
            current = &held[i]
            if current.need == 0:
                for bit in range(current.count):
                    safe.add(current.cells[bit])
            elif current.need == current.count:
                for bit in range(current.count):
                    mines.add(current.cells[bit])
        if safe.count + mines.count == before:
            if _pair_rules(held, cells, mines, safe) < 0:
                return None
        for i in range(safe.words.size()):
            if safe.words[i] & mines.words[i]:
                return None
        undecided = unknown_count - safe.count - mines.count
        left = mines_left - mines.count
        if not 0 <= left <= undecided:
            return None
        if undecided and (left == 0 or left == undecided):
            for i in range(cells):
                if unknown_mask[i // columns, i % columns] and not safe.has(i) and not mines.has(i):
                    if left:
                        mines.add(i)
                    else:
                        safe.add(i)
        if safe.count + mines.count == before:
            return safe.to_int(), mines.to_int()
