#define BOOST_TEST_MODULE scaled_problem
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Dense>

#include "core/scaled_problem.hpp"

namespace tt = boost::test_tools;
using qpm::Vector;
using Eigen::MatrixXd;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// A badly scaled problem: at x0 = (2, 1.5, 3) grad f = (2001.5, 32, 1000) and
// row 1 of J = (800, 600, 0), so Ipopt scales f by 100/2001.5 and row 1 by
// 100/800; rows 2 and 3 have entries <= 1.5 and stay unscaled.
//   min  500 x1^2 + 10 x2^2 + x1 x2 + 1000 x3
//   s.t. 200 (x1^2 + x2^2) = 400,  0.5 x1 x3 <= 10,  x3 - x2 >= 0,
//        -5 <= x1 <= 5,  x3 >= 1.
// KKT point x* = (1, 1, 1): grad f + J^T lambda - z_L = 0 with
// lambda* = (-1001/400, 0, -980) and z_L = (0, 0, 20).
class BadlyScaled : public qpm::Problem {
 public:
  int evals_f = 0, evals_g = 0, evals_grad = 0, evals_jac = 0, evals_hess = 0;
  bool fail_gradient = false;
  bool nan_in_row0 = false;

  int num_variables() const override { return 3; }
  int num_constraints() const override { return 3; }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef g_l,
                 qpm::VectorRef g_u) const override {
    x_l << -5, -kInf, 1;
    x_u << 5, kInf, kInf;
    g_l << 400, -kInf, 0;
    g_u << 400, 10, kInf;
  }
  mutable int init_jacobian_calls = 0;
  int promises = 0;  // SamePointNext calls that reached the model
  void SamePointNext() override { ++promises; }
  void InitJacobian(qpm::SparseMatrix* j) const override {
    ++init_jacobian_calls;
    std::vector<Eigen::Triplet<double>> t{{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}, {2, 2, 1}};
    j->resize(3, 3);
    j->setFromTriplets(t.begin(), t.end());
  }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    ++evals_f;
    *f = 500 * x[0] * x[0] + 10 * x[1] * x[1] + x[0] * x[1] + 1000 * x[2];
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    ++evals_g;
    g << 200 * (x[0] * x[0] + x[1] * x[1]), 0.5 * x[0] * x[2], x[2] - x[1];
    return true;
  }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef grad) override {
    ++evals_grad;
    grad << 1000 * x[0] + x[1], 20 * x[1] + x[0], 1000;
    return !fail_gradient;
  }
  bool EvalJacobian(const qpm::ConstVectorRef& x, qpm::SparseMatrixView* j) override {
    ++evals_jac;
    double* v = j->valuePtr();  // row-major, columns ascending within a row
    v[0] = 400 * x[0], v[1] = 400 * x[1];
    v[2] = 0.5 * x[2], v[3] = 0.5 * x[0];
    v[4] = -1, v[5] = 1;
    if (nan_in_row0) v[1] = std::nan("");
    return true;
  }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* h) const override {
    std::vector<Eigen::Triplet<double>> t{{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {2, 0, 1}};
    h->resize(3, 3);
    h->setFromTriplets(t.begin(), t.end());
  }
  bool EvalHessian(const qpm::ConstVectorRef&, double sigma, const qpm::ConstVectorRef& l,
                   qpm::SparseMatrix* h) override {
    ++evals_hess;
    h->coeffRef(0, 0) = 1000 * sigma + 400 * l[0];
    h->coeffRef(1, 0) = sigma;
    h->coeffRef(1, 1) = 20 * sigma + 400 * l[0];
    h->coeffRef(2, 0) = 0.5 * l[1];
    return true;
  }
};

const Vector kX0 = (Vector(3) << 2.0, 1.5, 3.0).finished();
const Vector kXStar = Vector::Ones(3);
const double kObjectiveFactor = 100.0 / 2001.5;

