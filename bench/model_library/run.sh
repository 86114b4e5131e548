#!/usr/bin/env bash
# The 42 models of models/model_library.cpp with Ipopt and the QPM variants
# (bench/model_library/model_library_table.cpp). Writes
# bench/model_library/model_library.md (QPM-TR, both QPM-GD rules and L-BFGS
# at the options below) and model_library_defaults.md (every solver at its
# defaults, only tol = 1e-8 set).
#
#   bash bench/model_library/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/model_library
bench_build bench/model_library_table
table=$build/bench/model_library_table
"$table" --tol 1e-6 --gd-tol 1e-4 --gd-max-iter 50000000 --gd-plain-max-iter 2000000 \
  --gd-set qpm_penalty_growth_mode=adaptive --gd-set qpm_extrapolate=yes >"$out/model_library.md"
"$table" --defaults >"$out/model_library_defaults.md"
tail -n 3 "$out/model_library_defaults.md"
bench_stamp model_library
