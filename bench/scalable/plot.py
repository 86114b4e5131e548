#!/usr/bin/env python3
"""Tables, fitted exponents and plots for bench/scalable/run.sh.

Reads OUT/scalable.csv (and OUT/diagnostic.csv when present); writes
OUT/table.md, OUT/fits.md, OUT/scalable_time.png, OUT/scalable_inner.png.
Exponents are least-squares slopes of log(y) against log(n) over the
successful runs with n >= 1e4 (smaller runs take milliseconds, where fixed
costs and timer noise dominate) and over all sizes."""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FAMILIES = {
    "obstacle": ("Family A: two-obstacle membrane (bounds, m = 0)", ["bounds", "fixed", "free"]),
    "obstacle-step": ("Family A': one time step dt = h^2 (bounds, cond(I + K) < 9)",
                      ["bounds", "fixed", "free"]),
    "band": ("Family B: band rows, m = n - 2 (well-conditioned J)", ["inequality", "equality"]),
    "chain": ("Family B': inequality_chain rows, m = n - 2 (J'J singular as m grows)",
              ["inequality", "equality"]),
}
OK = "Solve_Succeeded"


def read(path):
    try:
        with open(path) as f:
            return list(csv.DictReader(f))
    except FileNotFoundError:
        return []


def num(row, key):
    try:
        return float(row[key])
    except (KeyError, TypeError, ValueError):
        return math.nan


def slope(points):
    pts = [(math.log(n), math.log(y)) for n, y in points if n > 0 and y > 0]
    if len(pts) < 2:
        return math.nan
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else math.nan


def fmt(v, spec):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def table(rows, diag):
    out = ["# Scalable families: measured rows", "",
           "Columns: outer = subproblems (QPM; Ipopt: none), inner = inner iterations (QPM's "
           "trust-region steps; Ipopt's iterations), max sub = the largest subproblem's inner "
           "iterations and its beta (m > 0 only; with m = 0 there is one subproblem and beta "
           "multiplies nothing), Hv = Hessian-vector products (= CG iterations), err = "
           "||x - reference||_inf (obstacle: the bound form's QPM solution; band/chain: the "
           "manufactured x*), kkt = obstacle: ||x - P(x - grad f)||_inf, band/chain: "
           "||grad f + J' lambda||_inf, viol = max bound/row violation, active = contact nodes / "
           "active rows (within 1e-7).", ""]
    head = ("| n | m | form | solver | status | outer | inner | inner/sub | max sub (beta) | Hv | "
            "Hv/inner | err | kkt | viol | active | wall s | peak MB |")
    for family, (title, forms) in FAMILIES.items():
        fam = [r for r in rows if r["family"] == family]
        if not fam:
            continue
        out += [f"## {title}", "", head, "|" + "---|" * 17]
        for r in sorted(fam, key=lambda r: (num(r, "n"), forms.index(r["form"]) if r["form"] in forms else 9,
                                            r["solver"])):
            q = r["solver"] == "qpm"
            out.append("| " + " | ".join([
                r["n"], r["m"], r["form"], r["solver"], r["status"],
                r["outer"] if q else "", r["inner"], r["inner_per_sub"] if q else "",
                (r["max_inner_sub"] + (f" ({fmt(num(r, 'max_inner_beta'), '.3g')})"
                                       if r["m"] != "0" else "")) if q else "",
                r["hv"] if q else "", r["hv_per_inner"] if q else "",
                r["err"], r["kkt"], r["viol"], r["active"], r["wall_s"], r["peak_rss_mb"]]) + " |")
        out.append("")
    if diag:
        out += ["## Diagnostics (not at the defaults: one option set besides tol)", "",
                "| option | family | n | m | form | status | outer | inner | inner/sub | "
                "max sub (beta) | Hv | Hv/inner | err | kkt | viol | active | wall s | peak MB |",
                "|" + "---|" * 18]
        for r in diag:
            out.append("| " + " | ".join([
                r["option"], r["family"], r["n"], r["m"], r["form"], r["status"], r["outer"],
                r["inner"], r["inner_per_sub"],
                r["max_inner_sub"] + (f" ({fmt(num(r, 'max_inner_beta'), '.3g')})"
                                      if r["m"] != "0" else ""), r["hv"],
                r["hv_per_inner"], r["err"], r["kkt"], r["viol"], r["active"], r["wall_s"],
                r["peak_rss_mb"]]) + " |")
        out.append("")
    return "\n".join(out)


