"""Memory a read frees stays in the process for the next read (no page fault per 4 kB)."""

from __future__ import annotations

import ctypes.util
import resource

import numpy as np
import pytest

from vision.heap import keep_freed_memory


def faults_of_a_read_sized_round() -> int:
    """Minor page faults while five 1 MB arrays are filled and freed, as a read does."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    arrays = [np.ones(2**20, np.uint8) for _ in range(5)]
    del arrays
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@pytest.mark.skipif(ctypes.util.find_library("c") != "libc.so.6", reason="glibc only")
def test_after_keep_freed_memory_a_second_read_sized_round_faults_no_page_in() -> None:
    assert keep_freed_memory()
    faults_of_a_read_sized_round()  # the first round takes the pages from the kernel
    assert faults_of_a_read_sized_round() < 50  # 1280 pages if they had been handed back
