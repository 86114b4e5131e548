#!/usr/bin/env bash
# Symbolic cost of H = W + beta J_z^T J_z against the augmented system
# [W + D, J_z^T; J_z, -I/beta] (bench/kkt_fill/kkt_fill.cpp) on the shared
# PGLib cases, ipopt_scalable's models at its sizes, Rosenbrock on the sphere
# and (when its models are there) nl-large. Nothing is solved or factored:
# CHOLMOD's analysis only. Writes bench/kkt_fill/{results.csv,results.md}.
#
#   bash bench/kkt_fill/run.sh
#
# PGLIB_OPF_DIR (default as bench/pglib_opf/run.sh) and NL_LARGE_DIR (default
# /tmp/nl-large, unpacked .nl files; docs/benchmark-data.md says where they
# come from) name the models; a missing folder is skipped and said so.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/kkt_fill
pglib=${PGLIB_OPF_DIR:-../shared/pglib-opf}
nl_large=${NL_LARGE_DIR:-/tmp/nl-large}
bench_build bench/kkt_fill
run=$build/bench/kkt_fill
csv=$out/results.csv
{ printf 'family,'; "$run" --header; } >"$csv"
row() {  # family, then kkt_fill's arguments; a failure is reported, not fatal
  local family=$1
  shift
  local line
  if line=$("$run" "$@"); then echo "$family,$line" >>"$csv"; else echo "kkt_fill $* failed" >&2; fi
}
if compgen -G "$pglib/pglib_opf_case*.m" >/dev/null; then
  for f in "$pglib"/pglib_opf_case*.m; do row pglib --acopf "$f"; done
else
  echo "no PGLib cases in $pglib: skipped" >&2
fi
for spec in "lukvle4 99998" "lukvli4 99998" "distributed2d 100" "distributed2d 300" "neumann2d 300" \
            "boundary2d 300" "boundary3d 10" "boundary3d 20" "sphere 1000" "sphere 100000"; do
  row scalable --scalable $spec
done
if compgen -G "$nl_large/*.nl" >/dev/null; then
  for f in "$nl_large"/*.nl; do row nl-large --nl "$f"; done
else
  echo "no .nl models in $nl_large: nl-large skipped" >&2
fi
/usr/bin/python3 "$out/summarize.py" "$csv" >"$out/results.md"
bench_stamp kkt_fill "$@"
