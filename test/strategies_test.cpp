// The outer loop's strategies (src/core/outer/strategies.hpp): each mode's
// versions do what docs/algorithm.md says, and the tests among them change
// nothing.
#define BOOST_TEST_MODULE strategies
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/inner/preconditioner.hpp"
#include "core/outer/strategies.hpp"
#include "core/stationarity.hpp"
#include "test_problems.hpp"

using namespace qpm_test;
namespace tt = boost::test_tools;

namespace {

// CircleLinear at x: f, c and the derivatives evaluated, for the penalty q.
struct Point {
  EigenProblem problem{CircleLinear()};
  qpm::PenaltyFunction q{&problem};
  qpm::Iterate x;

  explicit Point(const Vector& at, double beta = 1.0) {
    q.merit().set_beta(beta);
    q.Allocate(&x);
    x.x = at;
    BOOST_REQUIRE(q.EvaluateValues(&x));
    BOOST_REQUIRE(q.EvaluateDerivatives(&x));
  }
};

qpm::Options PaperMode() {
  qpm::Options o;
  o.mode = qpm::Mode::kPaper;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_CASE(PaperTestIsTwoNormFeasibilityAfterAConvergedSubproblem) {
  qpm::Options o = PaperMode();
  o.paper.feasibility_tol = 1e-3;
  Point near(Vector::Constant(2, -1.0 + 1e-4));  // c = 2 (2e-4 - ...) ~ -4e-4
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, near.q);
  BOOST_TEST(s.convergence->Converged(near.q, near.x, qpm::InnerStatus::kConverged));
  BOOST_TEST(!s.convergence->Converged(near.q, near.x, qpm::InnerStatus::kStalled));
  Point far(Vector::Constant(2, -0.5));
  BOOST_TEST(!s.convergence->Converged(far.q, far.x, qpm::InnerStatus::kConverged));
  BOOST_TEST(!s.convergence->max_norm());
  BOOST_TEST(s.feasibility_restarts == 0);
}

BOOST_AUTO_TEST_CASE(IpoptTestChangesNeitherPenaltyNorPoint) {
  qpm::Options o;
  Point p(Vector::Constant(2, -1.0 + 1e-9), 10.0);
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, p.q);
  const Vector grad_q = p.x.grad_q;
  const double beta = p.q.merit().beta();
  const bool first = s.convergence->Converged(p.q, p.x, qpm::InnerStatus::kConverged);
  s.convergence->Acceptable(p.q, p.x);
  s.convergence->Violated(p.q, p.x);
  BOOST_TEST(s.convergence->Converged(p.q, p.x, qpm::InnerStatus::kConverged) == first);
  BOOST_TEST(p.x.grad_q == grad_q);
  BOOST_TEST(p.q.merit().beta() == beta);
  BOOST_TEST(s.convergence->max_norm());
  BOOST_TEST(s.feasibility_restarts == 1);
}

// No verdict of local infeasibility at a violation within the acceptable
// level (Ipopt's acceptable_constr_viol_tol; the paper's mode: its 2-norm twin).
BOOST_AUTO_TEST_CASE(NearlyFeasibleIsTheAcceptableViolationLevel) {
  qpm::Options o;
  o.termination.acceptable_constr_viol_tol = 1e-3;
  Point near(Vector::Constant(2, -1.0 + 1e-4));  // ||c||_inf ~ 4e-4
  Point far(Vector::Constant(2, -0.9));          // ||c||_inf = 0.38
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, near.q);
  BOOST_TEST(s.convergence->NearlyFeasible(near.q, near.x));
  BOOST_TEST(!s.convergence->NearlyFeasible(far.q, far.x));
  qpm::Options paper = PaperMode();
  paper.paper.acceptable_feasibility_tol = 1e-3;
  qpm::Strategies p = qpm::MakeStrategies(paper, nullptr, near.q);
  BOOST_TEST(p.convergence->NearlyFeasible(near.q, near.x));
  BOOST_TEST(!p.convergence->NearlyFeasible(far.q, far.x));
}

