"""A checkout whose compiled solver module is older than its source is refused on import."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from solver._build import refuse_stale_builds
from solver.errors import StaleBuildError


def _checkout(root: Path, source_age: int, built_age: int) -> Path:
    """A package folder in a checkout with one module and its compiled build, each last
    written ``*_age`` seconds ago."""
    package = root / "solver"
    package.mkdir()
    (root / "pyproject.toml").write_text("")
    now = 1_700_000_000
    for name, age in (
        ("deduce.py", source_age),
        ("deduce.cpython-311-x86_64-linux-gnu.so", built_age),
    ):
        (package / name).write_text("")
        os.utime(package / name, (now - age, now - age))
    return package


def test_a_source_edited_after_its_build_is_refused_naming_both(tmp_path: Path) -> None:
    package = _checkout(tmp_path, source_age=10, built_age=60)
    with pytest.raises(
        StaleBuildError, match=r"deduce\.py changed after .*deduce\.cpython"
    ) as error:
        refuse_stale_builds(package)
    assert "\n" not in str(error.value)


def test_a_build_newer_than_its_source_is_accepted(tmp_path: Path) -> None:
    refuse_stale_builds(_checkout(tmp_path, source_age=60, built_age=10))


def test_an_installed_package_is_not_checked(tmp_path: Path) -> None:
    package = _checkout(tmp_path, source_age=10, built_age=60)
    (tmp_path / "pyproject.toml").unlink()
    refuse_stale_builds(package)
