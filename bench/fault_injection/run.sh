#!/usr/bin/env bash
# NaN and Inf written into eval_grad_f's or eval_jac_g's output, once or from
# some call on, QPM and Ipopt side by side
# (bench/fault_injection/fault_injection.cpp, default seed). Writes
# bench/fault_injection/results.md.
#
#   bash bench/fault_injection/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
out=bench/fault_injection
bench_build bench/fault_injection
"$build/bench/fault_injection" --cases 40 --persist 20 >"$out/results.md"
tail -n 5 "$out/results.md"
bench_stamp fault_injection
