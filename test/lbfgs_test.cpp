#define BOOST_TEST_MODULE lbfgs
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include <Eigen/Dense>

#include "core/inner/lbfgs.hpp"
#include "status_print.hpp"

// The two-loop recursion against the matrix it stands for: H built densely
// by the BFGS inverse update (Nocedal & Wright eq. (6.17))
//   H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T,  rho = 1 / (s.y),
// from H0 = (s.y / y.y) I of the newest pair, over the same pairs, oldest
// first. Pairs come from a quadratic with SPD Hessian A (y = A s).

using qpm::Vector;

namespace {

struct Pairs {
  Eigen::MatrixXd a;     // Hessian of the quadratic
  std::vector<Vector> s, y;  // in the order they were made
};

Pairs QuadraticPairs(int n, int count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd m(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m(i, j) = u(gen);
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(m);
  const Eigen::MatrixXd q = qr.householderQ();
  const Vector eig = Vector::LinSpaced(n, 1.0, 100.0);  // condition number 100
  Pairs p;
  p.a = q * eig.asDiagonal() * q.transpose();
  for (int k = 0; k < count; ++k) {
    Vector s(n);
    for (int i = 0; i < n; ++i) s[i] = u(gen);
    p.s.push_back(s);
    p.y.push_back(p.a * s);
  }
  return p;
}

// The circular store Lbfgs keeps after `pairs` were remembered in order.
struct Store {
  Eigen::MatrixXd s, y;
  Vector rho, alpha;
  int newest = -1;
  int count = 0;
};

Store Remember(const Pairs& pairs, int memory) {
  const int n = static_cast<int>(pairs.a.rows());
  Store st;
  st.s.resize(n, memory);
  st.y.resize(n, memory);
  st.rho.resize(memory);
  st.alpha.resize(memory);
  for (size_t k = 0; k < pairs.s.size(); ++k) {
    st.newest = (st.newest + 1) % memory;
    st.s.col(st.newest) = pairs.s[k];
    st.y.col(st.newest) = pairs.y[k];
    st.rho[st.newest] = 1.0 / pairs.s[k].dot(pairs.y[k]);
    st.count = std::min(st.count + 1, memory);
  }
  return st;
}

// Dense BFGS inverse Hessian from the last `count` pairs.
Eigen::MatrixXd DenseInverseHessian(const Pairs& pairs, int count) {
  const int n = static_cast<int>(pairs.a.rows());
  const int last = static_cast<int>(pairs.s.size()) - 1;
  const Eigen::MatrixXd id = Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd h = pairs.s[last].dot(pairs.y[last]) / pairs.y[last].squaredNorm() * id;
  for (int k = last - count + 1; k <= last; ++k) {
    const Vector& s = pairs.s[k];
    const Vector& y = pairs.y[k];
    const double rho = 1.0 / s.dot(y);
    h = (id - rho * s * y.transpose()) * h * (id - rho * y * s.transpose()) + rho * s * s.transpose();
  }
  return h;
}

double RelativeError(const Vector& a, const Vector& b) { return (a - b).norm() / b.norm(); }

// min f(x) = 1/2 (x - x*)' A (x - x*) + g*.(x - x*) over the box [l, u]^n
// (no rows, so Q = f): with A SPD and g* zero on the entries of x* inside
// the box, >= 0 where x*_i = l and <= 0 where x*_i = u, x* is the unique
// minimizer (KKT of a strictly convex problem).
class BoxQuadratic : public qpm::Problem {
 public:
  BoxQuadratic(Eigen::MatrixXd a, Vector x_star, Vector g_star, double l, double u)
      : a_(std::move(a)), x_star_(std::move(x_star)), g_star_(std::move(g_star)), l_(l), u_(u) {}
  int num_variables() const override { return static_cast<int>(x_star_.size()); }
  int num_constraints() const override { return 0; }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef, qpm::VectorRef) const override {
    x_l.setConstant(l_);
    x_u.setConstant(u_);
  }
  void InitJacobian(qpm::SparseMatrix* j) const override { j->resize(0, num_variables()); }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    const Vector d = x - x_star_;
    *f = 0.5 * d.dot(a_ * d) + g_star_.dot(d);
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef&, qpm::VectorRef) override { return true; }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g = a_ * (x - x_star_) + g_star_;
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView*) override { return true; }
  const Vector& x_star() const { return x_star_; }
  double lower() const { return l_; }
  double upper() const { return u_; }

 private:
  Eigen::MatrixXd a_;
  Vector x_star_, g_star_;
  double l_, u_;
};

