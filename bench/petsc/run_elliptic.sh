#!/usr/bin/env bash
# examples/petsc/elliptic_control (2D elliptic control with bounds on the
# control, TAOLCL's form: shell state and design Jacobians, no Hessian
# routine) with -tao_type qpm on 2 MPI processes at growing grids, each run
# alone: its wall time and each process's peak resident set (GNU time's %M,
# Debian package `time`). Prints CSV rows; bench/petsc/run.sh writes them to
# elliptic.csv:
#
#   bash bench/petsc/run_elliptic.sh [BUILD]      # SIZES="256 512 1024" by default
#
# Columns: N (grid N x N, so 2 N^2 variables), processes, reason,
# iterations, f, c_max (||c||_inf), on_upper (the control's share on its
# upper bound), seconds (wall, MPI start-up included), rss_mb_rank0,
# rss_mb_rank1; a run past ELLIPTIC_LIMIT seconds (default 1800) has no reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-${BUILD_DIR:-build}}
plugin="$PWD/$build/src/petsc/libqpm_petsc.so"
example="$PWD/$build/examples/petsc/elliptic_control"
[ -x /usr/bin/time ] || { echo "run_elliptic.sh needs GNU time (apt-get install time)" >&2; exit 2; }
value() { sed -n "s/^$1 //p" <<< "$2" | head -1; }
echo "N,processes,reason,iterations,f,c_max,on_upper,seconds,rss_mb_rank0,rss_mb_rank1"
for n in ${SIZES:-256 512 1024}; do
  rss=$(mktemp -d)
  start=$(date +%s.%N)
  out=$(timeout "${ELLIPTIC_LIMIT:-1800}" mpirun --allow-run-as-root --oversubscribe -n 2 \
        bash -c '/usr/bin/time -f "%M" -o "$0/rank$OMPI_COMM_WORLD_RANK" "$@"' "$rss" \
        "$example" -N "$n" -tao_catol 1e-8 -tao_max_it 5000 -tao_type qpm -dll_append "$plugin" 2>&1)
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  mb() { [ -s "$rss/rank$1" ] && awk '{ printf "%.0f", $1 / 1024 }' "$rss/rank$1"; }
  printf '%s,2,%s,%s,%s,%s,%s,%s,%s,%s\n' "$n" "$(value reason "$out")" "$(value iterations "$out")" \
    "$(value f "$out")" "$(value c_max "$out")" "$(value on_upper "$out")" "$seconds" "$(mb 0)" "$(mb 1)"
  rm -rf "$rss"
done