def ratios(rows, family, num_form, den_form):
    by = {(r["n"], r["form"]): r for r in rows
          if r["family"] == family and r["solver"] == "qpm" and r["status"] == OK}
    out = []
    for n in sorted({r["n"] for r in rows if r["family"] == family}, key=float):
        a, b = by.get((n, num_form)), by.get((n, den_form))
        if a and b:
            out.append((n, num(a, "inner_per_sub") / num(b, "inner_per_sub"),
                        num(a, "inner") / num(b, "inner"), num(a, "hv") / num(b, "hv"),
                        num(a, "wall_s") / max(num(b, "wall_s"), 1e-3)))
    return out


def fits(rows, diag):
    out = ["# Fitted exponents and ratios", "",
           "Slope of log(y) against log(n), least squares over the Solve_Succeeded runs; "
           "'n >= 1e4' drops the runs of a few milliseconds. Time is wall time on a shared "
           "2-core machine (noisy); Hv (Hessian-vector products) is the machine-independent "
           "count: a QPM solve costs about (Hv + inner iterations) x O(n), so "
           "time ~ n^(1 + slope of Hv).", "",
           "| family | form | solver | time, all n | time, n >= 1e4 | Hv, n >= 1e4 | "
           "inner iterations, n >= 1e4 | peak MB, n >= 1e4 |", "|---|---|---|---|---|---|---|---|"]
    groups = sorted({(r["family"], r["form"], r["solver"]) for r in rows})
    for family, form, solver in groups:
        sel = [r for r in rows if (r["family"], r["form"], r["solver"]) == (family, form, solver)
               and r["status"] == OK]
        big = [r for r in sel if num(r, "n") >= 1e4]
        t_all = slope([(num(r, "n"), num(r, "wall_s")) for r in sel])
        t_big = slope([(num(r, "n"), num(r, "wall_s")) for r in big])
        hv = slope([(num(r, "n"), num(r, "hv")) for r in big]) if solver == "qpm" else math.nan
        inner = slope([(num(r, "n"), num(r, "inner")) for r in big])
        mem = slope([(num(r, "n"), num(r, "peak_rss_mb")) for r in big])
        out.append(f"| {family} | {form} | {solver} | {fmt(t_all, '.2f')} | {fmt(t_big, '.2f')} | "
                   f"{fmt(hv, '.2f')} | {fmt(inner, '.2f')} | {fmt(mem, '.2f')} |")
    out.append("")
    if diag:
        out += ["Diagnostic runs (one option set besides tol; diagnostic.csv):", "",
                "| option | family | form | time | Hv | inner iterations | n range |",
                "|---|---|---|---|---|---|---|"]
        for option, family, form in sorted({(r["option"], r["family"], r["form"]) for r in diag}):
            sel = [r for r in diag if (r["option"], r["family"], r["form"]) == (option, family, form)
                   and r["status"] == OK and num(r, "n") >= 1e4]
            ns = [num(r, "n") for r in sel]
            out.append(f"| {option} | {family} | {form} | "
                       f"{fmt(slope([(num(r, 'n'), num(r, 'wall_s')) for r in sel]), '.2f')} | "
                       f"{fmt(slope([(num(r, 'n'), num(r, 'hv')) for r in sel]), '.2f')} | "
                       f"{fmt(slope([(num(r, 'n'), num(r, 'inner')) for r in sel]), '.2f')} | "
                       f"{min(ns, default=0):.0f}..{max(ns, default=0):.0f} |")
        out.append("")
    for family, num_form, den_form in (("obstacle", "bounds", "fixed"), ("obstacle", "bounds", "free"),
                                       ("obstacle-step", "bounds", "fixed"),
                                       ("obstacle-step", "bounds", "free"),
                                       ("band", "inequality", "equality"),
                                       ("chain", "inequality", "equality")):
        r = ratios(rows, family, num_form, den_form)
        if not r:
            continue
        out += [f"## {family}: QPM {num_form} / {den_form}", "",
                "| n | inner per subproblem | inner total | Hv | wall time |", "|---|---|---|---|---|"]
        out += [f"| {n} | {a:.2f} | {b:.2f} | {c:.2f} | {d:.2f} |" for n, a, b, c, d in r]
        out.append("")
    return "\n".join(out)


