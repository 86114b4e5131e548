#define BOOST_TEST_MODULE trust_region
#include <boost/test/unit_test.hpp>

#include <vector>

#include "qpm/core/inner/lbfgs.hpp"
#include "qpm/core/inner/trust_region.hpp"
#include "status_print.hpp"
#include "test_problems.hpp"

using namespace qpm_test;

namespace {

struct Step {
  double q;
  double radius;
  double norm;
};

// Runs one inner solver on Q_beta from x0, recording each accepted step.
template <class Solver, class SolverOptions>
qpm::InnerSummary Run(qpm::Problem* problem, const Vector& x0, double beta, double eps,
                      const SolverOptions& options, std::vector<Step>* steps, double* q0) {
  qpm::PenaltyFunction q(problem);
  q.set_beta(beta);
  qpm::Iterate x;
  q.Allocate(&x);
  x.x = x0;
  BOOST_REQUIRE(q.EvaluateValues(&x));
  BOOST_REQUIRE(q.EvaluateDerivatives(&x));
  *q0 = x.Q(beta);
  Solver solver(options, &q);
  qpm::InnerControl control;
  control.tolerance = qpm::FeasibilityTolerance{eps, eps, 0.0};
  control.max_iterations = 100000;
  control.on_iteration = [&](const qpm::Iterate& it, const qpm::StepInfo& s) {
    steps->push_back({it.Q(beta), s.step_size, s.step_norm});
    return true;
  };
  return solver.Minimize(control, &x);
}

}  // namespace

BOOST_AUTO_TEST_CASE(TrustRegionStepNeverExceedsTheRadiusAndQNeverIncreases) {
  const qpm::TrustRegionOptions options;
  for (const TestProblem& p : AllProblems()) {
    EigenProblem problem(p);
    for (double beta : {1.0, 1e2, 1e5}) {
      std::vector<Step> steps;
      double q_prev = 0.0;
      const qpm::InnerSummary s =
          Run<qpm::TrustRegion>(&problem, p.x0, beta, 1e-9, options, &steps, &q_prev);
      BOOST_TEST_CONTEXT(p.name << " beta " << beta) {
        BOOST_TEST(s.status == qpm::InnerStatus::kConverged);
        BOOST_TEST(!steps.empty());
        for (const Step& step : steps) {
          BOOST_TEST(step.norm <= step.radius * (1 + 1e-12));
          BOOST_TEST(step.radius <= options.max_radius);
          BOOST_TEST(step.q <= q_prev + options.rho_regularization * std::max(1.0, std::abs(q_prev)));
          q_prev = step.q;
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(LbfgsConvergesAndNeverIncreasesQ) {
  const qpm::LbfgsOptions options;
  for (const TestProblem& p : AllProblems()) {
    EigenProblem problem(p);
    std::vector<Step> steps;
    double q_prev = 0.0;
    const qpm::InnerSummary s = Run<qpm::Lbfgs>(&problem, p.x0, 1e3, 1e-9, options, &steps, &q_prev);
    BOOST_TEST_CONTEXT(p.name) {
      BOOST_TEST(s.status == qpm::InnerStatus::kConverged);
      for (const Step& step : steps) {
        BOOST_TEST(step.q <= q_prev + options.line_search.rounding_allowance * std::abs(q_prev));
        q_prev = step.q;
      }
    }
  }
}
