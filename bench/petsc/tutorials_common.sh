# Sourced by run_tutorials.sh and run_pde.sh (after they cd'd to the
# repository root): sets
#   plugin   libqpm_petsc.so of the build (first argument, else BUILD_DIR, else build)
#   src      PETSc's TAO examples, installed (libpetsc3.18-dev-examples) if missing
#   work     a scratch directory for the compiled tutorials, removed at exit
build=${1:-${BUILD_DIR:-build}}
plugin="$PWD/$build/src/petsc/libqpm_petsc.so"
src=/usr/share/petsc/3.18/share/petsc/examples/src/tao
if [ ! -d "$src" ]; then  # petsc-dev does not pull the examples in
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq --no-install-recommends libpetsc3.18-dev-examples >&2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
