#!/usr/bin/env bash
# PETSc's own TAO tutorials (Debian's libpetsc3.18-dev-examples, installed
# with petsc-dev), compiled unchanged into a scratch directory and run with
# the solver type their test block names and with -tao_type qpm (loaded with
# -dll_append), on 1 and 2 MPI processes. Prints CSV rows; bench/petsc/run.sh
# writes them to tutorials.csv:
#
#   bash bench/petsc/run_tutorials.sh [BUILD]
#
# Columns: tutorial, options, processes, solver, reason, iterations,
# objective (as -tao_view prints it); a run past LIMIT seconds (300) has no reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
. bench/petsc/tutorials_common.sh "$@"

# tutorial|its options|its own solver type ("" = the program's default)
cases=(
  "constrained/tutorials/ex1.c||pdipm -tao_pdipm_kkt_shift_pd"
  "constrained/tutorials/ex1.c||almm"
  "constrained/tutorials/ex1.c|-no_eq|almm"
  "bound/tutorials/plate2.c|-mx 8 -my 6 -bmx 3 -bmy 3 -bheight 0.2 -tao_gatol 1e-5|tron"
  "bound/tutorials/plate2.c|-mx 32 -my 32 -bmx 10 -bmy 10 -bheight 0.2 -tao_gatol 1e-5|tron"
  "bound/tutorials/jbearing2.c|-tao_gatol 1e-5|"
  "bound/tutorials/jbearing2.c|-mx 100 -my 100 -tao_gatol 1e-5|bnls"
  "unconstrained/tutorials/eptorsion2.c||"
  "unconstrained/tutorials/minsurf2.c||"
)

echo "tutorial,options,processes,solver,reason,iterations,objective"
for c in "${cases[@]}"; do
  IFS='|' read -r file options own <<< "$c"
  exe="$work/$(echo "$file" | tr '/' '_' | sed 's/\.c$//')"
  [ -x "$exe" ] || mpicc -O2 -o "$exe" "$src/$file" $(pkg-config --cflags --libs PETSc) -lm ||
    { echo "$file,,,,compile_error,,"; continue; }
  for np in 1 2; do
    for solver in "$own" qpm; do
      type_option=""
      [ -n "$solver" ] && type_option="-tao_type $solver"
      out=$(timeout "${LIMIT:-300}" mpirun --allow-run-as-root --oversubscribe -n "$np" "$exe" $options $type_option \
            -dll_append "$plugin" -tao_converged_reason -tao_view 2>&1)
      reason=$(echo "$out" | sed -n 's/.*converged* due to \([A-Z_]*\).*/\1/p' | head -1)
      [ -n "$reason" ] || reason=$(echo "$out" | grep -m1 -o 'ERROR: [^:]*' | head -1 | tr ',' ';')
      iterations=$(echo "$out" | sed -n 's/.*due to [A-Z_]* iterations* \([0-9]*\).*/\1/p' | head -1)
      objective=$(echo "$out" | sed -n 's/.*Objective value=\([^ ]*\).*/\1/p' | tail -1)  # the outermost Tao prints last
      echo "$(basename "$file" .c),$options,$np,${solver:-default},$reason,$iterations,$objective"
    done
  done
done
