#!/usr/bin/env bash
# Regenerates every committed benchmark result at one commit: runs each
# study's bench/<study>/run.sh with its defaults, one after the other (one
# process at a time), each stamping "Made at commit <sha> by `bash
# bench/regenerate.sh`" into its README. Refuses to start on a dirty work
# tree, and stops if HEAD moves during the run, so that every result belongs
# to the stamped commit. Prints each study's wall time; commit the results
# afterwards (git add bench && git commit).
#
#   bash bench/regenerate.sh              # every study, quickest first (hours)
#   bash bench/regenerate.sh paper model_library
#   bash bench/regenerate.sh --list
#
# A study that fails does not stop the others; the exit status is 1 if any
# failed. BUILD_DIR (default build) is passed on; the nl_corpus study reads
# ../shared/nl-corpus, nl_large fetches its models with
# scripts/fetch-nl-large.sh into NL_LARGE_DIR (default /tmp/nl-large).
set -euo pipefail
cd "$(dirname "$0")/.."
all=(model_library unbounded fault_injection perturbed_starts limits lying_headers paper
     kkt_fill nl_corpus rosenbrock_plain scaling scalable pde_control ipopt_scalable nl_large pglib_opf petsc)
if [ "${1:-}" = "--list" ]; then printf '%s\n' "${all[@]}"; exit 0; fi
studies=("$@")
[ ${#studies[@]} -gt 0 ] || studies=("${all[@]}")
for s in "${studies[@]}"; do
  [[ " ${all[*]} " == *" $s "* ]] || { echo "no study $s; studies: ${all[*]}" >&2; exit 2; }
done
if [ -n "$(git status --porcelain)" ]; then
  echo "the work tree is not clean (git status): commit or stash first, so that every result is at one commit" >&2
  exit 1
fi
head=$(git rev-parse HEAD)
export BENCH_COMMIT=$(git rev-parse --short HEAD)
export BENCH_MADE_BY="bash bench/regenerate.sh"
echo "regenerating ${studies[*]} at commit $BENCH_COMMIT"
failed=() report=()
for s in "${studies[@]}"; do
  echo "=== $s"
  start=$(date +%s)
  if bash "bench/$s/run.sh"; then result=ok; else result=FAILED; failed+=("$s"); fi
  seconds=$(( $(date +%s) - start ))
  report+=("$(printf '%-18s %-6s %6d s' "$s" "$result" "$seconds")")
  echo "=== $s: $result in $seconds s"
  if [ "$(git rev-parse HEAD)" != "$head" ]; then
    echo "HEAD moved during the run (from $BENCH_COMMIT): stopping; the results are not all at one commit" >&2
    exit 1
  fi
done
echo
echo "wall time per study, at commit $BENCH_COMMIT:"
printf '  %s\n' "${report[@]}"
[ ${#failed[@]} -eq 0 ] || { echo "failed: ${failed[*]}" >&2; exit 1; }