BOOST_AUTO_TEST_CASE(PaperPenaltyStartsAtOneAndGrowsByAlpha) {
  qpm::Options o = PaperMode();
  Point p(Vector::Constant(2, -0.5));
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, p.q);
  BOOST_TEST(s.penalty->Start(p.q, p.x) == 1.0);
  BOOST_TEST(s.penalty->Next(3.0, p.x, 100, 0) == 3.0 * o.penalty_growth);
  BOOST_TEST(s.penalty->runaway_factor() == o.runaway_penalty_factor);
  o.penalty_init = 5.0;
  qpm::Strategies set = qpm::MakeStrategies(o, nullptr, p.q);
  BOOST_TEST(set.penalty->Start(p.q, p.x) == 5.0);
}

BOOST_AUTO_TEST_CASE(AdaptiveGrowthDoublesAfterCheapSubproblemsWithinItsCap) {
  qpm::Options o = PaperMode();
  o.penalty_growth_mode = qpm::PenaltyGrowthMode::kAdaptive;
  o.penalty_growth_max = 3.0;
  Point p(Vector::Constant(2, -0.5));
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, p.q);
  const long cheap = o.cheap_subproblem;
  BOOST_TEST(s.penalty->Next(1.0, p.x, cheap, 0) == 2.0 * o.penalty_growth);
  BOOST_TEST(s.penalty->Next(1.0, p.x, cheap, 1) == 3.0);  // capped
  const long costly = qpm::Options::kCostlySubproblemFactor * cheap + 1;
  BOOST_TEST(s.penalty->Next(1.0, p.x, costly, 2) == 1.5);
}

// c = ||x||^2 - 2 at x = (v, v): ||c||_inf = |2 v^2 - 2|.
BOOST_AUTO_TEST_CASE(DefaultPenaltyGrowsOnlyWhenTheViolationDidNotFallFourfold) {
  qpm::Options o;
  Point start(Vector::Constant(2, -0.5));        // ||c||_inf = 1.5
  Point stuck(Vector::Constant(2, -0.7));        // ||c||_inf = 1.02
  Point halved(Vector::Constant(2, -0.9));       // ||c||_inf = 0.38: 0.25 * 1.02 < 0.38 < 0.5 * 1.02
  Point quartered(Vector::Constant(2, -0.98));   // ||c||_inf = 0.0792 < 0.25 * 0.38
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, start.q);
  const double beta0 = s.penalty->Start(start.q, start.x);
  BOOST_TEST(beta0 > 0.0);
  BOOST_TEST(s.penalty->Next(2.0, stuck.x, 5, 0) == 2.0);  // k = 0: lambda_0 not judged
  BOOST_TEST(s.penalty->Next(2.0, halved.x, 5, 1) == 2.0 * o.multipliers.penalty_increase);
  BOOST_TEST(s.penalty->Next(2.0, quartered.x, 5, 2) == 2.0);
  BOOST_TEST(s.penalty->Next(2.0, stuck.x, 5, 3) == 2.0 * o.multipliers.penalty_increase);
  BOOST_TEST(s.penalty->Restart(1e30, start.q, start.x) == 1e3 * beta0);
}