MatrixXd Jacobian(qpm::Problem& p, const Vector& x) {
  qpm::SparseMatrix j;
  p.InitJacobian(&j);
  qpm::SparseMatrixView view = qpm::ViewOf(j);
  BOOST_REQUIRE(p.EvalJacobian(x, &view));
  return MatrixXd(j);
}

Vector Gradient(qpm::Problem& p, const Vector& x) {
  Vector g(p.num_variables());
  BOOST_REQUIRE(p.EvalGradient(x, g));
  return g;
}

Vector Constraints(qpm::Problem& p, const Vector& x) {
  Vector g(p.num_constraints());
  BOOST_REQUIRE(p.EvalConstraints(x, g));
  return g;
}

// The full symmetric W from its stored lower triangle.
MatrixXd Hessian(qpm::Problem& p, const Vector& x, double sigma, const Vector& lambda) {
  qpm::SparseMatrix h;
  p.InitHessian(&h);
  BOOST_REQUIRE(p.EvalHessian(x, sigma, lambda, &h));
  const MatrixXd lower(h);
  return lower + lower.transpose() - MatrixXd(lower.diagonal().asDiagonal());
}

// grad_x (sigma f + lambda' g), the gradient whose derivative W is.
Vector LagrangianGradient(qpm::Problem& p, const Vector& x, double sigma, const Vector& lambda) {
  return sigma * Gradient(p, x) + Jacobian(p, x).transpose() * lambda;
}

qpm::ScaledProblem Scaled(BadlyScaled* model, qpm::ScalingOptions options = {}) {
  qpm::ScaledProblem scaled(model, options);
  BOOST_REQUIRE(scaled.Compute(kX0));
  return scaled;
}

}  // namespace

BOOST_AUTO_TEST_CASE(FactorsFollowIpoptsGradientRuleAtTheStartPoint) {
  BadlyScaled model;
  qpm::ScaledProblem scaled(&model);
  BOOST_TEST(scaled.objective_factor() == 1.0);  // unscaled until Compute
  BOOST_REQUIRE(scaled.Compute(kX0));
  BOOST_TEST(scaled.objective_factor() == kObjectiveFactor, tt::tolerance(1e-15));
  BOOST_TEST(scaled.constraint_factors()[0] == 0.125, tt::tolerance(1e-15));
  BOOST_TEST(scaled.constraint_factors()[1] == 1.0);  // ||row||_inf = 1.5 <= 100: never enlarged
  BOOST_TEST(scaled.constraint_factors()[2] == 1.0);
  // One gradient and one Jacobian evaluation, nothing else.
  BOOST_TEST(model.evals_grad == 1);
  BOOST_TEST(model.evals_jac == 1);
  BOOST_TEST(model.evals_f + model.evals_g + model.evals_hess == 0);
}

// The solver's own request for J's pattern (the penalty's, after Compute)
// is served from J(x0)'s matrix: the model is asked once, which lets
// TnlpProblem hand its pattern over instead of keeping a copy.
BOOST_AUTO_TEST_CASE(ModelIsAskedForTheJacobianPatternOnce) {
  BadlyScaled model;
  qpm::ScaledProblem scaled(&model);
  BOOST_REQUIRE(scaled.Compute(kX0));
  qpm::SparseMatrix pattern, direct;
  scaled.InitJacobian(&pattern);
  BOOST_TEST(model.init_jacobian_calls == 1);
  model.InitJacobian(&direct);
  BOOST_REQUIRE(pattern.nonZeros() == direct.nonZeros());
  BOOST_TEST(std::equal(direct.innerIndexPtr(), direct.innerIndexPtr() + direct.nonZeros(),
                        pattern.innerIndexPtr()));
}

