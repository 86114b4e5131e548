#define BOOST_TEST_MODULE line_search
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "core/inner/line_search.hpp"
#include "core/penalty.hpp"

// The Armijo line search of inner/line_search.hpp on unconstrained models
// (Q = f), each trial's point recorded by the model.

using qpm::Vector;

namespace {

// f and grad f given as functions; a trial can be made to fail.
class Model : public qpm::Problem {
 public:
  using Value = std::function<double(const Vector&)>;
  using Gradient = std::function<Vector(const Vector&)>;
  using Where = std::function<bool(const Vector&)>;

  Model(int n, Value f, Gradient grad) : n_(n), f_(std::move(f)), grad_(std::move(grad)) {}
  int num_variables() const override { return n_; }
  int num_constraints() const override { return 0; }
  void InitJacobian(qpm::SparseMatrix* j) const override { j->resize(0, n_); }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    evaluated.push_back(x);
    if (objective_fails && objective_fails(x)) return false;
    *f = f_(x);
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef&, qpm::VectorRef) override { return true; }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    if (gradient_fails && gradient_fails(x)) return false;
    g = grad_(x);
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView*) override { return true; }

  Where objective_fails, gradient_fails;  // return false from the callback there
  std::vector<Vector> evaluated;          // every point f was asked for

 private:
  int n_;
  Value f_;
  Gradient grad_;
};

// offset + 1/2 x^T D x.
Model Quadratic(const Vector& d, double offset = 0.0) {
  return Model(
      static_cast<int>(d.size()),
      [d, offset](const Vector& x) { return offset + 0.5 * x.dot(d.cwiseProduct(x)); },
      [d](const Vector& x) { return Vector(d.cwiseProduct(x)); });
}

struct Search {
  bool found = false;
  qpm::Iterate x, trial;
  qpm::StepInfo step;
  std::vector<double> trial_t;  // t of each trial, from the recorded points
};