BOOST_AUTO_TEST_CASE(DefaultToleranceTightensAtAStationaryPointThatDidNotLowerTheViolation) {
  qpm::Options o;
  Point p(Vector::Constant(2, -0.5));
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, p.q);
  BOOST_TEST(s.tolerance->Tolerance()(1.0) == 1.0);  // max(tol, ||c||)
  qpm::OuterRecord moving;
  moving.c_norm = 0.5, moving.violation_stationarity = 1.0;
  s.tolerance->Observe(moving, 1.0, 3);
  BOOST_TEST(!s.tolerance->tight());
  qpm::OuterRecord stationary;
  stationary.c_norm = 1.0, stationary.violation_stationarity = 0.0;
  s.tolerance->Observe(stationary, 1.0, 4);
  BOOST_TEST(s.tolerance->tight());
  BOOST_TEST(s.tolerance->Tolerance()(1.0) == o.termination.tol);
  BOOST_TEST(!s.tolerance->WindowCounts(4 + o.infeasibility_window - 1, o.infeasibility_window));
  BOOST_TEST(s.tolerance->WindowCounts(4 + o.infeasibility_window, o.infeasibility_window));
  s.tolerance->Reset();
  BOOST_TEST(!s.tolerance->tight());
}

BOOST_AUTO_TEST_CASE(PaperToleranceIsDefinitionTwoPointOneAndNeverTightens) {
  qpm::Options o = PaperMode();
  o.paper.feasibility_tol = 1e-4, o.paper.stationarity_tol = 1e-6;
  Point p(Vector::Constant(2, -0.5));
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, p.q);
  BOOST_TEST(s.tolerance->Tolerance()(1.0) == 1e-2, boost::test_tools::tolerance(1e-12));
  qpm::OuterRecord stationary;
  stationary.c_norm = 1.0;
  s.tolerance->Observe(stationary, 1.0, 0);
  BOOST_TEST(!s.tolerance->tight());
  BOOST_TEST(s.tolerance->WindowCounts(0, o.infeasibility_window));
}

BOOST_AUTO_TEST_CASE(OnlyTheDefaultModeCallsFeasibleRunawaysUnbounded) {
  Point p(Vector::Constant(2, -0.5));
  qpm::Strategies paper = qpm::MakeStrategies(PaperMode(), nullptr, p.q);
  qpm::Strategies standard = qpm::MakeStrategies(qpm::Options(), nullptr, p.q);
  BOOST_TEST(!paper.runaway->Unbounded(1000));
  BOOST_TEST(!standard.runaway->Unbounded(2));
  BOOST_TEST(standard.runaway->Unbounded(3));
  qpm::InnerControl control;
  paper.runaway->SetLimits(p.x, 1e4, &control);
  BOOST_TEST(control.max_abs_z == 1e4);  // kappa max(||z_start||_inf, 1)
  qpm::InnerControl other;
  standard.runaway->SetLimits(p.x, 1e4, &other);
  BOOST_TEST(other.objective_runaway_min_z == 10.0);
  BOOST_TEST(std::isinf(other.max_abs_z));
}

BOOST_AUTO_TEST_CASE(MultipliersAreZeroInThePapersModeAndSeededInTheDefault) {
  Point paper(Vector::Constant(2, -0.5));
  qpm::Strategies s = qpm::MakeStrategies(PaperMode(), nullptr, paper.q);
  s.multipliers->Seed(Vector(), &paper.q, &paper.x);
  BOOST_TEST(!paper.q.merit().has_multipliers());
  // Near the minimizer of L_A for lambda = 0.25, beta = 1 (x = -1.055 (1, 1)).
  Point standard(Vector::Constant(2, -1.055));
  qpm::Strategies d = qpm::MakeStrategies(qpm::Options(), nullptr, standard.q);
  d.multipliers->Seed(Vector::Constant(1, 0.25), &standard.q, &standard.x);
  BOOST_TEST(standard.q.merit().multipliers()[0] == 0.25);
  d.multipliers->Update(standard.x, nullptr, &standard.q);  // lambda + beta c
  BOOST_TEST(standard.q.merit().multipliers()[0] == 0.25 + standard.x.c[0]);
  d.multipliers->Reset(&standard.q);
  BOOST_TEST(standard.q.merit().multipliers()[0] == 0.0);
}

