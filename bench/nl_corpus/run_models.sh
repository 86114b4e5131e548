#!/usr/bin/env bash
# Runs QPM and Ipopt on every .nl model of a directory, one process per model
# and solver (a hung model cannot stop the run), and writes OUT.csv (one row
# per model and solver) and OUT.md (nl_corpus --summarize of it). The runner
# behind bench/nl_corpus/run.sh and bench/nl_large/run.sh.
#
#   bash bench/nl_corpus/run_models.sh DIR CPU_SECONDS OUT
#   TOL=1e-8 INNER=default bash bench/nl_corpus/run_models.sh ../shared/nl-corpus 10 /tmp/run
#
# TOL (default 1e-8) is tol and constr_viol_tol of both solvers; INNER
# (default `default`, which sets no qpm option; or trust-region,
# gradient-descent, lbfgs) is qpm_inner_solver; QPM_SET (name=value) one more
# option for QPM. DIR's reference.csv, when present, gives the reference
# objectives. CPU_SECONDS is each solver's max_cpu_time (and QPM's
# qpm_max_wall_time) per model; a process still running CPU_SECONDS + 60 s
# of wall time later is killed and recorded as such.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
dir=$(cd "$1" && pwd) cpu=$2  # DIR and OUT may be relative to the caller's directory
mkdir -p "$(dirname "$3")"
out=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
tol=${TOL:-1e-8}
inner=${INNER:-default}
bench_build bench/nl_corpus
csv="$out.csv"
echo "model,n,m,solver,status,f,max_violation,rel_violation,kkt_rel,wall_s,cpu_s,eval_errors,solved,iterations,hess_products,f_evals,peak_mb,factorizations,preconditioner" >"$csv"
for model in "$dir"/*.nl; do
  name=$(basename "$model" .nl)
  echo "== $name" >&2
  for solver in QPM Ipopt; do  # one process each: its own peak memory
    if ! timeout $((cpu + 60)) "$build/bench/nl_corpus" --no-header --cpu "$cpu" --solver $solver \
        --tol "$tol" --inner "$inner" ${QPM_SET:+--qpm-set "$QPM_SET"} "$model" >>"$csv"; then
      echo "$name,0,0,$solver,Process_Killed_Or_Crashed,nan,nan,nan,nan,nan,nan,0,no,0,0,0,nan,0,-" >>"$csv"
    fi
  done
done
ref=()
[ -f "$dir/reference.csv" ] && ref=(--reference "$dir/reference.csv")
"$build/bench/nl_corpus" --summarize "$csv" "${ref[@]}" >"$out.md"
tail -n 3 "$out.md"
