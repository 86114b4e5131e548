// The default mode (qpm::Mode::kMultipliers): multiplier estimates, Ipopt's
// termination, the statuses it must give, warm starts (docs/algorithm.md,
// "The default mode").
#define BOOST_TEST_MODULE default_mode
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>
#include <limits>

#include <IpIpoptApplication.hpp>

#include "hs071/hs071_nlp.hpp"
#include "model_library.hpp"
#include "unbounded_models.hpp"
#include "qpm/qpm.hpp"
#include "status_print.hpp"
#include "test_problems.hpp"

using Ipopt::SmartPtr;
using qpm::Vector;
using namespace qpm_test;

namespace {

qpm::Summary SolveDefault(const TestProblem& p, const Vector& x0) {
  EigenProblem problem(p);
  qpm::Options o;  // the defaults: multipliers, trust region, tol 1e-8
  return qpm::Solve(&problem, x0, o);
}

// min x  s.t.  x^2 - 1 = 0: x* = -1, lambda* = 1/2. From x0 = 0, J(x0)^T c(x0)
// = 0 with c(x0) = -1: a stationary point (a maximum) of ||c||.
TestProblem MaximumOfViolationAtStart() {
  TestProblem p;
  p.name = "x^2 = 1 from 0";
  p.n = 1, p.m = 1;
  p.x0 = Vector::Zero(1);
  p.f = [](const Vector& x) { return x[0]; };
  p.grad = [](const Vector&) { return Vector::Ones(1); };
  p.c = [](const Vector& x) { return Vector::Constant(1, x[0] * x[0] - 1.0); };
  p.jac = [](const Vector& x) { return Eigen::MatrixXd::Constant(1, 1, 2.0 * x[0]); };
  p.hess = [](const Vector&, double, const Vector& l) {
    return Eigen::MatrixXd::Constant(1, 1, 2.0 * l[0]);
  };
  p.x_star = Vector::Constant(1, -1.0);
  p.f_star = -1.0;
  return p;
}

// min -x1  s.t.  x2 = 0: unbounded below on the feasible set.
TestProblem UnboundedOnTheFeasibleSet() {
  TestProblem p;
  p.name = "unbounded";
  p.n = 2, p.m = 1;
  p.x0 = Vector::Zero(2);
  p.f = [](const Vector& x) { return -x[0]; };
  p.grad = [](const Vector&) { return (Vector(2) << -1.0, 0.0).finished(); };
  p.c = [](const Vector& x) { return Vector::Constant(1, x[1]); };
  p.jac = [](const Vector&) { return Eigen::MatrixXd((Eigen::MatrixXd(1, 2) << 0.0, 1.0).finished()); };
  p.hess = [](const Vector&, double, const Vector&) { return Eigen::MatrixXd::Zero(2, 2); };
  return p;
}

// min 100 (x - 1)^2  s.t.  x^3 - 3x + 4 = 0. The only feasible point is the
// root x* = -2.19582 (lambda* = -f'/c' = 55.7496); x = 1 is a local minimizer of
// |c| (c = 2, c' = 0) toward which f pulls from x0 = -1.2, across the hump of
// |c| at x = -1; from x0 the violation alone falls toward x*.
TestProblem InfeasibleTrapOnTheObjectivesPath() {
  TestProblem p;
  p.name = "trap";
  p.n = 1, p.m = 1;
  p.x0 = Vector::Constant(1, -1.2);
  p.f = [](const Vector& x) { return 100.0 * (x[0] - 1.0) * (x[0] - 1.0); };
  p.grad = [](const Vector& x) { return Vector::Constant(1, 200.0 * (x[0] - 1.0)); };
  p.c = [](const Vector& x) { return Vector::Constant(1, x[0] * x[0] * x[0] - 3.0 * x[0] + 4.0); };
  p.jac = [](const Vector& x) { return Eigen::MatrixXd::Constant(1, 1, 3.0 * x[0] * x[0] - 3.0); };
  p.hess = [](const Vector& x, double s, const Vector& l) {
    return Eigen::MatrixXd::Constant(1, 1, 200.0 * s + 6.0 * x[0] * l[0]);
  };
  p.x_star = Vector::Constant(1, -2.1958233454456599);
  return p;
}

// min (x1 - 3)^2 + (x2 - 1)^2  s.t.  x1 + x2 = 2 + e(x): x* = (2, 0),
// lambda* = 2. e(x) is a deterministic rounding-like error of c, |e| <= 3e-9
// (within tol), of the kind a plainly written eval_g carries: beta e(x) makes
// lambda + beta c miss Ipopt's dual test by far more than tol.
TestProblem ConstraintWithRoundingNoise(double amplitude = 3e-9) {
  TestProblem p;
  p.name = "noisy row";
  p.n = 2, p.m = 1;
  p.x0 = Vector::Zero(2);
  p.f = [](const Vector& x) { return (x[0] - 3.0) * (x[0] - 3.0) + (x[1] - 1.0) * (x[1] - 1.0); };
  p.grad = [](const Vector& x) { return Vector(2.0 * (x - Vector(Eigen::Vector2d(3.0, 1.0)))); };
  p.c = [amplitude](const Vector& x) {
    const double h = std::sin(1e4 * x[0] + 7e3 * x[1]) * 43758.5453;
    return Vector::Constant(1, x[0] + x[1] - 2.0 + amplitude * (2.0 * (h - std::floor(h)) - 1.0));
  };
  p.jac = [](const Vector&) { return Eigen::MatrixXd::Ones(1, 2); };
  p.hess = [](const Vector&, double s, const Vector&) {
    return Eigen::MatrixXd(2.0 * s * Eigen::MatrixXd::Identity(2, 2));
  };
  p.x_star = Vector(Eigen::Vector2d(2.0, 0.0));
  return p;
}

// min (x - 1)^2 whose model cannot be evaluated for x > 0.5: every step
// toward the minimizer fails, down to the smallest step.
class FailsBeyondHalf : public EigenProblem {
 public:
  FailsBeyondHalf() : EigenProblem(Unconstrained()) {}
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    return x[0] <= 0.5 && EigenProblem::EvalObjective(x, f);
  }

