#!/usr/bin/env bash
# Reproduces the paper's Section 7 (tables, CSVs, PNG figures) into
# bench/results/paper/. Takes about a minute (the eps = 1e-6 GD runs need
# ~1e6 gradient steps). Usage: bash bench/run_paper.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/results/paper
mkdir -p "$out"
if ! /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq --no-install-recommends python3-matplotlib
fi
[ -d build/meson-private ] || meson setup build >/dev/null
ninja -C build bench/paper_reproduction >/dev/null
./build/bench/paper_reproduction "$out" "$@" | tee "$out/run.log"
/usr/bin/python3 bench/plot_paper.py "$out"
