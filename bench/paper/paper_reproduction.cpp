// Reproduces the experiments of the paper's Section 7 on Rosenbrock on the
// unit sphere (n = 1000, x0 as in Sec. 7, alpha = 1.2, beta0 = 1):
//   Figure 1  QPM-GD, adaptive tau_k vs fixed eps1, eps = 1e-3
//   Table 2   the same at eps = 1e-6
//   Figure 2  QPM-GD vs QPM-TR with tau_k, eps = 1e-5
//   Table 3   the same at eps = 1e-6 (plus TR with the fixed rule)
// plus L-BFGS and Ipopt on the same TNLP. Writes one CSV per run (one row per
// inner iteration: beta, ||c||, ||grad Q||, tau, f) and a Markdown table with
// the paper's figures beside ours. Every figure is measured here.
//
//   paper_reproduction OUTPUT_DIR [--quick]   (--quick skips the eps=1e-6 GD runs)
//
// Counting: one Q evaluation = one (eval_f, eval_g) pair at a point; one
// grad Q evaluation = one (eval_grad_f, eval_jac_g) pair; one Hessian
// evaluation = one eval_h. The KKT residual ||grad f + J^T lambda||_2 is
// computed from the returned x and lambda by re-evaluating the TNLP.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "rosenbrock_sphere_tnlp.hpp"

using Ipopt::SmartPtr;

