#!/usr/bin/env bash
# Runs QPM (trust-region inner solver) and Ipopt on every .nl model of a
# directory, one process per model (a hung model cannot stop the run), and
# writes bench/results/nl_corpus/{results.csv,results.md}.
#
#   bash bench/run_nl_corpus.sh [DIR] [CPU_SECONDS]
#   TOL=1e-8 INNER=default OUT=bench/results/nl_corpus_defaults_1e-8 bash bench/run_nl_corpus.sh
#
# TOL (default 1e-6) is tol and constr_viol_tol of both solvers; INNER
# (default trust-region) is qpm_inner_solver, `default` sets no qpm option;
# OUT (default bench/results/nl_corpus) is where the results go; QPM_SET
# (name=value) one more option for QPM.
# DIR defaults to ../shared/nl-corpus; its reference.csv, when present, gives
# the reference objectives. CPU_SECONDS (default 30) is each solver's
# max_cpu_time (and QPM's qpm_max_wall_time) per model.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/nl-corpus}
cpu=${2:-30}
build=${BUILD_DIR:-build}
out=${OUT:-bench/results/nl_corpus}
tol=${TOL:-1e-6}
inner=${INNER:-trust-region}
mkdir -p "$out"
ninja -C "$build" bench/nl_corpus >/dev/null
csv="$out/results.csv"
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
"$build/bench/nl_corpus" --summarize "$csv" "${ref[@]}" >"$out/results.md"
tail -n 3 "$out/results.md"