// n = 40 over [0, 1]^n, A with condition number 100: entries 0-11 of x* at
// the lower bound, 12-23 at the upper, the rest inside.
BoxQuadratic ManyActiveBounds() {
  const int n = 40;
  const Pairs random = QuadraticPairs(n, 0, 23u);
  Vector x_star(n), g_star = Vector::Zero(n);
  for (int i = 0; i < n; ++i) {
    x_star[i] = i < 12 ? 0.0 : i < 24 ? 1.0 : 0.2 + 0.6 * (i - 24) / (n - 24);
    if (i < 12) g_star[i] = 5.0 + i;
    else if (i < 24) g_star[i] = -5.0 - i;
  }
  return BoxQuadratic(random.a, x_star, g_star, 0.0, 1.0);
}

// f = 1/2 ||x - a||^2 over [-0.01, 0.01]^n, a = (1, ..., 2): from x0 = 0
// the minimizer is the upper corner, and -grad f points at it.
BoxQuadratic Corner(int n) {
  return BoxQuadratic(Eigen::MatrixXd::Identity(n, n), Vector::LinSpaced(n, 1.0, 2.0),
                      Vector::Zero(n), -0.01, 0.01);
}

struct BoxRun {
  qpm::InnerSummary summary;
  Vector x;
  int max_new_active = 0;  // most bounds one Cauchy point activated
  int first_new_active = 0;
  bool left_box = false;   // some accepted iterate outside [l, u]
};

BoxRun MinimizeInBox(BoxQuadratic* problem, const Vector& x0) {
  qpm::PenaltyFunction q(problem);
  qpm::Iterate x;
  q.Allocate(&x);
  x.x = x0;
  BOOST_REQUIRE(q.EvaluateValues(&x));
  BOOST_REQUIRE(q.EvaluateDerivatives(&x));
  qpm::Lbfgs solver(qpm::LbfgsOptions(), *q.assembled());
  qpm::InnerControl control;
  control.tolerance = qpm::FeasibilityTolerance{1e-10, 1e-10, 0.0};
  control.max_iterations = 10000;
  BoxRun run;
  control.on_iteration = [&](const qpm::Iterate& it, const qpm::StepInfo&) {
    run.left_box |= (it.x.array() < problem->lower()).any() || (it.x.array() > problem->upper()).any();
    if (run.max_new_active == 0) run.first_new_active = solver.cauchy_new_active();
    run.max_new_active = std::max(run.max_new_active, solver.cauchy_new_active());
    return true;
  };
  run.summary = solver.Minimize(control, &x);
  run.x = x.x;
  return run;
}

}  // namespace

BOOST_AUTO_TEST_CASE(LbfgsBConvergesToTheMinimizerOfABoxQuadraticWithManyActiveBounds) {
  BoxQuadratic problem = ManyActiveBounds();
  const BoxRun run = MinimizeInBox(&problem, Vector::Constant(problem.num_variables(), 0.5));
  BOOST_TEST_MESSAGE(run.summary.iterations << " iterations; at most " << run.max_new_active
                     << " bounds activated by one Cauchy point, " << run.first_new_active << " by the first");
  BOOST_TEST(run.summary.status == qpm::InnerStatus::kConverged);
  BOOST_TEST((run.x - problem.x_star()).lpNorm<Eigen::Infinity>() <= 1e-8);
  BOOST_TEST((run.x.head(12).array() == 0.0).all());  // exactly on the active bounds
  BOOST_TEST((run.x.segment(12, 12).array() == 1.0).all());
  BOOST_TEST(!run.left_box);
  BOOST_TEST(run.max_new_active >= 6);  // several bounds in one Cauchy point
  BOOST_TEST(run.summary.iterations <= 60);
}

