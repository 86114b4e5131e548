#define BOOST_TEST_MODULE active_set
#include <boost/test/unit_test.hpp>

#include <random>

#include <Eigen/Dense>

#include "core/inner/active_set.hpp"
#include "core/inner/barrier_newton.hpp"
#include "core/inner/cholesky_preconditioner.hpp"
#include "core/inner/preconditioner.hpp"
#include "core/inner/trust_region.hpp"
#include "status_print.hpp"

using qpm::Vector;
using Eigen::MatrixXd;

namespace {

qpm::HessianOperator Dense(const MatrixXd& h) {
  return [h](const Vector& v, Vector* out) { *out = h * v; };
}

MatrixXd RandomSpd(int n, std::mt19937* rng) {
  std::normal_distribution<double> normal;
  MatrixXd a(n, n);
  for (int i = 0; i < n * n; ++i) a.data()[i] = normal(*rng);
  return a * a.transpose() / n + MatrixXd::Identity(n, n);
}

// The gradient of a 1000-dimensional corner problem: every entry points out
// of the upper bound, by amounts from 1 to 1000, so that a step of length
// Delta / ||g|| along -g reaches the bound of the largest entry only.
Vector CornerGradient(int n) {
  Vector g = -Vector::LinSpaced(n, 1.0, 2.0);
  g[0] = -1000.0;
  return g;
}

// f = 1/2 ||x - a||^2 over [-0.01, 0.01]^n with a = -CornerGradient: from
// x0 = 0 the minimizer is the upper corner, 0.32 away.
class CornerQuadratic : public qpm::Problem {
 public:
  explicit CornerQuadratic(int n) : a_(-CornerGradient(n)) {}
  int num_variables() const override { return static_cast<int>(a_.size()); }
  int num_constraints() const override { return 0; }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef, qpm::VectorRef) const override {
    x_l.setConstant(-0.01);
    x_u.setConstant(0.01);
  }
  void InitJacobian(qpm::SparseMatrix* j) const override { j->resize(0, num_variables()); }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    *f = 0.5 * (x - a_).squaredNorm();
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef&, qpm::VectorRef) override { return true; }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g = x - a_;
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView*) override { return true; }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* h) const override {
    const int n = num_variables();
    h->resize(n, n);
    h->setIdentity();
  }
  bool EvalHessian(const qpm::ConstVectorRef&, double sigma, const qpm::ConstVectorRef&,
                   qpm::SparseMatrix* h) override {
    for (int i = 0; i < num_variables(); ++i) h->coeffRef(i, i) = sigma;
    return true;
  }

 private:
  Vector a_;
};

// CornerQuadratic with one row, sum x + a x_0^2 = 0: linear for a = 0,
// curved at a tiny fraction of its slope for a = 1e-4.
class CornerWithRow : public CornerQuadratic {
 public:
  CornerWithRow(int n, double a) : CornerQuadratic(n), a_(a) {}
  int num_constraints() const override { return 1; }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef g_l,
                 qpm::VectorRef g_u) const override {
    CornerQuadratic::GetBounds(x_l, x_u, g_l, g_u);
    g_l.setZero();
    g_u.setZero();
  }
  void InitJacobian(qpm::SparseMatrix* j) const override {
    const int n = num_variables();
    j->resize(1, n);
    for (int i = 0; i < n; ++i) j->insert(0, i) = 1.0;
    j->makeCompressed();
  }
  bool EvalConstraints(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g[0] = x.sum() + a_ * x[0] * x[0];
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef& x, qpm::SparseMatrixView* j) override {
    for (int k = 0; k < j->nonZeros(); ++k) j->valuePtr()[k] = 1.0;
    j->valuePtr()[0] = 1.0 + 2.0 * a_ * x[0];  // column 0 comes first
    return true;
  }
  bool EvalHessian(const qpm::ConstVectorRef& x, double sigma, const qpm::ConstVectorRef& lambda,
                   qpm::SparseMatrix* h) override {
    CornerQuadratic::EvalHessian(x, sigma, lambda, h);
    h->coeffRef(0, 0) += 2.0 * a_ * lambda[0];
    return true;
  }

 private:
  double a_;
};

// Double wells on CornerWithRow's linear row: f = sum_i (x_i^2 - 1/4)^2 + t_i x_i over
// [-1, 1]^n with sum x = 0, from x_0 = 0, where every f_i is concave
// (f_i'' = 12 x_i^2 - 1): each x_i ends near -1/2 or 1/2, and which wells
// the path picks is the path's choice.
class DoubleWellsWithRow : public CornerWithRow {
 public:
  explicit DoubleWellsWithRow(int n) : CornerWithRow(n, 0.0), tilt_(n) {
    for (int i = 0; i < n; ++i) tilt_[i] = ((i % 5) - 2) / 20.0;  // no multiple of the row's normal
  }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef g_l,
                 qpm::VectorRef g_u) const override {
    CornerWithRow::GetBounds(x_l, x_u, g_l, g_u);
    x_l.setConstant(-1.0);
    x_u.setConstant(1.0);
  }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    *f = ((x.array().square() - 0.25).square() + tilt_.array() * x.array()).sum();
    return true;
  }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g = (4.0 * x.array() * (x.array().square() - 0.25) + tilt_.array()).matrix();
    return true;
  }
  bool EvalHessian(const qpm::ConstVectorRef& x, double sigma, const qpm::ConstVectorRef&,
                   qpm::SparseMatrix* h) override {
    for (int i = 0; i < num_variables(); ++i) h->coeffRef(i, i) = sigma * (12.0 * x[i] * x[i] - 1.0);
    return true;
  }

 private:
  Vector tilt_;
};

