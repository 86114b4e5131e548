#define BOOST_TEST_MODULE preconditioner
#include <boost/test/unit_test.hpp>

#include "core/inner/preconditioner.hpp"
#include "paper_options.hpp"
#include "qpm/core/solver.hpp"
#include "status_print.hpp"
#include "test_problems.hpp"

using namespace qpm_test;

namespace qpm {
// Boost.Test prints the kind's name when a comparison fails (status_print.hpp).
inline std::ostream& boost_test_print_type(std::ostream& out, PreconditionerKind kind) {
  return out << ToString(kind);
}
}  // namespace qpm

namespace {

// Q's Hessian pieces at x0 of `p` for beta, loaded into `q`.
struct Loaded {
  explicit Loaded(const TestProblem& p, double beta) : problem(p), q(&problem) {
    q.set_beta(beta);
    q.Allocate(&it);
    it.x = p.x0;
    BOOST_REQUIRE(q.EvaluateValues(&it));
    BOOST_REQUIRE(q.EvaluateDerivatives(&it));
    BOOST_REQUIRE(q.EvaluateHessian(it));
  }
  EigenProblem problem;
  qpm::PenaltyFunction q;
  qpm::Iterate it;
};

}  // namespace

BOOST_AUTO_TEST_CASE(PenaltyPreconditionerInvertsDPlusBetaJtJExactly) {
  for (double beta : {1.0, 1e3, 1e8}) {
    Loaded l(LeastNorm(), beta);  // W = I: D = I
    qpm::Preconditioner m(qpm::PreconditionerKind::kPenalty, &l.q, 3000);
    BOOST_REQUIRE(m.Update(l.it));
    const Eigen::MatrixXd j = LeastNorm().jac(l.it.x);
    const Eigen::MatrixXd full = Eigen::MatrixXd::Identity(4, 4) + beta * j.transpose() * j;
    const Vector v = Vector::LinSpaced(4, 1.0, -2.0);
    Vector z(4);
    m.Apply(full * v, &z);
    // Woodbury cancels terms of size beta ||J||^2: rounding grows with beta.
    BOOST_TEST_CONTEXT("beta " << beta) { BOOST_TEST((z - v).norm() <= 1e-13 * beta * v.norm()); }
  }
}

