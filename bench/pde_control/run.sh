#!/usr/bin/env bash
# Elliptic control with control bounds (bench/pde_control/pde_control.cpp) in 2D and 3D
# as N grows: Ipopt and QPM at their defaults (qpm_preconditioner auto:
# cholesky in 2D, jacobi in 3D at these sizes), and QPM with the other
# preconditioner where it ends within the limit (jacobi in 2D up to N = 128,
# cholesky in 3D up to N = 24), tol 1e-8, CPU_SECONDS (default 60) each, one
# process per solve. Writes bench/pde_control/{results.csv,results.md,
# time_memory.png}.
#
#   bash bench/pde_control/run.sh [CPU_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
cpu=${1:-60}
out=bench/pde_control
bench_build bench/pde_control
run=$build/bench/pde_control
csv=$out/results.csv
"$run" --header >"$csv"
one() {  # one solve; a killed process is recorded as such
  local dim=$1 points=$2 solver=$3 option=${4:-}
  if ! timeout $((cpu + 60)) "$run" --dim "$dim" --points "$points" --solver "$solver" --cpu "$cpu" \
      ${option:+--option "$option"} >>"$csv"; then
    echo "$dim,$points,0,0,$solver,${option:--},Process_Killed_Or_Crashed,nan,nan,nan,nan,nan,0,0,0,-" >>"$csv"
  fi
}
for spec in "2 32" "2 64" "2 128" "2 256" "2 400" "3 8" "3 16" "3 24" "3 32" "3 40"; do
  set -- $spec
  one "$1" "$2" ipopt
  one "$1" "$2" qpm
  if [ "$1" = 2 ] && [ "$2" -le 128 ]; then one "$1" "$2" qpm qpm_preconditioner=jacobi; fi
  if [ "$1" = 3 ] && [ "$2" -le 24 ]; then one "$1" "$2" qpm qpm_preconditioner=cholesky; fi
done
python3 - "$csv" "$cpu" >"$out/results.md" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("Made by `bash bench/pde_control/run.sh %s` (tol 1e-8, %s s CPU per solve)." % (sys.argv[2], sys.argv[2]))
print()
print("| dim | N | n | solver | options | status | f | max viol | wall s | peak MB | iterations | Hv | factorizations | preconditioner |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        r["dim"], r["points"], r["n"], r["solver"], r["options"], r["status"], r["f"],
        r["max_violation"], r["wall_s"], r["peak_mb"], r["iterations"], r["hess_products"],
        r["factorizations"], r["preconditioner"]))
PY
tail -n 5 "$out/results.md"
bench_matplotlib
/usr/bin/python3 bench/pde_control/plot.py "$out"
bench_stamp pde_control "$cpu"
