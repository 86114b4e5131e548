#!/usr/bin/env bash
# Scaling benchmark: Rosenbrock on the sphere for n = 1e3..1e7 and the Brockett
# cost on the Stiefel manifold for several (n, p), each solver in its own
# process (peak RSS per run). Writes bench/results/scaling/{scaling.csv,
# cg_vs_beta_*.csv, scaling_time.png}. Ipopt gets max_cpu_time 120 s.
# Usage: bash bench/run_scaling.sh [--quick]   (--quick stops at n = 1e6)
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/results/scaling
mkdir -p "$out"
[ -d build/meson-private ] || meson setup build >/dev/null
ninja -C build bench/scaling >/dev/null
run=./build/bench/scaling
csv="$out/scaling.csv"
$run --header > "$csv"
sizes="1000 10000 100000 1000000 10000000"
[ "${1:-}" = "--quick" ] && sizes="1000 10000 100000 1000000"
for n in $sizes; do
  for s in ipopt qpm-paper qpm-best; do
    [ "$s" = ipopt ] && [ "$n" -gt 1000000 ] && continue  # MUMPS: out of memory at 1e6 already
    $run --problem rosenbrock --n "$n" --solver "$s" --max-cpu 120 | tee -a "$csv"
  done
done
for np in "1000 5" "1000 20" "10000 10" "1000 50" "2000 50"; do
  set -- $np
  for s in ipopt qpm-paper qpm-best; do
    $run --problem stiefel --n "$1" --p "$2" --solver "$s" --max-cpu 120 | tee -a "$csv"
  done
done
# CG iterations per trust-region step against beta (preconditioner effect).
$run --problem stiefel --n 1000 --p 20 --solver qpm-paper --cg-profile "$out/cg_vs_beta_none.csv" >/dev/null
$run --problem stiefel --n 1000 --p 20 --solver qpm-best --cg-profile "$out/cg_vs_beta_penalty.csv" >/dev/null
/usr/bin/python3 bench/plot_scaling.py "$out"
