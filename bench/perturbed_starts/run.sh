#!/usr/bin/env bash
# The model library from 20 perturbed starting points per model, at three
# perturbation scales, Ipopt and QPM at their defaults with tol = 1e-8
# (bench/perturbed_starts/perturbed_starts.cpp). Writes
# bench/perturbed_starts/scale_{0.5,2,10}.md.
#
#   bash bench/perturbed_starts/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/perturbed_starts
bench_build bench/perturbed_starts
for sc in 0.5 2 10; do
  "$build/bench/perturbed_starts" --starts 20 --scale "$sc" --seed 7 >"$out/scale_$sc.md"
  tail -n 3 "$out/scale_$sc.md"
done
bench_stamp perturbed_starts
