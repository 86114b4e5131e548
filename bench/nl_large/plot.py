"""Wall time of QPM against Ipopt per model, from a bench/nl_corpus/run_models.sh CSV (results.csv).

    python3 bench/nl_large/plot.py bench/nl_large
writes wall_time.png there: one point per model, solved by both (dots), by
one only or neither (crosses, at their time limit)."""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/results.csv")))
ok = ("Solve_Succeeded", "Solved_To_Acceptable_Level")
by = {}
for r in rows:
    by.setdefault(r["model"], {})[r["solver"]] = r
fig, ax = plt.subplots(figsize=(6, 6))
for model, v in sorted(by.items()):
    q, i = v["QPM"], v["Ipopt"]
    both = q["status"] in ok and i["status"] in ok
    x, y = float(i["wall_s"]), float(q["wall_s"])
    ax.plot(x, y, "o" if both else "x", color="C0" if both else "C3")
    ax.annotate(model, (x, y), fontsize=6, xytext=(2, 2), textcoords="offset points")
lo, hi = 0.03, 100
ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlim(lo, hi)
ax.set_ylim(lo, hi)
ax.set_xlabel("Ipopt wall s")
ax.set_ylabel("QPM wall s")
ax.set_title("nl-large, tol 1e-8 (x: not solved by both)")
fig.tight_layout()
fig.savefig(out + "/wall_time.png", dpi=120)
