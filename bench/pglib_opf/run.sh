#!/usr/bin/env bash
# AC optimal power flow on PGLib-OPF cases: Ipopt and QPM at their defaults
# (tol 1e-8) through examples/acopf, which differ in the one line that
# creates the application. Each case and solver is one process, LIMIT
# seconds of wall time each (default 120; past it: out_of_time), Ipopt
# first, nothing else running. Writes bench/pglib_opf/results.{csv,md} and
# wall_time.png.
#
#   bash bench/pglib_opf/run.sh [LIMIT]
#   PGLIB_OPF_DIR=~/pglib-opf bash bench/pglib_opf/run.sh 60
#
# The cases: the pglib_opf_*.m files of PGLIB_OPF_DIR (default
# ../shared/pglib-opf beside the repository; from their public source:
# git clone https://github.com/power-grid-lib/pglib-opf, CC BY 4.0), with
# the reference objectives in its reference.csv (case,ac_objective: the AC
# column of the library's BASELINE.md, which this script writes when
# missing). QPM_SET (name=value) passes one more option to QPM: the
# committed result has none.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
limit=${1:-120}
cases=${PGLIB_OPF_DIR:-../shared/pglib-opf}
[ -d "$cases" ] || { echo "no PGLib-OPF cases in $cases (set PGLIB_OPF_DIR)" >&2; exit 1; }
cases=$(cd "$cases" && pwd)
reference=$cases/reference.csv
if [ ! -f "$reference" ]; then  # BASELINE.md's rows: | case | ... | AC objective | ...
  reference=$(mktemp)
  trap 'rm -f "$reference"' EXIT
  /usr/bin/python3 bench/pglib_opf/summarize.py --reference "$cases/BASELINE.md" >"$reference"
fi
bench_build examples/acopf
out=bench/pglib_opf/results.csv
echo "case,buses,solver,status,objective,reference,relative_error,iterations,wall_s" >"$out"
# Cases by number of buses (the N of pglib_opf_caseN_*), smallest first.
for m in $(ls "$cases"/pglib_opf_case*.m | awk -F'case' '{ n = $NF; sub(/[^0-9].*/, "", n); print n, $0 }' |
           sort -n -k1,1 -k2 | cut -d' ' -f2); do
  name=$(basename "$m" .m)
  buses=$(echo "$name" | sed 's/pglib_opf_case\([0-9]*\).*/\1/')
  ref=$(awk -F, -v c="$name" '$1 == c { print $2 }' "$reference")
  for solver in ipopt qpm; do
    flag=""; extra=""
    [ "$solver" = ipopt ] && flag=--ipopt
    [ "$solver" = qpm ] && extra=${QPM_SET:-}
    start=$(date +%s.%N)
    set +e
    line=$(timeout "$limit" "$build/examples/acopf" $flag "$m" $extra 2>&1 | tail -n 1)
    rc=${PIPESTATUS[0]}
    set -e
    wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    status=$(echo "$line" | awk '{ print $3 }')
    objective=$(echo "$line" | awk '{ for (i = 1; i < NF; ++i) if ($i == "objective") print $(i + 1) }')
    iterations=$(echo "$line" | awk '{ for (i = 1; i < NF; ++i) if ($i == "iterations") print $(i + 1) }')
    if [ "$rc" -eq 124 ]; then status=out_of_time; objective=""; iterations=""; fi
    [ -n "$status" ] || status="error_rc_$rc"
    rel=$(awk -v f="$objective" -v r="$ref" 'BEGIN { if (f == "" || r == "") print ""; else { d = (f - r) / r; printf "%.2e", d } }')
    echo "$name,$buses,$solver,$status,$objective,$ref,$rel,$iterations,$wall" | tee -a "$out"
  done
done
/usr/bin/python3 bench/pglib_opf/summarize.py bench/pglib_opf/results.csv >bench/pglib_opf/results.md
bench_matplotlib
/usr/bin/python3 bench/pglib_opf/summarize.py --plot bench/pglib_opf/results.csv bench/pglib_opf/wall_time.png
[ -z "${QPM_SET:-}" ] || BENCH_MADE_BY=${BENCH_MADE_BY:-QPM_SET=$QPM_SET bash bench/pglib_opf/run.sh${*:+ $*}}
bench_stamp pglib_opf "$@"
