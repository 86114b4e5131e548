// Rosenbrock on the sphere (the paper's eq. (7.3)) written as users write it:
// eval_f and eval_g are plain loop sums, no compensated summation. One solve
// per process, so that the peak memory is the solver's:
//
//   rosenbrock_plain --n N --solver qpm|ipopt [--tol T] [--option name=value]...
//
// prints one Markdown row: solver, n, status, ||c||_inf, the relative
// max-norm KKT residual ||grad f + J^T lambda||_inf / max(1, ||grad f||_inf),
// wall time, peak resident memory. Both solvers run at their defaults with
// only tol set (the one-line user). bench/rosenbrock_plain/run.sh runs it.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "peak_memory.hpp"

#include "rosenbrock_sphere_tnlp.hpp"

using Ipopt::Index;
using Ipopt::SmartPtr;

namespace {

// ||grad f + J^T lambda||_inf / max(1, ||grad f||_inf) (no bounds: z = 0).
double RelativeKkt(RosenbrockSphereTnlp& tnlp, const qpm::Vector& x, double lambda) {
  qpm::Vector grad(x.size());
  tnlp.eval_grad_f(static_cast<Index>(x.size()), x.data(), true, grad.data());
  const qpm::Vector residual = grad + 2.0 * lambda * x;
  return residual.lpNorm<Eigen::Infinity>() / std::max(1.0, grad.lpNorm<Eigen::Infinity>());
}

}  // namespace

int main(int argc, char** argv) {
  Index n = 10000;
  double tol = 1e-8;
  std::string solver = "qpm";
  std::vector<std::pair<std::string, std::string>> options;  // --option name=value (diagnostics)
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--n") n = static_cast<Index>(std::atof(argv[i + 1]));
    if (a == "--tol") tol = std::atof(argv[i + 1]);
    if (a == "--solver") solver = argv[i + 1];
    if (a == "--option") {
      const std::string o = argv[i + 1];
      const size_t eq = o.find('=');
      if (eq != std::string::npos) options.emplace_back(o.substr(0, eq), o.substr(eq + 1));
    }
  }
  SmartPtr<RosenbrockSphereTnlp> tnlp = new RosenbrockSphereTnlp(n, tol, /*plain_sums=*/true);
  SmartPtr<Ipopt::IpoptApplication> app;
  if (solver == "ipopt") {
    app = IpoptApplicationFactory();
  } else {
    app = new qpm::QpmApplication();
  }
  const qpm::SolverRun r = qpm::RunSolver(app, GetRawPtr(tnlp), solver, [&](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", tol);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
    for (const auto& [name, value] : options) qpm::SetOptionFromText(o, name, value);
  });
  const double kkt = r.x.size() == n && r.lambda.size() == 1 ? RelativeKkt(*tnlp, r.x, r.lambda[0])
                                                              : std::nan("");
  std::printf("| %s | %d | %s | %.2e | %.2e | %.2f | %.0f |\n", solver == "ipopt" ? "Ipopt" : "QPM",
              n, qpm::StatusName(r.status), r.violation_max, kkt, r.wall_time, PeakMegabytes());
  return 0;
}
