#!/usr/bin/env bash
# The core (src/core, include/qpm/core) needs Eigen only (and, in
# src/core/inner/lbfgs.cpp, LBFGS++'s header-only L-BFGS-B pieces): no Ipopt header
# (Ip*.hpp, coin/...) and no header of the shells (qpm/ipopt, qpm/ampl,
# qpm/casadi) may be included there. The build enforces the first part too
# (qpm_core is compiled without Ipopt's include path); this names the line.
set -u
root=${1:?usage: core_independence.sh SOURCE_ROOT}
status=0
for dir in "$root/src/core" "$root/include/qpm/core"; do
  [ -d "$dir" ] || { echo "missing $dir"; exit 1; }
  hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](Ip[A-Z]|coin/|coin-or/|(qpm/)?(ipopt|ampl|casadi)/|asl)' "$dir")
  if [ -n "$hits" ]; then
    echo "the core includes a header outside Eigen and qpm/core:"
    echo "$hits"
    status=1
  fi
done
[ $status -eq 0 ] && echo "core includes only Eigen, LBFGS++, the standard library and qpm/core"
exit $status
