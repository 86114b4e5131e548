"""Time and peak memory against n for bench/pde_control/results.csv.

    python3 bench/pde_control/plot.py bench/pde_control
writes time_memory.png there: Ipopt and QPM at their defaults, 2D and 3D;
hollow markers are runs that did not end Solve_Succeeded (at their limit)."""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

out = sys.argv[1]
rows = [r for r in csv.DictReader(open(out + "/results.csv")) if r["options"] == "-"]
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
styles = {("ipopt", "2"): ("C1", "o-"), ("qpm", "2"): ("C0", "o-"),
          ("ipopt", "3"): ("C1", "s--"), ("qpm", "3"): ("C0", "s--")}
for (solver, dim), (color, style) in styles.items():
    sel = sorted((r for r in rows if r["solver"] == solver and r["dim"] == dim), key=lambda r: int(r["n"]))
    n = [int(r["n"]) for r in sel]
    for ax, key in zip(axes, ("wall_s", "peak_mb")):
        y = [float(r[key]) for r in sel]
        ax.plot(n, y, style, color=color, label="%s %sD" % ("QPM" if solver == "qpm" else "Ipopt", dim))
        for r, x, v in zip(sel, n, y):
            if r["status"] != "Solve_Succeeded":
                ax.plot(x, v, "o", mfc="white", mec="k", ms=9)
for ax, label in zip(axes, ("wall s", "peak MB")):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (variables)")
    ax.set_ylabel(label)
    ax.legend()
axes[0].set_title("elliptic control with bounds, tol 1e-8 (ring: limit)")
fig.tight_layout()
fig.savefig(out + "/time_memory.png", dpi=110)
