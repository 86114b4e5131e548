#!/usr/bin/env bash
# Builds qpm with AddressSanitizer + UndefinedBehaviorSanitizer (leak checks
# on, UB fatal) in build-sanitize/ and runs the whole test suite there.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-sanitize
if [ ! -d "$build/meson-private" ]; then
  meson setup "$build" -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 >/dev/null
fi
ninja -C "$build"
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
meson test -C "$build" --print-errorlogs --timeout-multiplier 3
echo "== sanitizer run clean"
