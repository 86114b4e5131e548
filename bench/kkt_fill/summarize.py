"""results.csv of bench/kkt_fill -> a Markdown table and the counts by ratio."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
print("| family | model | n_z | m | nnz(L) of H | flops of H | nnz(L) of K | flops of K | H / K flops |")
print("|---|---|---|---|---|---|---|---|---|")
ratios = []
for r in rows:
    print(f"| {r['family']} | {r['model']} | {r['n_z']} | {r['m']} | {r['nnz_L_H']} | {r['flops_H']} | "
          f"{r['nnz_L_K']} | {r['flops_K']} | {r['flops_H_over_K']} |")
    ratios.append((float(r["flops_H_over_K"]) if r["flops_H_over_K"] != "-" else float("inf"), r))
print()
print(f"{len(rows)} models. H / K flops (above 1: the augmented system's factor is cheaper):")
for low, high in [(0, 0.8), (0.8, 1.25), (1.25, 2), (2, 4), (4, float("inf"))]:
    sel = [r["model"] for q, r in ratios if low <= q < high]
    print(f"- [{low}, {high}): {len(sel)}" + (f" ({', '.join(sel)})" if 0 < len(sel) <= 8 else ""))
dense = [r["model"] for q, r in ratios if q == float("inf")]
print(f"- H not analyzed (J_z^T J_z beyond the pattern bound, dense rows): {len(dense)}"
      + (f" ({', '.join(dense)})" if dense else ""))
