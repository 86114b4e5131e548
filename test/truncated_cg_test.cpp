#define BOOST_TEST_MODULE truncated_cg
#include <boost/test/unit_test.hpp>

#include <random>

#include <Eigen/Dense>

#include "core/inner/truncated_cg.hpp"

using qpm::Vector;
using Eigen::MatrixXd;

namespace {

qpm::HessianOperator Dense(const MatrixXd& h) {
  return [h](const Vector& v, Vector* out) { *out = h * v; };
}

MatrixXd RandomSymmetric(int n, double shift, std::mt19937* rng) {
  std::normal_distribution<double> normal;
  MatrixXd a(n, n);
  for (int i = 0; i < n * n; ++i) a.data()[i] = normal(*rng);
  return 0.5 * (a + a.transpose()) + shift * MatrixXd::Identity(n, n);
}

}  // namespace

BOOST_AUTO_TEST_CASE(NeverLeavesTheRadius) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  const int n = 12;
  qpm::TruncatedCg cg(n);
  Vector p(n), g(n);
  for (int trial = 0; trial < 200; ++trial) {
    const MatrixXd h = RandomSymmetric(n, trial % 2 ? 6.0 : 0.0, &rng);  // SPD-ish or indefinite
    for (int i = 0; i < n; ++i) g[i] = normal(rng);
    const double radius = std::pow(10.0, trial % 5 - 2);
    const qpm::CgResult r = cg.Solve(Dense(h), g, radius, 1e-10, n, &p);
    BOOST_TEST(p.norm() <= radius * (1 + 1e-12));
    BOOST_TEST(r.model_decrease >= 0.0);
    BOOST_TEST(r.model_decrease == -(g.dot(p) + 0.5 * p.dot(h * p)), boost::test_tools::tolerance(1e-9));
  }
}

BOOST_AUTO_TEST_CASE(SolvesASmallSpdSystemExactlyWhenTheRadiusIsLarge) {
  std::mt19937 rng(3);
  const int n = 6;
  const MatrixXd a = RandomSymmetric(n, 0.0, &rng);
  const MatrixXd h = a * a.transpose() + MatrixXd::Identity(n, n);
  const Vector g = Vector::LinSpaced(n, -1.0, 2.0);
  qpm::TruncatedCg cg(n);
  Vector p(n);
  const qpm::CgResult r = cg.Solve(Dense(h), g, 1e6, 1e-13, 10 * n, &p);
  BOOST_TEST((r.exit == qpm::CgExit::kConverged));
  const Vector exact = -h.ldlt().solve(g);
  BOOST_TEST((p - exact).norm() <= 1e-10 * exact.norm());
  BOOST_TEST(r.iterations <= n + 1);
}

BOOST_AUTO_TEST_CASE(FollowsNegativeCurvatureToTheBoundary) {
  MatrixXd h = MatrixXd::Zero(2, 2);
  h(0, 0) = -1.0;
  h(1, 1) = 2.0;
  const Vector g = (Vector(2) << 0.5, 1.0).finished();
  qpm::TruncatedCg cg(2);
  Vector p(2);
  const qpm::CgResult r = cg.Solve(Dense(h), g, 3.0, 1e-12, 10, &p);
  BOOST_TEST((r.exit == qpm::CgExit::kNegativeCurvature));
  BOOST_TEST(p.norm() == 3.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(g.dot(p) < 0.0);  // still a descent step for the model
}

BOOST_AUTO_TEST_CASE(StopsOnTheBoundaryWhenTheNewtonStepIsOutside) {
  const MatrixXd h = MatrixXd::Identity(3, 3);
  const Vector g = Vector::Constant(3, 10.0);  // Newton step has norm 17.3
  qpm::TruncatedCg cg(3);
  Vector p(3);
  const qpm::CgResult r = cg.Solve(Dense(h), g, 1.0, 1e-12, 10, &p);
  BOOST_TEST((r.exit == qpm::CgExit::kBoundary));
  BOOST_TEST(p.norm() == 1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST((p + g.normalized()).norm() <= 1e-12);  // the Cauchy direction
}
