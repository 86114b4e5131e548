#!/usr/bin/env bash
# `qpm -=` (AMPL's option listing) and `qpm --help` list every option of
# docs/options.md: the qpm_* options and the Ipopt options qpm reads.
# Usage: qpm_option_listing.sh QPM DOCS_OPTIONS_MD
set -euo pipefail
qpm=$1
docs=$2
listing=$("$qpm" -=) || { echo "FAIL: qpm -= exited with $?"; exit 1; }
help=$("$qpm" --help)
# Option names: the first cell of the rows of the first and last tables.
names=$(awk '/^## Fields of/ {skip = 1} /^## Ipopt options/ {skip = 0}
             !skip && /^\| `/ {split($0, c, "`"); print c[2]}' "$docs")
[ -n "$names" ] || { echo "FAIL: no option names in $docs"; exit 1; }
for name in $names; do
  grep -Eq "^$name +.*\((Ipopt's )?default .*\)$" <<<"$listing" ||
    { echo "FAIL: qpm -= has no line 'name  meaning (default ...)' for $name"; exit 1; }
  grep -Eq "^  $name " <<<"$help" || { echo "FAIL: qpm --help does not list $name"; exit 1; }
done
expected=$(wc -w <<<"$names")
lines=$(wc -l <<<"$listing")
[ "$lines" -eq "$expected" ] || { echo "FAIL: qpm -= printed $lines lines for $expected options"; exit 1; }
echo "ok: qpm -= and --help list the $expected options of docs/options.md"
