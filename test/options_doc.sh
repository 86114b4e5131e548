#!/usr/bin/env bash
# docs/options.md must be what qpm-options-doc prints from the option tables.
# Usage: options_doc.sh QPM_OPTIONS_DOC DOCS_OPTIONS_MD
set -u
generator=$1
committed=$2
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
"$generator" >"$fresh" || { echo "FAIL: $generator exited with $?"; exit 1; }
if ! diff -u "$committed" "$fresh" >/dev/null 2>&1; then
  diff -u "$committed" "$fresh" | head -n 40
  echo "docs/options.md is stale: run ./build/src/ipopt/qpm-options-doc > docs/options.md"
  exit 1
fi
echo "docs/options.md matches qpm-options-doc"