// min x_1 s.t. x_1^2 + x_2^2 = 1 in [-2, 2]^2, from (0.6, 0.8): at a large
// beta the minimizer of Q, near (-1, 0), lies along the curved row, where
// beta/2 ||c(z + p) - c - J p||^2 grows with the fourth power of a step.
class Circle : public qpm::Problem {
 public:
  int num_variables() const override { return 2; }
  int num_constraints() const override { return 1; }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef g_l,
                 qpm::VectorRef g_u) const override {
    x_l.setConstant(-2.0);
    x_u.setConstant(2.0);
    g_l.setZero();
    g_u.setZero();
  }
  void InitJacobian(qpm::SparseMatrix* j) const override {
    j->resize(1, 2);
    j->insert(0, 0) = 1.0;
    j->insert(0, 1) = 1.0;
    j->makeCompressed();
  }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    *f = x[0];
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g[0] = x.squaredNorm() - 1.0;
    return true;
  }
  bool EvalGradient(const qpm::ConstVectorRef&, qpm::VectorRef g) override {
    g << 1.0, 0.0;
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef& x, qpm::SparseMatrixView* j) override {
    j->valuePtr()[0] = 2.0 * x[0];
    j->valuePtr()[1] = 2.0 * x[1];
    return true;
  }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* h) const override {
    h->resize(2, 2);
    h->setIdentity();
  }
  bool EvalHessian(const qpm::ConstVectorRef&, double, const qpm::ConstVectorRef& y,
                   qpm::SparseMatrix* h) override {
    h->coeffRef(0, 0) = h->coeffRef(1, 1) = 2.0 * y[0];
    return true;
  }
};

// The step over the string-over-a-cap problem below, from x = psi: the
// step's box (lower = 0, no upper bound), the gradient H psi there, and the
// entries free at the solution.
struct StringOverACap {
  explicit StringOverACap(int size)
      : n(size), laplacian(MatrixXd::Zero(size, size)), lower(Vector::Zero(size)),
        upper(Vector::Constant(size, 1e20)) {
    const double h = 1.0 / (n + 1);
    Vector psi(n);
    for (int i = 0; i < n; ++i) {
      laplacian(i, i) = 2.0 / (h * h);
      if (i > 0) laplacian(i, i - 1) = laplacian(i - 1, i) = -1.0 / (h * h);
      const double s = (i + 1) * h;
      psi[i] = 1.0 - 8.0 * (s - 0.5) * (s - 0.5);
      free_at_solution += std::abs(s - 0.5) > 0.5 - std::sqrt(2.0) / 4.0;  // tangent at sqrt(2)/4
    }
    g = laplacian * psi;
  }
  int n;
  MatrixXd laplacian;
  Vector g, lower, upper;
  int free_at_solution = 0;
};

// The string over the cap as a model: min 1/2 u^T L u over u >= psi (the
// obstacle), from u = psi + 1, strictly convex, so one minimizer.
class CapObstacle : public qpm::Problem {
 public:
  explicit CapObstacle(int n) : cap_(n), psi_(cap_.laplacian.diagonal().size()) {
    const double h = 1.0 / (n + 1);
    for (int i = 0; i < n; ++i) {
      const double s = (i + 1) * h;
      psi_[i] = 1.0 - 8.0 * (s - 0.5) * (s - 0.5);
    }
  }
  int num_variables() const override { return cap_.n; }
  int num_constraints() const override { return 0; }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef, qpm::VectorRef) const override {
    x_l = psi_;
    x_u.setConstant(1e20);
  }
  void InitJacobian(qpm::SparseMatrix* j) const override { j->resize(0, cap_.n); }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    *f = 0.5 * x.dot(cap_.laplacian * x);
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef&, qpm::VectorRef) override { return true; }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g = cap_.laplacian * x;
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView*) override { return true; }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* h) const override { *h = Lower(); }
  bool EvalHessian(const qpm::ConstVectorRef&, double sigma, const qpm::ConstVectorRef&,
                   qpm::SparseMatrix* h) override {
    *h = sigma * Lower();
    return true;
  }
  const StringOverACap& cap() const { return cap_; }
  const Vector& obstacle() const { return psi_; }

 private:
  qpm::SparseMatrix Lower() const {
    const MatrixXd lower = cap_.laplacian.triangularView<Eigen::Lower>();
    return lower.sparseView();
  }
  StringOverACap cap_;
  Vector psi_;
};

// The minimizer of `problem` by `solver` from its start, with the penalty's
// counts: status, point, Hessian products.
// The interior steps on a factorization of q's W + beta J_z^T J_z.
std::unique_ptr<qpm::BarrierNewton> InteriorSteps(qpm::PenaltyFunction* q) {
  auto factor = qpm::MakeFactorization(qpm::TrustRegionOptions(), *q->assembled());
  BOOST_REQUIRE(factor);
  return std::make_unique<qpm::BarrierNewton>(qpm::TrustRegionOptions(), *q->assembled(),
                                              std::move(factor));
}

// An iterate of q at x0 (the penalty's zero start where x0 is empty), with
// values and derivatives.
qpm::Iterate StartAt(qpm::PenaltyFunction* q, const Vector& x0 = Vector()) {
  qpm::Iterate x;
  q->Allocate(&x);
  if (x0.size() > 0) x.x = x0;
  BOOST_REQUIRE(q->EvaluateValues(&x));
  BOOST_REQUIRE(q->EvaluateDerivatives(&x));
  return x;
}

// Runs `solver` from x to the tolerance eps (both parts of tau) within 1000 steps.
qpm::InnerSummary MinimizeTo(double eps, qpm::InnerSolver* solver, qpm::Iterate* x) {
  qpm::InnerControl control;
  control.tolerance = qpm::FeasibilityTolerance{eps, eps, 0.0};
  control.max_iterations = 1000;
  return solver->Minimize(control, x);
}

