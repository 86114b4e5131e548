#!/usr/bin/env bash
# Builds qpm, runs the Boost.Test suite, installs qpm into a scratch prefix
# and builds an Ipopt program (examples/ipopt_swap/with_qpm.cpp) against the
# installed library with pkg-config, checking it reaches Ipopt's solution,
# and runs the installed qpm executable on a .nl model as AMPL would.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
prefix="$PWD/_install"
if [ -d "$build/meson-private" ]; then
  meson setup --reconfigure "$build" --prefix="$prefix" --libdir=lib >/dev/null
else
  meson setup "$build" --prefix="$prefix" --libdir=lib >/dev/null
fi
ninja -C "$build"
meson test -C "$build" --print-errorlogs

echo "== install and build an Ipopt program against the installed qpm"
rm -rf "$prefix"
meson install -C "$build" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
echo "== the installed headers are the public API, each one compiles on its own"
[ ! -e "$prefix/include/qpm/core/inner" ] || { echo "inner-solver headers were installed"; exit 1; }
for header in $(cd "$prefix/include" && find qpm -name '*.hpp' | sort); do
  case "$header" in
    qpm/ampl/*) flags="$(pkg-config --cflags qpm-ampl)" ;;
    qpm/petsc/*) flags="$(pkg-config --cflags qpm-petsc)" ;;
    *) flags="$(pkg-config --cflags qpm)" ;;
  esac
  echo "#include <$header>" | c++ -std=c++17 -fsyntax-only -x c++ - $flags ||
    { echo "installed $header does not compile alone against the installed prefix"; exit 1; }
done
echo "$(cd "$prefix/include" && find qpm -name '*.hpp' | wc -l) public headers"
c++ -std=c++17 -O2 -o "$build/consumer" examples/ipopt_swap/with_qpm.cpp \
  -Iexamples/ipopt_swap $(pkg-config --cflags --libs qpm)
qpm_line=$(LD_LIBRARY_PATH="$prefix/lib" "$build/consumer" | grep '^solution')
ipopt_line=$("$build/examples/with_ipopt" | grep '^solution')
echo "Ipopt: $ipopt_line"
echo "QPM:   $qpm_line"
python3 - "$ipopt_line" "$qpm_line" <<'PY'
import re, sys
nums = [list(map(float, re.findall(r"-?\d+\.\d+", s))) for s in sys.argv[1:]]
diff = max(abs(a - b) for a, b in zip(*nums))
print(f"max difference in f, x, lambda: {diff:.2e}")
sys.exit(0 if diff <= 1e-6 else 1)
PY
echo "== run the installed qpm executable on test/nl/inequality.nl (no library path set)"
[ -x "$prefix/bin/qpm" ] || { echo "qpm was not installed (is libamplsolver-dev missing?)"; exit 1; }
[ -f "$prefix/include/qpm/ampl/ampl_tnlp.hpp" ] || { echo "qpm/ampl/ampl_tnlp.hpp was not installed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp test/nl/inequality.nl "$work/"
(cd "$work" && env -u LD_LIBRARY_PATH "$prefix/bin/qpm" inequality.nl -AMPL tol=1e-7 print_level=0)
[ -s "$work/inequality.sol" ] || { echo "inequality.sol was not written"; exit 1; }
head -n 1 "$work/inequality.sol"
echo "== a TAO program that knows nothing of qpm, with the installed libqpm_petsc, on 2 MPI processes"
plugin="$prefix/lib/libqpm_petsc.so"
[ -f "$plugin" ] || { echo "libqpm_petsc was not installed (is petsc-dev missing?)"; exit 1; }
mpicxx -std=c++17 -O2 -o "$work/eq_ineq" examples/petsc/eq_ineq.cpp $(pkg-config --cflags --libs PETSc)
tao_out=$(cd "$work" && mpirun --allow-run-as-root --oversubscribe -n 2 ./eq_ineq -n 8 \
  -dll_append "$plugin" -tao_type qpm -tao_gatol 1e-8 -tao_catol 1e-8)
echo "$tao_out" | grep -E '^(reason|x_error|lambda_error)'
echo "$tao_out" | awk '$1 == "reason" { ok += ($2 ~ /^CONVERGED/) }
  ($1 == "x_error" || $1 == "lambda_error") && $2 ~ /^[0-9.]+e[-+][0-9]+$/ { ok += ($2 + 0 < 1e-6) }
  END { exit ok == 3 ? 0 : 1 }' || { echo "qpm did not solve examples/petsc/eq_ineq.cpp"; exit 1; }
echo "== all tests passed"
