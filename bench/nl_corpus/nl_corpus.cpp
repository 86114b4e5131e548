// Runs QPM and Ipopt on AMPL .nl models through the same qpm::AmplTnlp
// wrapper and judges both answers the same way.
//
//   nl_corpus [--tol T] [--cpu S] [--inner NAME] [--solver QPM|Ipopt] [--no-header] model.nl ...
//       one CSV row per model and solver (flushed as it goes; peak_mb is the
//       process's peak resident memory, so run one solver per process with
//       --solver to measure each);
//   nl_corpus --summarize rows.csv [--reference reference.csv]
//       a markdown table with the reference objective beside ours, and one
//       "N solved, M failed" line per solver.
//
// Solved := finalize_solution was called, max relative violation of rows and
// bounds (violation / max(1, |bound|), since Ipopt relaxes bounds by
// bound_relax_factor * max(1, |bound|)) <= kFeasTol, and the relative KKT residual ||grad f + J^T lambda - z_L +
// z_U||_2 / max(1, ||grad f||_2) <= kKktTol, both computed from the returned
// point and multipliers, independently of the solver's own status.
// Then the solver's iteration count (Statistics(); QPM's inner iterations),
// for QPM its Hessian-vector products of Q (0 for Ipopt), the TNLP's eval_f
// calls, the process's peak resident MB, and for QPM its factorizations and
// the CG preconditioner it used.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <qpm/ampl/ampl_tnlp.hpp>
#include <qpm/qpm.hpp>

#include "peak_memory.hpp"

