#!/usr/bin/env bash
# QPM and Ipopt at their defaults on the AMPL corpus (49 models), tol =
# constr_viol_tol = 1e-8 and then 1e-6, CPU_SECONDS (default 10) each per
# model, one process per model and solver (bench/nl_corpus/run_models.sh).
# Writes bench/nl_corpus/results_1e-8.{csv,md} and results_1e-6.{csv,md}.
#
#   bash bench/nl_corpus/run.sh [DIR] [CPU_SECONDS]
#
# DIR defaults to ../shared/nl-corpus (beside the repository).
set -euo pipefail
dir=${1:-}
[ -z "$dir" ] || dir=$(cd "$dir" && pwd)  # relative to the caller's directory
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
dir=${dir:-../shared/nl-corpus}
cpu=${2:-10}
[ -d "$dir" ] || { echo "no $dir (the AMPL corpus; give its directory)" >&2; exit 1; }
for tol in 1e-8 1e-6; do
  TOL=$tol INNER=default QPM_SET= bash bench/nl_corpus/run_models.sh "$dir" "$cpu" "bench/nl_corpus/results_$tol"
done
bench_stamp nl_corpus "$@"