 private:
  static TestProblem Unconstrained() {
    TestProblem p;
    p.n = 1, p.m = 0;
    p.f = [](const Vector& x) { return (x[0] - 1.0) * (x[0] - 1.0); };
    p.grad = [](const Vector& x) { return Vector::Constant(1, 2.0 * (x[0] - 1.0)); };
    p.c = [](const Vector&) { return Vector(0); };
    p.jac = [](const Vector&) { return Eigen::MatrixXd(0, 1); };
    p.hess = [](const Vector&, double s, const Vector&) { return Eigen::MatrixXd::Constant(1, 1, 2.0 * s); };
    return p;
  }
};

// HS071 started at its solution with Ipopt's multipliers.
class WarmHs071 : public Hs071Nlp {
 public:
  bool get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_l, Number* z_u,
                          Index m, bool init_lambda, Number* lambda) override {
    const double xs[4] = {1.0, 4.74299964, 3.82114998, 1.37940829};
    for (Index i = 0; i < n && init_x; ++i) x[i] = xs[i];
    for (Index i = 0; i < n && init_z; ++i) z_l[i] = z_u[i] = 0.0;
    if (init_z) z_l[0] = 1.08787123;
    if (init_lambda && m == 2) lambda[0] = -0.55229366, lambda[1] = 0.16146857;
    asked_for_multipliers = init_lambda;
    return true;
  }
  bool asked_for_multipliers = false;
};

SmartPtr<Ipopt::IpoptApplication> QuietQpm() {
  SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  return app;
}

}  // namespace

// Without multiplier estimates, ||c|| <= 1e-8 needs beta ~ |lambda*| / 1e-8;
// with them beta stays where the subproblems are well conditioned. This test
// fails if the default mode stops computing multipliers (lambda = 0 makes it
// the paper's penalty, whose beta must pass 1e7 here).
BOOST_AUTO_TEST_CASE(MultiplierEstimatesKeepBetaBoundedAtTightTolerance) {
  for (const TestProblem& p : {CircleLinear(), Hs7()}) {
    BOOST_TEST_CONTEXT(p.name) {
      const qpm::Summary s = SolveDefault(p, p.x0);
      BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
      BOOST_TEST(s.c_max <= 1e-8);
      BOOST_TEST(std::abs(s.f - p.f_star) <= 1e-7 * (1 + std::abs(p.f_star)));
      BOOST_TEST(s.beta <= 1e5);
    }
  }
}