namespace {

using Ipopt::SmartPtr;

constexpr double kFeasTol = 1e-6;  // max-norm violation of rows and bounds
constexpr double kKktTol = 1e-4;   // relative KKT residual

struct Settings {
  double tol = 1e-6;
  double cpu = 60.0;  // seconds per solver and model
  std::string inner = "trust-region";
  std::vector<std::pair<std::string, std::string>> qpm_set;  // --qpm-set name=value
  bool header = true;
  std::vector<std::string> solvers = {"QPM", "Ipopt"};  // --solver NAME: just one
};

double GradNorm(qpm::AmplTnlp& tnlp, const qpm::Vector& x) {
  qpm::Vector g(x.size());
  if (!tnlp.eval_grad_f(static_cast<int>(x.size()), x.data(), true, g.data())) return NAN;
  return g.norm();
}

// max_i violation_i / max(1, |bound_i|) over variable bounds and row bounds.
double RelativeViolation(qpm::AmplTnlp& tnlp, const qpm::SolverRun& run) {
  const int n = tnlp.NumVariables(), m = tnlp.NumConstraints();
  std::vector<double> xl(n), xu(n), gl(m), gu(m);
  tnlp.get_bounds_info(n, xl.data(), xu.data(), m, gl.data(), gu.data());
  double worst = 0.0;
  auto check = [&worst](double v, double lo, double up) {
    worst = std::max(worst, (lo - v) / std::max(1.0, std::fabs(lo)));
    worst = std::max(worst, (v - up) / std::max(1.0, std::fabs(up)));
  };
  for (int j = 0; j < n; ++j) check(run.x[j], xl[j], xu[j]);
  for (int i = 0; i < m; ++i) check(run.g[i], gl[i], gu[i]);
  return worst;
}

struct QpmCounts {
  long hess_products = 0;
  long factorizations = 0;
  std::string preconditioner = "-";
};

void PrintRow(const std::string& model, qpm::AmplTnlp& tnlp, const qpm::SolverRun& run,
              double cpu_seconds, const QpmCounts& qpm) {
  const double sign = tnlp.IsMaximization() ? -1.0 : 1.0;
  double kkt_rel = NAN;
  double viol_rel = NAN;
  if (run.finalized) {
    kkt_rel = run.kkt_residual / std::max(1.0, GradNorm(tnlp, run.x));
    viol_rel = RelativeViolation(tnlp, run);
  }
  const bool solved = run.finalized && viol_rel <= kFeasTol && kkt_rel <= kKktTol;
  std::printf("%s,%d,%d,%s,%s,%.12g,%.3e,%.3e,%.3e,%.3f,%.3f,%d,%s,%d,%ld,%ld,%.1f,%ld,%s\n",
              model.c_str(), tnlp.NumVariables(), tnlp.NumConstraints(), run.solver.c_str(),
              qpm::StatusName(run.status), sign * run.f, run.violation_max, viol_rel, kkt_rel,
              run.wall_time, cpu_seconds, tnlp.EvaluationErrors(), solved ? "yes" : "no",
              run.iterations, qpm.hess_products, static_cast<long>(run.counts.eval_f),
              PeakMegabytes(), qpm.factorizations, qpm.preconditioner.c_str());
  std::fflush(stdout);
}

std::string ModelName(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  return name.size() > 3 ? name.substr(0, name.size() - 3) : name;
}

double CpuSeconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// Each solver gets its own AmplTnlp, so evaluation-error counts are its own.
void RunModel(const std::string& path, const Settings& s) {
  for (const std::string& solver : s.solvers) {
    std::string error;
    SmartPtr<qpm::AmplTnlp> tnlp = qpm::AmplTnlp::Read(path, &error);
    if (Ipopt::IsNull(tnlp)) {  // a failure for both solvers
      std::printf("%s,0,0,%s,Read_Error,nan,nan,nan,nan,0,0,0,no,0,0,0,0,0,-\n", ModelName(path).c_str(),
                  solver.c_str());
      std::fprintf(stderr, "%s\n", error.c_str());
      continue;
    }
    const bool is_qpm = solver == "QPM";
    SmartPtr<Ipopt::IpoptApplication> app;
    if (is_qpm) app = new qpm::QpmApplication();
    else app = IpoptApplicationFactory();
    auto options = [&](Ipopt::OptionsList& o) {
      o.SetIntegerValue("print_level", 0);
      o.SetStringValue("sb", "yes");
      o.SetNumericValue("tol", s.tol);
      o.SetNumericValue("constr_viol_tol", s.tol);  // Ipopt's default 1e-4 is looser than our test
      o.SetNumericValue("max_cpu_time", s.cpu);
      if (!is_qpm) return;
      if (s.inner != "default") o.SetStringValue("qpm_inner_solver", s.inner);  // default: none set
      for (const auto& [name, value] : s.qpm_set) {
        qpm::SetOptionFromText(o, name, value);
      }
      o.SetNumericValue("qpm_max_wall_time", s.cpu);
    };
    const double cpu0 = CpuSeconds();
    const qpm::SolverRun run = qpm::RunSolver(app, SmartPtr<Ipopt::TNLP>(GetRawPtr(tnlp)), solver, options);
    QpmCounts counts;
    if (is_qpm) {
      const qpm::Summary& summary = static_cast<qpm::QpmApplication*>(GetRawPtr(app))->LastSummary();
      counts.hess_products = summary.hess_products;
      counts.factorizations = summary.factorizations;
      if (!summary.preconditioner.empty()) counts.preconditioner = summary.preconditioner;
    }
    PrintRow(ModelName(path), *tnlp, run, CpuSeconds() - cpu0, counts);
  }
}

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  return fields;
}

// reference.csv: problem -> (Ipopt 3.14 objective, SNOPT objective).
std::map<std::string, std::pair<std::string, std::string>> ReadReference(const std::string& file) {
  std::map<std::string, std::pair<std::string, std::string>> ref;
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    const std::vector<std::string> f = SplitCsv(line);
    if (f.size() >= 11) ref[f[0]] = {f[5], f[10]};
  }
  return ref;
}

bool Matches(const std::string& f, const std::string& ref) {
  if (ref.empty() || f == "nan") return false;
  const double a = std::atof(f.c_str()), b = std::atof(ref.c_str());
  return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::fabs(b));
}

