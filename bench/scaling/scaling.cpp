// One solve of a scaling benchmark, in its own process so that its peak RSS
// is its own. Prints one CSV row (see kHeader). Figures are measured.
//
//   scaling --problem rosenbrock|stiefel --n N [--p P] --solver ipopt|qpm|qpm-paper|qpm-best
//           [--eps E] [--max-cpu S] [--header] [--cg-profile FILE]
//
// qpm:       QPM at its defaults (the one-line user's; only tol set).
// qpm-paper: qpm_mode paper, trust region, alpha = 1.2, beta0 = 1, plain CG
//            (the paper's QPM-TR).
// qpm-best:  qpm_mode paper, trust region, alpha = 10, the penalty preconditioner.
// The KKT residual ||grad f + J^T lambda||_2 is computed from the returned x
// and lambda after the peak RSS is read.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <qpm/qpm.hpp>

#include "peak_memory.hpp"
#include "rosenbrock_sphere_tnlp.hpp"
#include "stiefel_tnlp.hpp"

using Ipopt::SmartPtr;

namespace {

constexpr const char* kHeader =
    "problem,n,p,solver,status,f,f_star,c_norm,kkt,iterations,f_evals,grad_evals,h_evals,"
    "hess_products,wall_s,peak_rss_mb";

// Keeps the solution handed to finalize_solution (x and lambda only).
template <class Base>
class Keeping : public Base {
 public:
  using Base::Base;
  void finalize_solution(Ipopt::SolverReturn, Ipopt::Index n, const Ipopt::Number* x,
                         const Ipopt::Number*, const Ipopt::Number*, Ipopt::Index m,
                         const Ipopt::Number* g, const Ipopt::Number* lambda, Ipopt::Number obj,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    x_ = Eigen::Map<const qpm::Vector>(x, n);
    lambda_ = Eigen::Map<const qpm::Vector>(lambda, m);
    g_ = Eigen::Map<const qpm::Vector>(g, m);
    f_ = obj;
  }
  qpm::Vector x_, lambda_, g_;
  double f_ = 0.0;
};

}  // namespace

int main(int argc, char** argv) {
  std::string problem = "rosenbrock", solver = "qpm-paper", cg_profile;
  long n = 1000, p = 1;
  double eps = 1e-6, max_cpu = 600;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (a == "--problem") problem = next();
    else if (a == "--n") n = std::atol(next().c_str());
    else if (a == "--p") p = std::atol(next().c_str());
    else if (a == "--solver") solver = next();
    else if (a == "--eps") eps = std::atof(next().c_str());
    else if (a == "--max-cpu") max_cpu = std::atof(next().c_str());
    else if (a == "--cg-profile") cg_profile = next();
    else if (a == "--header") { std::printf("%s\n", kHeader); return 0; }
  }
  SmartPtr<Ipopt::TNLP> tnlp;
  double f_star = NAN;
  Keeping<RosenbrockSphereTnlp>* rosen = nullptr;
  Keeping<StiefelBrockettTnlp>* stiefel = nullptr;
  if (problem == "stiefel") {
    stiefel = new Keeping<StiefelBrockettTnlp>(n, p);
    f_star = stiefel->OptimalValue();
    tnlp = stiefel;
  } else {
    rosen = new Keeping<RosenbrockSphereTnlp>(n, eps);
    tnlp = rosen;
  }
  SmartPtr<Ipopt::IpoptApplication> app;
  if (solver == "ipopt") {
    app = IpoptApplicationFactory();
  } else {
    app = new qpm::QpmApplication();
    if (solver != "qpm") {
      app->Options()->SetStringValue("qpm_mode", "paper");
      app->Options()->SetStringValue("qpm_inner_solver", "trust-region");
    }
    if (solver == "qpm-best") {
      app->Options()->SetNumericValue("qpm_penalty_growth", 10.0);
      app->Options()->SetStringValue("qpm_preconditioner", "penalty");
    }
  }
  app->Options()->SetNumericValue("tol", eps);
  app->Options()->SetNumericValue("max_cpu_time", max_cpu);
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Initialize("");
  const auto start = std::chrono::steady_clock::now();
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(tnlp);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double rss = PeakMegabytes();
  const qpm::Vector& x = rosen ? rosen->x_ : stiefel->x_;
  const qpm::Vector& lambda = rosen ? rosen->lambda_ : stiefel->lambda_;
  const qpm::Vector& g = rosen ? rosen->g_ : stiefel->g_;
  const double f = rosen ? rosen->f_ : stiefel->f_;
  double c_norm = NAN;
  {
    Ipopt::Index nn, m, nj, nh;
    Ipopt::TNLP::IndexStyleEnum st;
    tnlp->get_nlp_info(nn, m, nj, nh, st);
    qpm::Vector xl(nn), xu(nn), gl(m), gu(m);
    tnlp->get_bounds_info(nn, xl.data(), xu.data(), m, gl.data(), gu.data());
    c_norm = x.size() ? (g - gl).norm() : NAN;
  }
  const qpm::Vector zeros = qpm::Vector::Zero(x.size());
  const double kkt = x.size() ? qpm::KktResidual(*tnlp, x, lambda, zeros, zeros) : NAN;
  Ipopt::Index fe = 0, ge = 0, gfe = 0, je = 0, he = 0;
  app->Statistics()->NumberOfEvaluations(fe, ge, gfe, je, he);
  long products = 0;
  if (auto* q = dynamic_cast<qpm::QpmApplication*>(GetRawPtr(app))) {
    products = q->LastSummary().hess_products;
    if (!cg_profile.empty()) {  // CG iterations per TR step against beta
      std::ofstream out(cg_profile);
      out << "k,beta,inner_iterations,hess_products,cg_per_step\n";
      long before = 0;
      for (const qpm::OuterRecord& r : q->LastSummary().outer) {
        const long prods = r.hess_products - before;
        before = r.hess_products;
        out << r.k << ',' << r.beta << ',' << r.inner_iterations << ',' << prods << ','
            << (r.inner_iterations ? double(prods) / r.inner_iterations : 0.0) << '\n';
      }
    }
  }
  std::printf("%s,%ld,%ld,%s,%s,%.10g,%.10g,%.3e,%.3e,%d,%d,%d,%d,%ld,%.3f,%.1f\n", problem.c_str(),
              n, p, solver.c_str(), qpm::StatusName(status), f, f_star, c_norm, kkt,
              app->Statistics()->IterationCount(), fe, gfe, he, products, wall, rss);
  return 0;
}