// One search from x0 along d (-grad Q when d is empty).
Search Run(Model* model, const Vector& x0, Vector d, double t0,
           const qpm::LineSearchOptions& options = {}) {
  qpm::PenaltyFunction q(model);
  Search s;
  q.Allocate(&s.x);
  q.Allocate(&s.trial);
  s.x.x = x0;
  BOOST_REQUIRE(q.EvaluateValues(&s.x));
  BOOST_REQUIRE(q.EvaluateDerivatives(&s.x));
  if (d.size() == 0) d = -s.x.grad_q;
  model->evaluated.clear();
  s.found = qpm::ArmijoLineSearch(options).Search(*q.assembled(), s.x, d, t0, &s.trial, &s.step);
  const int i = 0;  // a coordinate with d_i != 0 gives t
  for (const Vector& p : model->evaluated) s.trial_t.push_back((p[i] - x0[i]) / d[i]);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(AcceptedStepSatisfiesSufficientDecreaseAndThePreviousTrialDidNot) {
  const qpm::LineSearchOptions options;
  const Vector d_diag = (Vector(4) << 1.0, 10.0, 100.0, 3.0).finished();
  for (double t0 : {1.0, 0.1, 0.05, 10.0, 1e3}) {
    Model model = Quadratic(d_diag);
    const Vector x0 = (Vector(4) << 1.0, -2.0, 0.5, 1.5).finished();
    const Search s = Run(&model, x0, Vector(), t0);
    BOOST_TEST_CONTEXT("t0 " << t0) {
      BOOST_TEST_REQUIRE(s.found);
      const Vector d = -s.x.grad_q;
      const double t = s.step.step_size;
      const double q0 = s.x.f, slope = s.x.grad_q.dot(d);
      BOOST_TEST(s.trial.f <= q0 + options.armijo_c1 * t * slope);  // Armijo
      const Vector expected = x0 + t * d;
      BOOST_TEST((s.trial.x - expected).norm() <= 1e-15 * x0.norm());
      BOOST_TEST(s.step.step_norm == t * d.norm(), boost::test_tools::tolerance(1e-14));
      BOOST_TEST(s.trial.grad_q.isApprox(d_diag.cwiseProduct(s.trial.x)));  // derivatives there
      if (s.step.backtracks > 0) {  // the first acceptable trial: the one before was not
        const double before = t / options.backtrack_factor;
        const Vector z = x0 + before * d;
        BOOST_TEST(0.5 * z.dot(d_diag.cwiseProduct(z)) > q0 + options.armijo_c1 * before * slope);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(BacktracksByTheFactorFromTheFirstTrial) {
  // Q = x^2 / 2 from x = 1 along d = -1. Factor 0.5 from t0 = 8: 8, 4, 2 are
  // rejected (Q(-1) = Q(1) is no decrease) and t = 1 reaches x = 0.
  // Factor 0.3: 8 and 2.4 are rejected, 0.72 accepted.
  for (double factor : {0.5, 0.3}) {
    qpm::LineSearchOptions options;
    options.backtrack_factor = factor;
    Model model = Quadratic(Vector::Ones(1));
    const Search s = Run(&model, Vector::Ones(1), -Vector::Ones(1), 8.0, options);
    const std::vector<double> expected =
        factor == 0.5 ? std::vector<double>{8.0, 4.0, 2.0, 1.0} : std::vector<double>{8.0, 2.4, 0.72};
    BOOST_TEST_CONTEXT("factor " << factor) {
      BOOST_TEST_REQUIRE(s.found);
      BOOST_TEST(s.step.backtracks == static_cast<int>(expected.size()) - 1);
      BOOST_TEST(s.step.step_size == expected.back(), boost::test_tools::tolerance(1e-15));
      BOOST_TEST_REQUIRE(s.trial_t.size() == expected.size());
      for (size_t k = 0; k < expected.size(); ++k) {
        BOOST_TEST(s.trial_t[k] == expected[k], boost::test_tools::tolerance(1e-15));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(ArmijoConstantDecidesWhetherTheFullStepIsEnough) {
  // Q = x^2 / 2 from x = 1, d = -1, t = 1 lands on the minimizer: decrease
  // 1/2 = (1/2) t |g.d|, so t = 1 passes exactly for c1 <= 1/2.
  for (double c1 : {0.4, 0.5, 0.6}) {
    qpm::LineSearchOptions options;
    options.armijo_c1 = c1;
    Model model = Quadratic(Vector::Ones(1));
    const Search s = Run(&model, Vector::Ones(1), -Vector::Ones(1), 1.0, options);
    BOOST_TEST_CONTEXT("c1 " << c1) {
      BOOST_TEST_REQUIRE(s.found);
      BOOST_TEST(s.step.backtracks == (c1 <= 0.5 ? 0 : 1));
    }
  }
}

BOOST_AUTO_TEST_CASE(BelowTheRoundingOfQTheSlopeTestRejectsAnOvershootValuesCannotSee) {
  // Q = 1e8 + x^2 / 2 from x = 1e-6 along d = -grad = -1e-6: the Armijo
  // decrease c1 t |g.d| ~ 1e-16 is far below the allowance 1e-12 |Q| = 1e-4,
  // and every trial has the same computed Q, 1e8. t = 3 overshoots to
  // x = -2e-6, where psi'(1) = 6e-12 > (1 - 2 c1) |psi'(0)| = 3e-12: rejected;
  // t = 1.5 reaches x = -5e-7 with psi'(1) = 7.5e-13: accepted.
  const Vector x0 = Vector::Constant(1, 1e-6);
  Model model = Quadratic(Vector::Ones(1), 1e8);
  const Search s = Run(&model, x0, Vector(), 3.0);
  BOOST_TEST_REQUIRE(s.found);
  BOOST_TEST(s.step.backtracks == 1);
  BOOST_TEST(s.step.step_size == 1.5);
  BOOST_TEST(s.trial.x[0] == -5e-7, boost::test_tools::tolerance(1e-12));
  const double slope0 = s.x.grad_q.dot(s.trial.x - s.x.x);
  const double slope1 = s.trial.grad_q.dot(s.trial.x - s.x.x);
  BOOST_TEST(slope1 <= (2.0 * qpm::LineSearchOptions().armijo_c1 - 1.0) * slope0);
  BOOST_TEST(s.trial.f == s.x.f);  // the values could not tell these points apart
  // Without the allowance the value test decides, and the rounded values
  // "decrease" at the overshoot: it is taken at once, |x| doubled.
  qpm::LineSearchOptions plain;
  plain.rounding_allowance = 0.0;
  Model same = Quadratic(Vector::Ones(1), 1e8);
  const Search p = Run(&same, x0, Vector(), 3.0, plain);
  BOOST_TEST_REQUIRE(p.found);
  BOOST_TEST(p.step.backtracks == 0);
  BOOST_TEST(std::abs(p.trial.x[0]) > std::abs(x0[0]));
}

BOOST_AUTO_TEST_CASE(NeverAcceptsARiseOfQBeyondTheRoundingAllowance) {
  // f = 1 + 1e-7 x near x = 0, but a plateau f = 1 + 1e-6 (slope 0) for
  // x < -3e-8. From x = 0 along d = -1e-7 the decrease is in the slope
  // test's regime, and at t = 1 (x = -1e-7) and t = 1/2 the slope psi'(1) = 0
  // would pass it: the value guard must refuse the rise of 1e-6 there.
  Model model(
      1, [](const Vector& x) { return x[0] < -3e-8 ? 1.0 + 1e-6 : 1.0 + 1e-7 * x[0]; },
      [](const Vector& x) { return Vector::Constant(1, x[0] < -3e-8 ? 0.0 : 1e-7); });
  const Search s = Run(&model, Vector::Zero(1), Vector(), 1.0);
  BOOST_TEST_REQUIRE(s.found);
  BOOST_TEST(s.step.backtracks == 2);
  BOOST_TEST(s.trial.x[0] == -2.5e-8, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(s.trial.f <= s.x.f + qpm::LineSearchOptions().rounding_allowance * std::abs(s.x.f));
}

BOOST_AUTO_TEST_CASE(FailsAfterMaxBacktracksRejectedTrials) {
  // Q = x^2 / 2 from x = 1, d = -1, t0 = 2^21: t = 2^21 ... 2 are rejected,
  // t = 1 (the 22nd trial) is the first acceptable one.
  for (int max_backtracks : {21, 22}) {
    qpm::LineSearchOptions options;
    options.max_backtracks = max_backtracks;
    Model model = Quadratic(Vector::Ones(1));
    const Search s = Run(&model, Vector::Ones(1), -Vector::Ones(1), std::ldexp(1.0, 21), options);
    BOOST_TEST_CONTEXT("max_backtracks " << max_backtracks) {
      BOOST_TEST(s.found == (max_backtracks == 22));
      BOOST_TEST(model.evaluated.size() == static_cast<size_t>(std::min(max_backtracks, 22)));
      if (s.found) BOOST_TEST(s.step.backtracks == 21);
    }
  }
}

BOOST_AUTO_TEST_CASE(AFailedOrNonFiniteEvaluationAtATrialIsARejection) {
  // Q = x^2 / 2 from x = 1, d = -1, t0 = 1. At t = 1 (x = 0) f fails, at
  // t = 1/2 f is NaN, at t = 1/4 the gradient fails: each only rejects the
  // trial, and t = 1/8 is accepted with values and gradient of its own.
  Model model(
      1,
      [](const Vector& x) {
        return std::abs(x[0] - 0.5) < 1e-12 ? std::numeric_limits<double>::quiet_NaN()
                                             : 0.5 * x[0] * x[0];
      },
      [](const Vector& x) { return Vector(x); });
  model.objective_fails = [](const Vector& x) { return x[0] < 0.25; };
  model.gradient_fails = [](const Vector& x) { return std::abs(x[0] - 0.75) < 1e-12; };
  const Search s = Run(&model, Vector::Ones(1), -Vector::Ones(1), 1.0);
  BOOST_TEST_REQUIRE(s.found);
  BOOST_TEST(s.step.backtracks == 3);
  BOOST_TEST(s.trial.x[0] == 0.875);
  BOOST_TEST(s.trial.f == 0.5 * 0.875 * 0.875);
  BOOST_TEST(s.trial.grad_q[0] == 0.875);
  BOOST_TEST((s.trial_t == std::vector<double>{1.0, 0.5, 0.25, 0.125}));
}

BOOST_AUTO_TEST_CASE(FailsWhenEveryTrialFailsToEvaluate) {
  qpm::LineSearchOptions options;
  options.max_backtracks = 7;
  Model model = Quadratic(Vector::Ones(2));
  model.objective_fails = [](const Vector& x) { return x != Vector::Ones(2); };  // only at x0
  const Search s = Run(&model, Vector::Ones(2), Vector(), 1.0, options);
  BOOST_TEST(!s.found);
  BOOST_TEST(model.evaluated.size() == 7u);
}
