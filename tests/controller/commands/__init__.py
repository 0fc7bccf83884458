"""Tests of the ``autosweeper`` commands (controller/commands/): a package, so that their files
may be named after the command modules (test_bench.py, test_stats.py) beside the tests of the
solver's modules of the same names."""
