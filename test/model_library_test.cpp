#define BOOST_TEST_MODULE model_library
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>
#include <string>

#include <IpIpoptApplication.hpp>

#include "model_library.hpp"
#include "qpm/qpm.hpp"

using Ipopt::SmartPtr;
using qpm_test::Model;

namespace {

qpm::SolverRun Run(const Model& model, bool ipopt, const std::string& inner, double tol,
                   int max_iter = 0, double acceptable = 0.0) {
  SmartPtr<Ipopt::TNLP> tnlp = new qpm_test::ModelTnlp(model);
  SmartPtr<Ipopt::IpoptApplication> app;
  if (ipopt) {
    app = IpoptApplicationFactory();
  } else {
    app = new qpm::QpmApplication();
  }
  return qpm::RunSolver(app, tnlp, inner, [&](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", tol);
    o.SetNumericValue("acceptable_tol", acceptable > 0.0 ? acceptable : 10 * tol);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
    if (!ipopt) o.SetStringValue("qpm_inner_solver", inner);
    // QPM-GD is tested as the paper's method (the default mode's inner
    // solver is the trust region; docs/algorithm.md).
    if (inner == "gradient-descent") {
      o.SetStringValue("qpm_gd_trial_step", "barzilai-borwein");
      o.SetStringValue("qpm_mode", "paper");
    }
    if (max_iter > 0) o.SetIntegerValue("max_iter", max_iter);
  });
}

bool Solved(const qpm::SolverRun& r) {
  return r.status == Ipopt::Solve_Succeeded || r.status == Ipopt::Solved_To_Acceptable_Level;
}

// The generic driver: status first, then feasibility, then f against f*.
void CheckSolved(const Model& m, const qpm::SolverRun& r, double violation, double f_tol) {
  BOOST_TEST_CONTEXT(m.name << " with " << r.solver) {
    BOOST_TEST(Solved(r), "status " << qpm::StatusName(r.status));
    BOOST_TEST(r.violation_max <= violation);
    BOOST_TEST(std::abs(r.f - m.f_star) <= f_tol * (1 + std::abs(m.f_star)));
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(LibraryHasEnoughModelsOfEachKind) {
  const auto models = qpm_test::AllModels();
  int bounded = 0;
  for (const Model& m : models) bounded += m.has_bounds_or_inequalities();
  BOOST_TEST(models.size() >= 25u);
  BOOST_TEST(bounded >= 10);
}

BOOST_AUTO_TEST_CASE(TrustRegionSolvesEveryModelToItsOptimum) {
  for (const Model& m : qpm_test::AllModels()) {
    CheckSolved(m, Run(m, false, "trust-region", 1e-6), 1e-5, 1e-5);
  }
}

// The interior steps on the bounds, and the trust region they hand over to,
// reach the same optima (the models without bounds run the trust region).
BOOST_AUTO_TEST_CASE(InteriorStepsSolveEveryModelToItsOptimum) {
  for (const Model& m : qpm_test::AllModels()) {
    CheckSolved(m, Run(m, false, "interior", 1e-6), 1e-5, 1e-5);
  }
}

BOOST_AUTO_TEST_CASE(LbfgsSolvesEveryModelToItsOptimum) {
  // At 1e-5: at 1e-6 the bounded L-BFGS stalls on hs100 and hs113.
  for (const Model& m : qpm_test::AllModels()) {
    CheckSolved(m, Run(m, false, "lbfgs", 1e-5), 1e-4, 1e-4);
  }
}

// QPM through the Ipopt shell with hessian_approximation limited-memory
// (the L-BFGS inner solver; over a box its L-BFGS-B direction) at tol 1e-8.
qpm::SolverRun RunLimitedMemory(const Model& model, int history = 0) {
  SmartPtr<Ipopt::TNLP> tnlp = new qpm_test::ModelTnlp(model);
  return qpm::RunSolver(new qpm::QpmApplication(), tnlp, "QPM (L-BFGS-B)", [&](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", 1e-8);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
    o.SetStringValue("hessian_approximation", "limited-memory");
    if (history > 0) o.SetIntegerValue("limited_memory_max_history", history);
  });
}

BOOST_AUTO_TEST_CASE(LimitedMemoryHessianSucceedsOnEveryModelWithBoundsOrInequalities) {
  // hs100 and hs113 stall at tol 1e-8 with the default 6 pairs (their
  // subproblems at beta ~ 7e3 are too ill-conditioned for so short a
  // memory; git log -- bench/results/lbfgsb); with 20 pairs they succeed.
  int count = 0;
  for (const Model& m : qpm_test::AllModels()) {
    if (!m.has_bounds_or_inequalities()) continue;
    const bool short_memory_stalls = m.name == "hs100" || m.name == "hs113";
    const qpm::SolverRun r = RunLimitedMemory(m, short_memory_stalls ? 20 : 0);
    BOOST_TEST_CONTEXT(m.name) {
      BOOST_TEST(r.status == Ipopt::Solve_Succeeded, "status " << qpm::StatusName(r.status));
      BOOST_TEST(r.violation_max <= 1e-6);
      BOOST_TEST(std::abs(r.f - m.f_star) <= 1e-6 * (1 + std::abs(m.f_star)));
    }
    ++count;
  }
  BOOST_TEST(count >= 10);
}

BOOST_AUTO_TEST_CASE(GradientDescentSolvesTheLibraryOrStopsCleanly) {
  // First order (Barzilai-Borwein trial steps) at eps = 1e-4 within 3e5 steps.
  // Known exceptions (bench/model_library/model_library.md): hs077, where GD's path
  // ends at another strict local minimizer (f = 5.5333, next test), and
  // hs100, hs113, whose ill-conditioned subproblems (kappa ~ beta ||J||^2 / mu,
  // ~4e7 on hs100 at the beta eps = 1e-4 needs) take more steps than CI can
  // afford: the benchmark solves both with 5e7 steps. They must still stop
  // cleanly at a nearly feasible point.
  const std::set<std::string> exceptions = {"hs077", "hs100", "hs113"};
  for (const Model& m : qpm_test::AllModels()) {
    const qpm::SolverRun r = Run(m, false, "gradient-descent", 1e-4, 300000);
    if (!exceptions.count(m.name)) {
      CheckSolved(m, r, 1e-3, 1e-3);
      continue;
    }
    BOOST_TEST_CONTEXT(m.name) {
      BOOST_TEST((Solved(r) || r.status == Ipopt::Maximum_Iterations_Exceeded));
      BOOST_TEST(r.violation_max <= 1e-2);
    }
  }
}

BOOST_AUTO_TEST_CASE(GradientDescentEndsAtAStrictLocalMinimizerOfHs077) {
  // Not Ipopt's minimizer (f* = 0.2415) but another local solution: KKT
  // holds and the Lagrangian's Hessian is positive definite on the null
  // space of J (second-order sufficient conditions).
  for (const Model& m : qpm_test::AllModels()) {
    if (m.name != "hs077") continue;
    const qpm::SolverRun r = Run(m, false, "gradient-descent", 1e-6);
    BOOST_REQUIRE(Solved(r));
    BOOST_TEST(r.f > m.f_star + 1.0);
    BOOST_TEST(r.violation_max <= 1e-6);
    BOOST_TEST(r.kkt_residual <= 1e-5);
    const Eigen::MatrixXd kernel = Eigen::FullPivLU<Eigen::MatrixXd>(m.jac(r.x)).kernel();
    const Eigen::MatrixXd reduced = kernel.transpose() * m.hess(r.x, 1.0, r.lambda) * kernel;
    const double smallest = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(reduced).eigenvalues()[0];
    BOOST_TEST(smallest > 1e-2, "smallest reduced-Hessian eigenvalue " << smallest);
  }
}

BOOST_AUTO_TEST_CASE(MultipliersAgreeWithIpoptOnNondegenerateModels) {
  for (const Model& m : qpm_test::AllModels()) {
    if (!m.nondegenerate) continue;
    const qpm::SolverRun a = Run(m, true, "Ipopt", 1e-10);
    const qpm::SolverRun b = Run(m, false, "trust-region", 1e-7, 0, 1e-5);
    BOOST_TEST_CONTEXT(m.name) {
      BOOST_REQUIRE(Solved(a));
      BOOST_TEST(Solved(b), "status " << qpm::StatusName(b.status));
      // Models with several minimizers (hs040, hs009...) may end at another.
      if ((a.x - b.x).lpNorm<Eigen::Infinity>() > 1e-4) continue;
      if (m.m > 0) BOOST_TEST((a.lambda - b.lambda).lpNorm<Eigen::Infinity>() <= 1e-4);
      BOOST_TEST((a.z_L - b.z_L).lpNorm<Eigen::Infinity>() <= 1e-4);
      BOOST_TEST((a.z_U - b.z_U).lpNorm<Eigen::Infinity>() <= 1e-4);
      BOOST_TEST(b.z_L.minCoeff() >= 0.0);
      BOOST_TEST(b.z_U.minCoeff() >= 0.0);
      BOOST_TEST(b.kkt_residual <= 1e-5);
    }
  }
}

BOOST_AUTO_TEST_CASE(RowMultiplierSignsFollowIpopt) {
  // hs071: g_0 >= 25 is active at its lower bound, so lambda_0 <= 0.
  for (const Model& m : qpm_test::AllModels()) {
    if (m.name != "hs071") continue;
    const qpm::SolverRun r = Run(m, false, "trust-region", 1e-6);
    BOOST_REQUIRE(Solved(r));
    BOOST_TEST(r.lambda[0] < 0.0);
    BOOST_TEST(r.z_L[0] > 1.0);  // x_0 = 1 at its lower bound, z_L ~ 1.0879
  }
}
