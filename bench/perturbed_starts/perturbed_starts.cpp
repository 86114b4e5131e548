// The 42-model library from perturbed starting points: each model from K
// starts x0 + s (1 + |x0|) u, u uniform in [-1, 1]^n (seeded), projected on
// the bounds; Ipopt and QPM at their defaults with tol = 1e-8 and a 10 s CPU
// limit. A robustness sweep of the one-line user's view beyond the starts
// the models were written with: one row per start where the two solvers'
// statuses differ, then the counts (bench/perturbed_starts/).
//
//   perturbed_starts [--starts K] [--scale s] [--seed S] [--only MODEL START]
//
// --only solves one model from one start, QPM with print_level 5.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "model_library.hpp"

namespace {

int verbose = 0;

qpm::SolverRun Run(bool ipopt, const qpm_test::Model& model) {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app =
      ipopt ? IpoptApplicationFactory() : new qpm::QpmApplication();
  Ipopt::SmartPtr<Ipopt::TNLP> tnlp = new qpm_test::ModelTnlp(model);
  return qpm::RunSolver(app, tnlp, ipopt ? "Ipopt" : "QPM", [](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", 1e-8);
    o.SetNumericValue("max_cpu_time", 10.0);
    o.SetIntegerValue("print_level", verbose);
    o.SetStringValue("sb", "yes");
  });
}

bool Solved(const qpm::SolverRun& r) {
  return r.status == Ipopt::Solve_Succeeded || r.status == Ipopt::Solved_To_Acceptable_Level;
}

}  // namespace

int main(int argc, char** argv) {
  int starts = 5;
  double scale = 0.5;
  unsigned seed = 1;
  std::string only;
  int only_start = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--only" && i + 2 < argc) only = argv[i + 1], only_start = std::atoi(argv[i + 2]), ++i;
    if (a == "--starts") starts = std::atoi(argv[i + 1]);
    else if (a == "--scale") scale = std::atof(argv[i + 1]);
    else if (a == "--seed") seed = static_cast<unsigned>(std::atoi(argv[i + 1]));
  }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::map<std::string, int> count;
  double qpm_time = 0.0, ipopt_time = 0.0;
  std::printf("| model | start | Ipopt status | f | QPM status | f |\n|---|---|---|---|---|---|\n");
  for (const qpm_test::Model& base : qpm_test::AllModels()) {
    for (int k = 0; k < starts; ++k) {
      qpm_test::Model model = base;
      for (int i = 0; i < model.n; ++i) {
        const double x = model.x0[i] + scale * (1.0 + std::abs(model.x0[i])) * u(rng);
        model.x0[i] = std::min(std::max(x, model.x_l[i]), model.x_u[i]);
      }
      if (!only.empty() && (base.name != only || k != only_start)) continue;
      const qpm::SolverRun ipopt = Run(true, model);
      verbose = only.empty() ? 0 : 5;
      const qpm::SolverRun qpm = Run(false, model);
      ipopt_time += ipopt.wall_time, qpm_time += qpm.wall_time;
      ++count["starts"];
      count["Ipopt solved"] += Solved(ipopt);
      count["QPM solved"] += Solved(qpm);
      count["both solved"] += Solved(ipopt) && Solved(qpm);
      if (Solved(ipopt) && Solved(qpm) &&
          std::abs(ipopt.f - qpm.f) <= 1e-6 * (1.0 + std::abs(ipopt.f))) {
        ++count["both solved, same f"];
      }
      if (Solved(ipopt) != Solved(qpm)) {
        std::printf("| %s | %d | %s | %.10g | %s | %.10g |\n", base.name.c_str(), k,
                    qpm::StatusName(ipopt.status), ipopt.f, qpm::StatusName(qpm.status), qpm.f);
      }
      std::fflush(stdout);
    }
  }
  std::printf("\n");
  for (const auto& [name, value] : count) std::printf("%s: %d\n", name.c_str(), value);
  std::printf("wall time in all: Ipopt %.2f s, QPM %.2f s\n", ipopt_time, qpm_time);
  return 0;
}
