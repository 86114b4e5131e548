"""Summaries of bench/pglib_opf/run.sh's results.csv.

    python3 summarize.py results.csv                 # results.md on stdout
    python3 summarize.py --plot results.csv out.png  # QPM's wall time against Ipopt's
    python3 summarize.py --reference BASELINE.md     # case,ac_objective from PGLib's table

"At the reference": Solve_Succeeded with the objective within 1e-4
(relative) of the AC objective of PGLib's BASELINE.md."""
import csv
import math
import sys

TOL = 1e-4


def reference(baseline):
    print("case,ac_objective")
    for line in open(baseline):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 4 and cells[0].startswith("pglib_opf_case"):
            try:
                print("%s,%s" % (cells[0], float(cells[4])))
            except ValueError:
                pass  # no AC objective (infeasible or not solved)


def by_case(path):
    cases = {}
    for r in csv.DictReader(open(path)):
        cases.setdefault(r["case"], {"buses": int(r["buses"])})[r["solver"]] = r
    return sorted(cases.items(), key=lambda kv: (kv[1]["buses"], kv[0]))


def at_reference(r):
    if r["status"] != "Solve_Succeeded":
        return False
    return r["relative_error"] == "" or abs(float(r["relative_error"])) <= TOL


def cell(r):
    s = r["status"].replace("_", " ")
    text = "%s, %s s" % (s, r["wall_s"]) + (", %s it." % r["iterations"] if r["iterations"] else "")
    if r["relative_error"] and r["status"] == "Solve_Succeeded" and abs(float(r["relative_error"])) > TOL:
        text += ", off by %s" % r["relative_error"]
    return text


def table(path):
    rows = by_case(path)
    ipopt_ok = [c for c, v in rows if at_reference(v["ipopt"])]
    qpm_ok = [c for c, v in rows if at_reference(v["qpm"])]
    both = [(c, v) for c, v in rows if at_reference(v["ipopt"]) and at_reference(v["qpm"])]
    ratios = [float(v["qpm"]["wall_s"]) / max(float(v["ipopt"]["wall_s"]), 1e-3) for _, v in both]
    missed = [c for c in ipopt_ok if c not in qpm_ok]
    print("| | at the reference | of those Ipopt solves | geometric mean of wall time / Ipopt's (both) | at most 2x Ipopt's time |")
    print("|---|---|---|---|---|")
    print("| Ipopt | %d of %d | %d | 1 | |" % (len(ipopt_ok), len(rows), len(ipopt_ok)))
    gm = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
    within = sum(1 for q in ratios if q <= 2.0)
    print("| QPM | %d of %d | %d | %.2f (%d cases) | %d of %d |" % (
        len(qpm_ok), len(rows), len(ipopt_ok) - len(missed), gm, len(ratios), within, len(ratios)))
    print()
    if missed:
        print("Ipopt solves, QPM does not: %s." % ", ".join(missed))
        print()
    print("| case | buses | reference | Ipopt | QPM | QPM / Ipopt |")
    print("|---|---|---|---|---|---|")
    for c, v in rows:
        i, q = v["ipopt"], v["qpm"]
        ratio = "%.2f" % (float(q["wall_s"]) / max(float(i["wall_s"]), 1e-3)) if (c, v) in both else ""
        print("| %s | %d | %s | %s | %s | %s |" % (c.replace("pglib_opf_", ""), v["buses"], i["reference"],
                                                  cell(i), cell(q), ratio))


def plot(path, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 6))
    for c, v in by_case(path):
        i, q = v["ipopt"], v["qpm"]
        ok = at_reference(i) and at_reference(q)
        x, y = float(i["wall_s"]), float(q["wall_s"])
        ax.plot(x, y, "o" if ok else "x", color="C0" if ok else "C3")
        ax.annotate(c.replace("pglib_opf_case", ""), (x, y), fontsize=6, xytext=(2, 2), textcoords="offset points")
    lo, hi = 1e-3, 300
    ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
    ax.plot([lo, hi], [2 * lo, 2 * hi], "k:", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("Ipopt wall s")
    ax.set_ylabel("QPM wall s")
    ax.set_title("PGLib-OPF AC-OPF, tol 1e-8 (x: not both at the reference)")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    if sys.argv[1] == "--reference":
        reference(sys.argv[2])
    elif sys.argv[1] == "--plot":
        plot(sys.argv[2], sys.argv[3])
    else:
        table(sys.argv[1])
