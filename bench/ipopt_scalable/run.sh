#!/usr/bin/env bash
# Models of Ipopt's ScalableProblems (bench/ipopt_scalable/ipopt_scalable.cpp,
# written from their mathematics in models/): LukVlE4 and its inequality
# form LukVlI4, MDistCntrl1, MDistCntrl4, MBndryCntrl1, MBndryCntrl5, MPara5_1 and MBndryCntrl_3D
# at the sizes of issue 36 and below, MBndryCntrl6-8 and MPara5_2_1-3 at N = 100, and MBndryCntrl_3Dsin (its item 4) at N = 5, 10, 20, Ipopt then QPM at their
# defaults, tol 1e-8, CPU_SECONDS (default 120) each, one process per solve.
# Writes bench/ipopt_scalable/{results.csv,results.md}.
#
#   bash bench/ipopt_scalable/run.sh [CPU_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/common/lib.sh
cpu=${1:-120}
out=bench/ipopt_scalable
bench_build bench/ipopt_scalable
run=$build/bench/ipopt_scalable
csv=$out/results.csv
"$run" --header >"$csv"
one() {  # one solve; a killed process is recorded as such
  local model=$1 size=$2 solver=$3
  if ! timeout $((cpu + 60)) "$run" --model "$model" --size "$size" --solver "$solver" --cpu "$cpu" >>"$csv"; then
    echo "$model,$size,0,0,$solver,-,Process_Killed_Or_Crashed,nan,nan,nan,nan,nan,0,0,0,-" >>"$csv"
  fi
}
for spec in "lukvle4 9998" "lukvle4 99998" "lukvli4 9998" "lukvli4 99998" "distributed2d 100" "distributed2d 200" \
            "distributed2d 300" "neumann2d 100" "neumann2d 200" "neumann2d 300" "boundary2d 100" "boundary2d 300" "boundaryneumann2d 50" \
            "boundaryneumann2d 150" "boundaryneumann2d-6 100" "boundaryneumann2d-7 100" "boundaryneumann2d-8 100" \
            "parabolic 100" "parabolic 200" "parabolic-5.2.1 100" "parabolic-5.2.2 100" "parabolic-5.2.3 100" "boundary3d 10" "boundary3d 20" \
            "boundary3dsin 5" "boundary3dsin 10" "boundary3dsin 20"; do
  set -- $spec
  one "$1" "$2" ipopt
  one "$1" "$2" qpm
done
/usr/bin/python3 bench/ipopt_scalable/summarize.py "$csv" "$cpu" >"$out/results.md"
cat "$out/results.md"
bench_stamp ipopt_scalable "$cpu"