// A promise before a call served from the start's copies must not stay
// pending in the model for a later call at another point.
BOOST_AUTO_TEST_CASE(SamePointPromiseReachesTheModelOnlyWithTheCallItCovers) {
  BadlyScaled model;
  qpm::ScaledProblem scaled(&model);
  BOOST_REQUIRE(scaled.Compute(kX0));
  Vector grad(3);
  scaled.SamePointNext();
  BOOST_REQUIRE(scaled.EvalGradient(kX0, grad));  // served: grad f(x0) was kept
  BOOST_TEST(model.evals_grad == 1);
  BOOST_TEST(model.promises == 0);
  qpm::SparseMatrix j;
  scaled.InitJacobian(&j);
  qpm::SparseMatrixView view = qpm::ViewOf(j);
  scaled.SamePointNext();
  BOOST_REQUIRE(scaled.EvalJacobian(kX0, &view));  // served: J(x0) was kept
  BOOST_TEST(model.evals_jac == 1);
  BOOST_TEST(model.promises == 0);
  double f;
  BOOST_REQUIRE(scaled.EvalObjective(kX0 + Vector::Ones(3), &f));
  BOOST_TEST(model.promises == 0);
  scaled.SamePointNext();
  BOOST_REQUIRE(scaled.EvalObjective(kX0 + Vector::Ones(3), &f));
  BOOST_TEST(model.promises == 1);
}

BOOST_AUTO_TEST_CASE(ScaledValuesAndDerivativesAreTheFactorsTimesTheUnscaledOnes) {
  BadlyScaled model;
  qpm::ScaledProblem scaled = Scaled(&model);
  const double df = scaled.objective_factor();
  const Vector dc = scaled.constraint_factors();
  const Vector x = (Vector(3) << 0.7, -1.3, 2.2).finished();
  double f = 0, f_scaled = 0;
  BOOST_REQUIRE(model.EvalObjective(x, &f));
  BOOST_REQUIRE(scaled.EvalObjective(x, &f_scaled));
  BOOST_TEST(f_scaled == df * f, tt::tolerance(1e-14));
  BOOST_TEST((Gradient(scaled, x) - df * Gradient(model, x)).norm() <= 1e-12);
  BOOST_TEST((Constraints(scaled, x) - dc.asDiagonal() * Constraints(model, x)).norm() <= 1e-12);
  BOOST_TEST((Jacobian(scaled, x) - dc.asDiagonal() * Jacobian(model, x)).norm() <= 1e-12);
}

BOOST_AUTO_TEST_CASE(RowBoundsAreScaledAndInfiniteBoundsStayInfinite) {
  BadlyScaled model;
  qpm::ScaledProblem scaled = Scaled(&model);
  Vector x_l(3), x_u(3), g_l(3), g_u(3);
  scaled.GetBounds(x_l, x_u, g_l, g_u);
  BOOST_TEST(g_l[0] == 50.0, tt::tolerance(1e-14));  // 0.125 * 400
  BOOST_TEST(g_u[0] == 50.0, tt::tolerance(1e-14));  // still an equality
  BOOST_TEST(g_l[1] == -kInf);
  BOOST_TEST(g_u[1] == 10.0);
  BOOST_TEST(g_u[2] == kInf);
  BOOST_TEST(x_l[2] == 1.0);  // variable bounds untouched
  BOOST_TEST(x_u[1] == kInf);
}

BOOST_AUTO_TEST_CASE(HessianOfTheScaledLagrangianMatchesFiniteDifferencesOfItsGradient) {
  for (double obj_scaling : {1.0, -3.0}) {
    BadlyScaled model;
    qpm::ScalingOptions options;
    options.obj_scaling = obj_scaling;
    qpm::ScaledProblem scaled = Scaled(&model, options);
    const Vector x = (Vector(3) << 0.7, -1.3, 2.2).finished();
    const Vector lambda = (Vector(3) << 0.3, -1.2, 2.0).finished();
    const double sigma = 0.7, h = 1e-6;
    const MatrixXd w = Hessian(scaled, x, sigma, lambda);
    MatrixXd fd(3, 3);
    for (int i = 0; i < 3; ++i) {
      const Vector e = h * Vector::Unit(3, i);
      fd.col(i) = (LagrangianGradient(scaled, x + e, sigma, lambda) -
                   LagrangianGradient(scaled, x - e, sigma, lambda)) / (2 * h);
    }
    BOOST_TEST_CONTEXT("obj_scaling " << obj_scaling) {
      BOOST_TEST((w - fd).norm() <= 1e-6 * fd.norm());
      BOOST_TEST(w(2, 0) != 0.0);  // the constraint term is really exercised
    }
  }
}