// min sum x_j  s.t.  x_j = 1e-5 (j < 100), from x0 = 0: |f(x0)| < 1 and ||c||
// tiny, so ALGENCAN's rule with the near-feasibility unit gives beta_0 = 0.1,
// while lambda_0 = -1 per row. At that beta the merit would gain
// ||lambda_0||^2 / (2 beta) = 500 from the violation c = -lambda_0 / beta: far
// more than f's scale. beta_0 keeps that gain within max(1, |f(x0)|).
BOOST_AUTO_TEST_CASE(DefaultBetaZeroKeepsTheMultiplierTermsGainWithinTheObjectivesScale) {
  const int m = 100;
  TestProblem p;
  p.name = "linear, near-feasible start";
  p.n = m, p.m = m;
  p.x0 = Vector::Zero(m);
  p.f = [](const Vector& x) { return x.sum(); };
  p.grad = [m](const Vector&) { return Vector::Ones(m); };
  p.c = [](const Vector& x) { return (x.array() - 1e-5).matrix().eval(); };
  p.jac = [m](const Vector&) { return Eigen::MatrixXd::Identity(m, m); };
  p.hess = [m](const Vector&, double, const Vector&) { return Eigen::MatrixXd::Zero(m, m); };
  const qpm::Summary s = SolveDefault(p, p.x0);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(std::abs(s.f - m * 1e-5) <= 1e-8);
  BOOST_TEST_REQUIRE(!s.outer.empty());
  const double lambda0_squared = m * 1.0;  // least squares at x0: -grad f = J' lambda
  BOOST_TEST(s.outer.front().beta >= 0.5 * lambda0_squared * (1.0 - 1e-12));
}

// As Ipopt, J's structure is read once per solve, whatever wraps the model
// (scaling, fixed variables): a model that counts its calls, or fails on a
// later one, sees what Ipopt would make it see.
BOOST_AUTO_TEST_CASE(ModelIsAskedForTheJacobianStructureOncePerSolve) {
  for (const TestProblem& p : AllProblems()) {
    SmartPtr<DenseTnlp> tnlp = new DenseTnlp(p);
    SmartPtr<Ipopt::IpoptApplication> app = QuietQpm();
    BOOST_REQUIRE(app->Initialize("") == Ipopt::Solve_Succeeded);
    const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(GetRawPtr(tnlp));
    BOOST_TEST_CONTEXT(p.name) {
      BOOST_TEST(status == Ipopt::Solve_Succeeded);
      BOOST_TEST(tnlp->jacobian_structure_calls == 1);
    }
  }
}

