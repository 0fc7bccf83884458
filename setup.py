"""The compiled parts of the solver, built with Cython; everything else about the package is in
pyproject.toml.

* ``solver/_winprob_core.pyx``: the exact win-probability search, written for C (the steps of
  :class:`solver.winprob_search.Search` over machine words).
* ``solver/_rules_core.pyx``: reading a board's numbers and the cheap rules, the two steps of
  every move, written for C (twins of functions in ``constraints`` and ``deduce``).
* ``solver/_guess_core.pyx``: the look-ahead's classes of layouts, written for C (the twin of
  ``guess._classes``).
* The rule modules below, compiled from their unchanged Python source: the same code, run
  without the interpreter's per-instruction cost (about a third less CPU a game). The source
  stays the readable truth; a test plays games with both and compares every move.
"""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

COMPILED_MODULES = [
    "board",
    "constraints",
    "deduce",
    "box_order",
    "group_count",
    "analysis",
    "guess",
    "strategy",
]
"""The solver's rule modules compiled as they are. Not the simulator, ``engine`` (a benchmark's
CPU time should be the solver's own), nor ``winprob`` and its parts (``winprob_search``,
``layouts``), whose Python search and listing are the compiled ones' readable twins and work on
bitmasks whose shifts Cython would do in C integers."""

STRIP = ["-s"] if sys.platform.startswith("linux") else []
"""Linker options: without debugging symbols the modules take a sixth of the room."""

EXTENSIONS = cythonize(
    [
        Extension(f"solver.{name}", [f"solver/{name}{suffix}"], extra_link_args=STRIP)
        for name, suffix in [
            ("_winprob_core", ".pyx"),
            ("_rules_core", ".pyx"),
            ("_guess_core", ".pyx"),
        ]
        + [(name, ".py") for name in COMPILED_MODULES]
    ],
    # Annotations stay hints, as in Python, so that a compiled module behaves as its source
    # does; where Cython still computes in C integers (len(), small literals), an overflow
    # raises OverflowError instead of wrapping round.
    compiler_directives={
        "language_level": 3,
        "annotation_typing": False,
        "overflowcheck": True,
    },
)
for extension in EXTENSIONS:
    # Without a C compiler (a Windows machine without one) the build goes on and the same code
    # runs as Python. Set here: cythonize makes new Extensions and drops the flag.
    extension.optional = True

setup(ext_modules=EXTENSIONS, options={"build_ext": {"parallel": os.cpu_count() or 1}})
