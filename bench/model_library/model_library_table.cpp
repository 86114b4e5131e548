// Solves every model of the test library (models/model_library.cpp) with Ipopt,
// QPM-TR and QPM-GD (and L-BFGS) on the same TNLP and prints a Markdown table:
// status, f (and |f - f*|), TNLP value calls, time. Measured, not timed tests.
//
//   model_library_table [--gd-tol T] [--tol T] [--gd-max-iter N] [--gd-plain-max-iter N] [--only hsNNN]
//                       [--gd-set option=value ...]
//   model_library_table --defaults [--tol T] [--qpm-set option=value ...]
//   model_library_table --lbfgs [--tol T] [--qpm-set option=value ...]
//
// --defaults: the one-line user's view: Ipopt and QPM with nothing set but
// tol (and QPM with hessian_approximation limited-memory, as for a model
// without eval_h), same TNLP; counts Solve_Succeeded at Ipopt's f. The QPM
// (trust region) column's work is also given as inner iterations and
// Hessian-vector products of Q (Summary::inner_iterations, hess_products).
//
// --lbfgs: QPM with hessian_approximation limited-memory only (Ipopt at its
// defaults for the reference f): status, inner iterations and the TNLP's
// eval_f and eval_grad_f calls per model, and their sums.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "model_library.hpp"

using Ipopt::SmartPtr;