// new_x = false is a promise to the model that x did not change: a model
// that caches on it must see the x it cached, with every inner solver, with
// and without scaling, with bounds (the active-set trust region) and without.
BOOST_AUTO_TEST_CASE(NewXIsFalseOnlyAtThePointTheModelSawLast) {
  const char* inner_solvers[] = {"trust-region", "lbfgs", "gradient-descent"};
  for (const TestProblem& p : AllProblems()) {
    for (const char* inner : inner_solvers) {
      for (const char* scaling : {"gradient-based", "none"}) {
        for (double box : {1e19, 10.0}) {  // 1e19: no bound (Ipopt's nlp_upper_bound_inf)
          SmartPtr<DenseTnlp> tnlp = new DenseTnlp(p);
          tnlp->x_lower = -box, tnlp->x_upper = box;
          SmartPtr<Ipopt::IpoptApplication> app = QuietQpm();
          app->Options()->SetStringValue("qpm_inner_solver", inner);
          app->Options()->SetStringValue("nlp_scaling_method", scaling);
          BOOST_REQUIRE(app->Initialize("") == Ipopt::Solve_Succeeded);
          app->OptimizeTNLP(GetRawPtr(tnlp));
          BOOST_TEST_CONTEXT(p.name << " " << inner << " " << scaling << " box " << box) {
            BOOST_TEST(tnlp->new_x_flags.size() > 4u);
            BOOST_TEST(tnlp->new_x_lies == 0);
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(MultipliersReturnedSatisfyStationarityInIpoptsSign) {
  const TestProblem p = CircleLinear();  // lambda* = 1/2 in Ipopt's sign
  const qpm::Summary s = SolveDefault(p, p.x0);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(std::abs(s.lambda[0] - 0.5) <= 1e-7);
  const Vector residual = p.grad(s.x) + p.jac(s.x).transpose() * s.lambda;
  BOOST_TEST(residual.lpNorm<Eigen::Infinity>() <= 1e-8);
}

BOOST_AUTO_TEST_CASE(StartAtAStationaryPointOfTheViolationIsSolvedNotInfeasible) {
  const TestProblem p = MaximumOfViolationAtStart();
  const qpm::Summary s = SolveDefault(p, p.x0);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(std::abs(s.x[0] - p.x_star[0]) <= 1e-7);
}

// A small beta_0 and no least-squares lambda_0 let f carry the iterates to
// x = 1, a local minimizer of |c| that no beta moves; before calling that
// infeasible the solve starts once more from x0 (RestartForFeasibility). Fails
// (Infeasible_Problem_Detected at x = 1) without that second start.
BOOST_AUTO_TEST_CASE(LocalMinimumOfTheViolationIsLeftByASecondStartFromX0) {
  const TestProblem p = InfeasibleTrapOnTheObjectivesPath();
  EigenProblem problem(p);
  qpm::Options o;
  o.penalty_init = 1e-3;
  o.multipliers.least_squares_init = false;
  const qpm::Summary s = qpm::Solve(&problem, p.x0, o);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(std::abs(s.x[0] - p.x_star[0]) <= 1e-7);
  BOOST_TEST(std::abs(s.lambda[0] - 55.749594553886) <= 1e-6);
}

// From x0 = 0.5 both the objective's path and the violation's lead to x = 1,
// the local minimizer of |c| (c = 2): after the second start the solve ends
// Infeasible_Problem_Detected there, as Ipopt's "converged to a point of
// local infeasibility", not with a stall status.
BOOST_AUTO_TEST_CASE(LocalMinimumOfTheViolationReachedFromX0TooIsInfeasible) {
  TestProblem p = InfeasibleTrapOnTheObjectivesPath();
  p.x0 = Vector::Constant(1, 0.5);
  EigenProblem problem(p);
  const qpm::Summary s = qpm::Solve(&problem, p.x0, qpm::Options());
  BOOST_TEST(s.termination == qpm::TerminationType::kInfeasible);
  BOOST_TEST(std::abs(s.x[0] - 1.0) <= 1e-4);
}

// Feasible within tol, the first-order multipliers lambda + beta c carry beta
// times the error of c; the least-squares multipliers at the same point do
// not, and the solve ends converged with them. Fails (acceptable or stalled)
// when only lambda + beta c is tested.
BOOST_AUTO_TEST_CASE(RoundingErrorInCDoesNotKeepAFeasibleOptimalPointFromConverging) {
  const TestProblem p = ConstraintWithRoundingNoise();
  const qpm::Summary s = SolveDefault(p, p.x0);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST((s.x - p.x_star).lpNorm<Eigen::Infinity>() <= 1e-7);
  BOOST_TEST(std::abs(s.lambda[0] - 2.0) <= 1e-7);
  const Vector residual = p.grad(s.x) + p.jac(s.x).transpose() * s.lambda;
  BOOST_TEST(residual.lpNorm<Eigen::Infinity>() <= 1e-8);
}

// With c's rounding at 1e-4, far above constr_viol_tol, the solve stalls at
// the rounding floor: a stall there is not local infeasibility, so no
// second start from x_0 throws the near-solution away.
BOOST_AUTO_TEST_CASE(AStallAtTheRoundingFloorOfCMakesNoSecondStart) {
  const TestProblem p = ConstraintWithRoundingNoise(1e-4);
  EigenProblem problem(p);
  qpm::Options o;
  // From radius 1 the path reaches the floor; the default's first radius
  // (the whole Newton step) lands where the noise happens to be below tol.
  o.tr.initial_radius = 1.0;
  // A beta raised unless ||c|| falls fourfold lands below tol too: the path
  // of ALGENCAN's rule (raised unless it halves) reaches the floor.
  o.multipliers.feasibility_decrease = 0.5;
  const qpm::Summary s = qpm::Solve(&problem, p.x0, o);
  BOOST_TEST((s.termination == qpm::TerminationType::kStalled ||
              s.termination == qpm::TerminationType::kAcceptable));
  BOOST_TEST(s.second_starts == 0);
  BOOST_TEST((s.x - p.x_star).lpNorm<Eigen::Infinity>() <= 1e-3);
}

BOOST_AUTO_TEST_CASE(ObjectiveUnboundedOnTheFeasibleSetDiverges) {
  const TestProblem p = UnboundedOnTheFeasibleSet();
  const qpm::Summary s = SolveDefault(p, p.x0);
  BOOST_TEST(s.termination == qpm::TerminationType::kDiverging);
}

BOOST_AUTO_TEST_CASE(EvaluationErrorsThatPersistEndInvalidNumber) {
  FailsBeyondHalf problem;
  qpm::Options o;
  const qpm::Summary s = qpm::Solve(&problem, Vector::Zero(1), o);
  BOOST_TEST(s.termination == qpm::TerminationType::kEvaluationError);
  BOOST_TEST(s.x[0] <= 0.5);  // the last point that could be evaluated
}

BOOST_AUTO_TEST_CASE(OneLineSwapSolvesHs071AtIpoptsDefaults) {
  SmartPtr<Ipopt::TNLP> tnlp = new Hs071Nlp();
  SmartPtr<Ipopt::IpoptApplication> app = QuietQpm();
  app->Initialize();
  BOOST_TEST(app->OptimizeTNLP(tnlp) == Ipopt::Solve_Succeeded);
}

BOOST_AUTO_TEST_CASE(WarmStartFromTheSolutionTakesAHandfulOfIterations) {
  SmartPtr<WarmHs071> tnlp = new WarmHs071();
  SmartPtr<Ipopt::IpoptApplication> app = QuietQpm();
  app->Options()->SetStringValue("warm_start_init_point", "yes");
  app->Initialize();
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Solve_Succeeded);
  BOOST_TEST(tnlp->asked_for_multipliers);
  BOOST_TEST(app->Statistics()->IterationCount() <= 5);

  SmartPtr<WarmHs071> cold = new WarmHs071();
  SmartPtr<Ipopt::IpoptApplication> cold_app = QuietQpm();
  cold_app->Initialize();
  BOOST_TEST(cold_app->OptimizeTNLP(GetRawPtr(cold)) == Ipopt::Solve_Succeeded);
  BOOST_TEST(!cold->asked_for_multipliers);  // as Ipopt: only with warm_start_init_point
}

namespace {

struct Outcome {
  Ipopt::ApplicationReturnStatus status;
  double f;
  double seconds;
};

Outcome SolveAtIpoptsDefaults(const Model& model) {
  SmartPtr<ModelTnlp> tnlp = new ModelTnlp(model);
  SmartPtr<Ipopt::IpoptApplication> app = QuietQpm();
  app->Options()->SetNumericValue("qpm_max_wall_time", 20.0);  // a hang becomes a status
  app->Initialize();
  const auto start = std::chrono::steady_clock::now();
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(GetRawPtr(tnlp));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {status, tnlp->f_final, seconds};
}

}  // namespace

BOOST_AUTO_TEST_CASE(ALinearObjectiveWithAFreeRowEndsDivergingIterates) {
  for (bool free_row : {true, false}) {
    const Outcome o = SolveAtIpoptsDefaults(LinearObjective(free_row));
    BOOST_TEST_CONTEXT((free_row ? "free row" : "no row")) {
      BOOST_TEST(o.status == Ipopt::Diverging_Iterates);
      BOOST_TEST(o.f < -1e19);  // at the iterate past diverging_iterates_tol, as Ipopt
      BOOST_TEST(o.seconds < 1.0);
    }
  }
}

BOOST_AUTO_TEST_CASE(AFarMinimumIsNotCalledUnbounded) {
  for (bool free_row : {true, false}) {
    for (const Model& model : {FarNonconvexMinimum(free_row), FarConvexMinimum(free_row)}) {
      const Outcome o = SolveAtIpoptsDefaults(model);
      BOOST_TEST_CONTEXT(model.name << (free_row ? ", free row" : ", no row")) {
        BOOST_TEST(o.status == Ipopt::Solve_Succeeded);
        BOOST_TEST(std::abs(o.f - model.f_star) <= 1e-8 * std::max(1.0, std::abs(model.f_star)));
      }
    }
  }
}

// hs077 from a perturbed start (bench/perturbed_starts, scale 0.5, seed 7,
// start 2): the first run ends at a stationary point of the violation
// (||c|| = 1.83) after its trust region's radius collapsed to 1e-18; the
// second start from x_0 must not inherit that radius, under which its
// first step fell below the resolution of z and the solve ended
// Search_Direction_Becomes_Too_Small at ||c|| = 21.
BOOST_AUTO_TEST_CASE(TheSecondStartDoesNotInheritACollapsedRadius) {
  Model model = LibraryModel("hs077");
  model.x0 << 2.6911831386923941, 2.4810675352769156, 1.2338555627286159, 2.776579047264871,
      1.2989386056180179;
  const Outcome o = SolveAtIpoptsDefaults(model);
  BOOST_TEST(o.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(std::abs(o.f - model.f_star) <= 1e-6 * (1.0 + std::abs(model.f_star)));
}