def plot(rows, diag, out):
    colours = {("bounds", "qpm"): "tab:blue", ("fixed", "qpm"): "tab:green",
               ("free", "qpm"): "tab:gray", ("bounds", "ipopt"): "tab:red",
               ("inequality", "qpm"): "tab:blue", ("equality", "qpm"): "tab:green",
               ("inequality", "ipopt"): "tab:red", ("equality", "ipopt"): "tab:orange"}
    for what, key, ylabel in (("time", "wall_s", "wall time [s]"),
                              ("inner", "inner_per_sub", "inner iterations per subproblem"),
                              ("hv", "hv", "Hessian-vector products (total)")):
        fig, axes = plt.subplots(2, 2, figsize=(12, 9))
        for ax, (family, (title, forms)) in zip(axes.flat, FAMILIES.items()):
            for form in forms:
                for solver in ("qpm", "ipopt"):
                    if solver == "ipopt" and what != "time":
                        continue
                    sel = sorted([r for r in rows if (r["family"], r["form"], r["solver"]) ==
                                  (family, form, solver)], key=lambda r: num(r, "n"))
                    ok = [(num(r, "n"), num(r, key)) for r in sel if r["status"] == OK]
                    bad = [(num(r, "n"), num(r, key)) for r in sel if r["status"] != OK]
                    colour = colours.get((form, solver), "black")
                    if ok:
                        ax.loglog(*zip(*ok), "o-", color=colour, label=f"{solver}, {form}")
                    bad = [(n, v if v == v else 1.0) for n, v in bad]
                    if bad:
                        ax.loglog(*zip(*bad), "x", color=colour, markersize=11, mew=2,
                                  label=f"{solver}, {form}: not solved")
            for option, form in sorted({(r["option"], r["form"]) for r in diag if r["family"] == family}):
                pts = sorted([(num(r, "n"), num(r, key)) for r in diag if r["status"] == OK and
                              (r["option"], r["family"], r["form"]) == (option, family, form)])
                if pts:
                    ax.loglog(*zip(*pts), "s--", color=colours.get((form, "qpm"), "black"),
                              mfc="none", label=f"qpm, {form}, {option} (diagnostic)")
            if what == "time":
                ns = sorted({num(r, "n") for r in rows if r["family"] == family})
                if ns:
                    ref = [r for r in rows if r["family"] == family and r["solver"] == "qpm"
                           and r["status"] == OK and num(r, "n") == ns[0]]
                    t0 = max((num(r, "wall_s") for r in ref), default=1e-3) or 1e-3
                    ax.loglog(ns, [max(t0, 1e-3) * n / ns[0] for n in ns], ":", color="black",
                              label="slope 1 (linear)")
            ax.set_title(title, fontsize=9)
            ax.set_xlabel("n")
            ax.set_ylabel(ylabel)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        fig.suptitle(f"QPM at its defaults, tol = 1e-8 (2 shared cores): {ylabel}", fontsize=10)
        fig.tight_layout()
        fig.savefig(f"{out}/scalable_{what}.png", dpi=100)
        plt.close(fig)
        print(f"wrote {out}/scalable_{what}.png")


def main():
    out = sys.argv[1]
    rows = read(f"{out}/scalable.csv")
    diag = read(f"{out}/diagnostic.csv")
    with open(f"{out}/table.md", "w") as f:
        f.write(table(rows, diag) + "\n")
    with open(f"{out}/fits.md", "w") as f:
        f.write(fits(rows, diag) + "\n")
    print(f"wrote {out}/table.md, {out}/fits.md")
    plot(rows, diag, out)


if __name__ == "__main__":
    main()
