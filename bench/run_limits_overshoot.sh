#!/usr/bin/env bash
# Overshoot of the solve limits (issue #6): for max_iter, max_cpu_time and
# qpm_max_wall_time, each inner solver, a big fast model and a slow-callback
# model, how far OptimizeTNLP runs past the limit. Writes
# bench/results/limits/overshoot.md (the table bench/limits_overshoot prints).
# Usage: bash bench/run_limits_overshoot.sh [limits_overshoot arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/results/limits
mkdir -p "$out"
[ -d build/meson-private ] || meson setup build >/dev/null
ninja -C build bench/limits_overshoot >/dev/null
{
  echo "# Limit overshoot"
  echo
  echo "Made by \`bash bench/run_limits_overshoot.sh${*:+ $*}\` on $(date -u +%Y-%m-%d) ($(nproc) cores, shared)."
  echo
  ./build/bench/limits_overshoot "$@"
} | tee "$out/overshoot.md"