// x = -0.5 (1, 1): lambda = 1 makes grad f + J' lambda = 0 there, and
// lambda + beta c (c = -1.5) would leave 1.5 of it.
BOOST_AUTO_TEST_CASE(TheMultiplierStepIsSkippedWhereItExplainsGradFWorse) {
  Point far(Vector::Constant(2, -0.5));
  qpm::Strategies d = qpm::MakeStrategies(qpm::Options(), nullptr, far.q);
  d.multipliers->Seed(Vector::Constant(1, 1.0), &far.q, &far.x);
  BOOST_REQUIRE(qpm::DualInfeasibilityAtMultipliers(far.q, far.x, far.q.workspace()) < 1e-15);
  BOOST_REQUIRE(qpm::Dual(far.q, far.x).dual_inf > 1.0);
  d.multipliers->Update(far.x, nullptr, &far.q);
  BOOST_TEST(far.q.merit().multipliers()[0] == 1.0);
}

namespace {

// min 1/2 ||x - d||^2  s.t.  D x = b, D the 10 x 12 second differences:
// D D^T's smallest eigenvalue is 3e-3, so the first-order multiplier step
// from the minimizer of L_A for lambda = 0 stays far from lambda* while the
// dual function's Newton step is exact (the dual of a QP is quadratic).
TestProblem SecondDifferences() {
  const int n = 12, m = 10;
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(m, n);
  for (int i = 0; i < m; ++i) a(i, i) = 1.0, a(i, i + 1) = -2.0, a(i, i + 2) = 1.0;
  const Vector d = Vector::LinSpaced(n, 0.0, 3.0).array().sin();
  const Vector b = Vector::Constant(m, 0.01);
  TestProblem p;
  p.name = "second_differences";
  p.n = n, p.m = m;
  p.x0 = Vector::Zero(n);
  p.f = [d](const Vector& x) { return 0.5 * (x - d).squaredNorm(); };
  p.grad = [d](const Vector& x) { return Vector(x - d); };
  p.c = [a, b](const Vector& x) { return Vector(a * x - b); };
  p.jac = [a](const Vector&) { return a; };
  p.hess = [n](const Vector&, double sigma, const Vector&) {
    return Eigen::MatrixXd(sigma * Eigen::MatrixXd::Identity(n, n));
  };
  p.x_star = d - a.transpose() * (a * a.transpose()).ldlt().solve(a * d - b);
  return p;
}

// The same rows bent about `center`: c = D x - b + gamma/2 ||x - center||^2
// (1, ..., 1), with the linear rows' c and J at the center.
TestProblem CurvedSecondDifferences(double gamma, const Vector& center) {
  TestProblem p = SecondDifferences();
  p.name = "curved_second_differences";
  const auto c = p.c;
  const auto jac = p.jac;
  const int n = p.n;
  p.c = [c, gamma, center](const Vector& x) {
    return Vector(c(x).array() + 0.5 * gamma * (x - center).squaredNorm());
  };
  p.jac = [jac, gamma, center](const Vector& x) {
    Eigen::MatrixXd j = jac(x);
    j.rowwise() += gamma * (x - center).transpose();
    return j;
  };
  p.hess = [n, gamma](const Vector&, double sigma, const Vector& lambda) {
    return Eigen::MatrixXd((sigma + gamma * lambda.sum()) * Eigen::MatrixXd::Identity(n, n));
  };
  return p;
}

// The minimizer of L_A(., 0) for beta of SecondDifferences.
Vector PenaltyMinimizer(double beta) {
  const TestProblem p = SecondDifferences();
  const Eigen::MatrixXd a = p.jac(p.x0);
  const Vector d = p.grad(Vector::Zero(p.n)) * -1.0;
  const Vector b = -p.c(Vector::Zero(p.n));
  const Eigen::MatrixXd h = Eigen::MatrixXd::Identity(p.n, p.n) + beta * a.transpose() * a;
  return h.ldlt().solve(d + beta * a.transpose() * b);
}

// The multipliers after one update from PenaltyMinimizer(beta), for p
// (SecondDifferences or its rows bent about that point).
Vector OneUpdate(const qpm::Options& o, double beta, Vector* lambda_star,
                 const TestProblem& p = SecondDifferences()) {
  EigenProblem problem(p);
  qpm::PenaltyFunction q(&problem);
  q.merit().set_beta(beta);
  const Eigen::MatrixXd a = p.jac(PenaltyMinimizer(beta));
  const Vector d = p.grad(Vector::Zero(p.n)) * -1.0;
  const Vector b = -SecondDifferences().c(Vector::Zero(p.n));
  qpm::Iterate x;
  q.Allocate(&x);
  x.x = PenaltyMinimizer(beta);
  qpm::Strategies s = qpm::MakeStrategies(o, nullptr, q);
  s.multipliers->Seed(Vector::Zero(p.m), &q, &x);
  BOOST_REQUIRE(q.EvaluateValues(&x));
  BOOST_REQUIRE(q.EvaluateDerivatives(&x));
  qpm::TrustRegionOptions cholesky;
  cholesky.preconditioner = qpm::PreconditionerKind::kCholesky;
  const auto factor = qpm::MakePreconditioner(cholesky, &q);
  BOOST_REQUIRE(factor->LendFactorization());
  s.multipliers->Update(x, factor->LendFactorization(), &q);
  *lambda_star = (a * a.transpose()).ldlt().solve(a * d - b);
  return q.merit().multipliers();
}

}  // namespace