int Summarize(const std::string& rows_file, const std::string& ref_file) {
  const auto ref = ReadReference(ref_file);
  std::ifstream in(rows_file);
  std::string line;
  std::map<std::string, std::pair<int, int>> tally;  // solver -> (solved, failed)
  std::map<std::string, int> at_ref;
  std::map<std::string, int> by_status;  // solver -> Solve_Succeeded or Solved_To_Acceptable_Level
  std::printf("| model | n | m | solver | status | f | max viol | rel viol | KKT rel | wall s | cpu s | eval err | solved | ref f (Ipopt 3.14) | f = ref |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  while (std::getline(in, line)) {
    const std::vector<std::string> f = SplitCsv(line);
    if (f.size() < 13 || f[0] == "model") continue;
    const auto it = ref.find(f[0]);
    const std::string r = it == ref.end() ? "" : it->second.first;
    const bool solved = f[12] == "yes";
    (solved ? tally[f[3]].first : tally[f[3]].second) += 1;
    if (solved && Matches(f[5], r)) ++at_ref[f[3]];
    by_status[f[3]] += f[4] == "Solve_Succeeded" || f[4] == "Solved_To_Acceptable_Level";
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                f[0].c_str(), f[1].c_str(), f[2].c_str(), f[3].c_str(), f[4].c_str(),
                f[5].c_str(), f[6].c_str(), f[7].c_str(), f[8].c_str(), f[9].c_str(),
                f[10].c_str(), f[11].c_str(), f[12].c_str(), r.empty() ? "-" : r.c_str(),
                r.empty() ? "-" : (Matches(f[5], r) ? "yes" : "no"));
  }
  std::printf("\n");
  for (const auto& [solver, t] : tally) {
    std::printf("%s: %d solved, %d failed (%d solved at the reference objective; "
                "%d ended Solve_Succeeded or Solved_To_Acceptable_Level)\n",
                solver.c_str(), t.first, t.second, at_ref[solver], by_status[solver]);
  }
  return 0;
}

}  // namespace

// Each --qpm-set as QPM's options read it, checked once before any solve:
// a misspelt name or a bad value ends the run, after Ipopt's complaint,
// instead of solving every model at the defaults.
bool QpmSettingsAccepted(const Settings& s) {
  SmartPtr<Ipopt::IpoptApplication> probe = new qpm::QpmApplication();
  for (const auto& [name, value] : s.qpm_set) {
    if (!qpm::SetOptionFromText(*probe->Options(), name, value)) {
      std::fprintf(stderr, "--qpm-set %s=%s: not an option value QPM takes\n", name.c_str(),
                   value.c_str());
      return false;
    }
  }
  return true;
}

int main(int argc, char** argv) {
  Settings s;
  std::vector<std::string> models;
  std::string summarize, reference;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--tol" && has_value) s.tol = std::atof(argv[++i]);
    else if (a == "--cpu" && has_value) s.cpu = std::atof(argv[++i]);
    else if (a == "--inner" && has_value) s.inner = argv[++i];
    else if (a == "--qpm-set" && has_value) {
      const std::string kv = argv[++i];
      s.qpm_set.emplace_back(kv.substr(0, kv.find('=')), kv.substr(kv.find('=') + 1));
    }
    else if (a == "--no-header") s.header = false;
    else if (a == "--solver" && has_value) s.solvers = {argv[++i]};
    else if (a == "--summarize" && has_value) summarize = argv[++i];
    else if (a == "--reference" && has_value) reference = argv[++i];
    else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 1;
    } else {
      models.push_back(a);
    }
  }
  if (!summarize.empty()) return Summarize(summarize, reference);
  if (!QpmSettingsAccepted(s)) return 1;
  if (s.header) {
    std::printf("model,n,m,solver,status,f,max_violation,rel_violation,kkt_rel,wall_s,cpu_s,"
                "eval_errors,solved,iterations,hess_products,f_evals,peak_mb,factorizations,"
                "preconditioner\n");
  }
  for (const std::string& m : models) RunModel(m, s);
  return 0;
}