BOOST_AUTO_TEST_CASE(JacobiPreconditionerIsTheDiagonalOfH) {
  Loaded l(Hs7(), 100.0);
  qpm::Preconditioner m(qpm::PreconditionerKind::kJacobi, &l.q, 3000);
  BOOST_REQUIRE(m.Update(l.it));
  Eigen::MatrixXd h(2, 2);
  for (int c = 0; c < 2; ++c) {
    Vector e = Vector::Unit(2, c), col(2);
    l.q.HessianProduct(l.it, e, &col);
    h.col(c) = col;
  }
  Vector z(2);
  m.Apply(Vector::Ones(2), &z);
  for (int i = 0; i < 2; ++i) BOOST_TEST(z[i] * std::abs(h(i, i)) == 1.0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(EveryPreconditionerSolvesTheTestProblems) {
  for (auto kind : {qpm::PreconditionerKind::kNone, qpm::PreconditionerKind::kJacobi,
                    qpm::PreconditionerKind::kPenalty}) {
    for (const TestProblem& p : AllProblems()) {
      EigenProblem problem(p);
      qpm::Options o = PaperOptions();
      o.inner_solver = qpm::InnerSolverType::kTrustRegion;
      o.tr.preconditioner = kind;
      o.paper.feasibility_tol = o.paper.stationarity_tol = 1e-7;
      const qpm::Summary s = qpm::Solve(&problem, p.x0, o);
      BOOST_TEST_CONTEXT(p.name << " preconditioner " << static_cast<int>(kind)) {
        BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
        BOOST_TEST(std::abs(s.f - p.f_star) <= 1e-5);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(AdaptiveGrowthAndExtrapolationKeepTheAnswerAndSaveWork) {
  const TestProblem p = CircleLinear();
  EigenProblem problem(p);
  qpm::Options paper = PaperOptions();
  paper.inner_solver = qpm::InnerSolverType::kTrustRegion;
  paper.paper.feasibility_tol = paper.paper.stationarity_tol = 1e-7;
  qpm::Options fast = paper;
  fast.penalty_growth_mode = qpm::PenaltyGrowthMode::kAdaptive;
  fast.extrapolate = true;
  const qpm::Summary a = qpm::Solve(&problem, p.x0, paper);
  const qpm::Summary b = qpm::Solve(&problem, p.x0, fast);
  BOOST_TEST(a.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(b.termination == qpm::TerminationType::kConverged);
  BOOST_TEST((b.x - p.x_star).norm() <= 1e-6);
  BOOST_TEST(b.outer_iterations < a.outer_iterations);
  BOOST_TEST(b.hess_evals < a.hess_evals);
  BOOST_TEST(b.extrapolations > 0);
  double previous = 0.0;
  for (const qpm::OuterRecord& r : b.outer) {  // beta still grows by alpha in range
    if (previous > 0.0) {
      BOOST_TEST(r.beta / previous >= fast.penalty_growth * (1 - 1e-12));
      BOOST_TEST(r.beta / previous <= fast.penalty_growth_max * (1 + 1e-12));
    }
    previous = r.beta;
  }
}

// min ||x||^2 / 2 with rows x_i + x_shared = 1: every row holds the shared
// variable, so S = J D^{-1} J^T is a dense m x m matrix.
TestProblem SharedVariableRows(int m) {
  TestProblem p;
  p.name = "shared_variable_rows";
  p.n = m + 1, p.m = m;
  p.x0 = Vector::Zero(p.n);
  p.f = [](const Vector& x) { return 0.5 * x.squaredNorm(); };
  p.grad = [](const Vector& x) { return x; };
  p.c = [m](const Vector& x) { return Vector(x.head(m).array() + x[m] - 1.0); };
  p.jac = [m](const Vector&) {
    Eigen::MatrixXd j = Eigen::MatrixXd::Zero(m, m + 1);
    j.leftCols(m).setIdentity();
    j.col(m).setOnes();
    return j;
  };
  p.hess = [m](const Vector&, double sigma, const Vector&) {
    return Eigen::MatrixXd(sigma * Eigen::MatrixXd::Identity(m + 1, m + 1));
  };
  return p;
}

BOOST_AUTO_TEST_CASE(PenaltyPreconditionerBecomesJacobiWhereTheSparseFactorWouldBeDense) {
  Loaded dense(SharedVariableRows(200), 10.0);
  qpm::Preconditioner sparse_path(qpm::PreconditionerKind::kPenalty, &dense.q, 0);
  BOOST_REQUIRE(sparse_path.Update(dense.it));
  BOOST_TEST(sparse_path.type() == qpm::PreconditionerKind::kJacobi);
  qpm::Preconditioner dense_path(qpm::PreconditionerKind::kPenalty, &dense.q, 3000);
  BOOST_REQUIRE(dense_path.Update(dense.it));
  BOOST_TEST(dense_path.type() == qpm::PreconditionerKind::kPenalty);  // dense LLT: no check
  Loaded small(LeastNorm(), 10.0);
  qpm::Preconditioner kept(qpm::PreconditionerKind::kPenalty, &small.q, 0);
  BOOST_REQUIRE(kept.Update(small.it));
  BOOST_TEST(kept.type() == qpm::PreconditionerKind::kPenalty);
}

BOOST_AUTO_TEST_CASE(SolveWithPenaltyPreconditionerOnADenseProductStillConverges) {
  const TestProblem p = SharedVariableRows(200);
  EigenProblem problem(p);
  qpm::Options o;
  o.tr.preconditioner = qpm::PreconditionerKind::kPenalty;
  o.tr.dense_limit = 0;
  const qpm::Summary s = qpm::Solve(&problem, p.x0, o);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(s.c_max <= 1e-8);
}
