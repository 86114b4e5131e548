#!/usr/bin/env bash
# Installs what qpm needs on Debian (bookworm or later): compiler, meson,
# ninja, pkg-config, Ipopt, Eigen, Boost.Test and the AMPL Solver Library
# (libamplsolver-dev, for .nl models) and LBFGS++ (liblbfgspp-dev, header-only:
# the L-BFGS-B pieces of the L-BFGS inner solver) and SuiteSparse
# (libsuitesparse-dev: CHOLMOD, the sparse Cholesky of the preconditioners)
# and OpenBLAS (libopenblas0-serial: the single-threaded BLAS behind CHOLMOD
# and Ipopt's MUMPS alike) and PETSc with Open MPI (petsc-dev: libqpm_petsc, the
# TAO solver type qpm, and its tests on 1 and 2 MPI processes).
# Skips what is present.
set -euo pipefail
packages="g++ meson ninja-build pkg-config coinor-libipopt-dev libeigen3-dev libboost-test-dev libamplsolver-dev liblbfgspp-dev libsuitesparse-dev libopenblas0-serial petsc-dev"
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing
