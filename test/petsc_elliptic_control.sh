#!/usr/bin/env bash
# examples/petsc/elliptic_control (TAOLCL's form: shell state and design
# Jacobians, no Hessian routine) on 2 MPI processes with -tao_type qpm:
#  1. without active bounds (-u_upper 1e3), qpm's objective is TAOLCL's
#     (relative 1e-6), both feasible;
#  2. with the control's bounds (TAOLCL does not read them), qpm converges
#     with the control in [0, 10], feasible, at an objective no lower than
#     the unbounded one.
#   bash petsc_elliptic_control.sh MPIRUN EXAMPLE LIBQPM_PETSC
set -euo pipefail
mpirun=$1 example=$2 plugin=$3
run() {
  "$mpirun" --allow-run-as-root --oversubscribe -n 2 "$example" -N 24 -tao_catol 1e-8 \
    -tao_max_it 5000 -dll_append "$plugin" "$@"
}
value() { sed -n "s/^$1 //p" <<< "$2"; }
check() { awk "BEGIN { exit !($1) }" || { echo "FAILED: $2" >&2; exit 1; }; }

lcl=$(run -tao_type lcl -u_upper 1e3)
qpm=$(run -tao_type qpm -u_upper 1e3)
echo "TAOLCL: $(value f "$lcl"), qpm: $(value f "$qpm") (no active bound)"
[[ $(value reason "$lcl") == CONVERGED_* ]] || { echo "FAILED: TAOLCL did not converge" >&2; exit 1; }
[[ $(value reason "$qpm") == CONVERGED_* ]] || { echo "FAILED: qpm did not converge: $qpm" >&2; exit 1; }
f_lcl=$(value f "$lcl") f_qpm=$(value f "$qpm")
check "($f_qpm - $f_lcl) <= 1e-6 * $f_lcl && ($f_lcl - $f_qpm) <= 1e-6 * $f_lcl" "objectives differ"
check "$(value c_max "$qpm") <= 1e-7" "qpm's point is infeasible"

bounded=$(run -tao_type qpm)
echo "qpm with 0 <= u <= 10: $(value f "$bounded"), u in [$(value u_range "$bounded")]"
[[ $(value reason "$bounded") == CONVERGED_* ]] || { echo "FAILED: qpm did not converge: $bounded" >&2; exit 1; }
read -r u_min u_max <<< "$(value u_range "$bounded")"
check "$u_min >= 0 && $u_max <= 10" "the control leaves its bounds"
check "$(value c_max "$bounded") <= 1e-7" "qpm's bounded point is infeasible"
check "$(value f "$bounded") >= $f_lcl * (1 - 1e-9)" "the bounded objective is below the unbounded one"
check "$(value on_upper "$bounded") > 0" "no bound is active"
