"""Tests of the installed product under Windows CPython run by Wine (see conftest.py)."""
