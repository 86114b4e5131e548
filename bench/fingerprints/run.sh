#!/usr/bin/env bash
# Fingerprints of this build (bench/fingerprints/fingerprints.cpp): the model
# library in both modes with each inner solver, then every .nl model of DIR
# at the defaults, one process per model. Diff two outputs to show that a
# change kept behaviour.
#
#   bash bench/fingerprints/run.sh [DIR] > fingerprints.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-build}
dir=${1:-}
ninja -C "$build" bench/fingerprints >/dev/null
fp="$build/bench/fingerprints"
for mode in default paper; do
  "$fp" --library --mode $mode
  for inner in gradient-descent lbfgs; do "$fp" --library --mode $mode --inner $inner; done
done
[ -n "$dir" ] || exit 0
for model in "$dir"/*.nl; do
  timeout 300 "$fp" --nl "$model" --mode default ||
    echo "$(basename "$model") default process-failed"
done