struct Solved {
  qpm::InnerSummary summary;
  Vector x;
  long hess_products = 0;
};
template <class MakeSolver>
Solved SolveCap(int n, MakeSolver make) {
  CapObstacle problem(n);
  qpm::PenaltyFunction q(&problem);
  qpm::Iterate x = StartAt(&q, (problem.obstacle().array() + 1.0).matrix());
  auto solver = make(&q);
  qpm::InnerControl control;
  control.tolerance = qpm::FeasibilityTolerance{1e-8, 1e-8, 0.0};
  control.max_iterations = 10 * n;
  Solved r{solver->Minimize(control, &x), x.x, q.counts().hess_products};
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(CauchyPointActivatesEveryBoundOfA1000DimensionalCornerAtOnce) {
  const int n = 1000;
  const Vector g = CornerGradient(n);
  const Vector lower = Vector::Constant(n, -0.01), upper = Vector::Constant(n, 0.01);
  qpm::ActiveSetStep step(n, qpm::TrustRegionOptions());
  Vector p(n);
  const qpm::ActiveSetResult r =
      step.Solve(Dense(MatrixXd::Identity(n, n)), g, lower, upper, 1.0, 1e-12, n, &p);
  BOOST_TEST((r.cg.exit == qpm::CgExit::kBoundary));  // no entry left free
  BOOST_TEST(r.free == 0);
  BOOST_TEST(r.faces == 0);          // no CG: the Cauchy search did it all
  BOOST_TEST(r.cauchy_trials <= 2);
  BOOST_TEST((p.array() == upper.array()).all());
  BOOST_TEST(r.cg.model_decrease == -(g.dot(p) + 0.5 * p.squaredNorm()),
             boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(TrustRegionReachesTheCornerOfA1000DimensionalBoxInOneStep) {
  CornerQuadratic problem(1000);
  qpm::PenaltyFunction q(&problem);
  qpm::Iterate x = StartAt(&q);  // x0 = 0
  qpm::TrustRegion solver(qpm::TrustRegionOptions(), &q);
  const qpm::InnerSummary s = MinimizeTo(1e-10, &solver, &x);
  BOOST_TEST(s.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(s.iterations == 1);
  BOOST_TEST((x.x.array() == 0.01).all());  // exactly on the bounds
  BOOST_TEST(x.grad_q_norm == 0.0);         // every gradient entry points out of the box
}

// With a box the default's first radius is the paper's 1, not the whole
// step: the step's length also decides how many bounds the projected search
// meets at once (docs/algorithm.md, "The first radius").
BOOST_AUTO_TEST_CASE(OnABoxTheFirstTrialStaysWithinThePapersRadius) {
  CornerQuadratic problem(1000);
  qpm::PenaltyFunction q(&problem);
  qpm::Iterate x = StartAt(&q);  // x0 = 0
  const qpm::TrustRegionOptions options;
  BOOST_REQUIRE(options.initial_radius == 0.0);  // the mode's
  qpm::TrustRegion solver(options, &q);
  qpm::InnerControl control;
  control.tolerance = qpm::FeasibilityTolerance{1e-10, 1e-10, 0.0};
  control.max_iterations = 1000;
  double first_radius = 0.0;
  control.on_iteration = [&](const qpm::Iterate&, const qpm::StepInfo& step) {
    if (first_radius == 0.0) first_radius = step.step_size;
    return true;
  };
  const qpm::InnerSummary s = solver.Minimize(control, &x);
  BOOST_TEST(s.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(first_radius == 1.0);
}

// The barrier's steps move every entry toward the corner at once, and the
// snapped point is exactly the corner: a handful of factorizations, not one
// per bound.
BOOST_AUTO_TEST_CASE(InteriorStepsReachTheCornerOfA1000DimensionalBoxInAFewFactorizations) {
  CornerQuadratic problem(1000);
  qpm::PenaltyFunction q(&problem);
  qpm::Iterate x = StartAt(&q);  // x0 = 0
  const double q_start = x.Q(q.merit().beta());
  const auto solver = InteriorSteps(&q);
  const qpm::InnerSummary s = MinimizeTo(1e-10, solver.get(), &x);
  BOOST_TEST(s.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(s.iterations <= 12);
  BOOST_TEST(solver->factorizations() <= 15);
  BOOST_TEST((x.x.array() == 0.01).all());  // snapped exactly onto the bounds
  BOOST_TEST(x.grad_q_norm == 0.0);
  BOOST_TEST(x.Q(q.merit().beta()) < q_start);  // (2.3)
  BOOST_TEST(q.counts().hess_products == 0);  // the barrier's steps, not the trust region's finish
}

// On an obstacle problem the barrier's own steps and snap find the contact
// set (no trust-region finish: no Hessian products) and the minimizer the
// trust region finds.
BOOST_AUTO_TEST_CASE(InteriorStepsFindTheObstacleProblemsContactSetAndMinimizerOnTheirOwn) {
  const int n = 199;
  const Solved interior = SolveCap(n, InteriorSteps);
  const Solved trust_region = SolveCap(n, [](qpm::PenaltyFunction* q) {
    return std::make_unique<qpm::TrustRegion>(qpm::TrustRegionOptions(), q);
  });
  BOOST_TEST(interior.summary.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(trust_region.summary.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(interior.hess_products == 0);  // the barrier's steps, not the trust region's finish
  BOOST_TEST(interior.summary.iterations <= 25);
  const CapObstacle problem(n);
  const long on_bound = (interior.x.array() == problem.obstacle().array()).count();  // snapped exactly
  BOOST_TEST(std::abs(on_bound - (n - problem.cap().free_at_solution)) <= 2);
  BOOST_TEST((interior.x - trust_region.x).lpNorm<Eigen::Infinity>() <= 1e-6);
}

// At beta = 1e6 the interior steps follow the curved row to Q's minimizer
// in a few Newton steps of their own: the filter weighs the row's
// linearization error in theta, where Q's own merit would cut every step to
// the fourth root of its predicted decrease over beta.
BOOST_AUTO_TEST_CASE(InteriorStepsFollowACurvedRowAtALargePenaltyInAFewSteps) {
  Circle problem;
  qpm::PenaltyFunction q(&problem);
  q.merit().set_beta(1e6);
  qpm::Iterate x = StartAt(&q, (Vector(2) << 0.6, 0.8).finished());
  const double q_start = x.Q(q.merit().beta());
  const auto solver = InteriorSteps(&q);
  const qpm::InnerSummary s = MinimizeTo(1e-8, solver.get(), &x);
  BOOST_TEST(s.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(s.iterations <= 30);
  BOOST_TEST(q.counts().hess_products == 0);  // no trust-region finish
  BOOST_TEST(x.grad_q_norm <= 1e-8);
  BOOST_TEST(x.Q(q.merit().beta()) < q_start);  // (2.3)
  // Q's minimizer: x_2 = 0, 1 + 2 beta x_1 (x_1^2 - 1) = 0, x_1 = -1 - 1 / (4 beta) to first order
  BOOST_TEST(std::abs(x.x[1]) <= 1e-8);
  BOOST_TEST(x.x[0] == -1.0 - 0.25e-6, boost::test_tools::tolerance(1e-9));
}

// With the switch at a handful of trust-region steps, the same subproblem
// goes on with the interior steps from where the trust region stopped, and
// ends at Q's minimizer in fewer steps than the trust region takes alone.
BOOST_AUTO_TEST_CASE(TheSwitchHandsTheRestOfALongSubproblemToTheInteriorSteps) {
  Circle problem;
  qpm::PenaltyFunction q(&problem);
  q.merit().set_beta(1e6);
  const Vector x0 = (Vector(2) << 0.6, 0.8).finished();
  qpm::Iterate alone = StartAt(&q, x0);
  qpm::TrustRegion trust_region(qpm::TrustRegionOptions(), &q);
  const qpm::InnerSummary t = MinimizeTo(1e-8, &trust_region, &alone);
  qpm::TrustRegionOptions options;
  options.interior_switch_iterations = 5;
  qpm::SwitchingTrustRegion switching(options, *q.assembled());
  qpm::Iterate x = StartAt(&q, x0);
  const qpm::InnerSummary s = MinimizeTo(1e-8, &switching, &x);
  BOOST_TEST(t.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(s.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(t.iterations > options.interior_switch_iterations);  // the cut happened
  BOOST_TEST(s.iterations < t.iterations);
  BOOST_TEST(switching.LendFactorization() != trust_region.LendFactorization());
  BOOST_TEST(x.x[0] == -1.0 - 0.25e-6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(std::abs(x.x[1]) <= 1e-8);
}

// Where z has interior_start_bounds bounded entries and a row is curved
// (the circle's), the default's first subproblem is the interior steps':
// their iterations and point, and the two Hessian evaluations of the test.
// One bound fewer than asked, the trust region's.
BOOST_AUTO_TEST_CASE(TheInteriorStepsTakeTheFirstSubproblemOfACurvedRowWithEnoughBounds) {
  const Vector x0 = (Vector(2) << 0.6, 0.8).finished();
  auto solve = [&](long start_bounds, bool interior_alone, long* hess_evals) {
    Circle problem;
    qpm::PenaltyFunction q(&problem);
    q.merit().set_beta(1e6);
    qpm::Iterate x = StartAt(&q, x0);
    qpm::Options options;
    options.tr.interior_start_bounds = start_bounds;
    std::unique_ptr<qpm::InnerSolver> solver;
    if (interior_alone) solver = InteriorSteps(&q);
    else solver = qpm::MakeInnerSolver(options, &q, x);
    const qpm::InnerSummary s = MinimizeTo(1e-8, solver.get(), &x);
    *hess_evals = q.counts().hess_evals;
    return std::make_pair(s, x.x);
  };
  long evals_first = 0, evals_alone = 0, evals_tr = 0;
  const auto first = solve(2, false, &evals_first);
  const auto alone = solve(0, true, &evals_alone);
  const auto tr = solve(3, false, &evals_tr);
  BOOST_TEST(first.first.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(tr.first.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(first.first.iterations == alone.first.iterations);
  BOOST_TEST(first.first.iterations < tr.first.iterations);
  BOOST_TEST(evals_first == evals_alone + 2);
  BOOST_TEST((first.second - alone.second).lpNorm<Eigen::Infinity>() == 0.0);
  BOOST_TEST((first.second - tr.second).lpNorm<Eigen::Infinity>() <= 1e-8);
}

// Linear rows, or rows curved at 1e-4 of their slope, keep the trust
// region however many bounds there are: the test evaluates W twice, and
// the steps are the trust region's alone.
BOOST_AUTO_TEST_CASE(NearlyLinearRowsKeepTheTrustRegionWhateverTheBounds) {
  const int n = 50;
  for (const double a : {0.0, 1e-4}) {
    BOOST_TEST_CONTEXT("row curvature " << a) {
      auto solve = [&](bool switching, long* hess_evals) {
        CornerWithRow problem(n, a);
        qpm::PenaltyFunction q(&problem);
        qpm::Iterate x = StartAt(&q);
        qpm::Options options;
        options.tr.interior_start_bounds = 1;
        std::unique_ptr<qpm::InnerSolver> solver;
        if (switching) solver = qpm::MakeInnerSolver(options, &q, x);
        else solver = std::make_unique<qpm::TrustRegion>(options.tr, &q);
        const qpm::InnerSummary s = MinimizeTo(1e-10, solver.get(), &x);
        *hess_evals = q.counts().hess_evals;
        return std::make_pair(s, x.x);
      };
      long evals_switching = 0, evals_tr = 0;
      const auto switching = solve(true, &evals_switching);
      const auto tr = solve(false, &evals_tr);
      BOOST_TEST(switching.first.status == qpm::InnerStatus::kConverged);
      BOOST_TEST(switching.first.iterations == tr.first.iterations);
      BOOST_TEST(evals_switching == evals_tr + 2);
      BOOST_TEST((switching.second - tr.second).lpNorm<Eigen::Infinity>() == 0.0);
    }
  }
}

// Where the first subproblem's trust region meets a factorization that
// needs a shift (Q nonconvex on the face) and z has interior_start_bounds
// bounded entries, the subproblem starts again from its start on the
// interior steps: their point (other wells than the trust region's own
// path, one bound fewer than asked), and their steps plus the trust
// region's before the shift in the count.
BOOST_AUTO_TEST_CASE(ANonconvexFirstSubproblemStartsAgainOnTheInteriorSteps) {
  const int n = 50;
  auto solve = [&](long start_bounds, bool interior_alone) {
    DoubleWellsWithRow problem(n);
    qpm::PenaltyFunction q(&problem);
    qpm::Iterate x = StartAt(&q);
    qpm::Options options;
    options.tr.interior_start_bounds = start_bounds;
    options.tr.preconditioner = qpm::PreconditionerKind::kCholesky;  // factored from the first step
    std::unique_ptr<qpm::InnerSolver> solver;
    if (interior_alone) solver = InteriorSteps(&q);
    else solver = qpm::MakeInnerSolver(options, &q, x);
    const qpm::InnerSummary s = MinimizeTo(1e-8, solver.get(), &x);
    return std::make_pair(s, x.x);
  };
  const auto restarted = solve(n, false);
  const auto alone = solve(0, true);
  const auto tr = solve(n + 1, false);
  BOOST_TEST(restarted.first.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(alone.first.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(tr.first.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(restarted.first.iterations >= alone.first.iterations);
  BOOST_TEST((restarted.second - alone.second).lpNorm<Eigen::Infinity>() <= 1e-8);
  BOOST_TEST((restarted.second - tr.second).lpNorm<Eigen::Infinity>() > 0.5);  // other wells
}

// The refined solve's residual is measured on the matrix as factored, its
// shift included: at rounding on H + diag(d), and again after the next
// larger shift.
BOOST_AUTO_TEST_CASE(RefinedSolveIsExactOnTheFactoredMatrixShiftIncluded) {
  const int n = 50;
  CornerQuadratic problem(n);  // H = I
  qpm::PenaltyFunction q(&problem);
  const qpm::Iterate x = StartAt(&q);
  auto factor = qpm::MakeFactorization(qpm::TrustRegionOptions(), *q.assembled());
  BOOST_REQUIRE(factor);
  const Vector d = Vector::LinSpaced(n, 1.0, 50.0), r = Vector::LinSpaced(n, -3.0, 7.0);
  Vector z(n), residual(n), correction(n);
  BOOST_REQUIRE(factor->FactorWithDiagonal(x, d));
  BOOST_TEST(factor->applied_shift() == 0.0);
  BOOST_TEST(factor->SolveRefined(r, &z, &residual, &correction) <= 1e-15);
  BOOST_TEST((z.array() - r.array() / (1.0 + d.array())).abs().maxCoeff() <= 1e-15);
  BOOST_REQUIRE(factor->FactorWithLargerShift());
  const double shift = factor->applied_shift();
  BOOST_TEST(shift > 0.0);
  BOOST_TEST(factor->SolveRefined(r, &z, &residual, &correction) <= 1e-15);
  BOOST_TEST((z.array() - r.array() / (1.0 + d.array() + shift)).abs().maxCoeff() <= 1e-15);
}

BOOST_AUTO_TEST_CASE(CgOnAFaceMovesOnlyTheFreeEntriesAndReachesTheFaceMinimizer) {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal;
  const int n = 30, fixed = 10;
  const MatrixXd h = RandomSpd(n, &rng);
  Vector g(n), lower = Vector::Constant(n, -1e20), upper = Vector::Constant(n, 1e20);
  for (int i = 0; i < n; ++i) g[i] = normal(rng);
  for (int i = 0; i < fixed; ++i) {
    g[i] = 1.0 + std::abs(g[i]);  // on its lower bound, pushed out of the box
    lower[i] = 0.0;
  }
  const MatrixXd h_ff = h.bottomRightCorner(n - fixed, n - fixed);
  const Vector face_minimizer = -h_ff.ldlt().solve(g.tail(n - fixed));
  const Vector inverse_diagonal = h.diagonal().cwiseInverse();
  struct Jacobi : qpm::CgPreconditioner {
    explicit Jacobi(const Vector& d) : inverse_diagonal(d) {}
    void Apply(const Vector& r, const Vector*, Vector* z) override { *z = r.cwiseProduct(inverse_diagonal); }
    Vector inverse_diagonal;
  } jacobi(inverse_diagonal);
  for (qpm::CgPreconditioner* m : {static_cast<qpm::CgPreconditioner*>(nullptr),
                                   static_cast<qpm::CgPreconditioner*>(&jacobi)}) {
    BOOST_TEST_CONTEXT((m ? "jacobi" : "no preconditioner")) {
      qpm::ActiveSetStep step(n, qpm::TrustRegionOptions());
      Vector p(n);
      const qpm::ActiveSetResult r = step.Solve(Dense(h), g, lower, upper, 1e6, 1e-12, 10 * n, &p, m);
      BOOST_TEST((r.cg.exit == qpm::CgExit::kConverged));
      BOOST_TEST(r.free == n - fixed);
      BOOST_TEST((p.head(fixed).array() == 0.0).all());  // the fixed entries never moved
      BOOST_TEST((p.tail(n - fixed) - face_minimizer).norm() <= 1e-10 * face_minimizer.norm());
    }
  }
}

BOOST_AUTO_TEST_CASE(ProjectedSearchAddsTheBoundsCgRunsIntoAndTheNextFaceFinishes) {
  // Pairs (u_i, v_i), i < k, with the block [2 1.5; 1.5 2] of H and the
  // gradient (1, 0): the projected-gradient path never moves v, so every
  // entry is free after the Cauchy point. CG's Newton step (-8/7, 6/7) runs
  // v beyond its upper bound 0.3 in the even pairs; the projected search
  // puts those on it, and CG on the next face gives u = -(1 + 1.5 0.3) / 2.
  const int k = 20, n = 2 * k;
  MatrixXd h = MatrixXd::Zero(n, n);
  Vector g = Vector::Zero(n), lower = Vector::Constant(n, -1e20), upper = Vector::Constant(n, 1e20);
  Vector exact(n);
  for (int i = 0; i < k; ++i) {
    h(i, i) = h(k + i, k + i) = 2.0;
    h(i, k + i) = h(k + i, i) = 1.5;
    g[i] = 1.0;
    const bool bounded = i % 2 == 0;
    if (bounded) upper[k + i] = 0.3;
    exact[i] = bounded ? -(1.0 + 1.5 * 0.3) / 2.0 : -8.0 / 7.0;
    exact[k + i] = bounded ? 0.3 : 6.0 / 7.0;
  }
  qpm::ActiveSetStep step(n, qpm::TrustRegionOptions());
  Vector p(n);
  const qpm::ActiveSetResult r = step.Solve(Dense(h), g, lower, upper, 1e6, 1e-12, 10 * n, &p);
  BOOST_TEST((r.cg.exit == qpm::CgExit::kConverged));
  BOOST_TEST(r.faces == 2);
  BOOST_TEST(r.free == n - k / 2);
  BOOST_TEST((p - exact).lpNorm<Eigen::Infinity>() <= 1e-12);
}

BOOST_AUTO_TEST_CASE(StepStaysInTheBoxAndTheBallAndDecreasesTheModel) {
  std::mt19937 rng(3);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const int n = 15;
  qpm::ActiveSetStep step(n, qpm::TrustRegionOptions());
  Vector p(n), g(n), lower(n), upper(n);
  for (int trial = 0; trial < 300; ++trial) {
    MatrixXd a(n, n);
    for (int i = 0; i < n * n; ++i) a.data()[i] = normal(rng);
    const MatrixXd h = 0.5 * (a + a.transpose()) + (trial % 2 ? 4.0 : 0.0) * MatrixXd::Identity(n, n);
    for (int i = 0; i < n; ++i) {
      g[i] = normal(rng);
      lower[i] = i % 3 == 0 ? 0.0 : -uniform(rng);  // some entries start on a bound
      upper[i] = uniform(rng);
    }
    const double radius = std::pow(10.0, trial % 4 - 2);
    const qpm::ActiveSetResult r = step.Solve(Dense(h), g, lower, upper, radius, 1e-10, n, &p);
    BOOST_TEST_CONTEXT("trial " << trial) {
      BOOST_TEST((p.array() >= lower.array()).all());
      BOOST_TEST((p.array() <= upper.array()).all());
      BOOST_TEST(p.norm() <= radius * (1 + 1e-12));
      BOOST_TEST(r.cg.model_decrease > 0.0);
      BOOST_TEST(r.cg.model_decrease == -(g.dot(p) + 0.5 * p.dot(h * p)),
                 boost::test_tools::tolerance(1e-9));
    }
  }
}

// A string over a cap: min 1/2 x.H x, H the 1D Laplacian / h^2 (x = 0 at
// both ends), subject to x >= psi, psi(s) = 1 - 8 (s - 1/2)^2. The string
// lies on psi over [sqrt(2)/4, 1 - sqrt(2)/4] = [0.354, 0.646] only, between
// the tangents from the ends.
// The step starts from x = psi, so about 70 entries on each side are wrongly
// active. There the gradient H psi = -psi'' = 16 points out of the box, as it
// does on the true contact set: only the entry next to each end, whose
// neighbour is the end's 0 > psi, can tell. So the Cauchy point frees one
// entry a side, and only steps that move the freed entries reveal the next.
BOOST_AUTO_TEST_CASE(ProjectedGradientStepsFreeAWronglyActiveRegionInOneStep) {
  const StringOverACap cap(199);
  const int n = cap.n, free_at_solution = cap.free_at_solution;
  const MatrixXd& laplacian = cap.laplacian;
  const Vector &g = cap.g, &lower = cap.lower, &upper = cap.upper;
  // Default options: step 1b from the third step in a row whose Cauchy point
  // frees bounds; never with gradient_projection_after = 0.
  struct Case { int after, streak; bool projection; };
  for (const Case c : {Case{3, 0, false}, Case{3, 1, false}, Case{3, 2, true}, Case{0, 100, false}}) {
    BOOST_TEST_CONTEXT("after " << c.after << ", streak " << c.streak) {
      qpm::TrustRegionOptions options;
      options.gradient_projection_after = c.after;
      qpm::ActiveSetStep step(n, options);
      Vector p(n);
      const qpm::ActiveSetResult r = step.Solve(Dense(laplacian), g, lower, upper, 1e6, 1e-12,
                                                10 * n, &p, nullptr, c.streak);
      BOOST_TEST(r.cauchy_freed);
      BOOST_TEST(r.cg.model_decrease > 0.0);
      BOOST_TEST((p.array() >= lower.array()).all());
      if (c.projection) {
        BOOST_TEST(r.projected_gradient_steps > 10);
        BOOST_TEST(r.free >= 10 * 4);  // ten times what the Cauchy point frees
        BOOST_TEST(r.free <= free_at_solution + 2);
      } else {
        BOOST_TEST(r.projected_gradient_steps == 0);
        BOOST_TEST(r.free <= 4);  // one entry a side, give or take the next
      }
    }
  }
}

// The same obstacle problem with step 3's rounds (no step 1b): each round
// frees the entries that the last face's solve turned inward, so the rounds
// free the wrongly active region further than the Cauchy point alone, never
// past the true contact set, and lower the model further; without rounds
// (release_rounds = 0) nothing is released.
BOOST_AUTO_TEST_CASE(ReleaseRoundsFreeAWronglyActiveRegionBeyondTheCauchyPoint) {
  const StringOverACap cap(199);
  const int n = cap.n, free_at_solution = cap.free_at_solution;
  const MatrixXd& laplacian = cap.laplacian;
  const Vector &g = cap.g, &lower = cap.lower, &upper = cap.upper;
  double decrease[2] = {0.0, 0.0};
  int free[2] = {0, 0};
  for (const int rounds : {0, 10}) {
    BOOST_TEST_CONTEXT("rounds " << rounds) {
      qpm::TrustRegionOptions options;
      options.gradient_projection_after = 0;
      options.release_gain = 1e-12;
      qpm::ActiveSetStep step(n, options);
      Vector p(n);
      const qpm::ActiveSetResult r = step.Solve(Dense(laplacian), g, lower, upper, 1e6, 1e-12,
                                                10 * n, &p, nullptr, 0, nullptr, 0.0, rounds);
      BOOST_TEST((p.array() >= lower.array()).all());
      BOOST_TEST(r.free <= free_at_solution + 2);
      BOOST_TEST((r.released > 0) == (rounds > 0));
      decrease[rounds > 0] = r.cg.model_decrease;
      free[rounds > 0] = r.free;
    }
  }
  BOOST_TEST(free[1] >= free[0] + 2 * 9);  // a layer a side for each later round
  BOOST_TEST(decrease[1] > decrease[0]);
}

// Step 3 from its second round runs step 1b's projected-gradient steps from
// the released entries (when gradient_projection_after > 0), with no streak
// of Cauchy points behind it: they free the region further than the rounds
// alone, never past the true contact set.
BOOST_AUTO_TEST_CASE(ASecondReleaseRoundFreesTheLayersBeyondTheReleasedEntries) {
  const StringOverACap cap(199);
  const int n = cap.n, free_at_solution = cap.free_at_solution;
  int free[2] = {0, 0}, steps[2] = {0, 0};
  for (const int after : {0, 3}) {
    BOOST_TEST_CONTEXT("after " << after) {
      qpm::TrustRegionOptions options;
      options.gradient_projection_after = after;
      options.release_gain = 1e-12;
      qpm::ActiveSetStep step(n, options);
      Vector p(n);
      const qpm::ActiveSetResult r = step.Solve(Dense(cap.laplacian), cap.g, cap.lower, cap.upper,
                                                1e6, 1e-12, 10 * n, &p, nullptr, 0, nullptr, 0.0, 3);
      BOOST_TEST((p.array() >= cap.lower.array()).all());
      BOOST_TEST(r.released > 0);
      BOOST_TEST(r.free <= free_at_solution + 2);
      free[after > 0] = r.free;
      steps[after > 0] = r.projected_gradient_steps;
    }
  }
  BOOST_TEST(steps[0] == 0);
  BOOST_TEST(steps[1] > 0);
  BOOST_TEST(free[1] > free[0]);
}

// A projected-gradient step freeing fewer entries than
// gradient_projection_trickle of the phase's most counts as idle. Two
// strings over caps, of 199 and 99 entries (one block each of H): the short
// one's fronts are freed first, after which a step frees half the entries it
// did, a trickle at 0.9 (the phase ends three steps later) and not at 0.
BOOST_AUTO_TEST_CASE(ATrickleOfFreedEntriesEndsTheProjectedGradientSteps) {
  const StringOverACap a(199), b(99);
  const int n = a.n + b.n;
  MatrixXd h = MatrixXd::Zero(n, n);
  h.topLeftCorner(a.n, a.n) = a.laplacian;
  h.bottomRightCorner(b.n, b.n) = b.laplacian;
  Vector g(n), lower(n), upper(n);
  g << a.g, b.g;
  lower << a.lower, b.lower;
  upper << a.upper, b.upper;
  std::vector<int> steps;
  for (const double trickle : {0.0, 0.9}) {
    BOOST_TEST_CONTEXT("trickle " << trickle) {
      qpm::TrustRegionOptions options;
      options.gradient_projection_trickle = trickle;
      qpm::ActiveSetStep step(n, options);
      Vector p(n);
      const qpm::ActiveSetResult r =
          step.Solve(Dense(h), g, lower, upper, 1e6, 1e-12, 10 * n, &p, nullptr, 2);
      BOOST_TEST(r.cg.model_decrease > 0.0);
      BOOST_TEST((p.array() >= lower.array()).all());
      BOOST_TEST(r.free <= a.free_at_solution + b.free_at_solution + 4);
      steps.push_back(r.projected_gradient_steps);
    }
  }
  BOOST_TEST(steps[0] > 10);
  BOOST_TEST(steps[1] >= 3);  // three idle steps at least
  BOOST_TEST(steps[1] < steps[0]);
}

// The projected search's trials valued on the assembled H (one product a
// face, H's columns at the clipped entries) take the steps of the search
// that pays one product a trial: on random sparse H, definite and not, with
// CG's steps leaving the box, and on every third a model H + sigma I over the
// assembled H (the trust region's shifted model), the same faces and the
// same p up to rounding.
BOOST_AUTO_TEST_CASE(SearchOnTheAssembledHessianTakesTheStepsOfTheSearchByProducts) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const int n = 60;
  qpm::ActiveSetStep by_products(n, qpm::TrustRegionOptions());
  qpm::ActiveSetStep on_assembled(n, qpm::TrustRegionOptions());
  long products[2] = {0, 0};
  int backtracked = 0;  // steps whose search rejected a trial
  for (int trial = 0; trial < 100; ++trial) {
    MatrixXd h = (trial % 2 ? 3.0 : 0.3) * MatrixXd::Identity(n, n);
    for (int k = 0; k < 3 * n; ++k) {
      const int i = static_cast<int>(uniform(rng) * n), j = static_cast<int>(uniform(rng) * n);
      const double v = 0.5 * normal(rng);
      h(i, j) += v;
      if (i != j) h(j, i) += v;
    }
    const double sigma = trial % 3 == 0 ? 2.0 : 0.0;
    const MatrixXd lower_dense = h.triangularView<Eigen::Lower>();
    h += sigma * MatrixXd::Identity(n, n);  // the model's; columns stay H's
    qpm::LowerMatrix lower_h = lower_dense.sparseView();
    lower_h.makeCompressed();
    const qpm::SymmetricColumns columns(lower_h);
    Vector g(n), lower(n), upper(n);
    for (int i = 0; i < n; ++i) {
      g[i] = normal(rng);
      const double width = i % 2 ? 1e20 : 0.1;  // half the entries unbounded
      lower[i] = i % 4 == 0 ? 0.0 : -width * uniform(rng);
      upper[i] = width * uniform(rng);
    }
    auto counted = [&h](long* count) {
      return qpm::HessianOperator([&h, count](const Vector& v, Vector* out) {
        ++*count;
        *out = h * v;
      });
    };
    Vector p(n), q(n);
    const long before = products[1];
    const qpm::ActiveSetResult a =
        by_products.Solve(counted(&products[0]), g, lower, upper, 10.0, 1e-10, 4 * n, &p);
    const qpm::ActiveSetResult b = on_assembled.Solve(counted(&products[1]), g, lower, upper, 10.0,
                                                      1e-10, 4 * n, &q, nullptr, 0, &columns, sigma);
    backtracked += products[1] - before < 2 * b.faces + b.cauchy_trials + b.cg.iterations;
    BOOST_TEST_CONTEXT("trial " << trial) {
      BOOST_TEST(a.faces == b.faces);
      BOOST_TEST(a.free == b.free);
      BOOST_TEST((p - q).lpNorm<Eigen::Infinity>() <= 1e-12);
      BOOST_TEST(b.cg.model_decrease == a.cg.model_decrease, boost::test_tools::tolerance(1e-12));
    }
  }
  BOOST_TEST(backtracked > 0);
}

// Pairs (u_i, v_i) with the block [1 0.999; 0.999 1] of H and the gradient
// (0.001, -0.003), mostly along the flat eigenvector (1, -1): the Cauchy
// point moves u by 0.0025, CG's Newton step moves it by about -2, and u's
// bound -0.05 clips that step into the steep eigenvector (1, 1). So the
// search rejects a = 1, 1/2, ..., 1/16 and accepts 1/32, near the first
// breakpoint 0.024; on the next face (v free) CG finishes. By products the
// six trials cost six products; on the assembled H one, H u.
BOOST_AUTO_TEST_CASE(SearchOnTheAssembledHessianHalvesWithoutProducts) {
  const int k = 10, n = 2 * k;
  MatrixXd h = MatrixXd::Zero(n, n);
  Vector g(n), lower = Vector::Constant(n, -1e20), upper = Vector::Constant(n, 1e20);
  for (int i = 0; i < k; ++i) {
    h(2 * i, 2 * i) = h(2 * i + 1, 2 * i + 1) = 1.0;
    h(2 * i, 2 * i + 1) = h(2 * i + 1, 2 * i) = 0.999;
    g[2 * i] = 0.001, g[2 * i + 1] = -0.003;
    lower[2 * i] = -0.05;
  }
  const MatrixXd lower_dense = h.triangularView<Eigen::Lower>();
  qpm::LowerMatrix lower_h = lower_dense.sparseView();
  lower_h.makeCompressed();
  const qpm::SymmetricColumns columns(lower_h);
  long products[2] = {0, 0};
  Vector p[2] = {Vector(n), Vector(n)};
  qpm::ActiveSetResult r[2];
  for (int s = 0; s < 2; ++s) {
    long* count = &products[s];
    const qpm::HessianOperator counted = [&h, count](const Vector& v, Vector* out) {
      ++*count;
      *out = h * v;
    };
    qpm::ActiveSetStep step(n, qpm::TrustRegionOptions());
    r[s] = step.Solve(counted, g, lower, upper, 1e6, 1e-12, 10 * n, &p[s], nullptr, 0,
                      s ? &columns : nullptr);
  }
  BOOST_TEST((r[0].cg.exit == qpm::CgExit::kConverged));
  BOOST_TEST((r[1].cg.exit == qpm::CgExit::kConverged));
  BOOST_TEST(r[1].faces == r[0].faces);
  BOOST_TEST((p[1] - p[0]).lpNorm<Eigen::Infinity>() <= 1e-12);
  BOOST_TEST(r[1].faces == 2);
  BOOST_TEST(p[1][0] == -0.05);
  BOOST_TEST(products[0] - products[1] == 6 - 1);
}

// The same agreement where the model is H + sigma I over a nearly singular
// H and CG's steps run far out of the box: pairs (u_i, v_i) with the block
// [1 c; c 1] of H (c near 1), whose flat direction (1, -1) the search clips
// into the steep one, so that trials are rejected while entries leave the
// clipped set, and sigma's share of u.Hu and of d_C.H_CC d_C decides them.
BOOST_AUTO_TEST_CASE(SearchOnTheAssembledHessianValuesTheShiftAsProductsDo) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const int k = 8, n = 2 * k;
  int differs_without_shift = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    MatrixXd h = MatrixXd::Zero(n, n);
    Vector g(n), lower(n), upper(n);
    for (int i = 0; i < k; ++i) {
      const double c = 1.0 - std::pow(10.0, -1.0 - 3.0 * uniform(rng));
      h(2 * i, 2 * i) = h(2 * i + 1, 2 * i + 1) = 1.0;
      h(2 * i, 2 * i + 1) = h(2 * i + 1, 2 * i) = c;
      g[2 * i] = 1e-3 * (uniform(rng) - 0.3), g[2 * i + 1] = -3e-3 * uniform(rng);
      lower[2 * i] = -0.1 * uniform(rng), upper[2 * i] = 0.1 * uniform(rng);
      lower[2 * i + 1] = -1e20, upper[2 * i + 1] = 1e20;
    }
    const double sigma = std::pow(10.0, -4.0 + 3.0 * uniform(rng));
    const MatrixXd lower_dense = h.triangularView<Eigen::Lower>();
    qpm::LowerMatrix lower_h = lower_dense.sparseView();
    lower_h.makeCompressed();
    const qpm::SymmetricColumns columns(lower_h);
    Vector p[3] = {Vector(n), Vector(n), Vector(n)};
    qpm::ActiveSetResult r[3];
    for (int s = 0; s < 3; ++s) {  // by products, on the assembled H, and by products without sigma
      const MatrixXd model = h + (s < 2 ? sigma : 0.0) * MatrixXd::Identity(n, n);
      qpm::ActiveSetStep step(n, qpm::TrustRegionOptions());
      r[s] = step.Solve(Dense(model), g, lower, upper, 1e6, 1e-12, 10 * n, &p[s], nullptr, 0,
                        s == 1 ? &columns : nullptr, s == 1 ? sigma : 0.0);
    }
    BOOST_TEST_CONTEXT("trial " << trial << ", sigma " << sigma) {
      BOOST_TEST(r[1].faces == r[0].faces);
      BOOST_TEST((p[1] - p[0]).lpNorm<Eigen::Infinity>() <= 1e-12);
    }
    differs_without_shift += (p[2] - p[0]).lpNorm<Eigen::Infinity>() > 1e-9;
  }
  BOOST_TEST(differs_without_shift > 0);  // sigma changes the steps
}
