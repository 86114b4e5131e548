#!/usr/bin/env bash
# qpm as a TAO solver type against TAO's almm, pdipm and bnls, on 1 and 2
# MPI processes: our TAO programs (bench/petsc/run_tao.sh examples, then
# scaling: Rosenbrock on the sphere up to n = 1e7) and PETSc's own TAO
# tutorials (bench/petsc/run_tutorials.sh), and PETSc's PDE-constrained
# tutorials against TAOLCL (bench/petsc/run_pde.sh), and our own PDE-control
# program at growing grids on 2 processes (bench/petsc/run_elliptic.sh). Writes
# bench/petsc/examples.csv, scaling.csv, speedup.csv, tutorials.csv, pde.csv,
# elliptic.csv and scaling.png. Needs a build with PETSc
# (Debian petsc-dev; meson finds it), mpirun and, for the tutorials, mpicc
# and Debian's libpetsc3.18-dev-examples.
#
#   bash bench/petsc/run.sh
#
# LIMIT (default 300) is the wall-time limit of each TAO run.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/petsc
export LIMIT=${LIMIT:-300}
bench_build src/petsc/libqpm_petsc.so examples/petsc/eq_ineq examples/petsc/bounds examples/petsc/rosenbrock_sphere \
  examples/petsc/elliptic_control
bash bench/petsc/run_tao.sh examples "$build" >"$out/examples.csv"
bash bench/petsc/run_tao.sh scaling "$build" >"$out/scaling.csv"
bash bench/petsc/run_tao.sh speedup "$build" >"$out/speedup.csv"
bash bench/petsc/run_tutorials.sh "$build" >"$out/tutorials.csv"
bash bench/petsc/run_pde.sh "$build" >"$out/pde.csv"
bash bench/petsc/run_elliptic.sh "$build" >"$out/elliptic.csv"
bench_matplotlib
/usr/bin/python3 bench/petsc/plot.py "$out"
bench_stamp petsc