namespace {

constexpr int kN = 1000;
constexpr double kGlobalMin = 456.3138;  // paper Sec. 7
constexpr double kLocalMin = 545.66;
constexpr double kStartValue = 515.76;   // f(x0): not a KKT point
constexpr long kFullRows = 20000;        // CSV: all rows up to here,
constexpr long kStride = 250;            // then one in kStride

struct PaperRow {
  const char* c_norm;
  const char* f;
  const char* q_evals;
  const char* grad_evals;
  const char* hess_evals;
  const char* inner;
};

struct Run {
  std::string name;      // file stem
  std::string label;     // table label
  std::string solver;    // QPM or Ipopt
  double eps = 0.0;
  std::string status;
  double c_norm = 0.0, f = 0.0, kkt = 0.0, seconds = 0.0;
  long inner = 0, q_evals = 0, grad_evals = 0, hess_evals = 0;
  PaperRow paper{"", "", "", "", "", ""};
};

// Which known KKT value an (eps, eps)-KKT point is near: f differs from it
// by about |lambda| ||c|| (lambda ~ 20 here), so allow 100 eps.
std::string KktValue(double f, double kkt, double eps) {
  if (!(kkt <= 10 * eps)) return "not a KKT point";
  const double slack = 1e-3 + 100 * eps;
  if (std::abs(f - kGlobalMin) < slack) return "global minimum 456.31";
  if (std::abs(f - kLocalMin) < slack) return "local minimum 545.66";
  return "other KKT point";
}

std::string PaperCell(const PaperRow& p) {
  auto cell = [](const char* v) { return std::string(*v ? v : "-"); };
  if (!*p.c_norm && !*p.inner) return "";
  return cell(p.c_norm) + ", " + cell(p.f) + ", " + cell(p.q_evals) + ", " + cell(p.grad_evals) +
         ", " + cell(p.hess_evals) + ", " + cell(p.inner);
}

Run SolveQpm(const std::string& dir, const std::string& name, const std::string& label,
             qpm::InnerSolverType inner, double eps, double tau_cap,
             qpm::GdTrialStep trial = qpm::GdTrialStep::kGrowth) {
  SmartPtr<RosenbrockSphereTnlp> tnlp = new RosenbrockSphereTnlp(kN, eps);
  qpm::TnlpOptions tnlp_options;
  tnlp_options.need_hessian = inner == qpm::InnerSolverType::kTrustRegion;
  std::string error;
  auto problem = qpm::TnlpProblem::Create(GetRawPtr(tnlp), tnlp_options, &error);
  qpm::Options options;
  options.mode = qpm::Mode::kPaper;  // the paper's Algorithm 1 exactly
  options.tr.preconditioner = qpm::PreconditionerKind::kNone;  // the paper's plain CG
  options.inner_solver = inner;
  options.paper.feasibility_tol = options.paper.stationarity_tol = eps;
  options.tolerance_cap = tau_cap;
  options.gd.trial_step = trial;
  std::ofstream csv(dir + "/" + name + ".csv");
  csv << "iter,k,beta,c_norm,grad_q_norm,tau,f\n";
  csv.precision(10);
  qpm::Callbacks callbacks;
  qpm::IterationInfo last;
  bool last_written = false;
  auto write = [&csv](const qpm::IterationInfo& i) {
    csv << i.iter << ',' << i.k << ',' << i.beta << ',' << i.c_norm << ',' << i.grad_q_norm << ','
        << i.tau << ',' << i.f << '\n';
  };
  callbacks.on_iteration = [&](const qpm::IterationInfo& i) {
    // Every iteration up to kFullRows, then every kStride-th, the first of
    // each outer iteration and the last one (keeps 1e6-step runs small).
    last_written = i.iter < kFullRows || i.iter % kStride == 0 || i.k != last.k;
    if (last_written) write(i);
    last = i;
    return true;
  };
  const auto start = std::chrono::steady_clock::now();
  const qpm::Summary s = qpm::Solve(problem.get(), problem->starting_point(), options, callbacks);
  if (!last_written) write(last);
  Run run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.name = name, run.label = label, run.solver = "QPM", run.eps = eps;
  run.status = qpm::ToString(s.termination);
  run.c_norm = s.c_norm, run.f = s.f, run.inner = s.inner_iterations;
  run.q_evals = s.q_evals, run.grad_evals = s.grad_evals, run.hess_evals = s.hess_evals;
  const qpm::Vector zeros = qpm::Vector::Zero(kN);
  run.kkt = qpm::KktResidual(*tnlp, s.x, s.lambda, zeros, zeros);
  std::printf("%-34s %-10s inner %8ld  ||c|| %.2e  f %.6f  KKT %.2e  Q %ld gQ %ld H %ld  %.2f s\n",
              label.c_str(), run.status.c_str(), run.inner, run.c_norm, run.f, run.kkt, run.q_evals,
              run.grad_evals, run.hess_evals, run.seconds);
  std::fflush(stdout);
  return run;
}

Run SolveIpopt(double eps) {
  SmartPtr<Ipopt::TNLP> tnlp = new RosenbrockSphereTnlp(kN, eps);
  SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  const qpm::SolverRun r = qpm::RunSolver(app, tnlp, "Ipopt", [eps](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", eps);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
  });
  Run run;
  run.name = "ipopt", run.label = "Ipopt 3.11.9 (MUMPS)", run.solver = "Ipopt", run.eps = eps;
  run.status = qpm::StatusName(r.status);
  run.c_norm = r.violation_norm, run.f = r.f, run.kkt = r.kkt_residual, run.seconds = r.wall_time;
  run.inner = r.iterations, run.q_evals = r.counts.eval_f, run.grad_evals = r.counts.eval_grad_f;
  run.hess_evals = r.counts.eval_h;
  std::printf("%-34s %-10s iter  %8ld  ||c|| %.2e  f %.6f  KKT %.2e  f-evals %ld grad %ld H %ld  %.2f s\n",
              run.label.c_str(), run.status.c_str(), run.inner, run.c_norm, run.f, run.kkt,
              run.q_evals, run.grad_evals, run.hess_evals, run.seconds);
  return run;
}

void WriteTable(const std::string& path, const std::vector<Run>& runs) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return;
  }
  std::fprintf(out,
               "| eps | method | status | ||c(x_final)|| | f(x_final) | Q evals | grad Q evals | "
               "Hess evals | inner iter | KKT residual | KKT value reached | time [s] | paper: "
               "||c||, f, Q evals, grad Q evals, Hess evals, inner iter |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Run& r : runs) {
    std::fprintf(out, "| %g | %s | %s | %.1e | %.4f | %ld | %ld | %ld | %ld | %.1e | %s | %.2f | %s |\n",
                 r.eps, r.label.c_str(), r.status.c_str(), r.c_norm, r.f, r.q_evals, r.grad_evals,
                 r.hess_evals, r.inner, r.kkt, KktValue(r.f, r.kkt, r.eps).c_str(), r.seconds,
                 PaperCell(r.paper).c_str());
  }
  std::fprintf(out,
               "\nIpopt rows: Q evals = eval_f calls, grad Q evals = eval_grad_f calls, inner "
               "iter = Ipopt iterations; ||c|| is the 2-norm of the bound/row violation.\n"
               "The paper's GD rows at eps = 1e-6 report f = %.2f = f(x0), which is not a KKT "
               "point: the paper's run stopped at x0 (assumption A3 puts x0 in the stopping region); "
               "qpm tests feasibility only at x_{k+1}.\n",
               kStartValue);
  std::fclose(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR [--quick]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir)) {
    std::fprintf(stderr, "cannot create the directory %s: %s\n", dir.c_str(),
                 error ? error.message().c_str() : "a file of that name exists");
    return 2;
  }
  const bool quick = argc > 2 && std::string(argv[2]) == "--quick";
  using T = qpm::InnerSolverType;
  const double kAdaptive = 1e20, kFixed = 0.0;
  std::vector<Run> runs;
  auto add = [&runs](Run run, PaperRow paper) {
    run.paper = paper;
    runs.push_back(run);
  };
  // Figure 1.
  add(SolveQpm(dir, "fig1_gd_tau", "QPM-GD (tau_k)", T::kGradientDescent, 1e-3, kAdaptive),
      {"", "", "", "", "", "1570"});
  add(SolveQpm(dir, "fig1_gd_eps1", "QPM-GD (eps1)", T::kGradientDescent, 1e-3, kFixed),
      {"", "", "", "", "", "3259"});
  // Figure 2.
  add(SolveQpm(dir, "fig2_gd_tau", "QPM-GD (tau_k)", T::kGradientDescent, 1e-5, kAdaptive),
      {"", "", "", "", "", "4316"});
  add(SolveQpm(dir, "fig2_tr_tau", "QPM-TR (tau_k)", T::kTrustRegion, 1e-5, kAdaptive),
      {"", "", "", "", "", "146"});
  // Tables 2 and 3.
  if (!quick) {
    add(SolveQpm(dir, "tab2_gd_tau", "QPM-GD (tau_k)", T::kGradientDescent, 1e-6, kAdaptive),
        {"7.1e-7", "515.76", "8441", "4583", "0", ""});
    add(SolveQpm(dir, "tab2_gd_eps1", "QPM-GD (eps1)", T::kGradientDescent, 1e-6, kFixed),
        {"7.1e-7", "515.76", "12079", "7771", "0", ""});
  }
  add(SolveQpm(dir, "tab3_tr_tau", "QPM-TR (tau_k)", T::kTrustRegion, 1e-6, kAdaptive),
      {"9.2e-7", "456.31", "548", "265", "262", ""});
  add(SolveQpm(dir, "tab3_tr_eps1", "QPM-TR (eps1)", T::kTrustRegion, 1e-6, kFixed),
      {"", "", "", "", "", ""});
  add(SolveQpm(dir, "tab3_lbfgs_tau", "L-BFGS (tau_k)", T::kLbfgs, 1e-6, kAdaptive),
      {"", "", "", "", "", ""});
  add(SolveQpm(dir, "tab3_gd_bb_tau", "QPM-GD, Barzilai-Borwein trial (tau_k)", T::kGradientDescent,
               1e-6, kAdaptive, qpm::GdTrialStep::kBarzilaiBorwein),
      {"", "", "", "", "", ""});
  add(SolveIpopt(1e-6), {"", "", "", "", "", ""});
  WriteTable(dir + "/table.md", runs);
  std::printf("wrote %s/table.md and one CSV per QPM run\n", dir.c_str());
  return 0;
}
