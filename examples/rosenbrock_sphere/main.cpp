// Demo: the paper's Rosenbrock-on-the-sphere problem solved by Ipopt and by
// QPM in one run, with a side-by-side table of what each returned.
//
//   rosenbrock_sphere [--n N] [--eps E] [--inner gradient-descent]
//                     [--fixed] [--print-level L] [--no-ipopt]
//
// --eps sets eps0 = eps1 = E (Ipopt: tol = constr_viol_tol = dual_inf_tol = E).
// The side-by-side table runs QPM in its default mode (multiplier estimates)
// with the inner solver of --inner (gradient descent unless set).
// --fixed adds the paper's experiment of Sec. 7: the paper's method
// (qpm_mode paper) with the adaptive tau_k and with the fixed rule tau = eps1
// (qpm_tolerance_cap 0), whose inner iterations compare with the paper's.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "rosenbrock_sphere_tnlp.hpp"

using Ipopt::SmartPtr;

namespace {

struct Args {
  int n = 1000;
  double eps = 1e-3;
  std::string inner = "gradient-descent";
  bool fixed = false;
  bool ipopt = true;
  int print_level = 5;
};

bool Parse(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--n" && has_value) a->n = std::atoi(argv[++i]);
    else if (arg == "--eps" && has_value) a->eps = std::atof(argv[++i]);
    else if (arg == "--inner" && has_value) a->inner = argv[++i];
    else if (arg == "--print-level" && has_value) a->print_level = std::atoi(argv[++i]);
    else if (arg == "--fixed") a->fixed = true;
    else if (arg == "--no-ipopt") a->ipopt = false;
    else return false;
  }
  return a->n > 0 && a->n % 2 == 0 && a->eps > 0;
}

void PrintRun(const qpm::SolverRun& r) {
  std::printf("%-22s %-28s f = %.8f  ||c|| = %.3e  KKT = %.3e  iterations %d  "
              "eval_f %ld eval_grad_f %ld eval_h %ld  %.2f s\n",
              r.solver.c_str(), qpm::StatusName(r.status), r.f, r.violation_norm,
              r.kkt_residual, r.iterations, r.counts.eval_f, r.counts.eval_grad_f,
              r.counts.eval_h, r.wall_time);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!Parse(argc, argv, &args)) {
    std::fprintf(stderr, "usage: %s [--n N(even)] [--eps E] [--inner NAME] [--fixed] "
                         "[--print-level L] [--no-ipopt]\n", argv[0]);
    return 2;
  }
  SmartPtr<Ipopt::TNLP> tnlp = new RosenbrockSphereTnlp(args.n, args.eps);
  const double eps = args.eps;
  auto common = [eps](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", eps);
    o.SetNumericValue("constr_viol_tol", eps);
    o.SetNumericValue("dual_inf_tol", eps);
  };
  auto qpm_options = [&args](Ipopt::OptionsList& o) {
    o.SetStringValue("qpm_inner_solver", args.inner);
    o.SetIntegerValue("print_level", args.print_level);
  };
  auto paper = [&](double tau_cap, const char* name) {
    return qpm::RunSolver(new qpm::QpmApplication(), tnlp, name, [&](Ipopt::OptionsList& o) {
      common(o);
      qpm_options(o);
      o.SetStringValue("qpm_mode", "paper");
      o.SetNumericValue("qpm_tolerance_cap", tau_cap);
      o.SetIntegerValue("print_level", 0);
    });
  };
  std::printf("Rosenbrock on the unit sphere, n = %d, eps0 = eps1 = %g, inner solver %s\n\n",
              args.n, eps, args.inner.c_str());
  qpm::Comparison cmp;
  if (args.ipopt) {
    cmp = qpm::CompareWithIpopt(tnlp, common, [](Ipopt::OptionsList& o) {
      o.SetIntegerValue("print_level", 0);
    }, qpm_options);
  } else {
    cmp.qpm = qpm::RunSolver(new qpm::QpmApplication(), tnlp, "QPM",
                             [&](Ipopt::OptionsList& o) { common(o); qpm_options(o); });
  }
  cmp.qpm.solver = "QPM (" + args.inner + ")";
  std::printf("\n%s\n", cmp.Table().c_str());
  qpm::SolverRun adaptive, fixed;
  if (args.fixed) {
    adaptive = paper(1e20, "QPM paper (tau_k)");
    fixed = paper(0.0, "QPM paper (eps1)");
    std::printf("The paper's method (qpm_mode paper), inner iterations: adaptive tau_k %d, "
                "fixed eps1 %d (the paper, QPM-GD, n=1000, eps=1e-3: 1570 and 3259)\n",
                adaptive.iterations, fixed.iterations);
  }
  std::printf("\nSummary lines:\n");
  if (args.ipopt) PrintRun(cmp.ipopt);
  PrintRun(cmp.qpm);
  if (args.fixed) PrintRun(adaptive), PrintRun(fixed);
  return cmp.qpm.status == Ipopt::Solve_Succeeded ? 0 : 1;
}
