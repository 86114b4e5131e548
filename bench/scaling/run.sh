#!/usr/bin/env bash
# Scaling benchmark: Rosenbrock on the sphere for n = 1e3..1e7 and the Brockett
# cost on the Stiefel manifold for several (n, p), each solver in its own
# process (peak RSS per run). Writes bench/scaling/{scaling.csv,
# cg_vs_beta_*.csv, scaling_time.png, cg_vs_beta.png}. Ipopt gets
# max_cpu_time 120 s.
#
#   bash bench/scaling/run.sh [--quick]   (--quick stops at n = 1e6)
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/scaling
bench_build bench/scaling
run=$build/bench/scaling
csv="$out/scaling.csv"
$run --header > "$csv"
# One run; a run that outlives 300 s wall (Ipopt checks max_cpu_time only
# between iterations) is killed and recorded as such.
one() {
  local line
  if line=$(timeout 300 $run --problem "$1" --n "$2" --p "$3" --solver "$4" --max-cpu 120); then
    echo "$line" | tee -a "$csv"
  else
    echo "$1,$2,$3,$4,Killed_after_300s_wall,,,,,,,,,,300,"  | tee -a "$csv"
  fi
}
quick=${1:-}
sizes="1000 10000 100000 1000000 10000000"
[ "$quick" = "--quick" ] && sizes="1000 10000 100000 1000000"
for n in $sizes; do
  for s in ipopt qpm qpm-paper qpm-best; do
    [ "$s" = ipopt ] && [ "$n" -gt 1000000 ] && continue  # MUMPS: out of memory at 1e6 already
    one rosenbrock "$n" 1 "$s"
  done
done
for np in "1000 5" "10000 5" "200 20" "1000 20" "200 50" "1000 50"; do
  set -- $np
  for s in ipopt qpm qpm-paper qpm-best; do
    one stiefel "$1" "$2" "$s"
  done
done
# CG iterations per trust-region step against beta (preconditioner effect).
$run --problem stiefel --n 1000 --p 20 --solver qpm-paper --cg-profile "$out/cg_vs_beta_none.csv" >/dev/null
$run --problem stiefel --n 1000 --p 20 --solver qpm-best --cg-profile "$out/cg_vs_beta_penalty.csv" >/dev/null
bench_matplotlib
/usr/bin/python3 bench/scaling/plot.py "$out"
bench_stamp scaling ${quick:+"$quick"}
