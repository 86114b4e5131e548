#!/usr/bin/env bash
# Unbounded and far-bounded models (models/unbounded_models.hpp), QPM and
# Ipopt at their defaults with tol = 1e-8 (bench/unbounded/unbounded.cpp).
# Writes bench/unbounded/results.md.
#
#   bash bench/unbounded/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/unbounded
bench_build bench/unbounded
"$build/bench/unbounded" | tee "$out/results.md"
bench_stamp unbounded
