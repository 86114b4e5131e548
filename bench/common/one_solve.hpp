// One solve of one model by QPM or Ipopt at their defaults, for the benches
// that print one CSV row per process (pde_control, ipopt_scalable): the
// command-line arguments they share, the run, and QPM's own counts.
//
//   --solver qpm|ipopt  --tol T (1e-8)  --cpu S (60, max_cpu_time)
//   --option name=value (one more solver option, repeatable)
#ifndef QPM_BENCH_COMMON_ONE_SOLVE_HPP_
#define QPM_BENCH_COMMON_ONE_SOLVE_HPP_

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

namespace bench {

struct SolveSettings {
  std::string solver = "qpm";
  double tol = 1e-8, cpu = 60.0;
  std::vector<std::pair<std::string, std::string>> options;
  std::string option_text;  // the --option texts, space-separated ("" for none)
};

// Reads one of the shared arguments; `next` yields the argument's value.
// kOther: not one of them; kBad: one, but malformed (a message was printed).
enum class Argument { kRead, kOther, kBad };
template <class Next>
Argument ReadSolveArgument(const std::string& arg, Next next, SolveSettings* s) {
  if (arg == "--solver") s->solver = next();
  else if (arg == "--tol") s->tol = std::atof(next().c_str());
  else if (arg == "--cpu") s->cpu = std::atof(next().c_str());
  else if (arg == "--option") {
    const std::string o = next();
    const size_t eq = o.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "--option wants name=value\n");
      return Argument::kBad;
    }
    s->options.emplace_back(o.substr(0, eq), o.substr(eq + 1));
    s->option_text += (s->option_text.empty() ? "" : " ") + o;
  } else {
    return Argument::kOther;
  }
  return Argument::kRead;
}

struct OneSolve {
  bool options_ok = true;  // every --option was accepted
  qpm::SolverRun run;
  long products = 0, factorizations = 0;  // QPM's Hessian products and factorizations
  std::string preconditioner = "-";       // QPM's, "-" for Ipopt
};

// Quiet (print_level 0), tol and max_cpu_time set, then the --options.
inline OneSolve Solve(const Ipopt::SmartPtr<Ipopt::TNLP>& model, const SolveSettings& s) {
  const bool is_qpm = s.solver == "qpm";
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app;
  if (is_qpm) app = new qpm::QpmApplication();
  else app = IpoptApplicationFactory();
  OneSolve out;
  auto set = [&](Ipopt::OptionsList& o) {
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
    o.SetNumericValue("tol", s.tol);
    o.SetNumericValue("max_cpu_time", s.cpu);
    for (const auto& [name, value] : s.options) {
      out.options_ok = out.options_ok && qpm::SetOptionFromText(o, name, value);
    }
  };
  out.run = qpm::RunSolver(app, model, s.solver, set);
  if (is_qpm) {
    const qpm::Summary& summary = static_cast<qpm::QpmApplication*>(Ipopt::GetRawPtr(app))->LastSummary();
    out.products = summary.hess_products, out.factorizations = summary.factorizations;
    if (!summary.preconditioner.empty()) out.preconditioner = summary.preconditioner;
  }
  return out;
}

}  // namespace bench

#endif  // QPM_BENCH_COMMON_ONE_SOLVE_HPP_
