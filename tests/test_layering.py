"""The package layering: solver < vision < calibration < controller, no cycles.

Each package may import only the ones below it: ``solver`` (rules and mathematics) none of ours,
``vision`` (pixels to a board) the solver, ``calibration`` (learning a game's look) both, and
``controller`` (mouse, play loop, log, command) all three. Inside ``solver`` the rules never import
the benchmark harness (``solver.bench``), which measures them from outside. Vision, calibration
and the play loop describe what a game does, never which program does it."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "vision", "calibration", "controller")
ALLOWED = {
    "solver": set(),
    "vision": {"solver"},
    "calibration": {"solver", "vision"},
    "controller": {"solver", "vision", "calibration"},
}


def imported_packages(path: Path) -> set[str]:
    """The top-level packages of ours that one module imports (at any depth of the file)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found.update(name.split(".")[0] for name in names if name.split(".")[0] in PACKAGES)
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_package_imports_only_the_layers_below_it(package: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) - ALLOWED[package] - {package})
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os\nfrom controller.loop import x\nimport vision.read as r\n")
    assert imported_packages(module) == {"controller", "vision"}


def test_the_rules_do_not_import_the_benchmark_harness() -> None:
    harness = ROOT / "solver" / "bench"
    offenders = []
    for path in sorted((ROOT / "solver").rglob("*.py")):
        if harness in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(name == "solver.bench" or name.startswith("solver.bench.") for name in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


PLATFORM_ONLY = {
    # POSIX or X11 only: absent from the Windows build of CPython
    "fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "posix", "syslog", "Xlib",
    # Windows only
    "msvcrt", "winreg", "_winapi", "win32api", "win32gui", "win32con", "pywintypes",
}  # fmt: skip


def top_level_imports(path: Path) -> set[str]:
    """The modules one file imports when it is imported: statements outside any function or
    class body (inside ``if`` and ``try`` at the top too); ``if TYPE_CHECKING`` blocks aside."""
    found: set[str] = set()
    pending = list(ast.parse(path.read_text(), filename=str(path)).body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            pending.extend(node.orelse)
        elif isinstance(node, ast.If | ast.Try | ast.With):
            for field in ("body", "orelse", "finalbody", "handlers"):
                pending.extend(getattr(node, field, []))
        elif isinstance(node, ast.ExceptHandler):
            pending.extend(node.body)
    return found


def test_no_module_imports_what_only_one_platform_has_when_it_is_imported() -> None:
    """Every command must start on Windows and on Linux: a module of one platform (fcntl, Xlib,
    winreg) is imported inside the function that runs only there."""
    offenders = {
        str(path.relative_to(ROOT)): sorted(top_level_imports(path) & PLATFORM_ONLY)
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_the_platform_checker_sees_an_import_at_the_top_and_not_in_a_function(
    tmp_path: Path,
) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import os\ntry:\n    import fcntl\nexcept ImportError:\n    import msvcrt\n"
        "def f():\n    from Xlib import X\n"
    )
    assert top_level_imports(module) == {"os", "fcntl", "msvcrt"}


def error_classes_outside_errors_modules(root: Path) -> list[str]:
    """Classes named ``...Error``, or derived from a class of an ``errors`` module, defined in any
    other module of ours: each package keeps its exceptions in its ``errors`` module."""
    modules = [path for package in PACKAGES for path in sorted((root / package).rglob("*.py"))]
    trees = {path: ast.parse(path.read_text(), filename=str(path)) for path in modules}
    family = {
        node.name
        for path, tree in trees.items()
        if path.name == "errors.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    found = []
    for path, tree in trees.items():
        if path.name == "errors.py":
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {base.id for base in node.bases if isinstance(base, ast.Name)}
            if node.name.endswith("Error") or bases & family:
                found.append(f"{path.relative_to(root).as_posix()}: {node.name}")
    return found


def test_every_error_class_lives_in_its_packages_errors_module() -> None:
    assert error_classes_outside_errors_modules(ROOT) == []


def test_the_errors_checker_sees_an_error_class_elsewhere(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "vision" / "errors.py").write_text("class VisionError(Exception):\n    pass\n")
    (tmp_path / "vision" / "read.py").write_text(
        "class Unreadable(VisionError):\n    pass\n\nclass LateError(Exception):\n    pass\n"
    )
    assert error_classes_outside_errors_modules(tmp_path) == [
        "vision/read.py: Unreadable",
        "vision/read.py: LateError",
    ]


GAME_NAMES = (
    "winemine", "winmine", "xdemineur", "gnome-mines", "gnome", "kmines", "sgt-mines", "sgt",
    "Tatham", "Arbiter", "Minesweeper X", "Windows Minesweeper", "Windows XP", "Windows 7",
    "mines.exe", "msx", "Vienna", "xbomb", "ace-minesweeper", "DangerUXB", "KDE", "GTK", "tk",
    "tkinter", "pygame", "web98", "webcanvas", "webhelper", "Wine", "Chromium",
)  # fmt: skip
"""Programs (games, the toolkits and layers they run on, the test pages) that vision, calibration
and the play loop must not name, as whole words in any case: their code, docstrings and comments
say what a game does ("a game that repaints the whole board after a click"), not which one does
it. Tests, their data and ``controller/desktop/`` (the launchers of named games) may name them."""
NAMED_GAME = re.compile(
    r"\b(?:" + "|".join(re.escape(name) for name in GAME_NAMES) + r")\b", re.IGNORECASE
)
GAME_BLIND = (
    "vision",
    "calibration",
    "controller/loop.py",
    "controller/game.py",
    "controller/reading.py",
    "controller/new_game.py",
    "controller/lessons.py",
    "controller/table.py",
    "controller/screen_table.py",
)
"""The packages and modules held to describing behaviours: vision, calibration and the play
loop."""


def lines_naming_a_game(text: str) -> list[int]:
    """The numbers (from 1) of the lines of ``text`` that name a program of :data:`GAME_NAMES`."""
    return [
        number for number, line in enumerate(text.splitlines(), start=1) if NAMED_GAME.search(line)
    ]


def game_blind_modules() -> list[str]:
    """The modules of :data:`GAME_BLIND`, as paths from the repository's root."""
    paths = [ROOT / place for place in GAME_BLIND]
    modules = [
        found for path in paths for found in (path.rglob("*.py") if path.is_dir() else [path])
    ]
    return sorted(module.relative_to(ROOT).as_posix() for module in modules)


def test_no_game_is_named_in_vision_calibration_or_the_play_loop() -> None:
    hits = []
    for name in game_blind_modules():
        text = (ROOT / name).read_text(encoding="utf-8")
        lines = text.splitlines()
        hits += [f"{name}:{n}: {lines[n - 1].strip()}" for n in lines_naming_a_game(text)]
    assert hits == [], "name the behaviour, not the game:\n" + "\n".join(hits)
    missing = [place for place in GAME_BLIND if not (ROOT / place).exists()]
    assert missing == [], "moved or removed: update GAME_BLIND"


def test_the_game_name_checker_sees_a_name_in_code_docstrings_and_comments() -> None:
    text = (
        'x = 1\n"""Repaints the board, as KMines does."""\nwine_prefix = 2  # mines, minesweeper\n'
        "y = 3  # like gnome-mines or an SGT game\nsession = 4\n"
    )
    assert lines_naming_a_game(text) == [2, 4]
