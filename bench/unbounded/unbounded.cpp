// Unbounded and far-bounded models (models/unbounded_models.hpp): QPM and
// Ipopt at their defaults with tol 1e-8 on the same TNLP; prints a Markdown
// table of status, f, wall time and iterations. Measured, not a timed test.
//
//   unbounded
#include <cstdio>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "unbounded_models.hpp"

using Ipopt::SmartPtr;

namespace {

qpm::SolverRun Run(const qpm_test::Model& model, bool ipopt) {
  SmartPtr<Ipopt::TNLP> tnlp = new qpm_test::ModelTnlp(model);
  SmartPtr<Ipopt::IpoptApplication> app =
      ipopt ? IpoptApplicationFactory() : SmartPtr<Ipopt::IpoptApplication>(new qpm::QpmApplication());
  return qpm::RunSolver(app, tnlp, ipopt ? "Ipopt" : "QPM", [](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", 1e-8);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
  });
}

}  // namespace

int main() {
  using namespace qpm_test;
  struct Case {
    const char* name;
    const char* f_star;
    Model model;
  };
  const std::vector<Case> cases = {
      {"min x0 + x1, free row", "-inf", LinearObjective(true)},
      {"min x0 + x1, no row", "-inf", LinearObjective(false)},
      {"far convex minimum, free row", "0", FarConvexMinimum(true)},
      {"far convex minimum, no row", "0", FarConvexMinimum(false)},
      {"far nonconvex minimum, free row", "-2.5e11", FarNonconvexMinimum(true)},
      {"far nonconvex minimum, no row", "-2.5e11", FarNonconvexMinimum(false)},
      {"min x0 + x1, x0^2 + x1^2 >= 1", "-inf", LinearOutsideACircle()},
  };
  std::printf("| model | known f* | QPM | Ipopt |\n|---|---|---|---|\n");
  for (const Case& c : cases) {
    const qpm::SolverRun q = Run(c.model, false), ip = Run(c.model, true);
    std::printf("| %s | %s | %s f=%.6g, %.4f s, %d it | %s f=%.6g, %.4f s, %d it |\n", c.name,
                c.f_star, qpm::StatusName(q.status),
                q.f, q.wall_time, q.iterations, qpm::StatusName(ip.status), ip.f, ip.wall_time,
                ip.iterations);
  }
  return 0;
}
