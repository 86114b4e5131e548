#define BOOST_TEST_MODULE penalty
#include <boost/test/unit_test.hpp>

#include "core/inner/inner_solver.hpp"
#include "core/multipliers.hpp"
#include "core/penalty.hpp"
#include "core/stationarity.hpp"
#include "test_problems.hpp"

using namespace qpm_test;
namespace tt = boost::test_tools;

namespace {

// Central differences of Q_beta at x along each coordinate.
Vector FiniteDifferenceGradient(qpm::PenaltyFunction& q, const Vector& x) {
  qpm::Iterate probe;
  q.Allocate(&probe);
  Vector g(x.size());
  const double h = 1e-6;
  for (int i = 0; i < x.size(); ++i) {
    probe.x = x;
    probe.x[i] += h;
    BOOST_REQUIRE(q.EvaluateValues(&probe));
    const double plus = probe.Q(q.merit().beta());
    probe.x[i] -= 2 * h;
    BOOST_REQUIRE(q.EvaluateValues(&probe));
    g[i] = (plus - probe.Q(q.merit().beta())) / (2 * h);
  }
  return g;
}

}  // namespace

BOOST_AUTO_TEST_CASE(GradientMatchesFiniteDifferences) {
  for (const TestProblem& p : AllProblems()) {
    EigenProblem problem(p);
    qpm::PenaltyFunction q(&problem);
    for (double beta : {1.0, 37.0, 1e4}) {
      q.merit().set_beta(beta);
      qpm::Iterate it;
      q.Allocate(&it);
      it.x = p.x0 + 0.1 * Vector::LinSpaced(p.n, 0.3, -0.2);
      BOOST_REQUIRE(q.EvaluateValues(&it));
      BOOST_REQUIRE(q.EvaluateDerivatives(&it));
      const Vector fd = FiniteDifferenceGradient(q, it.x);
      BOOST_TEST_CONTEXT(p.name << " beta " << beta) {
        BOOST_TEST((it.grad_q - fd).norm() <= 1e-6 * std::max(1.0, fd.norm()));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(ValueIsObjectivePlusHalfBetaSquaredViolation) {
  EigenProblem problem(Hs7());
  qpm::PenaltyFunction q(&problem);
  qpm::Iterate it;
  q.Allocate(&it);
  it.x = Hs7().x0;
  BOOST_REQUIRE(q.EvaluateValues(&it));
  const double c = Hs7().c(it.x)[0];
  BOOST_TEST(it.Q(3.0) == Hs7().f(it.x) + 1.5 * c * c, tt::tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(NewBetaGradientNeedsNoEvaluations) {
  EigenProblem problem(LeastNorm());
  qpm::PenaltyFunction q(&problem);
  qpm::Iterate it;
  q.Allocate(&it);
  it.x = LeastNorm().x0;
  BOOST_REQUIRE(q.EvaluateValues(&it));
  BOOST_REQUIRE(q.EvaluateDerivatives(&it));
  const auto counts = q.counts();
  q.merit().set_beta(10.0);
  q.merit().FormGradient(&it);
  BOOST_TEST(q.counts().q_evals == counts.q_evals);
  BOOST_TEST(q.counts().grad_evals == counts.grad_evals);
  const Vector expected = it.grad_f + 10.0 * it.jacobian().transpose() * it.c;
  BOOST_TEST((it.grad_q - expected).norm() <= 1e-12);
}

BOOST_AUTO_TEST_CASE(CountsOneEvaluationPerPair) {
  EigenProblem problem(Hs6());
  qpm::PenaltyFunction q(&problem);
  qpm::Iterate it;
  q.Allocate(&it);
  it.x = Hs6().x0;
  BOOST_REQUIRE(q.EvaluateValues(&it));
  BOOST_REQUIRE(q.EvaluateValues(&it));
  BOOST_REQUIRE(q.EvaluateDerivatives(&it));
  BOOST_TEST(q.counts().q_evals == 2);
  BOOST_TEST(q.counts().grad_evals == 1);
}

BOOST_AUTO_TEST_CASE(HessianProductMatchesFiniteDifferencesOfTheGradient) {
  for (const TestProblem& p : AllProblems()) {
    EigenProblem problem(p);
    qpm::PenaltyFunction q(&problem);
    q.merit().set_beta(50.0);
    qpm::Iterate it, probe;
    q.Allocate(&it);
    q.Allocate(&probe);
    it.x = p.x0 + 0.05 * Vector::LinSpaced(p.n, 1.0, -1.0);
    BOOST_REQUIRE(q.EvaluateValues(&it));
    BOOST_REQUIRE(q.EvaluateDerivatives(&it));
    BOOST_REQUIRE(q.EvaluateHessian(it));
    const Vector v = Vector::LinSpaced(p.n, 0.5, -1.5);
    Vector hv(p.n);
    q.HessianProduct(it, v, &hv);
    const double h = 1e-6;
    Vector fd = Vector::Zero(p.n);
    for (double sign : {1.0, -1.0}) {
      probe.x = it.x + sign * h * v;
      BOOST_REQUIRE(q.EvaluateValues(&probe));
      BOOST_REQUIRE(q.EvaluateDerivatives(&probe));
      fd += sign * probe.grad_q / (2 * h);
    }
    BOOST_TEST_CONTEXT(p.name) { BOOST_TEST((hv - fd).norm() <= 1e-5 * std::max(1.0, fd.norm())); }
    BOOST_TEST(q.counts().hess_evals == 1);
  }
}

BOOST_AUTO_TEST_CASE(ViolationStationarityIsTheGradientOfTheViolationNorm) {
  // Without bounds grad Q - grad f = beta J^T c, and grad ||c|| = J^T c / ||c||.
  for (const TestProblem& p : AllProblems()) {
    EigenProblem problem(p);
    qpm::PenaltyFunction q(&problem);
    q.merit().set_beta(37.0);
    qpm::Iterate it;
    q.Allocate(&it);
    it.x = p.x0 + 0.1 * Vector::LinSpaced(p.n, 0.3, -0.2);
    BOOST_REQUIRE(q.EvaluateValues(&it));
    BOOST_REQUIRE(q.EvaluateDerivatives(&it));
    if (q.layout().has_bounds() || it.c_norm() == 0.0) continue;
    const double expected = (it.grad_q - it.grad_f).norm() / 37.0 / it.c_norm();
    BOOST_TEST_CONTEXT(p.name) {
      BOOST_TEST(qpm::ViolationStationarity(q, it, q.workspace()) == expected,
                 tt::tolerance(1e-10));
    }
  }
}

namespace {
// min 1/2 ||x - shift||^2 s.t. a x = 1, from x0 = LinSpaced(-1, 1.5).
TestProblem DistanceToAnAffineSet(const Eigen::MatrixXd& a, const Vector& shift) {
  TestProblem p;
  p.n = static_cast<int>(a.cols()), p.m = static_cast<int>(a.rows());
  const int n = p.n, m = p.m;
  p.x0 = Vector::LinSpaced(n, -1.0, 1.5);
  p.f = [shift](const Vector& x) { return 0.5 * (x - shift).squaredNorm(); };
  p.grad = [shift](const Vector& x) -> Vector { return x - shift; };
  p.c = [a, m](const Vector& x) -> Vector { return a * x - Vector::Ones(m); };
  p.jac = [a](const Vector&) { return a; };
  p.hess = [n](const Vector&, double sigma, const Vector&) -> Eigen::MatrixXd {
    return sigma * Eigen::MatrixXd::Identity(n, n);
  };
  return p;
}

// The penalty of p with values and derivatives at x0.
struct PenaltyAtStart {
  explicit PenaltyAtStart(const TestProblem& p) : problem(p), q(&problem) {
    q.Allocate(&it);
    it.x = p.x0;
    BOOST_REQUIRE(q.EvaluateValues(&it));
    BOOST_REQUIRE(q.EvaluateDerivatives(&it));
  }
  EigenProblem problem;
  qpm::PenaltyFunction q;
  qpm::Iterate it;
};
}  // namespace

// The least-squares multipliers (core/multipliers.hpp, CGLS on J) solve
// min ||grad f + J^T lambda|| as a dense QR does, from zero and from a guess.
BOOST_AUTO_TEST_CASE(LeastSquaresMultipliersMatchADenseSolve) {
  const Eigen::MatrixXd a = (Eigen::MatrixXd(3, 6) << 1, 2, 0, -1, 0, 3,  //
                             0, 1, 4, 0, -2, 1,                           //
                             2, 0, 1, 1, 1, -1).finished();
  const TestProblem p = DistanceToAnAffineSet(a, (Vector(6) << 1, -2, 0.5, 3, -1, 2).finished());
  PenaltyAtStart at(p);
  qpm::PenaltyFunction& q = at.q;
  const qpm::Iterate& it = at.it;
  const Vector dense = a.transpose().colPivHouseholderQr().solve(-p.grad(p.x0));
  const Vector estimate = qpm::LeastSquaresMultipliers(q, it, 1e6, q.workspace());
  BOOST_TEST((estimate - dense).lpNorm<Eigen::Infinity>() <= 1e-9 * dense.lpNorm<Eigen::Infinity>());
  const Vector accurate = qpm::AccurateLeastSquaresMultipliers(q, it, Vector::Constant(3, 5.0), 4.0, q.workspace());
  BOOST_TEST((accurate - dense).lpNorm<Eigen::Infinity>() <= 1e-12 * dense.lpNorm<Eigen::Infinity>());
  // Beyond max_abs the estimate is refused (zeros).
  BOOST_TEST(qpm::LeastSquaresMultipliers(q, it, 1e-3, q.workspace()).isZero(0.0));
}

// A few dense rows (the Gram matrix then comes from products with J, not
// from copies of it) and a banded J (the assembled Gram matrix): the
// accurate estimate matches a dense QR either way.
BOOST_AUTO_TEST_CASE(AccurateMultipliersOfDenseAndOfBandedRowsMatchADenseSolve) {
  const int n = 3000;
  Eigen::MatrixXd dense_rows = Eigen::MatrixXd::Random(4, n);
  Eigen::MatrixXd banded = Eigen::MatrixXd::Zero(60, 80);
  for (int r = 0; r < 60; ++r) banded.block(r, r, 1, 3) << 1.0 + r % 3, -2.0, 0.5;
  for (const Eigen::MatrixXd& a : {dense_rows, banded}) {
    const TestProblem p = DistanceToAnAffineSet(a, Vector::LinSpaced(a.cols(), -3.0, 2.0));
    PenaltyAtStart at(p);
    const Vector dense = a.transpose().colPivHouseholderQr().solve(-p.grad(p.x0));
    const Vector accurate = qpm::AccurateLeastSquaresMultipliers(
        at.q, at.it, Vector::Zero(a.rows()), 4.0, at.q.workspace());
    BOOST_TEST((accurate - dense).lpNorm<Eigen::Infinity>() <=
               1e-12 * dense.lpNorm<Eigen::Infinity>());
  }
}

// Where active rows are dependent (here two equal rows of J) the gradient
// fixes only their multipliers' sum: the accurate estimate keeps the rest
// where the guess put it (the least-squares solution nearest the guess),
// not at the rounding of a factor of the singular J J^T.
BOOST_AUTO_TEST_CASE(AccurateMultipliersOfDependentRowsStayNearestTheGuess) {
  const Eigen::MatrixXd a = (Eigen::MatrixXd(3, 4) << 1, 2, 0, -1,  //
                             1, 2, 0, -1,                           //
                             0, 1, 3, 1).finished();
  const TestProblem p = DistanceToAnAffineSet(a, (Vector(4) << 1, -2, 0.5, 3).finished());
  PenaltyAtStart at(p);
  qpm::PenaltyFunction& q = at.q;
  const qpm::Iterate& it = at.it;
  const Eigen::MatrixXd independent = a.bottomRows(2);  // rows 1 and 3
  const Vector reduced = independent.transpose().colPivHouseholderQr().solve(-p.grad(p.x0));
  const Vector guess = (Vector(3) << 40.0, -10.0, 7.0).finished();
  const Vector estimate = qpm::AccurateLeastSquaresMultipliers(q, it, guess, 4.0, q.workspace());
  const double scale = reduced.lpNorm<Eigen::Infinity>();
  BOOST_TEST(std::abs(estimate[0] + estimate[1] - reduced[0]) <= 1e-10 * scale);
  BOOST_TEST(std::abs(estimate[2] - reduced[1]) <= 1e-10 * scale);
  BOOST_TEST(std::abs((estimate[0] - estimate[1]) - (guess[0] - guess[1])) <=
             1e-3 * std::abs(guess[0] - guess[1]));
}

// One copy of J's indices serves every iterate (docs/algorithm.md, "Memory
// budget"); each keeps its own values, and a swap exchanges only those.
BOOST_AUTO_TEST_CASE(IteratesShareOneJacobianPatternAndKeepTheirOwnValues) {
  const TestProblem p = CircleLinear();
  EigenProblem problem(p);
  qpm::PenaltyFunction q(&problem);
  qpm::Iterate a, b;
  q.Allocate(&a);
  q.Allocate(&b);
  a.x = p.x0;
  b.x = p.x0 + Vector::Constant(p.n, 0.5);
  BOOST_REQUIRE(q.EvaluateValues(&a) && q.EvaluateDerivatives(&a));
  BOOST_REQUIRE(q.EvaluateValues(&b) && q.EvaluateDerivatives(&b));
  BOOST_TEST(a.jacobian().innerIndexPtr() == b.jacobian().innerIndexPtr());
  const Eigen::MatrixXd ja = p.jac(a.x), jb = p.jac(b.x);
  BOOST_REQUIRE((ja - jb).norm() > 0.0);
  qpm::SwapIterates(&a, &b);
  BOOST_TEST((Eigen::MatrixXd(a.jacobian()) - jb).norm() == 0.0);
  BOOST_TEST((Eigen::MatrixXd(b.jacobian()) - ja).norm() == 0.0);
}
