#!/usr/bin/env python3
"""QPM's rows of two bench/nl_corpus/run_models.sh CSVs side by side (Markdown).

    python3 bench/common/compare_runs.py BEFORE.csv AFTER.csv

One row per model: status, solved (the benchmark's own test), inner
iterations, Hessian-vector products (and eval_f calls, when both CSVs have
the f_evals column) before and after; then the solved
counts, and the sums and geometric-mean ratios of both counts over the
models solved in both runs.
"""
import csv
import math
import sys


def qpm_rows(path):
    with open(path) as f:
        return {r["model"]: r for r in csv.DictReader(f) if r["solver"] == "QPM"}


def main(before_path, after_path):
    before, after = qpm_rows(before_path), qpm_rows(after_path)
    models = sorted(set(before) & set(after))
    keys = [("iterations", "inner iterations"), ("hess_products", "Hessian-vector products")]
    if models and "f_evals" in before[models[0]] and "f_evals" in after[models[0]]:
        keys.append(("f_evals", "eval_f calls"))
    print("| model | n | m | status before | status after | solved | iterations | Hv products |"
          + (" eval_f |" if len(keys) > 2 else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|" if len(keys) > 2 else ""))
    for m in models:
        b, a = before[m], after[m]
        print(f"| {m} | {b['n']} | {b['m']} | {b['status']} | {a['status']} | {b['solved']} -> {a['solved']} | "
              + " | ".join(f"{b[k]} -> {a[k]}" for k, _ in keys) + " |")
    both = [m for m in models if before[m]["solved"] == "yes" and after[m]["solved"] == "yes"]
    print()
    print(f"Solved: {sum(before[m]['solved'] == 'yes' for m in models)} before, "
          f"{sum(after[m]['solved'] == 'yes' for m in models)} after (of {len(models)}).")
    for key, name in keys:
        sb = sum(int(before[m][key]) for m in both)
        sa = sum(int(after[m][key]) for m in both)
        ratios = [max(1, int(after[m][key])) / max(1, int(before[m][key])) for m in both]
        geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"Over the {len(both)} models solved in both: {name} {sb} before, {sa} after; "
              f"geometric mean of after/before {geo:.2f}; fewer on {sum(r < 1 for r in ratios)}, "
              f"more on {sum(r > 1 for r in ratios)}.")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
