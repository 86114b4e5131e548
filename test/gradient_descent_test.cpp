#define BOOST_TEST_MODULE gradient_descent
#include <boost/test/unit_test.hpp>

#include <vector>

#include "core/inner/gradient_descent.hpp"
#include "status_print.hpp"
#include "test_problems.hpp"

using namespace qpm_test;

namespace {

struct Run {
  qpm::InnerSummary summary;
  std::vector<double> q_values;  // Q after each accepted step, Q(start) first
  qpm::Iterate x;
};

Run Minimize(qpm::Problem* problem, const Vector& x0, double beta, double eps,
             long max_iterations = 100000, qpm::GradientDescentOptions options = {}) {
  qpm::PenaltyFunction q(problem);
  q.merit().set_beta(beta);
  Run run;
  q.Allocate(&run.x);
  run.x.x = x0;
  BOOST_REQUIRE(q.EvaluateValues(&run.x));
  BOOST_REQUIRE(q.EvaluateDerivatives(&run.x));
  run.q_values.push_back(run.x.Q(beta));
  qpm::GradientDescent gd(options, *q.assembled());
  qpm::InnerControl control;
  control.tolerance = qpm::FeasibilityTolerance{eps, eps, 0.0};
  control.max_iterations = max_iterations;
  control.on_iteration = [&](const qpm::Iterate& it, const qpm::StepInfo&) {
    run.q_values.push_back(it.Q(beta));
    return true;
  };
  run.summary = gd.Minimize(control, &run.x);
  return run;
}

// Q = 1/2 x^T D x with a wide spread of curvatures, no constraints.
class Quadratic : public qpm::Problem {
 public:
  explicit Quadratic(Vector d, double offset = 0.0) : d_(std::move(d)), offset_(offset) {}
  int num_variables() const override { return static_cast<int>(d_.size()); }
  int num_constraints() const override { return 0; }
  void InitJacobian(qpm::SparseMatrix* j) const override { j->resize(0, d_.size()); }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    if (fail_away_from_start && evaluations++ > 0) return false;
    *f = offset_ + 0.5 * x.dot(d_.cwiseProduct(x));
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef&, qpm::VectorRef) override { return true; }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g = d_.cwiseProduct(x);
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView*) override { return true; }
  bool fail_away_from_start = false;  // every evaluation after the first fails
  int evaluations = 0;

 private:
  Vector d_;
  double offset_;
};

}  // namespace

BOOST_AUTO_TEST_CASE(ConvergesToToleranceOnAQuadratic) {
  Quadratic problem(Vector::LinSpaced(10, 1.0, 100.0));
  const Run run = Minimize(&problem, Vector::Ones(10), 1.0, 1e-8);
  BOOST_TEST(run.summary.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(run.x.grad_q_norm <= 1e-8);
  BOOST_TEST(run.x.x.norm() <= 1e-8);
}

BOOST_AUTO_TEST_CASE(QNeverIncreasesBeyondRoundingOnAcceptedSteps) {
  const double allowance = qpm::GradientDescentOptions().line_search.rounding_allowance;
  for (const TestProblem& p : AllProblems()) {
    EigenProblem problem(p);
    for (double beta : {1.0, 1e3, 1e6}) {
      const Run run = Minimize(&problem, p.x0, beta, 1e-9, 20000);
      BOOST_TEST_CONTEXT(p.name << " beta " << beta) {
        BOOST_TEST(run.q_values.size() > 1u);
        for (size_t i = 1; i < run.q_values.size(); ++i) {
          const double bound = run.q_values[i - 1] + allowance * std::abs(run.q_values[i - 1]);
          BOOST_TEST(run.q_values[i] <= bound);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(ReachesStationarityBelowRoundingOfQ) {
  // Q = 1e8 + 1/2 x^T D x: near x = 0 the Armijo decrease c1 t ||g||^2 is far
  // below the rounding of Q (~1e-8), so only the rounding-aware test can
  // judge steps there; plain Armijo (allowance 0) accepts steps on rounding
  // alone and never reaches the tolerance.
  Quadratic problem(Vector::LinSpaced(5, 1.0, 10.0), 1e8);
  const Run run = Minimize(&problem, Vector::Ones(5), 1.0, 1e-9);
  BOOST_TEST(run.summary.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(run.x.grad_q_norm <= 1e-9);
  qpm::GradientDescentOptions plain;
  plain.line_search.rounding_allowance = 0.0;
  Quadratic same(Vector::LinSpaced(5, 1.0, 10.0), 1e8);
  const Run stalled = Minimize(&same, Vector::Ones(5), 1.0, 1e-9, 100000, plain);
  BOOST_TEST(stalled.summary.status != qpm::InnerStatus::kConverged);
  BOOST_TEST(stalled.x.grad_q_norm > 1e-9);
}

BOOST_AUTO_TEST_CASE(StallsWithTheBestPointWhenNoTrialCanBeEvaluated) {
  Quadratic problem(Vector::Constant(3, 1.0));
  problem.fail_away_from_start = true;
  const Run run = Minimize(&problem, Vector::Ones(3), 1.0, 1e-8);
  BOOST_TEST(run.summary.status == qpm::InnerStatus::kStalled);
  BOOST_TEST(run.summary.iterations == 0);
  BOOST_TEST((run.x.x - Vector::Ones(3)).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(StopsAtTheIterationBudget) {
  Quadratic problem(Vector::LinSpaced(50, 1.0, 1e4));
  const Run run = Minimize(&problem, Vector::Ones(50), 1.0, 1e-12, 7);
  BOOST_TEST(run.summary.status == qpm::InnerStatus::kIterationLimit);
  BOOST_TEST(run.summary.iterations == 7);
}