namespace {

struct Settings {
  double tol = 1e-6;
  double gd_tol = 1e-4;
  int gd_max_iter = 2000000;        // QPM-GD (BB) column
  int gd_plain_max_iter = 0;        // QPM-GD (plain) column; 0: as gd_max_iter
  std::string only;                                       // run one model
  std::vector<std::pair<std::string, std::string>> gd_set;  // extra GD options
};

Settings* g_settings = nullptr;

qpm::SolverRun Solve(const qpm_test::Model& model, const std::string& solver, double tol,
                     int max_iter, const char* trial_step = "growth") {
  SmartPtr<Ipopt::TNLP> tnlp = new qpm_test::ModelTnlp(model);
  SmartPtr<Ipopt::IpoptApplication> app;
  if (solver == "Ipopt") {
    app = IpoptApplicationFactory();
  } else {
    app = new qpm::QpmApplication();
  }
  return qpm::RunSolver(app, tnlp, solver, [&](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", tol);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
    if (solver != "Ipopt") o.SetStringValue("qpm_inner_solver", solver);
    if (solver == "gradient-descent") {
      o.SetStringValue("qpm_gd_trial_step", trial_step);
      for (const auto& [name, value] : g_settings->gd_set) {
        // The option's registered type decides which setter accepts it.
        qpm::SetOptionFromText(o, name, value);
      }
    }
    if (max_iter > 0) o.SetIntegerValue("max_iter", max_iter);
  });
}

std::string Cell(const qpm::SolverRun& r, double f_star) {
  char buffer[160];
  const long calls = r.counts.eval_f + r.counts.eval_g + r.counts.eval_grad_f +
                     r.counts.eval_jac_g + r.counts.eval_h;
  const char* status = r.status == Ipopt::Solve_Succeeded              ? "ok"
                       : r.status == Ipopt::Solved_To_Acceptable_Level ? "acceptable"
                                                                        : qpm::StatusName(r.status);
  std::snprintf(buffer, sizeof buffer, "%s %.7g (%.0e) %ld %.3fs", status, r.f,
                std::abs(r.f - f_star), calls, r.wall_time);
  return buffer;
}

// name=value options for the QPM columns of --defaults (to compare a choice
// against the defaults, e.g. qpm_preconditioner=penalty).
std::vector<std::pair<std::string, std::string>> g_qpm_set;

// `summary`, when given, receives QPM's Summary of the solve.
qpm::SolverRun SolveDefaults(const qpm_test::Model& model, bool ipopt, bool limited_memory,
                             double tol, qpm::Summary* summary = nullptr) {
  SmartPtr<Ipopt::TNLP> tnlp = new qpm_test::ModelTnlp(model);
  SmartPtr<Ipopt::IpoptApplication> app;
  if (ipopt) {
    app = IpoptApplicationFactory();
  } else {
    app = new qpm::QpmApplication();
  }
  const qpm::SolverRun run =
      qpm::RunSolver(app, tnlp, ipopt ? "Ipopt" : "QPM", [&](Ipopt::OptionsList& o) {
        o.SetNumericValue("tol", tol);
        o.SetIntegerValue("print_level", 0);
        o.SetStringValue("sb", "yes");
        if (limited_memory) o.SetStringValue("hessian_approximation", "limited-memory");
        for (const auto& [name, value] : ipopt ? decltype(g_qpm_set)() : g_qpm_set) {
          qpm::SetOptionFromText(o, name, value);
        }
      });
  if (summary && !ipopt) *summary = static_cast<qpm::QpmApplication*>(GetRawPtr(app))->LastSummary();
  return run;
}

// Solve_Succeeded with f within 1e-6 (1 + |f|) of Ipopt's f in the same run.
bool AtIpoptsOptimum(const qpm::SolverRun& r, const qpm::SolverRun& ipopt) {
  return r.status == Ipopt::Solve_Succeeded &&
         std::abs(r.f - ipopt.f) <= 1e-6 * (1 + std::abs(ipopt.f));
}

int RunDefaults(double tol) {
  std::printf("The one-line user's view: every solver at its defaults, only tol = %g set.\n"
              "Cells: status, f (|f - f*|), TNLP value calls (f+g+grad+jac+h), wall time.\n"
              "QPM (L-BFGS): hessian_approximation limited-memory.\n"
              "QPM inner / Hv: QPM's inner (trust-region) iterations and Hessian-vector products.\n\n",
              tol);
  std::printf("| model | n | m | bounds/ineq | f* | Ipopt | QPM | QPM inner / Hv | QPM (L-BFGS) |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
  int count = 0, ipopt_ok = 0, qpm_ok = 0, lbfgs_ok = 0;
  long qpm_calls = 0, inner = 0, products = 0;
  double qpm_seconds = 0.0;
  for (const qpm_test::Model& m : qpm_test::AllModels()) {
    qpm::Summary s;
    const qpm::SolverRun ipopt = SolveDefaults(m, true, false, tol);
    const qpm::SolverRun qpm_run = SolveDefaults(m, false, false, tol, &s);
    const qpm::SolverRun lbfgs = SolveDefaults(m, false, true, tol);
    std::printf("| %s | %d | %d | %s | %.10g | %s | %s | %ld / %ld | %s |\n", m.name.c_str(), m.n,
                m.m, m.has_bounds_or_inequalities() ? "yes" : "no", m.f_star,
                Cell(ipopt, m.f_star).c_str(), Cell(qpm_run, m.f_star).c_str(),
                s.inner_iterations, s.hess_products, Cell(lbfgs, m.f_star).c_str());
    inner += s.inner_iterations;
    products += s.hess_products;
    std::fflush(stdout);
    ++count;
    ipopt_ok += ipopt.status == Ipopt::Solve_Succeeded;
    qpm_ok += AtIpoptsOptimum(qpm_run, ipopt);
    qpm_calls += qpm_run.counts.eval_f + qpm_run.counts.eval_g + qpm_run.counts.eval_grad_f +
                 qpm_run.counts.eval_jac_g + qpm_run.counts.eval_h;
    qpm_seconds += qpm_run.wall_time;
    lbfgs_ok += AtIpoptsOptimum(lbfgs, ipopt);
  }
  std::printf("\nSolve_Succeeded: Ipopt %d/%d. Solve_Succeeded at Ipopt's f (within 1e-6 (1 + |f|)): "
              "QPM %d/%d, QPM (L-BFGS) %d/%d\nQPM in all: %ld TNLP value calls, %.3f s\n", ipopt_ok,
              count, qpm_ok, count, lbfgs_ok, count, qpm_calls, qpm_seconds);
  std::printf("QPM (trust region) over all models: %ld inner iterations, %ld Hessian-vector products\n",
              inner, products);
  return 0;
}

int RunLbfgs(double tol) {
  std::printf("QPM with hessian_approximation limited-memory, tol = %g. Solved: Solve_Succeeded at\n"
              "Ipopt's f (within 1e-6 (1 + |f|)). inner: QPM's inner iterations; eval_f, eval_grad_f:\n"
              "the TNLP's calls.\n\n", tol);
  std::printf("| model | n | m | bounds/ineq | status | f | solved | inner | eval_f | eval_grad_f |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n");
  int count = 0, solved = 0;
  long inner = 0, evals_f = 0, evals_grad = 0;
  for (const qpm_test::Model& m : qpm_test::AllModels()) {
    qpm::Summary s;
    const qpm::SolverRun ipopt = SolveDefaults(m, true, false, tol);
    const qpm::SolverRun run = SolveDefaults(m, false, true, tol, &s);
    const bool ok = AtIpoptsOptimum(run, ipopt);
    std::printf("| %s | %d | %d | %s | %s | %.10g | %s | %ld | %ld | %ld |\n", m.name.c_str(), m.n,
                m.m, m.has_bounds_or_inequalities() ? "yes" : "no", qpm::StatusName(run.status),
                run.f, ok ? "yes" : "no", s.inner_iterations, static_cast<long>(run.counts.eval_f),
                static_cast<long>(run.counts.eval_grad_f));
    std::fflush(stdout);
    ++count;
    solved += ok;
    inner += s.inner_iterations;
    evals_f += run.counts.eval_f;
    evals_grad += run.counts.eval_grad_f;
  }
  std::printf("\nSolved %d/%d; over all models %ld inner iterations, %ld eval_f, %ld eval_grad_f\n",
              solved, count, inner, evals_f, evals_grad);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string mode = argv[i];
    if (mode != "--defaults" && mode != "--lbfgs") continue;
    double tol = 1e-8;
    for (int j = 1; j + 1 < argc; ++j) {
      if (std::string(argv[j]) == "--tol") tol = std::atof(argv[j + 1]);
      if (std::string(argv[j]) == "--qpm-set") {
        const std::string kv = argv[j + 1];
        g_qpm_set.emplace_back(kv.substr(0, kv.find('=')), kv.substr(kv.find('=') + 1));
      }
    }
    return mode == "--lbfgs" ? RunLbfgs(tol) : RunDefaults(tol);
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--tol") s.tol = std::atof(argv[i + 1]);
    if (arg == "--gd-tol") s.gd_tol = std::atof(argv[i + 1]);
    if (arg == "--gd-max-iter") s.gd_max_iter = std::atoi(argv[i + 1]);
    if (arg == "--gd-plain-max-iter") s.gd_plain_max_iter = std::atoi(argv[i + 1]);
    if (arg == "--only") s.only = argv[i + 1];
    if (arg == "--gd-set") {  // name=value, passed to both QPM-GD columns
      const std::string kv = argv[i + 1];
      const auto eq = kv.find('=');
      s.gd_set.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
  }
  g_settings = &s;
  if (s.gd_plain_max_iter <= 0) s.gd_plain_max_iter = s.gd_max_iter;
  std::printf("Cells: status, f (|f - f*|), TNLP value calls (f+g+grad+jac+h), wall time.\n"
              "tol %g for Ipopt, QPM-TR and L-BFGS; tol %g for both QPM-GD columns, max_iter %d (BB)\n"
              "and %d (plain) (BB: Barzilai-Borwein first trial step; plain: the paper's growth rule).\n",
              s.tol, s.gd_tol, s.gd_max_iter, s.gd_plain_max_iter);
  for (const auto& [name, value] : s.gd_set) std::printf("QPM-GD columns: %s = %s\n", name.c_str(), value.c_str());
  std::printf("\n");
  std::printf("| model | n | m | bounds/ineq | f* | Ipopt | QPM-TR | QPM-GD (BB) | QPM-GD (plain) | L-BFGS |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n");
  constexpr int kRuns = 5;
  int solved[kRuns] = {0, 0, 0, 0, 0};
  int count = 0;
  for (const qpm_test::Model& m : qpm_test::AllModels()) {
    if (!s.only.empty() && m.name != s.only) continue;
    const qpm::SolverRun runs[kRuns] = {
        Solve(m, "Ipopt", s.tol, 0), Solve(m, "trust-region", s.tol, 0),
        Solve(m, "gradient-descent", s.gd_tol, s.gd_max_iter, "barzilai-borwein"),
        Solve(m, "gradient-descent", s.gd_tol, s.gd_plain_max_iter, "growth"), Solve(m, "lbfgs", s.tol, 0)};
    std::printf("| %s | %d | %d | %s | %.10g |", m.name.c_str(), m.n, m.m,
                m.has_bounds_or_inequalities() ? "yes" : "no", m.f_star);
    for (int k = 0; k < kRuns; ++k) {
      std::printf(" %s |", Cell(runs[k], m.f_star).c_str());
      const double f_tol = (k == 2 || k == 3 ? 1e-3 : 1e-5) * (1 + std::abs(m.f_star));
      const bool ok = runs[k].status == Ipopt::Solve_Succeeded ||
                      runs[k].status == Ipopt::Solved_To_Acceptable_Level;
      solved[k] += ok && std::abs(runs[k].f - m.f_star) <= f_tol;
    }
    std::printf("\n");
    std::fflush(stdout);
    ++count;
  }
  std::printf("\nSolved to f* (|f - f*| <= 1e-5 (1 + |f*|), GD: 1e-3 (1 + |f*|)) with status "
              "ok or acceptable: Ipopt %d/%d, QPM-TR %d/%d, QPM-GD (BB) %d/%d, QPM-GD (plain) %d/%d, "
              "L-BFGS %d/%d\n",
              solved[0], count, solved[1], count, solved[2], count, solved[3], count, solved[4], count);
  return 0;
}
