#!/usr/bin/env bash
# QPM and Ipopt at their defaults on the 32 large CUTE models (n = 3,375 to
# 20,000), tol = constr_viol_tol = 1e-8, CPU_SECONDS (default 60) each per
# model, one process per model and solver (bench/nl_corpus/run_models.sh).
# Writes bench/nl_large/results.{csv,md} and wall_time.png.
#
#   bash bench/nl_large/run.sh [CPU_SECONDS]
#   NL_LARGE_DIR=~/nl-large QPM_SET=qpm_preconditioner=jacobi bash bench/nl_large/run.sh 20
#
# The models are taken from NL_LARGE_DIR (default /tmp/nl-large), fetched
# there by scripts/fetch-nl-large.sh when it holds no .nl file (a tarball
# there is unpacked into a scratch directory, never into the tree). QPM_SET
# (name=value) sets one more QPM option: the committed result has none.
set -euo pipefail
models=${NL_LARGE_DIR:-/tmp/nl-large}
mkdir -p "$models"
models=$(cd "$models" && pwd)
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
cpu=${1:-60}
has_nl() { compgen -G "$1/*.nl" >/dev/null; }
has_nl "$models" || compgen -G "$models/*.tar.gz" >/dev/null || bash scripts/fetch-nl-large.sh "$models"
if ! has_nl "$models"; then
  tarball=$(compgen -G "$models/*.tar.gz" | head -n 1) || { echo "no .nl models in $models" >&2; exit 1; }
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  tar -xzf "$tarball" -C "$scratch"
  models=$scratch
fi
TOL=1e-8 INNER=default bash bench/nl_corpus/run_models.sh "$models" "$cpu" bench/nl_large/results
bench_matplotlib
/usr/bin/python3 bench/nl_large/plot.py bench/nl_large
[ -z "${QPM_SET:-}" ] || BENCH_MADE_BY=${BENCH_MADE_BY:-QPM_SET=$QPM_SET bash bench/nl_large/run.sh${*:+ $*}}
bench_stamp nl_large "$@"
