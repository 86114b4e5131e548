#define BOOST_TEST_MODULE lbfgs
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include <Eigen/Dense>

#include "qpm/core/inner/lbfgs.hpp"

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

}  // namespace

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
