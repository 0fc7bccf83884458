# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The exact win-probability search of :class:`solver.winprob_search.Search`, compiled.

Step for step the same search, in the same order, so that it looks at the same layouts, gives
up at the same point and picks the same cells (tests/solver/test_winprob_core.py holds the two
to that); only the data differ. A position, a Python int there, is a row of 64-bit words here,
one bit per layout, and the per-cell masks are rows of one flat array. The rules themselves are
read in the Python class; this file only says how each of its steps is done in C.
"""

from libc.stdint cimport int64_t, uint64_t
from libcpp.deque cimport deque
from libcpp.string cimport string
from libcpp.unordered_map cimport unordered_map
from libcpp.utility cimport pair
from libcpp.vector cimport vector
from cython.operator cimport dereference as deref


cdef extern from *:
    """
    static inline int popcount64(unsigned long long x) {
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
        return __builtin_popcountll(x);
    #else
        /* In registers: without the popcnt instruction enabled, GCC's builtin is a call. */
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }
    static inline int lowest_bit64(unsigned long long x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_ctzll(x);
    #else
        int n = 0;
        for (; !(x & 1); x >>= 1) n++;
        return n;
    #endif
    }
    """
    int popcount64(uint64_t x) nogil
    int lowest_bit64(uint64_t x) nogil


ctypedef vector[uint64_t] Position
"""A set of layouts: bit ``i % 64`` of word ``i // 64`` for layout ``i``."""

ctypedef vector[uint64_t] Positions
"""Positions one after another, each its search's ``words`` words."""

cdef cppclass Frame:
    """The scratch of one level of :meth:`Search.split_into`, kept for the next call at that
    level: the words of its position that hold layouts, the cells newly safe there, the pieces
    the position falls into (their live words only: the rest are 0), with the cells opened once
    they are, and one piece at a time in all its words."""
    vector[int] live
    vector[int] newly_safe
    Positions pieces
    Positions finer
    vector[char] opened
    Position whole

cdef int NUMBERS = 9


cdef Position to_position(object mask, int words):
    """A Python int bitmask as a row of ``words`` words."""
    cdef Position out = Position(words)
    cdef bytes raw = int(mask).to_bytes(8 * words, "little")
    cdef const unsigned char* data = raw
    cdef int w, b
    for w in range(words):
        for b in range(8):
            out[w] |= (<uint64_t>data[8 * w + b]) << (8 * b)
    return out


