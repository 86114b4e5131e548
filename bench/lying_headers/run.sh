#!/usr/bin/env bash
# Issue 17: three copies of a model whose header lies (line 2: 4e12
# variables, or 1e11 constraints; line 8: 2e9 Jacobian nonzeros), each run
# through the qpm executable under /usr/bin/time -v. Writes, per file, the
# message, the exit code, the wall time and the peak RSS to
# bench/lying_headers/results.md, and fails if a file is not refused within
# 1 s and 100 MB.
#
#   bash bench/lying_headers/run.sh [MODEL.nl]
#
# MODEL defaults to hs070.nl of the corpus beside the repository
# (../shared/nl-corpus, 12.6 kB); qpm is built in ${BUILD_DIR:-build}.
# Files are made in a temporary directory, removed at the end.
set -euo pipefail
model=${1:-}
[ -z "$model" ] || model=$(cd "$(dirname "$model")" && pwd)/$(basename "$model")
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
root=$PWD
out=bench/lying_headers
model=${model:-$root/../shared/nl-corpus/hs070.nl}
[ -f "$model" ] || { echo "no $model" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
bench_build src/ampl/qpm
qpm=$root/$build/src/ampl/qpm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Line 2 is " n_var n_con n_obj ...", line 8 " nzc nzo".
sed '2s/^ *[0-9]* / 4000000000000 /' "$model" > "$work/vars.nl"
sed '2s/^\( *[0-9]*\) *[0-9]* /\1 100000000000 /' "$model" > "$work/cons.nl"
sed '8s/^ *[0-9]* / 2000000000 /' "$model" > "$work/jac.nl"

{
  status=0
  echo "model: $(basename "$model") ($(stat -c %s "$model") bytes); $("$qpm" -v)"
  echo
  echo "| file | header line | message (stderr) | exit | wall s | max RSS MB |"
  echo "| --- | --- | --- | --- | --- | --- |"
  for f in vars cons jac; do
    line=$([ $f = jac ] && echo 8 || echo 2)
    # A 4 GB address-space cap keeps a regression from taking the machine down.
    set +e
    (cd "$work" && ulimit -v 4000000 && /usr/bin/time -v -o time.txt "$qpm" $f.nl >out.txt 2>err.txt)
    code=$?
    set -e
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = 60 * s + t[i]; printf "%.2f", s}' "$work/time.txt")
    rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    rss_mb=$(awk -v k="$rss_kb" 'BEGIN {printf "%.1f", k / 1024}')
    message=$(head -n 1 "$work/err.txt")
    echo "| $f.nl | $line: \`$(sed -n ${line}p "$work/$f.nl" | cut -f1 | sed 's/^ *//')\` | $message | $code | $wall | $rss_mb |"
    if [ "$code" -eq 0 ] || [ -z "$message" ] || awk -v w="$wall" -v r="$rss_kb" 'BEGIN {exit !(w >= 1 || r >= 100 * 1024)}'; then
      status=1
    fi
  done
  echo
  [ $status -eq 0 ] && echo "all three refused with a message, each within 1 s and 100 MB" || echo "FAILED: a file was not refused within 1 s and 100 MB"
  exit $status
} | tee "$out/results.md" || exit 1
bench_stamp lying_headers "$@"
