#!/usr/bin/env bash
# qpm as a TAO solver type against TAO's almm and pdipm (and bnls on bounds),
# on the TAO programs of examples/petsc/, which know nothing of qpm: qpm is
# loaded with -dll_append. Every run: the same program, tolerances
# -tao_gatol and -tao_catol 1e-8, on 1 and 2 MPI processes, under a wall-time
# limit (LIMIT seconds, default 600). Prints CSV rows (header first);
# bench/petsc/run.sh writes them to examples.csv, scaling.csv and speedup.csv:
#
#   bash bench/petsc/run_tao.sh examples|scaling|almm-tight|speedup [BUILD]
#
# BUILD (default ${BUILD_DIR:-build}) must hold src/petsc/libqpm_petsc.so and
# examples/petsc/ (bench/petsc/run.sh builds them).
#
# Columns: program, n, processes, solver, options (the program's own),
# tolerances (gatol, then catol), reason, iterations, f, x_error,
# lambda_error (n/a: the solver gives no multipliers), seconds (TaoSolve's
# when the program prints it, else the run's wall time), memory_mb (the
# largest resident set over the processes, when printed), memory_solve_mb
# (the most any process's resident set grew from just before TaoSolve to its
# peak: the solver's share, when printed).
set -uo pipefail
cd "$(dirname "$0")/../.."
what=${1:-examples}
build=${2:-${BUILD_DIR:-build}}
plugin="$PWD/$build/src/petsc/libqpm_petsc.so"
bin="$PWD/$build/examples/petsc"
limit=${LIMIT:-600}
tol="-tao_gatol 1e-8 -tao_catol 1e-8"
# PDIPM solves its KKT system with a direct factorization (MUMPS).
pdipm="-tao_pdipm_kkt_shift_pd -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type mumps"

field() { echo "$1" | awk -v k="$2" '$1 == k { print $2; exit }'; }

# run PROGRAM N PROCESSES SOLVER [extra options]
run() {
  local program=$1 n=$2 np=$3 solver=$4
  shift 4
  local extra="$*" start end out seconds
  [ "$solver" = pdipm ] && extra="$extra $pdipm"
  start=$(date +%s.%N)
  out=$(timeout "$limit" mpirun --allow-run-as-root --oversubscribe -n "$np" "$bin/$program" -n "$n" \
        -tao_type "$solver" -dll_append "$plugin" $tol $extra 2>&1)
  local rc=$?
  end=$(date +%s.%N)
  seconds=$(field "$out" time)
  [ -n "$seconds" ] || seconds=$(echo "$end - $start" | bc -l | xargs printf '%.3f')
  local reason
  reason=$(field "$out" reason)
  if [ $rc -eq 124 ]; then reason="wall_limit_${limit}s"; elif [ -z "$reason" ]; then reason="error_rc_$rc"; fi
  echo "$program,$n,$np,$solver,${*:-},$(echo $tol | awk '{ print $2 "/" $4 }'),$reason,$(field "$out" iterations),$(field "$out" f),$(field "$out" x_error),$(field "$out" lambda_error),$seconds,$(field "$out" memory_mb),$(field "$out" memory_solve_mb)"
}

echo "program,n,processes,solver,options,tolerances,reason,iterations,f,x_error,lambda_error,seconds,memory_mb,memory_solve_mb"
case "$what" in
  examples)
    for np in 1 2; do
      for s in qpm almm pdipm; do run eq_ineq 8 "$np" "$s"; done
      # almm and pdipm refuse a problem with bounds only: -redundant_ineq adds
      # rows x_i + 1 >= 0, never active (qpm runs both forms).
      for s in qpm bnls; do run bounds 100 "$np" "$s"; done
      for s in qpm almm pdipm; do run bounds 100 "$np" "$s" -redundant_ineq; done
      for s in qpm almm pdipm; do run rosenbrock_sphere 1000 "$np" "$s"; done
    done
    ;;
  scaling)
    # At 1e-8, almm did not end n = 1e5 within 600 s (almm-tight below), so
    # the scaling rows also give both solvers at 1e-5, ALMM's own default.
    for n in 100000 1000000 10000000; do
      for np in 1 2; do
        run rosenbrock_sphere "$n" "$np" qpm
        tol="-tao_gatol 1e-5 -tao_catol 1e-5" run rosenbrock_sphere "$n" "$np" qpm
        tol="-tao_gatol 1e-5 -tao_catol 1e-5" run rosenbrock_sphere "$n" "$np" almm
      done
    done
    # The same with J as an operator over every process's part of x
    # (MATSHELL), not a dense row on process 0: what the 2-process speed-up
    # is without the row's gather onto one process.
    for np in 1 2; do run rosenbrock_sphere 10000000 "$np" qpm -jacobian shell; done
    ;;
  almm-tight)
    run rosenbrock_sphere 100000 1 almm
    ;;
  speedup)
    # The same work on 1 and 2 processes: the first 15 iterations at
    # n = 1e7 (both paths take the same steps there: same f, products and
    # outer iterations), with J as the dense row and as the shell.
    for j in dense shell; do
      for np in 1 2; do run rosenbrock_sphere 10000000 "$np" qpm -jacobian "$j" -tao_max_it 15; done
    done
    # End to end (to CONVERGED_GATOL), twice, 1 and 2 processes alternating
    # so that a drift of the host's speed touches both alike.
    for j in dense shell; do
      for rep in 1 2; do
        for np in 1 2; do run rosenbrock_sphere 10000000 "$np" qpm -jacobian "$j"; done
      done
    done
    ;;
  *) echo "usage: $0 examples|scaling|almm-tight|speedup [build]" >&2; exit 2 ;;
esac
