#!/usr/bin/env bash
# Runs QPM and Ipopt on the 32 large CUTE models of ../shared/nl-large (a
# tarball, unpacked into a scratch directory, never into the tree) through
# bench/run_nl_corpus.sh: one process per model, both solvers at their
# defaults with tol = constr_viol_tol = TOL (default 1e-8), CPU_SECONDS each.
#
#   OUT=bench/results/nl_large bash bench/run_nl_large.sh [CPU_SECONDS]
#   QPM_SET=qpm_preconditioner=penalty OUT=... bash bench/run_nl_large.sh 20
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=${NL_LARGE:-../shared/nl-large/models.tar.gz}
[ -f "$tarball" ] || { echo "no $tarball" >&2; exit 1; }
models=$(mktemp -d)
trap 'rm -rf "$models"' EXIT
tar -xzf "$tarball" -C "$models"
TOL=${TOL:-1e-8} INNER=${INNER:-default} OUT=${OUT:-bench/results/nl_large} \
  bash bench/run_nl_corpus.sh "$models" "${1:-60}"
