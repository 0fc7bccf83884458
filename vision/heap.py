"""Keeping the memory a read frees for the next read.

Reading a board allocates a few MB of arrays per frame (a capture, the tiles gathered, their
differences from the templates) and frees them at the end of the read. By default glibc hands
large freed blocks back to the kernel, so the next read pays a page fault for every 4 kB it
touches again: about 1 ms a read of an Expert board of 24-25 px cells, half of the read. Raising the
thresholds keeps those blocks in the process, for a few MB of resident memory.
"""

from __future__ import annotations

import ctypes
import ctypes.util

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
"""glibc's mallopt parameters (malloc.h)."""
KEPT_BYTES = 256 * 2**20
"""Free memory at the top of the heap kept rather than handed back to the kernel."""
HEAP_BLOCK_BYTES = 32 * 2**20
"""Blocks up to this size come from the heap, which keeps them, not from mmap, which does not
(glibc's largest allowed on 64-bit systems)."""


def keep_freed_memory() -> bool:
    """Ask the C library to keep freed memory for reuse; False where it is not glibc."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(_M_MMAP_THRESHOLD, HEAP_BLOCK_BYTES)) and bool(
        mallopt(_M_TRIM_THRESHOLD, KEPT_BYTES)
    )
