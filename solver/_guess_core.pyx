# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The look-ahead's classes of layouts (:func:`solver.guess._classes`) and the rows of its
layout tables (``solver.analysis._layout_rows``), compiled.

A guess's look-ahead asks, for each candidate cell, how the combined layouts of the groups it
touches fall into classes by their mines next to the cell and in all. The Python twin combines
the groups' tables and classifies them with numpy, a dozen calls of set-up each time for tables
that mostly hold a few dozen rows; this walks the combinations in C. The classes come out the
same, in the same order (tests/solver/test_guess_core.py holds the two equal). The tables'
rows likewise, without a Python tuple per layout.
"""

from math import comb

import numpy as np

from libc.stdint cimport int64_t
from libcpp.vector cimport vector


def layout_classes(object cell, object unknown, list enumerated) -> list:
    """``list(solver.guess._classes(cell, unknown, enumerated))``."""
    cdef int groups = len(enumerated), g, r, c, column
    cdef vector[int] rows = vector[int](groups), offset = vector[int](groups + 1, 0)
    cells: list = []
    tables = []
    for g in range(groups):
        layouts = enumerated[g]
        tables.append(layouts.mined.view("u1"))
        rows[g] = len(layouts.mined)
        offset[g + 1] = offset[g] + len(layouts.cells)
        cells += layouts.cells
    cdef int width = offset[groups]
    for g in range(groups):
        if not rows[g]:
            return []
    cdef int excluded = cells.index(cell) if cell in cells else -1
    cdef vector[char] near_column = vector[char](width, 0)
    for column in range(width):
        near_column[column] = cells[column] in unknown
    # Per group and row: its mines next to the cell and in all, or -1 for a row with a mine on
    # the cell; its mined columns.
    cdef vector[vector[int]] near = vector[vector[int]](groups)
    cdef vector[vector[int]] total = vector[vector[int]](groups)
    cdef vector[vector[vector[int]]] mined = vector[vector[vector[int]]](groups)
    cdef const unsigned char[:, ::1] table
    for g in range(groups):
        table = tables[g]
        near[g].assign(rows[g], 0)
        total[g].assign(rows[g], 0)
        mined[g].resize(rows[g])
        for r in range(rows[g]):
            for c in range(offset[g + 1] - offset[g]):
                if table[r, c]:
                    column = offset[g] + c
                    if column == excluded:
                        total[g][r] = -1
                        break
                    mined[g][r].push_back(column)
                    near[g][r] += near_column[column]
                    total[g][r] += 1
    # Classes by key (as the twin's: near * (width + 1) + total, with at most 8 cells near),
    # their sizes and per-column mine counts, filled by walking every combination of one row
    # per group.
    cdef int keys = (min(width, 8) + 1) * (width + 1)
    cdef vector[int64_t] size = vector[int64_t](keys, 0)
    cdef vector[int] slot = vector[int](keys, -1)
    cdef vector[int64_t] counts
    cdef vector[int] choice = vector[int](groups, 0)
    cdef int n, t, key, index
    cdef bint skip
    while True:
        n, t, skip = 0, 0, False
        for g in range(groups):
            if total[g][choice[g]] < 0:
                skip = True
                break
            n += near[g][choice[g]]
            t += total[g][choice[g]]
        if not skip:
            key = n * (width + 1) + t
            if slot[key] < 0:
                slot[key] = <int>(counts.size() // max(width, 1))
                counts.resize(counts.size() + max(width, 1), 0)
            size[key] += 1
            index = slot[key] * max(width, 1)
            for g in range(groups):
                for column in mined[g][choice[g]]:
                    counts[index + column] += 1
        g = groups - 1
        while g >= 0 and choice[g] == rows[g] - 1:
            choice[g] = 0
            g -= 1
        if g < 0:
            break
        choice[g] += 1
    found = []
    for key in range(keys):
        if size[key]:
            index = slot[key] * max(width, 1)
            per_cell = [(cells[c], counts[index + c]) for c in range(width) if counts[index + c]]
            found.append((key // (width + 1), key % (width + 1), size[key], per_cell))
    return found


def layout_rows(list boxes, list choices, int width):
    """The rows of :meth:`solver.analysis.Group.layout_table` before the dropped numbers are
    checked (the twin of ``analysis._layout_rows``): for each choice of mines per box, every
    way to pick them, the boxes' picks in the order of ``itertools.product`` over
    ``itertools.combinations``; ``boxes`` holds each box's columns."""
    cdef int count = len(boxes), b, i, j, row = 0
    cdef vector[vector[int]] columns = vector[vector[int]](count)
    for b in range(count):
        for column in boxes[b]:
            columns[b].push_back(column)
    cdef vector[vector[int]] mines = vector[vector[int]](len(choices))
    cdef Py_ssize_t rows = 0, layouts, c
    for c in range(len(choices)):
        layouts = 1
        for b in range(count):
            mines[c].push_back(choices[c][b])
            layouts *= comb(len(boxes[b]), choices[c][b])
        rows += layouts
    mined = np.zeros((rows, width), dtype=bool)
    cdef unsigned char[:, ::1] out = mined.view(np.uint8)
    # Per box, the positions of its picked cells among its columns (lexicographic order).
    cdef vector[vector[int]] picked = vector[vector[int]](count)
    cdef int size, k
    for c in range(<Py_ssize_t>mines.size()):
        for b in range(count):
            picked[b].clear()
            for i in range(mines[c][b]):
                picked[b].push_back(i)
        while True:
            for b in range(count):
                for i in range(mines[c][b]):
                    out[row, columns[b][picked[b][i]]] = 1
            row += 1
            # The next combination, the last box's first (as itertools.product does).
            b = count - 1
            while b >= 0:
                size, k = <int>columns[b].size(), mines[c][b]
                i = k - 1
                while i >= 0 and picked[b][i] == size - k + i:
                    i -= 1
                if i >= 0:
                    picked[b][i] += 1
                    for j in range(i + 1, k):
                        picked[b][j] = picked[b][j - 1] + 1
                    break
                for i in range(k):
                    picked[b][i] = i
                b -= 1
            if b < 0:
                break
    return mined
