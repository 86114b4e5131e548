#!/usr/bin/env bash
# Scalable families with bounds and inequality rows (bench/scalable/scalable.cpp), QPM and
# Ipopt at their defaults with only tol = 1e-8 set, one process per solve (peak
# RSS per run). Writes bench/scalable/{scalable.csv, diagnostic.csv,
# traces.txt, table.md, fits.md, *.png}.
#
#   bash bench/scalable/run.sh [--quick | --diagnostic]
#
# --quick stops at n = 1e4; --diagnostic redoes only diagnostic.csv (and the
# tables and plots), keeping scalable.csv; its traces are appended.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/scalable
bench_build bench/scalable
run=$build/bench/scalable
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
csv=$out/scalable.csv
traces=$out/traces.txt
# one CSV_FILE ARGS...: one solve; QPM's subproblems go to traces.txt. A run
# that outlives 900 s wall is killed and recorded as such.
one() {
  local file=$1 line
  shift
  # The row is the last line (setting an option can print its documentation).
  if line=$(timeout 900 "$run" "$@" --trace 2>"$tmp/trace" | tail -n 1); then
    echo "$line" | tee -a "$file"
  else  # a row of the same columns: family,form,solver,n,m,status,...
    local family="" form="" solver="" n=""
    while [ $# -gt 0 ]; do
      case $1 in
        --family) family=$2 ;; --form) form=$2 ;; --solver) solver=$2 ;; --n) n=$2 ;;
      esac
      shift
    done
    set -- "--family $family --form $form --solver $solver --n $n"
    echo "$family,$form,$solver,$n,,Killed_after_900s_or_crashed,,,,,,,,,,,,,," | tee -a "$file"
  fi
  { echo "## ${*//$tmp/\$tmp}"; cat "$tmp/trace"; } >> "$traces"
}
quick=false diagnostic_only=false
mode=${1:-}
[ "$mode" = "--quick" ] && quick=true
[ "$mode" = "--diagnostic" ] && diagnostic_only=true
obstacle_sizes="1e3 3e3 1e4 3e4 1e5 3e5 1e6"
band_sizes="100 300 1000 3000 10000 30000 100000"
chain_sizes="100 300 1000 3000 10000"
if $quick; then
  obstacle_sizes="1e3 1e4"; band_sizes="100 1000 10000"; chain_sizes="100 1000"
fi
if ! $diagnostic_only; then
$run --header > "$csv"
: > "$traces"
for family in obstacle obstacle-step; do
  for n in $obstacle_sizes; do
    u="$tmp/u.bin"
    one "$csv" --family $family --n "$n" --form bounds --solver qpm --solution-out "$u"
    one "$csv" --family $family --n "$n" --form fixed --solver qpm --solution-in "$u"
    one "$csv" --family $family --n "$n" --form free --solver qpm
    one "$csv" --family $family --n "$n" --form bounds --solver ipopt --solution-in "$u"
  done
done
for family in band chain; do
  sizes=$band_sizes
  [ "$family" = chain ] && sizes=$chain_sizes
  for m in $sizes; do
    n=$((m + 2))
    for form in inequality equality; do
      for solver in qpm ipopt; do
        one "$csv" --family "$family" --n "$n" --form "$form" --solver "$solver"
      done
    done
  done
done
fi
# Diagnostics, not at the defaults (diagnostic.csv, first column the option):
# 1. band, inequality form, beta_0 set to about the value the equality form
#    chooses (116), to test whether the automatic beta_0 = 10 |f(x_0)| (c(x_0)
#    = 0: x_0 is feasible for the rows) causes the long first subproblem;
# 2. obstacle-step with the runaway test's kappa raised from 1e4 to 1e12, to
#    test whether that test causes Diverging_Iterates at n >= 3e5.
diag=$out/diagnostic.csv
$run --header | sed 's/^/option,/' > "$diag"
: > "$tmp/d.csv"
for m in $band_sizes; do
  one "$tmp/d.csv" --family band --n $((m + 2)) --form inequality --solver qpm \
    --option qpm_penalty_init=100
done
sed 's/^/qpm_penalty_init=100,/' "$tmp/d.csv" >> "$diag"
: > "$tmp/d.csv"
step_sizes="1e5 3e5 1e6"
$quick && step_sizes="1e4"
for n in $step_sizes; do
  u="$tmp/u.bin"
  one "$tmp/d.csv" --family obstacle-step --n "$n" --form bounds --solver qpm --solution-out "$u" \
    --option qpm_runaway_factor=1e12
  one "$tmp/d.csv" --family obstacle-step --n "$n" --form fixed --solver qpm --solution-in "$u" \
    --option qpm_runaway_factor=1e12
  one "$tmp/d.csv" --family obstacle-step --n "$n" --form free --solver qpm \
    --option qpm_runaway_factor=1e12
done
sed 's/^/qpm_runaway_factor=1e12,/' "$tmp/d.csv" >> "$diag"
bench_matplotlib
/usr/bin/python3 bench/scalable/plot.py "$out"
bench_stamp scalable ${mode:+"$mode"}
