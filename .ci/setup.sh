#!/usr/bin/env bash
# Installs everything autosweeper and its tests need on a fresh Debian machine (run as root):
# the virtual display, the real games the end-to-end tests play (dbus: dbus-run-session, the
# private session bus gnome-mines and kmines run on; xfonts-100dpi: the fonts xbomb's own
# settings name, without which it lays out its window, and sizes its cells, otherwise), the C
# and C++ compilers that build the solver's compiled modules (setup.py), tesseract (calibration
# reads the labels of buttons beside a board), what the PyPI games of tests/pypi_programs.py need
# to be installed by their fixture into venvs of their own (python3-venv; python3-tk for the Tk
# ones; python3-dev, libjpeg-dev and zlib1g-dev to build the Pillow 8 one of them pins), and the
# Python package.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
packages=(xvfb xdotool x11-utils xdemineur wine sgt-puzzles gnome-mines kmines ace-of-penguins xbomb xfonts-100dpi dbus g++ tesseract-ocr
  python3-venv python3-tk python3-dev libjpeg-dev zlib1g-dev)
need=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || need+=("$package")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Xvfb and the real games (missing: ${need[*]})"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -e '.[dev]'
