// Two scalable families with bounds and inequality rows, each solved in the
// form with inequalities and in an "equality form" that has the same solution,
// one solve per process (its peak RSS is its own). Prints one CSV row (kHeader).
// QPM runs at its defaults with only tol set (the one-line user); Ipopt the same.
//
// Families (models/): "obstacle" and "obstacle-step", the two-obstacle
// membrane and one time step of it (ObstacleTnlp: bounds only, m = 0);
// "chain" and "band", chains of n - 2 nonlinear rows with data manufactured
// so that every row is active at a known solution x* (ChainTnlp kManufactured,
// kBand: no bounds).
//
// Forms of the obstacle families:
//   bounds  the model with its obstacles as bounds;
//   fixed   the contact set of a solution of `bounds` (read from
//           --solution-in) given as fixed variables x_l = x_u = obstacle, all
//           other variables free: the bound constraints active at the solution
//           as equalities, the same solution;
//   free    no bounds at all (the same K and load; a different solution).
// Forms of chain and band: inequality (g_j <= r_j) and equality (g_j = r_j),
// with the same solution; err reports ||x - x*||_inf.
//
//   scalable --family obstacle|obstacle-step|band|chain --n N --form F --solver qpm|ipopt
//            [--tol T] [--solution-in FILE] [--solution-out FILE] [--trace] [--header]
//            [--option name=value]...
//
// --option sets one more solver option (diagnostic runs only; the tables are
// made without it).
// --trace prints each iteration (intermediate_callback) and QPM's subproblems
// (beta, inner iterations, Hv products) to stderr.
//
// For the obstacle families, n is rounded to s^2 with s = round(sqrt(n)).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "peak_memory.hpp"

#include "chain_tnlp.hpp"
#include "obstacle_tnlp.hpp"

using Ipopt::SmartPtr;

namespace {

constexpr const char* kHeader =
    "family,form,solver,n,m,status,f,err,kkt,viol,active,outer,inner,inner_per_sub,"
    "max_inner_sub,max_inner_beta,hv,hv_per_inner,wall_s,peak_rss_mb";

std::vector<double> ReadVector(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<double> v;
  double d;
  while (in.read(reinterpret_cast<char*>(&d), sizeof d)) v.push_back(d);
  return v;
}

void WriteVector(const std::string& path, const std::vector<double>& v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(double)));
}