BOOST_AUTO_TEST_CASE(WithoutGradientBasedScalingFactorsAreObjScalingAndOne) {
  BadlyScaled model;
  qpm::ScalingOptions options;
  options.gradient_based = false;
  options.obj_scaling = 2.5;
  qpm::ScaledProblem scaled(&model, options);
  BOOST_REQUIRE(scaled.Compute(kX0));
  BOOST_TEST(scaled.objective_factor() == 2.5);
  BOOST_TEST(scaled.constraint_factors() == Vector::Ones(3), tt::per_element());
  BOOST_TEST(model.evals_grad + model.evals_jac == 0);  // nothing to measure
}

BOOST_AUTO_TEST_CASE(FactorsAreFlooredAtMinValue) {
  BadlyScaled model;
  qpm::ScalingOptions options;
  options.max_gradient = 1.0;
  options.min_value = 1e-3;
  qpm::ScaledProblem scaled = Scaled(&model, options);
  BOOST_TEST(scaled.objective_factor() == 1e-3, tt::tolerance(1e-15));  // 1/2001.5 < 1e-3
  BOOST_TEST(scaled.constraint_factors()[0] == 1.0 / 800, tt::tolerance(1e-15));  // above the floor
  BOOST_TEST(scaled.constraint_factors()[1] == 1.0 / 1.5, tt::tolerance(1e-15));
  BOOST_TEST(scaled.constraint_factors()[2] == 1.0, tt::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(NegativeObjScalingMultipliesAfterTheFloor) {
  BadlyScaled model;
  qpm::ScalingOptions options;
  options.obj_scaling = -3.0;
  qpm::ScaledProblem scaled = Scaled(&model, options);
  BOOST_TEST(scaled.objective_factor() == -3.0 * kObjectiveFactor, tt::tolerance(1e-15));
  BOOST_TEST(scaled.constraint_factors()[0] == 0.125, tt::tolerance(1e-15));  // rows unaffected
  double f = 0, f_scaled = 0;
  BOOST_REQUIRE(model.EvalObjective(kX0, &f));
  BOOST_REQUIRE(scaled.EvalObjective(kX0, &f_scaled));
  BOOST_TEST(f_scaled == -3.0 * kObjectiveFactor * f, tt::tolerance(1e-14));

  options.max_gradient = 1.0;
  options.min_value = 1e-3;
  BadlyScaled floored;
  BOOST_TEST(Scaled(&floored, options).objective_factor() == -3e-3, tt::tolerance(1e-15));
}

// Solve the SCALED stationarity  grad f~ + J~^T lambda~ - z~_L = 0  at x* on
// its own (active rows 1, 3 and the bound x3 >= 1), then map back: the
// unscaled residual must vanish and the multipliers be the analytic ones.
BOOST_AUTO_TEST_CASE(MultipliersMapBackToAZeroUnscaledKktResidual) {
  for (double obj_scaling : {1.0, -3.0}) {
    BOOST_TEST_CONTEXT("obj_scaling " << obj_scaling) {
      BadlyScaled model;
      qpm::ScalingOptions options;
      options.obj_scaling = obj_scaling;
      qpm::ScaledProblem scaled = Scaled(&model, options);
      const MatrixXd j_scaled = Jacobian(scaled, kXStar);
      MatrixXd a(3, 3);
      a << j_scaled.row(0).transpose(), j_scaled.row(2).transpose(), -Vector::Unit(3, 2);
      const Vector unknowns = a.partialPivLu().solve(-Gradient(scaled, kXStar));
      const Vector lambda_scaled = (Vector(3) << unknowns[0], 0.0, unknowns[1]).finished();
      const Vector z_scaled = unknowns[2] * Vector::Unit(3, 2);
      const Vector scaled_residual = Gradient(scaled, kXStar) + j_scaled.transpose() * lambda_scaled - z_scaled;
      BOOST_TEST(scaled_residual.norm() <= 1e-12);

      Vector lambda(3), z(3);
      scaled.UnscaleMultipliers(lambda_scaled, lambda);
      scaled.UnscaleBoundMultipliers(z_scaled, z);
      const Vector residual = Gradient(model, kXStar) + Jacobian(model, kXStar).transpose() * lambda - z;
      BOOST_TEST(residual.norm() <= 1e-10);
      BOOST_TEST(lambda[0] == -1001.0 / 400, tt::tolerance(1e-12));
      BOOST_TEST(lambda[2] == -980.0, tt::tolerance(1e-12));
      BOOST_TEST(z[2] == 20.0, tt::tolerance(1e-12));

      Vector round_trip(3);
      scaled.ScaleMultipliers(lambda, round_trip);
      BOOST_TEST((round_trip - lambda_scaled).norm() <= 1e-12 * lambda_scaled.norm());
    }
  }
}

BOOST_AUTO_TEST_CASE(ConstraintsAndObjectiveMapBack) {
  BadlyScaled model;
  qpm::ScaledProblem scaled = Scaled(&model);
  const Vector x = (Vector(3) << 0.7, -1.3, 2.2).finished();
  Vector g(3);
  scaled.UnscaleConstraints(Constraints(scaled, x), g);
  BOOST_TEST((g - Constraints(model, x)).norm() <= 1e-12);
  double f = 0, f_scaled = 0;
  BOOST_REQUIRE(model.EvalObjective(x, &f));
  BOOST_REQUIRE(scaled.EvalObjective(x, &f_scaled));
  BOOST_TEST(scaled.UnscaleObjective(f_scaled) == f, tt::tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(FailedGradientLeavesTheObjectiveUnscaled) {
  BadlyScaled model;
  model.fail_gradient = true;
  qpm::ScalingOptions options;
  options.obj_scaling = 2.0;
  qpm::ScaledProblem scaled(&model, options);
  BOOST_TEST(!scaled.Compute(kX0));
  BOOST_TEST(scaled.objective_factor() == 2.0);
  BOOST_TEST(scaled.constraint_factors()[0] == 0.125, tt::tolerance(1e-15));  // still measured
}

BOOST_AUTO_TEST_CASE(NonFiniteJacobianRowIsLeftUnscaled) {
  BadlyScaled model;
  model.nan_in_row0 = true;
  qpm::ScaledProblem scaled(&model);
  BOOST_TEST(!scaled.Compute(kX0));
  BOOST_TEST(scaled.objective_factor() == kObjectiveFactor, tt::tolerance(1e-15));
  BOOST_TEST(scaled.constraint_factors() == Vector::Ones(3), tt::per_element());
}

namespace {

// min (x - 1)^2, no constraints; its gradient vanishes at x0 = 1.
class Unconstrained : public qpm::Problem {
 public:
  int evals_jac = 0;
  int num_variables() const override { return 1; }
  int num_constraints() const override { return 0; }
  void InitJacobian(qpm::SparseMatrix* j) const override { j->resize(0, 1); }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    *f = (x[0] - 1) * (x[0] - 1);
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef&, qpm::VectorRef) override { return true; }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g[0] = 2 * (x[0] - 1);
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView*) override {
    ++evals_jac;
    return true;
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(ZeroGradientWithoutConstraintsGivesObjScalingAndNoJacobianCall) {
  Unconstrained model;
  qpm::ScalingOptions options;
  options.obj_scaling = 4.0;
  qpm::ScaledProblem scaled(&model, options);
  BOOST_REQUIRE(scaled.Compute(Vector::Ones(1)));
  BOOST_TEST(scaled.objective_factor() == 4.0);
  BOOST_TEST(scaled.constraint_factors().size() == 0);
  BOOST_TEST(model.evals_jac == 0);
  BOOST_TEST(!scaled.has_hessian());
  double f = 0;
  BOOST_REQUIRE(scaled.EvalObjective(Vector::Constant(1, 3.0), &f));
  BOOST_TEST(f == 16.0);
}