BOOST_AUTO_TEST_CASE(LbfgsBCauchyPointActivatesEveryBoundOfA1000DimensionalCornerInOneStep) {
  const int n = 1000;
  BoxQuadratic problem = Corner(n);
  const BoxRun run = MinimizeInBox(&problem, Vector::Zero(n));
  BOOST_TEST(run.summary.status == qpm::InnerStatus::kConverged);
  BOOST_TEST(run.summary.iterations == 1);
  BOOST_TEST(run.first_new_active == n);
  BOOST_TEST((run.x.array() == 0.01).all());
  BOOST_TEST(!run.left_box);
}

BOOST_AUTO_TEST_CASE(TwoLoopRecursionEqualsTheDenseBfgsInverseUpdate) {
  const int n = 8;
  // Fewer pairs than memory, exactly memory, and more (the store wraps).
  for (int made : {1, 3, 5, 7, 12}) {
    const int memory = 5;
    const Pairs pairs = QuadraticPairs(n, made, 17u + made);
    Store st = Remember(pairs, memory);
    BOOST_REQUIRE(st.count == std::min(made, memory));
    const Eigen::MatrixXd h = DenseInverseHessian(pairs, st.count);
    std::mt19937 gen(3);
    std::normal_distribution<double> normal;
    for (int trial = 0; trial < 4; ++trial) {
      Vector g(n);
      for (int i = 0; i < n; ++i) g[i] = normal(gen);
      Vector d = g;
      qpm::TwoLoopRecursion(st.s, st.y, st.rho, st.newest, st.count, &st.alpha, &d);
      BOOST_TEST_CONTEXT(made << " pairs, memory " << memory << ", vector " << trial) {
        BOOST_TEST(RelativeError(d, h * g) <= 1e-10);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(TwoLoopRecursionSatisfiesTheSecantEquationOfTheNewestPair) {
  // H y_k = s_k holds exactly for the BFGS matrix built with pair k last.
  const Pairs pairs = QuadraticPairs(6, 9, 5u);
  Store st = Remember(pairs, 4);
  Vector d = pairs.y.back();
  qpm::TwoLoopRecursion(st.s, st.y, st.rho, st.newest, st.count, &st.alpha, &d);
  BOOST_TEST(RelativeError(d, pairs.s.back()) <= 1e-12);
}

BOOST_AUTO_TEST_CASE(TwoLoopRecursionWithAFullHistoryInvertsTheQuadraticsHessian) {
  // n pairs whose s span R^n, made along BFGS's own iterates with exact line
  // searches on the quadratic, give H = A^{-1} (quadratic termination,
  // Nocedal & Wright Thm. 6.4): the direction is the Newton step.
  const int n = 5;
  const Pairs random = QuadraticPairs(n, 0, 11u);
  const Eigen::MatrixXd& a = random.a;
  const Vector b = Vector::LinSpaced(n, -1.0, 2.0);
  Vector x = Vector::Zero(n);
  Pairs pairs;
  pairs.a = a;
  Store st;
  st.s.resize(n, n);
  st.y.resize(n, n);
  st.rho.resize(n);
  st.alpha.resize(n);
  for (int k = 0; k < n; ++k) {
    const Vector g = a * x - b;
    Vector d = -g;
    if (st.count > 0) qpm::TwoLoopRecursion(st.s, st.y, st.rho, st.newest, st.count, &st.alpha, &d);
    const double t = -g.dot(d) / d.dot(a * d);  // exact line search
    const Vector s = t * d;
    x += s;
    pairs.s.push_back(s);
    pairs.y.push_back(a * s);
    st = Remember(pairs, n);
  }
  const Vector g = a * x - b;
  BOOST_TEST(g.norm() <= 1e-10 * b.norm());  // n exact steps reach the minimizer
  const Vector probe = Vector::LinSpaced(n, 1.0, -1.0);
  Vector d = probe;
  qpm::TwoLoopRecursion(st.s, st.y, st.rho, st.newest, st.count, &st.alpha, &d);
  BOOST_TEST(RelativeError(d, a.ldlt().solve(probe)) <= 1e-8);
}
