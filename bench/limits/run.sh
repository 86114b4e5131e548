#!/usr/bin/env bash
# Overshoot of the solve limits (issue #6): for max_iter, max_cpu_time and
# qpm_max_wall_time, each inner solver, a big fast model and a slow-callback
# model, how far OptimizeTNLP runs past the limit. Writes
# bench/limits/overshoot.md (the table bench/limits_overshoot prints).
#
#   bash bench/limits/run.sh [limits_overshoot arguments]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/limits
bench_build bench/limits_overshoot
{
  echo "# Limit overshoot"
  echo
  echo "Made by \`bash bench/limits/run.sh${*:+ $*}\` on $(date -u +%Y-%m-%d) ($(nproc) cores, shared)."
  echo
  "$build/bench/limits_overshoot" "$@"
} | tee "$out/overshoot.md"
bench_stamp limits "$@"