BOOST_AUTO_TEST_CASE(NewtonMultiplierStepReachesTheQpsMultipliersInOneUpdate) {
  qpm::Options o;
  o.multipliers.newton_max_violation = 1.0;  // ||c||_inf lies between 1e-2 and 1 here
  Vector lambda_star;
  const Vector newton = OneUpdate(o, 1e2, &lambda_star);
  BOOST_TEST((newton - lambda_star).norm() <= 1e-8 * lambda_star.norm());
  qpm::Options first_order = o;
  first_order.multipliers.newton_cg_iter = 0;
  const Vector first = OneUpdate(first_order, 1e2, &lambda_star);
  BOOST_TEST((first - lambda_star).norm() >= 0.1 * lambda_star.norm());
  // Above newton_max_violation the step is the first-order one.
  qpm::Options limited;
  limited.multipliers.newton_max_violation = 1e-2;
  BOOST_TEST(OneUpdate(limited, 1e2, &lambda_star) == first);
}

// Bent rows: the Newton step, 7 times the first-order one here, predicts a
// minimizer at which c is far from its linearization, and the step is the
// first-order one.
BOOST_AUTO_TEST_CASE(NewtonMultiplierStepFallsBackToFirstOrderWhereTheRowsCurveOverItsMove) {
  qpm::Options o;
  o.multipliers.newton_max_violation = 1.0;
  Vector lambda_star;
  const TestProblem curved = CurvedSecondDifferences(-1.0, PenaltyMinimizer(1e2));
  const Vector newton = OneUpdate(o, 1e2, &lambda_star, curved);
  qpm::Options first_order = o;
  first_order.multipliers.newton_cg_iter = 0;
  const Vector first = OneUpdate(first_order, 1e2, &lambda_star, curved);
  BOOST_TEST(newton == first);
  // Slightly bent rows keep the Newton step.
  const TestProblem slight = CurvedSecondDifferences(1e-6, PenaltyMinimizer(1e2));
  BOOST_TEST((OneUpdate(o, 1e2, &lambda_star, slight) - first).norm() >= 0.1 * first.norm());
}

