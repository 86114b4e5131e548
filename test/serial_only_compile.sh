#!/usr/bin/env bash
# The serial-only components of the core (the factorizing preconditioner,
# gradient descent and its line search, L-BFGS, the Newton multiplier step)
# take an AssembledPenalty, which only PenaltyFunction::assembled() makes
# for a model that is not distributed: built from a PenaltyFunction, each
# must fail to compile (serial_only/build_on_penalty.cpp), and built from
# assembled() it must compile.
# Usage: serial_only_compile.sh SOURCE_ROOT EIGEN_INCLUDE SUITESPARSE_INCLUDE COMPILER...
set -u
root=$1 eigen=$2 suitesparse=$3
shift 3
flags=(-std=c++17 -fsyntax-only -I"$root/include" -I"$root/src" -isystem "$eigen" -isystem "$suitesparse")
source=$root/test/serial_only/build_on_penalty.cpp
status=0
for case in 1 2 3 4 5; do
  if ! "$@" "${flags[@]}" -DCASE=$case -DASSEMBLED "$source"; then
    echo "case $case: the component does not compile from PenaltyFunction::assembled()"
    status=1
  fi
  errors=$("$@" "${flags[@]}" -DCASE=$case "$source" 2>&1) && {
    echo "case $case: a serial-only component compiled from a PenaltyFunction"
    status=1
    continue
  }
  echo "case $case refused: $(echo "$errors" | grep -m 1 -E 'error:')"
  echo "$errors" | grep -q 'AssembledPenalty' || { echo "case $case: the error does not name AssembledPenalty"; status=1; }
done
exit $status
