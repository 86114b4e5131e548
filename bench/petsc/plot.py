"""Time and memory per process against n for bench/petsc/scaling.csv.

    /usr/bin/python3 bench/petsc/plot.py bench/petsc
writes scaling.png there: qpm and almm as TAO solver types on
examples/petsc/rosenbrock_sphere.cpp, 1 and 2 MPI processes; hollow markers
are runs that did not converge (at the wall-time limit: their time is the
limit). Rows with program options (-jacobian shell) are left to the table."""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/scaling.csv")))
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
styles = {("qpm", "1", "1e-8/1e-8"): ("C0", "o-"), ("qpm", "2", "1e-8/1e-8"): ("C0", "s--"),
          ("qpm", "1", "1e-5/1e-5"): ("C2", "o-"), ("qpm", "2", "1e-5/1e-5"): ("C2", "s--"),
          ("almm", "1", "1e-5/1e-5"): ("C1", "o-"), ("almm", "2", "1e-5/1e-5"): ("C1", "s--")}
for (solver, np_, tol), (color, style) in styles.items():
    sel = sorted((r for r in rows if r["solver"] == solver and r["processes"] == np_ and
                  r["tolerances"] == tol and not r["options"]), key=lambda r: int(r["n"]))
    for ax, key in zip(axes, ("seconds", "memory_mb")):
        pts = [(int(r["n"]), float(r[key]), r["reason"]) for r in sel if r[key]]
        if not pts:
            continue
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=color,
                label="%s, %s process%s, tol %s" % (solver, np_, "" if np_ == "1" else "es",
                                                    tol.split("/")[0]))
        for x, y, reason in pts:
            if not reason.startswith("CONVERGED"):
                ax.plot(x, y, "o", mfc="white", mec="k", ms=9)
for ax, label in zip(axes, ("TaoSolve wall s", "largest resident set per process, MB")):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (variables)")
    ax.set_ylabel(label)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
fig.suptitle("Rosenbrock on the sphere as a TAO program: -tao_type qpm against almm")
fig.tight_layout()
fig.savefig(out + "/scaling.png", dpi=110)
