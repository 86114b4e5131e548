#define BOOST_TEST_MODULE trust_region
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/inner/lbfgs.hpp"
#include "core/inner/trust_region.hpp"
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
  q.merit().set_beta(beta);
  qpm::Iterate x;
  q.Allocate(&x);
  x.x = x0;
  BOOST_REQUIRE(q.EvaluateValues(&x));
  BOOST_REQUIRE(q.EvaluateDerivatives(&x));
  *q0 = x.Q(beta);
  // The trust region serves any penalty; the others an assembled one only.
  std::unique_ptr<qpm::InnerSolver> solver;
  if constexpr (std::is_same_v<Solver, qpm::TrustRegion>) {
    solver = std::make_unique<Solver>(options, &q);
  } else {
    solver = std::make_unique<Solver>(options, *q.assembled());
  }
  qpm::InnerControl control;
  control.tolerance = qpm::FeasibilityTolerance{eps, eps, 0.0};
  control.max_iterations = 100000;
  control.on_iteration = [&](const qpm::Iterate& it, const qpm::StepInfo& s) {
    steps->push_back({it.Q(beta), s.step_size, s.step_norm});
    return true;
  };
  return solver->Minimize(control, &x);
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

// Without a box the default's first trial is the whole step (Delta_0 =
// Delta_max): from 300 away the least-norm problem takes one step where
// the paper's Delta_0 = 1 doubles its way there.
BOOST_AUTO_TEST_CASE(WithoutABoxTheFirstTrialIsTheWholeStep) {
  const TestProblem p = LeastNorm();
  EigenProblem problem(p);
  const Vector far = Vector::Constant(p.n, 300.0);
  const qpm::TrustRegionOptions whole;  // initial_radius 0: the mode's
  qpm::TrustRegionOptions paper;
  paper.initial_radius = 1.0;
  std::vector<Step> steps_whole, steps_paper;
  double q0 = 0.0;
  const qpm::InnerSummary w = Run<qpm::TrustRegion>(&problem, far, 1e2, 1e-9, whole, &steps_whole, &q0);
  const qpm::InnerSummary d = Run<qpm::TrustRegion>(&problem, far, 1e2, 1e-9, paper, &steps_paper, &q0);
  BOOST_TEST(w.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(d.status == qpm::InnerStatus::kConverged);
  BOOST_REQUIRE(!steps_whole.empty());
  BOOST_TEST(steps_whole.front().radius == whole.max_radius);
  BOOST_TEST(steps_paper.front().radius == 1.0);
  BOOST_TEST(steps_whole.size() < steps_paper.size());
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

namespace {

// f = -x, which the model can evaluate only up to 1e-10 beyond the furthest
// point it has evaluated: every step longer than that fails, every shorter
// one lowers Q, so the radius collapses while accepted steps go on forever,
// as at a kink of the model (s365mod).
class CreepingFrontier : public EigenProblem {
 public:
  CreepingFrontier() : EigenProblem(Line()) {}
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    if (x[0] > frontier_ + 1e-10) return false;
    frontier_ = std::max(frontier_, x[0]);
    return EigenProblem::EvalObjective(x, f);
  }

 private:
  static TestProblem Line() {
    TestProblem p;
    p.name = "creeping frontier";
    p.n = 1, p.m = 0;
    p.x0 = Vector::Zero(1);
    p.f = [](const Vector& x) { return -x[0]; };
    p.grad = [](const Vector&) { return Vector::Constant(1, -1.0); };
    p.c = [](const Vector&) { return Vector(0); };
    p.jac = [](const Vector&) { return Eigen::MatrixXd(0, 1); };
    p.hess = [](const Vector&, double, const Vector&) { return Eigen::MatrixXd::Zero(1, 1); };
    return p;
  }
  double frontier_ = 0.0;
};

}  // namespace

// The trust region stalls after collapsed_window accepted steps with a radius
// below collapsed_radius max(1, ||z||) (TrustRegionOptions), reporting that
// trials failed; with the guard off it crawls to the iteration limit.
BOOST_AUTO_TEST_CASE(TrustRegionStallsWhenItsRadiusStaysCollapsed) {
  for (long window : {1000L, 0L}) {
    CreepingFrontier problem;
    qpm::TrustRegionOptions options;
    options.collapsed_window = window;
    std::vector<Step> steps;
    double q0 = 0.0;
    const qpm::InnerSummary s =
        Run<qpm::TrustRegion>(&problem, Vector::Zero(1), 1.0, 1e-9, options, &steps, &q0);
    BOOST_TEST_CONTEXT("collapsed_window " << window) {
      if (window > 0) {
        BOOST_TEST(s.status == qpm::InnerStatus::kStalled);
        BOOST_TEST(s.evaluation_failed);
        BOOST_TEST(s.iterations < 2000);
      } else {
        BOOST_TEST(s.status == qpm::InnerStatus::kIterationLimit);
      }
    }
  }
}

// Along a curved constraint at large beta the quadratic model misses
// beta/8 ||p.Hess(c) p||^2, so without the second-order correction the
// ratio test cuts tangential steps short (docs/algorithm.md, "Second-order
// correction"): from the far side of the circle the corrected trust region
// reaches the same minimizer of Q_beta in far fewer steps, and the paper's
// plain one never corrects.
BOOST_AUTO_TEST_CASE(SecondOrderCorrectionLengthensStepsAlongACurvedConstraint) {
  TestProblem p = CircleLinear();
  p.x0 = (Vector(2) << std::sqrt(2.0), 0.0).finished();  // on the circle, far from x*
  EigenProblem problem(p);
  const double beta = 1e4;
  struct Outcome {
    qpm::InnerSummary summary;
    long corrections;
    Vector x;
  };
  auto run = [&](qpm::CorrectionKind kind) {
    qpm::PenaltyFunction q(&problem);
    q.merit().set_beta(beta);
    qpm::Iterate x;
    q.Allocate(&x);
    x.x = p.x0;
    BOOST_REQUIRE(q.EvaluateValues(&x));
    BOOST_REQUIRE(q.EvaluateDerivatives(&x));
    qpm::TrustRegionOptions options;
    options.correction = kind;
    qpm::TrustRegion solver(options, &q);
    qpm::InnerControl control;
    control.tolerance = qpm::FeasibilityTolerance{1e-9, 1e-9, 0.0};
    control.max_iterations = 100000;
    const qpm::InnerSummary s = solver.Minimize(control, &x);
    return Outcome{s, solver.corrections(), x.x};
  };
  const Outcome plain = run(qpm::CorrectionKind::kNone);
  const Outcome corrected = run(qpm::CorrectionKind::kSecondOrder);
  BOOST_TEST(plain.summary.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(corrected.summary.status == qpm::InnerStatus::kConverged);
  BOOST_TEST((corrected.x - plain.x).norm() <= 1e-8);
  BOOST_TEST((corrected.x - p.x_star).norm() <= 1e-3);  // Q_beta's minimizer, O(1/beta) from x*
  BOOST_TEST(plain.corrections == 0);
  BOOST_TEST(corrected.corrections > 0);
  BOOST_TEST(2 * corrected.summary.iterations <= plain.summary.iterations,
             corrected.summary.iterations << " corrected steps against " << plain.summary.iterations);
}
