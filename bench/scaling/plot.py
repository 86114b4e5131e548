#!/usr/bin/env python3
"""Log-log plot of wall time against n for the scaling benchmark, and the CG
iterations per trust-region step against beta (preconditioner effect)."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    out = sys.argv[1]
    with open(f"{out}/scaling.csv") as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    styles = {"ipopt": ("tab:red", "Ipopt 3.11.9 (MUMPS)"), "qpm": ("tab:orange", "QPM at its defaults"),
              "qpm-paper": ("tab:blue", "QPM-TR, qpm_mode paper"),
              "qpm-best": ("tab:green", "QPM-TR, qpm_mode paper, alpha=10 + penalty preconditioner")}
    for solver, (colour, label) in styles.items():
        pts = [(int(r["n"]), float(r["wall_s"]), r["status"]) for r in rows
               if r["problem"] == "rosenbrock" and r["solver"] == solver]
        if not pts:
            continue
        ok = [(n, t) for n, t, s in pts if s == "Solve_Succeeded"]
        bad = [(n, t) for n, t, s in pts if s != "Solve_Succeeded"]
        if ok:
            ax.loglog(*zip(*ok), "o-", color=colour, label=label)
        if bad:
            ax.loglog(*zip(*bad), "x", color=colour, markersize=12, mew=2, label=f"{label}: failed")
    ax.set_xlabel("n")
    ax.set_ylabel("wall time [s]")
    ax.set_title("Rosenbrock on the unit sphere, eps = 1e-6 (2 cores)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{out}/scaling_time.png", dpi=110)
    print(f"wrote {out}/scaling_time.png")

    fig, ax = plt.subplots(figsize=(6.5, 4))
    for name, colour in (("none", "tab:blue"), ("penalty", "tab:green")):
        try:
            with open(f"{out}/cg_vs_beta_{name}.csv") as f:
                cg = [r for r in csv.DictReader(f) if int(r["inner_iterations"]) > 0]
        except FileNotFoundError:
            continue
        ax.semilogx([float(r["beta"]) for r in cg], [float(r["cg_per_step"]) for r in cg], "o-",
                    color=colour, label=f"preconditioner: {name}")
    ax.set_xlabel("beta")
    ax.set_ylabel("CG iterations per trust-region step")
    ax.set_title("Stiefel n=1000, p=20 (m=210)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{out}/cg_vs_beta.png", dpi=110)
    print(f"wrote {out}/cg_vs_beta.png")


if __name__ == "__main__":
    main()