cdef class Search:
    """:class:`solver.winprob_search.Search` over the same arguments, with the same methods."""

    cdef int words
    cdef int cells
    cdef vector[uint64_t] mined
    """Per cell, its ``words`` words: the layouts with a mine there."""
    cdef vector[uint64_t] showing_flat
    """Per openable cell and number, ``words`` words: the layouts showing that number there."""
    cdef vector[int] showing_row
    """Per cell, its first row in :attr:`showing_flat` (-1 for a cell never opened)."""
    cdef vector[vector[int]] numbers_shown
    """Per cell, the numbers some layout shows there, in order: a split skips the rest, whose
    rows are empty (most cells can show only two to four numbers)."""
    cdef vector[int64_t] weight
    cdef vector[vector[int]] neighbours
    cdef vector[int] unresolved_cells
    cdef vector[int] openable_cells
    cdef bint uniform
    cdef int64_t lightest
    cdef unordered_map[string, int64_t] memo
    cdef deque[Frame] frames
    cdef size_t depth
    cdef readonly long long visits_left
    cdef readonly long long max_visits
    cdef object too_large
    cdef readonly object everything

    def __init__(
        self,
        list layouts,
        list weights,
        list neighbours,
        long long max_visits,
        object too_large,
    ):
        cdef int count = len(layouts), cells = len(neighbours)
        cdef int words = max(1, (count + 63) // 64)
        cdef int i, c, w, n, shown
        cdef Position full = Position(words, 0)
        self.words, self.cells = words, cells
        self.max_visits = self.visits_left = max_visits
        self.too_large = too_large
        self.everything = (<object>1 << count) - 1
        self.weight = weights
        self.uniform = all(weight == 1 for weight in weights)
        self.lightest = min(weights, default=0)
        for i in range(count):
            full[i >> 6] |= (<uint64_t>1) << (i & 63)
        self.mined.assign(<size_t>cells * words, 0)
        cdef vector[vector[int]] mines_of = vector[vector[int]](count)
        cdef bytes raw
        cdef const unsigned char* data
        for i in range(count):
            raw = layouts[i].to_bytes((cells + 7) // 8, "little")
            data = raw
            for c in range(cells):
                if data[c >> 3] >> (c & 7) & 1:
                    mines_of[i].push_back(c)
                    self.mined[c * words + (i >> 6)] |= (<uint64_t>1) << (i & 63)
        cdef bint everywhere, somewhere
        self.showing_row.assign(cells, -1)
        cdef vector[char] is_mine = vector[char](cells, 0)
        for c in range(cells):
            everywhere, somewhere = True, False
            for w in range(words):
                everywhere &= self.mined[c * words + w] == full[w]
                somewhere |= self.mined[c * words + w] != 0
            if everywhere:
                continue
            self.openable_cells.push_back(c)
            if somewhere:
                self.unresolved_cells.push_back(c)
            self.showing_row[c] = <int>(self.showing_flat.size() // words)
            self.showing_flat.resize(self.showing_flat.size() + NUMBERS * words, 0)
        self.neighbours = neighbours
        for i in range(count):
            for c in mines_of[i]:
                is_mine[c] = 1
            for c in self.openable_cells:
                shown = 0
                for n in self.neighbours[c]:
                    shown += is_mine[n]
                self.showing_flat[(self.showing_row[c] + shown) * words + (i >> 6)] |= (
                    (<uint64_t>1) << (i & 63)
                )
            for c in mines_of[i]:
                is_mine[c] = 0
        self.numbers_shown.resize(cells)
        for c in self.openable_cells:
            for n in range(NUMBERS):
                for w in range(words):
                    if self.showing_flat[(self.showing_row[c] + n) * words + w]:
                        self.numbers_shown[c].push_back(n)
                        break

    @property
    def unresolved(self) -> list[int]:
        return list(self.unresolved_cells)

    def safe_everywhere(self) -> list[int]:
        cdef int c
        return [c for c in self.openable_cells if self.is_safe_everywhere(c)]

    cdef bint is_safe_everywhere(self, int c):
        cdef int w
        for w in range(self.words):
            if self.mined[c * self.words + w]:
                return False
        return True

    def surviving(self, int cell) -> int:
        return self.everything & ~self.to_int_mined(cell)

    cdef object to_int_mined(self, int cell):
        cdef Position row = Position(self.words)
        cdef int w
        for w in range(self.words):
            row[w] = self.mined[cell * self.words + w]
        return to_int(row)

    def won_after(self, layouts) -> int:
        if not layouts:
            return 0
        cdef Position position = to_position(layouts, self.words)
        cdef vector[char] opened = vector[char](self.cells, 0)
        cdef Positions parts
        self.depth = 0
        self.split_into(parts, position.data(), opened)
        cdef int64_t won = 0
        cdef size_t p
        for p in range(0, parts.size(), self.words):
            won += self.value(&parts[p])
        return won

    def best_cell(self, layouts, opened) -> tuple[int | None, int]:
        cdef Position position = to_position(layouts, self.words)
        cdef vector[char] open_cells = vector[char](self.cells, 0)
        cdef int c
        for c in range(self.cells):
            open_cells[c] = (opened >> c) & 1
        self.depth = 0
        cdef pair[int, int64_t] found = self.best(position.data(), open_cells)
        return (None if found.first < 0 else found.first), found.second

    # The steps of the Python class, in C. A position is read through a pointer to its words
    # (in a list of positions or a frame), so that a step allocates nothing once its frame has
    # grown to size.

    cdef inline int count(self, const uint64_t* p) noexcept:
        cdef int n = 0, w
        for w in range(self.words):
            n += popcount64(p[w])
        return n

    cdef int64_t weigh(self, const uint64_t* p) noexcept:
        if self.uniform:
            return self.count(p)
        cdef int64_t total = 0
        cdef int w
        cdef uint64_t bits
        for w in range(self.words):
            bits = p[w]
            while bits:
                total += self.weight[64 * w + lowest_bit64(bits)]
                bits &= bits - 1
        return total

    cdef int64_t heaviest(self, const uint64_t* p) noexcept:
        cdef int64_t most = 0
        cdef int w
        cdef uint64_t bits
        for w in range(self.words):
            bits = p[w]
            while bits:
                most = max(most, self.weight[64 * w + lowest_bit64(bits)])
                bits &= bits - 1
        return most

    cdef bint meets_mine(self, const uint64_t* p, const vector[int]& live, int cell) noexcept:
        """Whether some layout of ``p`` has a mine at ``cell`` (``live``: :func:`live_words`)."""
        cdef size_t i
        cdef const uint64_t* row = &self.mined[cell * self.words]
        for i in range(live.size()):
            if p[live[i]] & row[live[i]]:
                return True
        return False

    cdef Frame* enter(self) except NULL:
        """The scratch frame of a new level of :meth:`split_into` (levels nest: one level's
        frame is kept while the levels it calls use theirs)."""
        if self.depth == self.frames.size():
            self.frames.resize(self.depth + 1)  # a deque: the frames in use do not move
        self.depth += 1
        return &self.frames[self.depth - 1]

    cdef void split_into(
        self, Positions& parts, const uint64_t* layouts, const vector[char]& opened
    ) except *:
        cdef int count = self.count(layouts), words = self.words
        self.visits_left -= count
        if self.visits_left < 0:
            raise self.too_large(f"the search looked at more than {self.max_visits} layouts")
        cdef Frame* frame = self.enter()
        live_words(layouts, words, frame.live)
        frame.newly_safe.clear()
        cdef int cell
        for cell in self.openable_cells:
            if not opened[cell] and not self.meets_mine(layouts, frame.live, cell):
                frame.newly_safe.push_back(cell)
        if frame.newly_safe.empty() or count == 1:
            parts.insert(parts.end(), layouts, layouts + words)
            self.depth -= 1
            return
        # The pieces hold only the live words, one after another.
        cdef size_t live = frame.live.size(), pieces = 1, finer, p, i, at
        frame.pieces.resize(max(frame.pieces.size(), live))
        for i in range(live):
            frame.pieces[i] = layouts[frame.live[i]]
        cdef int number
        cdef bint any_left
        cdef const uint64_t* showing
        cdef uint64_t* piece
        cdef const vector[int]* numbers
        cdef size_t k
        for cell in frame.newly_safe:
            finer = 0
            numbers = &self.numbers_shown[cell]
            if frame.finer.size() < pieces * numbers.size() * live:
                frame.finer.resize(2 * pieces * numbers.size() * live)
            for p in range(pieces):
                for k in range(numbers.size()):
                    number = deref(numbers)[k]
                    showing = &self.showing_flat[(self.showing_row[cell] + number) * words]
                    piece = &frame.finer[finer * live]
                    any_left = False
                    for i in range(live):
                        piece[i] = frame.pieces[p * live + i] & showing[frame.live[i]]
                        any_left |= piece[i] != 0
                    finer += any_left
            frame.pieces.swap(frame.finer)
            pieces = finer
        if pieces == 1:
            parts.insert(parts.end(), layouts, layouts + words)
            self.depth -= 1
            return
        frame.opened = opened
        for cell in frame.newly_safe:
            frame.opened[cell] = 1
        frame.whole.assign(words, 0)
        for p in range(pieces):
            for i in range(live):
                frame.whole[frame.live[i]] = frame.pieces[p * live + i]
            if self.count(frame.whole.data()) > 1:
                self.split_into(parts, frame.whole.data(), frame.opened)
            else:
                parts.insert(parts.end(), frame.whole.begin(), frame.whole.end())
        self.depth -= 1

    cdef int64_t value(self, const uint64_t* layouts) except? -2:
        if self.count(layouts) <= 2:
            return self.heaviest(layouts)
        cdef string key = string(<const char*>layouts, self.words * 8)
        cdef unordered_map[string, int64_t].iterator known = self.memo.find(key)
        if known != self.memo.end():
            return deref(known).second
        cdef vector[int] live
        live_words(layouts, self.words, live)
        cdef vector[char] opened = vector[char](self.cells, 0)
        cdef int c
        for c in range(self.cells):
            opened[c] = not self.meets_mine(layouts, live, c)
        cdef int64_t won = self.best(layouts, opened).second
        self.memo[key] = won
        return won

    cdef pair[int, int64_t] best(self, const uint64_t* layouts, const vector[char]& opened) except *:
        cdef int words = self.words
        cdef vector[int64_t] bounds
        cdef vector[int] cells
        cdef Positions survivors
        cdef vector[int] live
        live_words(layouts, words, live)
        cdef int cell, w, i, j, k
        cdef size_t at
        cdef const uint64_t* row
        cdef bint some, every
        for cell in self.unresolved_cells:
            row = &self.mined[cell * words]
            some, every = False, True
            for w in live:
                some |= (layouts[w] & row[w]) != 0
                every &= (layouts[w] & row[w]) == layouts[w]
            if some and not every:
                at = survivors.size()
                survivors.resize(at + words, 0)  # words outside ``live`` stay 0
                for w in live:
                    survivors[at + w] = layouts[w] & ~row[w]
                bounds.push_back(self.weigh(&survivors[at]))
                cells.push_back(cell)
        # Heaviest first; equal bounds keep their cell order (a stable insertion sort).
        cdef vector[int] order = vector[int](cells.size())
        for i in range(<int>cells.size()):
            j = i
            while j > 0 and bounds[order[j - 1]] < bounds[i]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        cdef int best_cell = -1
        cdef int64_t best = -1, won, bound
        cdef vector[int] dead_cells
        cdef vector[Positions] dead_parts
        cdef Positions parts
        for k in range(<int>order.size()):
            i = order[k]
            bound = bounds[i]
            if bound <= best:
                break
            parts.clear()
            self.split_into(parts, &survivors[i * words], opened)
            if self.uniform and parts.size() == <size_t>words and self.count(&survivors[i * words]) > 1:
                dead_cells.push_back(cells[i])
                dead_parts.push_back(parts)
                continue
            won = self.outcome(parts, bound, best)
            if won >= 0:
                best_cell, best = cells[i], won
                if won == bound and bound == bounds[order[0]]:
                    break
        if best_cell < 0:
            for k in range(<int>dead_cells.size()):
                won = self.outcome(dead_parts[k], self.weigh(&dead_parts[k][0]), best)
                if won >= 0:
                    best_cell, best = dead_cells[k], won
        if best_cell < 0 and self.count(layouts) == 1:
            return pair[int, int64_t](-1, self.heaviest(layouts))
        return pair[int, int64_t](best_cell, max(best, <int64_t>0))

    cdef int64_t outcome(self, const Positions& parts, int64_t bound, int64_t best) except? -2:
        """:meth:`solver.winprob_search.Search._outcome`, with -1 for None."""
        cdef int undecided = 0
        cdef size_t p
        cdef const uint64_t* part
        for p in range(0, parts.size(), self.words):
            undecided += self.count(&parts[p]) > 1
        cdef int64_t reachable = bound - undecided * self.lightest
        if reachable <= best:
            return -1
        cdef int64_t won = 0, part_value
        for p in range(0, parts.size(), self.words):
            part = &parts[p]
            if self.count(part) == 1:
                won += self.heaviest(part)
                continue
            part_value = self.value(part)
            won += part_value
            reachable -= self.weigh(part) - self.lightest - part_value
            if reachable <= best:
                return -1
        return won


cdef void live_words(const uint64_t* p, int words, vector[int]& live) noexcept:
    """Set ``live`` to the words of ``p`` that hold some layout: a position deep in the search
    holds few of its list's layouts, and every step on it only needs to read those words."""
    live.clear()
    cdef int w
    for w in range(words):
        if p[w]:
            live.push_back(w)


cdef object to_int(const Position& p):
    """A row of words as a Python int bitmask."""
    cdef object out = 0
    cdef object word
    for w in range(p.size()):
        word = p[w]
        out |= word << (64 * w)
    return out


def part_layouts(
    list cells, list constraints, list steps, long long max_steps, object too_large
) -> list[tuple[int, int]]:
    """:func:`solver.layouts._part_layouts` in C: the same layouts in the same order, after the
    same backtracking steps (``steps[0]``, shared across parts, raising ``too_large`` past
    ``max_steps``)."""
    cdef int count = len(cells), position, k, i
    cdef vector[int] cell_of = cells
    cdef dict local = {}
    cdef vector[int] mines_left, unknown_left
    cdef vector[vector[int]] numbers_at = vector[vector[int]](count)
    members = set(cells)
    watching: dict = {}
    for k, (need, around) in enumerate(constraints):
        if members.intersection(around):
            local[k] = mines_left.size()
            mines_left.push_back(need)
            unknown_left.push_back(len(around))
            for cell in around:
                watching.setdefault(cell, []).append(local[k])
    for i in range(count):
        numbers_at[i] = watching.get(cells[i], [])
    cdef int width = (max(cells, default=0) >> 3) + 1
    cdef bytearray mask = bytearray(width)
    cdef unsigned char* bits = mask
    cdef vector[int] tried = vector[int](count, -1)
    cdef int mines = 0
    cdef long long taken = steps[0] + 1
    cdef bint feasible
    found = []
    position = 0
    while position >= 0:
        if position == count:
            found.append((int.from_bytes(mask, "little"), mines))
            position -= 1
            continue
        feasible = True
        if tried[position] < 0:
            tried[position] = 0
            for k in numbers_at[position]:
                unknown_left[k] -= 1
                feasible &= mines_left[k] <= unknown_left[k]
        elif tried[position] == 0:
            tried[position] = 1
            bits[cell_of[position] >> 3] |= 1 << (cell_of[position] & 7)
            mines += 1
            for k in numbers_at[position]:
                mines_left[k] -= 1
                feasible &= mines_left[k] >= 0
        else:  # both tried: undo the mine and go back
            tried[position] = -1
            bits[cell_of[position] >> 3] ^= 1 << (cell_of[position] & 7)
            mines -= 1
            for k in numbers_at[position]:
                unknown_left[k] += 1
                mines_left[k] += 1
            position -= 1
            continue
        if feasible:
            position += 1
            taken += 1
            if taken > max_steps:
                steps[0] = taken
                raise too_large(f"enumerating the layouts took over {max_steps} steps")
    steps[0] = taken
    return found


def hidden_neighbours(dict index, int columns, tuple around, list cells) -> list[list[int]]:
    """:func:`solver.layouts.hidden_neighbours` in C: for each (row, column) of ``cells``, the
    bits in ``index`` of its neighbours (``around``: each flat cell's flat neighbours, in
    order) that have one."""
    cdef vector[int] bit_of = vector[int](len(around), -1)
    cdef int r, c, n
    for (r, c), bit in index.items():
        bit_of[r * columns + c] = bit
    cdef list out = [], row
    for r, c in cells:
        row = []
        for n in <tuple>around[r * columns + c]:
            if bit_of[n] >= 0:
                row.append(bit_of[n])
        out.append(row)
    return out
