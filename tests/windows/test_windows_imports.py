"""Every module of the installed product imports under Windows CPython: nothing POSIX-only
(fcntl, termios, ...) or X11-only (Xlib, not even installed there) is imported at module level,
and no dependency fails to load (a DLL it needs, say)."""

from __future__ import annotations

import json

import pytest

from .conftest import WindowsPython

pytestmark = pytest.mark.wine

PACKAGES = ("solver", "vision", "calibration", "controller")

# Run by the Windows python: walks the installed packages (walk_packages imports each
# subpackage to look inside; onerror catches those that fail there), imports every module, and
# prints {"modules": {name: file}, "failed": {name: error}} as JSON.
IMPORT_ALL = """
import importlib, json, pkgutil, sys, traceback

def error_of(exception):
    frames = traceback.extract_tb(exception.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return "".join(traceback.format_exception_only(exception)).strip() + where

modules, failed = {}, {}
def note_failure(name):
    failed[name] = error_of(sys.exc_info()[1])

for top in sys.argv[1:]:
    try:
        package = importlib.import_module(top)
    except BaseException as exception:
        failed[top] = error_of(exception)
        continue
    modules[top] = package.__file__
    for info in pkgutil.walk_packages(package.__path__, top + ".", onerror=note_failure):
        try:
            modules[info.name] = importlib.import_module(info.name).__file__
        except BaseException as exception:
            failed[info.name] = error_of(exception)
print(json.dumps({"modules": modules, "failed": failed}))
"""


def test_every_module_imports(windows_python: WindowsPython) -> None:
    result = windows_python.run(windows_python.python, "-c", IMPORT_ALL, *PACKAGES)
    assert result.returncode == 0, result.describe()
    report = json.loads(result.stdout.strip().splitlines()[-1])
    failed: dict[str, str] = report["failed"]
    assert not failed, f"{len(failed)} modules fail to import under Windows:\n" + "\n".join(
        f"  {name}: {error}" for name, error in sorted(failed.items())
    )
    modules: dict[str, str] = report["modules"]
    # The installed wheel was walked (not a source tree), and every package has modules.
    for name, file in modules.items():
        assert "\\site-packages\\" in file, f"{name} imported from {file}, not the installed wheel"
    for package in PACKAGES:
        assert sum(name.startswith(package + ".") for name in modules) >= 2, sorted(modules)
