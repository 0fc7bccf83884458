"""The compiled win-probability search (solver/_winprob_core.pyx, built with Cython); everything
else about the package is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("solver._winprob_core", ["solver/_winprob_core.pyx"])],
        compiler_directives={"language_level": 3},
    )
)
