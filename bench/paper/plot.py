#!/usr/bin/env python3
"""Figures in the style of the paper's Figures 1 and 2 from the CSVs written by
paper_reproduction: ||c(x)|| and ||grad Q_beta(x)|| (with the inner tolerance)
against the cumulative number of inner iterations, one colour per variant."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {key: [float(r[key]) for r in rows] for key in rows[0]}


def figure(out_dir, runs, title, png, logx=False):
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6.5), sharex=True)
    for stem, label, colour in runs:
        d = load(f"{out_dir}/{stem}.csv")
        it = d["iter"]
        top.semilogy(it, d["c_norm"], color=colour, label=f"{label} ({int(it[-1])} inner iterations)")
        bottom.semilogy(it, d["grad_q_norm"], color=colour, lw=0.8, label=f"{label}: ||grad Q||")
        bottom.semilogy(it, d["tau"], color=colour, ls="--", lw=1.2, label=f"{label}: tolerance")
    top.set_ylabel("||c(x)||")
    top.set_title(title, fontsize=10)
    top.legend()
    bottom.set_ylabel("||grad Q_beta(x)||")
    bottom.set_xlabel("inner iterations" + (" (log scale)" if logx else ""))
    if logx:
        bottom.set_xscale("symlog", linthresh=10)
    bottom.legend(fontsize=8)
    for ax in (top, bottom):
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(f"{out_dir}/{png}", dpi=110)
    print(f"wrote {out_dir}/{png}")


def main():
    out = sys.argv[1]
    figure(out, [("fig1_gd_tau", "tau_k", "tab:blue"), ("fig1_gd_eps1", "eps1", "tab:orange")],
           "QPM-GD, n=1000, eps0=eps1=1e-3 (paper Fig. 1: 1570 vs 3259)", "figure1_gd_tau_vs_eps1.png")
    figure(out, [("fig2_gd_tau", "QPM-GD", "tab:blue"), ("fig2_tr_tau", "QPM-TR", "tab:orange")],
           "QPM-GD vs QPM-TR, tau_k, n=1000, eps=1e-5 (paper Fig. 2: 4316 vs 146)",
           "figure2_gd_vs_tr.png", logx=True)
    figure(out, [("tab3_tr_tau", "QPM-TR tau_k", "tab:blue"), ("tab3_tr_eps1", "QPM-TR eps1", "tab:orange"),
                 ("tab3_lbfgs_tau", "L-BFGS tau_k", "tab:green")],
           "Second order and L-BFGS, n=1000, eps=1e-6", "figure3_tr_lbfgs_eps1e-6.png", logx=True)


if __name__ == "__main__":
    main()
