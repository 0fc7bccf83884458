"""Refuses, on import, a checkout whose compiled solver modules are older than their source.

Python imports a compiled module (``solver/deduce.cpython-311-x86_64-linux-gnu.so``) before
its source (``solver/deduce.py``), so after an edit the old code would silently run. The
package imports this module first (see :file:`setup.py` for what is compiled).
"""

from pathlib import Path

from solver.errors import StaleBuildError


def refuse_stale_builds(package: Path = Path(__file__).parent) -> None:
    """Raise :class:`StaleBuildError` when a compiled module in ``package`` is older than its
    source (Python imports the compiled one first, so an edit would silently not run).

    Only in a source checkout (a ``pyproject.toml`` beside the package): an installed wheel's
    modules are built from its own sources.
    """
    if not (package.parent / "pyproject.toml").exists():
        return
    for built in [*package.glob("*.so"), *package.glob("*.pyd")]:
        name = built.name.split(".")[0]
        for source in (package / f"{name}.py", package / f"{name}.pyx"):
            if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
                raise StaleBuildError(
                    f"{source} changed after it was compiled into {built.name}: rebuild it "
                    "(pip install -e . or python3 setup.py build_ext --inplace) or delete that file"
                )


refuse_stale_builds()