// At the solution x* = (-1, -1) with lambda = 0 the test fails; with the
// least-squares multipliers (1/2) it holds. Inside a subproblem that ends it
// there, and the multipliers stay as they were: the verdict adopts them.
BOOST_AUTO_TEST_CASE(TheSubproblemEndsWhereLeastSquaresMultipliersPassAndTheVerdictAdoptsThem) {
  Point solution(Vector::Constant(2, -1.0), 10.0);
  qpm::Strategies d = qpm::MakeStrategies(qpm::Options(), nullptr, solution.q);
  d.multipliers->Seed(Vector::Constant(1, 0.0), &solution.q, &solution.x);
  BOOST_REQUIRE(!d.convergence->Converged(solution.q, solution.x, qpm::InnerStatus::kConverged));
  const Vector grad_q = solution.x.grad_q;
  BOOST_TEST(d.multipliers->EndsSubproblem(*d.convergence, &solution.q, &solution.x));
  BOOST_TEST(solution.q.merit().multipliers()[0] == 0.0);
  BOOST_TEST(solution.x.grad_q == grad_q);
  BOOST_TEST(d.multipliers->AdoptLeastSquaresIfConverged(*d.convergence, qpm::InnerStatus::kConverged,
                                                        &solution.q, &solution.x));
  BOOST_TEST(std::abs(solution.q.merit().multipliers()[0] - 0.5) <= 1e-12);
  BOOST_TEST(d.convergence->Converged(solution.q, solution.x, qpm::InnerStatus::kConverged));
}

namespace {

// One generator p in [1, 10] at cost f = 100 p and one row p = demand: at
// p = 1 below the demand, f holds p at its lower bound against the
// violation's descent until beta (demand - 1) exceeds 100.
class HeldGenerator : public qpm::Problem {
 public:
  explicit HeldGenerator(double demand) : demand_(demand) {}
  int num_variables() const override { return 1; }
  int num_constraints() const override { return 1; }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef g_l,
                 qpm::VectorRef g_u) const override {
    x_l[0] = 1.0, x_u[0] = 10.0, g_l[0] = g_u[0] = demand_;
  }
  void InitJacobian(qpm::SparseMatrix* j) const override {
    j->resize(1, 1);
    j->insert(0, 0) = 1.0;
    j->makeCompressed();
  }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    *f = 100.0 * x[0];
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g[0] = x[0];
    return true;
  }
  bool EvalGradient(const qpm::ConstVectorRef&, qpm::VectorRef g) override {
    g[0] = 100.0;
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView* j) override {
    j->valuePtr()[0] = 1.0;
    return true;
  }

 private:
  double demand_;
};

double ReleaseAtLowerBound(double demand, double beta) {
  HeldGenerator problem(demand);
  qpm::PenaltyFunction q(&problem);
  q.merit().set_beta(beta);
  qpm::Iterate x;
  q.Allocate(&x);
  x.x = Vector::Constant(1, 1.0);
  BOOST_REQUIRE(q.EvaluateValues(&x));
  BOOST_REQUIRE(q.EvaluateDerivatives(&x));
  return qpm::HeldBoundsRelease(q, x, q.workspace());
}

}  // namespace

// grad Q = 100 + beta (1 - 3) at p = 1: held while beta < 50, and 50 is
// where it yields, whatever the beta it is measured at.
BOOST_AUTO_TEST_CASE(ABoundTheObjectiveHoldsAgainstTheViolationYieldsWhereGradQChangesSign) {
  for (double beta : {1.0, 10.0, 49.0}) {
    BOOST_TEST_CONTEXT("beta " << beta) {
      BOOST_TEST(ReleaseAtLowerBound(3.0, beta) == 50.0, tt::tolerance(1e-12));
    }
  }
  // Past it grad Q points inward: nothing is held.
  BOOST_TEST(std::isinf(ReleaseAtLowerBound(3.0, 60.0)));
}

// Demand 0.5 below p's lower bound: the bound blocks the violation's descent
// too (a stationary point of ||c|| on the box), so no beta releases it.
BOOST_AUTO_TEST_CASE(ABoundThatAlsoBlocksTheViolationIsNotHeld) {
  BOOST_TEST(std::isinf(ReleaseAtLowerBound(0.5, 10.0)));
}
