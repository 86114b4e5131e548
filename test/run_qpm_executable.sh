#!/usr/bin/env bash
# The qpm executable as AMPL calls it: prints its version (-v), solves a
# model and writes its .sol (exit 0), and refuses a malformed file, a header
# whose counts the file cannot hold, a missing file and a bad option with a
# message and a non-zero exit.  Usage: run_qpm_executable.sh QPM NL_DIR
set -euo pipefail
qpm=$(readlink -f "$1")
nl_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$nl_dir"/inequality.nl "$nl_dir"/hs071.nl "$nl_dir"/malformed.nl "$work"/
cd "$work"

version=$("$qpm" -v)
case "$version" in
  "qpm "*" (Quadratic Penalty Method), ASL("*")"*) echo "ok: qpm -v: $version" ;;
  *) echo "FAIL: qpm -v printed '$version'"; exit 1 ;;
esac
# Line 2 claims 4e12 variables: refused before anything is allocated.
sed '2s/^ *[0-9]* / 4000000000000 /' inequality.nl > lying.nl

"$qpm" inequality -AMPL tol=1e-7 print_level=0 >out.txt
[ -s inequality.sol ] || { echo "FAIL: inequality.sol not written"; exit 1; }
grep -q "Optimal Solution Found" inequality.sol || { echo "FAIL: .sol message"; cat inequality.sol; exit 1; }

expect_failure() {
  local what=$1; shift
  if "$qpm" "$@" >out.txt 2>err.txt; then
    echo "FAIL: $what exited 0"; exit 1
  fi
  [ -s err.txt ] || { echo "FAIL: $what printed no message"; exit 1; }
  echo "ok: $what: $(head -n 1 err.txt)"
}
expect_failure "malformed file" malformed.nl
expect_failure "lying header" lying.nl
grep -q "4000000000000 variables" err.txt || { echo "FAIL: lying header message"; exit 1; }
expect_failure "missing file" missing.nl
expect_failure "unknown option" inequality.nl no_such_option=1
expect_failure "bad option value" inequality.nl tol=abc
[ ! -e malformed.sol ] || { echo "FAIL: malformed.sol written"; exit 1; }
echo "ok: inequality.sol written, errors refused"
# The one-line user's defaults: HS071 with no option at all.
"$qpm" hs071.nl >out.txt 2>err.txt || { echo "FAIL: hs071.nl exited non-zero"; exit 1; }
grep -q "EXIT: Optimal Solution Found." out.txt || { echo "FAIL: hs071.nl not solved at the defaults"; cat out.txt; exit 1; }
grep -q "^objective 17.0140172" out.txt || { echo "FAIL: hs071.nl objective"; exit 1; }
echo "ok: hs071.nl solved at the defaults"