struct Args {
  std::string family = "obstacle", form = "bounds", solver = "qpm", solution_in, solution_out;
  bool trace = false;  // QPM's subproblems to stderr
  std::vector<std::pair<std::string, std::string>> options;  // --option name=value
  long n = 1000;
  double tol = 1e-8;
};

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (arg == "--family") a.family = next();
    else if (arg == "--form") a.form = next();
    else if (arg == "--solver") a.solver = next();
    else if (arg == "--n") a.n = std::lround(std::atof(next().c_str()));
    else if (arg == "--tol") a.tol = std::atof(next().c_str());
    else if (arg == "--solution-in") a.solution_in = next();
    else if (arg == "--solution-out") a.solution_out = next();
    else if (arg == "--trace") a.trace = true;
    else if (arg == "--option") {
      const std::string o = next();
      const size_t eq = o.find('=');
      if (eq == std::string::npos) { std::fprintf(stderr, "--option wants name=value\n"); return 2; }
      a.options.emplace_back(o.substr(0, eq), o.substr(eq + 1));
    }
    else if (arg == "--header") { std::printf("%s\n", kHeader); return 0; }
    else { std::fprintf(stderr, "unknown argument %s\n", arg.c_str()); return 2; }
  }
  SmartPtr<RecordingTnlp> tnlp;
  ObstacleTnlp* obstacle = nullptr;
  ChainTnlp* chain = nullptr;
  const double contact_tol = 1e-7;  // |u - obstacle| counted as contact
  if (a.family == "obstacle" || a.family == "obstacle-step") {
    const bool step = a.family == "obstacle-step";
    const int s = static_cast<int>(std::lround(std::sqrt(double(a.n))));
    a.n = long(s) * s;
    using Form = ObstacleTnlp::Form;
    const Form form = a.form == "fixed" ? Form::kFixed : a.form == "free" ? Form::kFree : Form::kBounds;
    std::vector<double> contact;
    if (form == Form::kFixed) {
      const std::vector<double> u = ReadVector(a.solution_in);
      if (long(u.size()) != a.n) { std::fprintf(stderr, "bad --solution-in\n"); return 2; }
      int count = 0;
      contact = ObstacleTnlp(s, Form::kBounds, step).ContactSet(u, contact_tol, &count);
    }
    tnlp = obstacle = new ObstacleTnlp(s, form, step, contact);
  } else {
    const ChainTnlp::Kind kind =
        a.family == "band" ? ChainTnlp::Kind::kBand : ChainTnlp::Kind::kManufactured;
    tnlp = chain = new ChainTnlp(static_cast<int>(a.n), kind, a.form != "equality");
  }
  tnlp->trace_ = a.trace;
  SmartPtr<Ipopt::IpoptApplication> app;
  if (a.solver == "ipopt") app = IpoptApplicationFactory();
  else app = new qpm::QpmApplication();
  app->Options()->SetNumericValue("tol", a.tol);
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  for (const auto& [name, value] : a.options) {
    if (!qpm::SetOptionFromText(*app->Options(), name, value)) {
      std::fprintf(stderr, "cannot set option %s\n", name.c_str());
      return 2;
    }
  }
  app->Initialize("");
  const auto start = std::chrono::steady_clock::now();
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(tnlp);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double rss = PeakMegabytes();

  const std::vector<double>& x = tnlp->x_;
  double err = NAN, kkt = NAN, viol = NAN;
  long m = 0, active = 0;
  if (x.size() == static_cast<size_t>(a.n)) {
    if (obstacle) {
      kkt = obstacle->ProjectedGradient(x);
      viol = obstacle->ObstacleViolation(x);
      int count = 0;
      obstacle->ContactSet(x, contact_tol, &count);
      active = count;
      if (!a.solution_in.empty()) {  // distance to the solution the contact set came from
        const std::vector<double> ref = ReadVector(a.solution_in);
        err = 0.0;
        for (long k = 0; k < a.n; ++k) err = std::max(err, std::abs(x[k] - ref[k]));
      }
      if (!a.solution_out.empty()) WriteVector(a.solution_out, x);
    } else {
      m = a.n - 2;
      err = chain->Error(x);
      kkt = chain->Kkt(x, tnlp->lambda_);
      viol = chain->Violation(x);
      active = chain->Active(x, contact_tol);
    }
  }
  if (chain) m = a.n - 2;
  int outer = 0;
  long inner = app->Statistics()->IterationCount(), hv = 0, max_inner = 0;
  double max_inner_beta = NAN;
  if (auto* q = dynamic_cast<qpm::QpmApplication*>(GetRawPtr(app))) {
    const qpm::Summary& s = q->LastSummary();
    outer = s.outer_iterations, inner = s.inner_iterations, hv = s.hess_products;
    long hv_before = 0;
    for (const qpm::OuterRecord& r : s.outer) {
      if (a.trace) {
        std::fprintf(stderr, "k %d beta %.3g inner %ld hv %ld status %d ||c|| %.3e |grad Q| %.3e tau %.3e\n",
                     r.k, r.beta, r.inner_iterations, r.hess_products - hv_before,
                     static_cast<int>(r.inner_status), r.c_norm, r.grad_q_norm, r.tau);
      }
      hv_before = r.hess_products;
      if (r.inner_iterations > max_inner) max_inner = r.inner_iterations, max_inner_beta = r.beta;
    }
  }
  const int subproblems = std::max(outer, 1);
  std::printf("%s,%s,%s,%ld,%ld,%s,%.12g,%.3e,%.3e,%.3e,%ld,%d,%ld,%.2f,%ld,%.3g,%ld,%.2f,%.3f,%.1f\n",
              a.family.c_str(), a.form.c_str(), a.solver.c_str(), a.n, m, qpm::StatusName(status),
              tnlp->f_, err, kkt, viol, active, outer, inner, double(inner) / subproblems, max_inner,
              max_inner_beta, hv, inner ? double(hv) / inner : 0.0, wall, rss);
  return 0;
}
