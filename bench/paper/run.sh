#!/usr/bin/env bash
# Reproduces the paper's Section 7 (tables, CSVs, PNG figures) into
# bench/paper/. Takes about a minute (the eps = 1e-6 GD runs need ~1e6
# gradient steps).
#
#   bash bench/paper/run.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/paper
bench_matplotlib
bench_build bench/paper_reproduction
"$build/bench/paper_reproduction" "$out" "$@" | tee "$out/run.log"
/usr/bin/python3 bench/paper/plot.py "$out"
bench_stamp paper "$@"
