#!/usr/bin/env bash
# PETSc's own PDE-constrained TAO tutorials (elliptic, parabolic, hyperbolic:
# TaoSetConstraintsRoutine with shell state and design Jacobians, no Hessian
# routine), compiled unchanged into a scratch directory and run with TAOLCL
# (their own type) and with -tao_type qpm, on 1 and 2 MPI processes, each at
# its defaults with the test block's -tao_gatol, and for both solvers
# -tao_catol 1e-8 (TAOLCL ends near 1e-11 anyway; TAO's default 1e-4 would
# let qpm stop less feasible) and -tao_max_it 5000 (TAO's iterations are
# qpm's inner ones; TAOLCL's default 200 would stop qpm). Prints CSV rows;
# bench/petsc/run.sh writes them to pde.csv:
#
#   bash bench/petsc/run_pde.sh [BUILD]
#
# Columns: tutorial, options, processes, solver, reason, iterations,
# objective (as -tao_view prints it), ||c|| (the last -tao_cmonitor
# "Constraint" value), wall seconds; a run past LIMIT seconds (300) has no reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
. bench/petsc/tutorials_common.sh "$@"
src="$src/pde_constrained/tutorials"

# tutorial|options
cases=(
  "elliptic|-tao_gatol 1e-3 -tao_catol 1e-8 -tao_max_it 5000"
  "parabolic|-tao_gatol 1e-4 -tao_catol 1e-8 -tao_max_it 5000"
  "hyperbolic|-tao_gatol 1e-5 -tao_catol 1e-8 -tao_max_it 5000"
)
echo "tutorial,options,processes,solver,reason,iterations,objective,constraint_norm,seconds"
for c in "${cases[@]}"; do
  IFS='|' read -r name options <<< "$c"
  exe="$work/$name"
  [ -x "$exe" ] || mpicc -O2 -o "$exe" "$src/$name.c" $(pkg-config --cflags --libs PETSc) -lm ||
    { echo "$name,,,,compile_error,,,,"; continue; }
  for np in 1 2; do
    for solver in lcl qpm; do
      start=$(date +%s.%N)
      out=$(timeout "${LIMIT:-300}" mpirun --allow-run-as-root --oversubscribe -n "$np" "$exe" $options \
            -tao_type $solver -dll_append "$plugin" -tao_cmonitor -tao_converged_reason -tao_view 2>&1)
      seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
      reason=$(echo "$out" | sed -n 's/.*converged* due to \([A-Z_]*\).*/\1/p' | head -1)
      [ -n "$reason" ] || reason=$(echo "$out" | grep -m1 -o 'ERROR: [^:]*' | head -1 | tr ',' ';')
      iterations=$(echo "$out" | sed -n 's/.*due to [A-Z_]* iterations* \([0-9]*\).*/\1/p' | head -1)
      objective=$(echo "$out" | sed -n 's/.*Objective value=\([^ ]*\).*/\1/p' | tail -1)
      constraint=$(echo "$out" | sed -n 's/.*Constraint: *\([^ ]*\).*/\1/p' | tail -1)
      printf '%s,%s,%s,%s,%s,%s,%s,%s,%.2f\n' "$name" "$options" "$np" "$solver" "$reason" \
        "$iterations" "$objective" "$constraint" "$seconds"
    done
  done
done
