#define BOOST_TEST_MODULE fixed_variables
#include <boost/test/unit_test.hpp>

#include <limits>

#include "core/fixed_variables.hpp"
#include "qpm/core/solver.hpp"
#include "status_print.hpp"
#include "test_problems.hpp"

using namespace qpm_test;

namespace {

// LeastNorm (min 1/2 ||x||^2 s.t. A x = b, A = [1 1 1 1; 1 -1 2 0],
// b = (2, 1)) with x_3 fixed at `value`; records whether every call to the
// model had x_3 at its value.
class FixedLeastNorm : public EigenProblem {
 public:
  explicit FixedLeastNorm(double value) : EigenProblem(LeastNorm()), value_(value) {}
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef g_l,
                 qpm::VectorRef g_u) const override {
    x_l.setConstant(-std::numeric_limits<double>::infinity());
    x_u.setConstant(std::numeric_limits<double>::infinity());
    x_l[3] = x_u[3] = value_;
    g_l.setZero();
    g_u.setZero();
  }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    Check(x);
    return EigenProblem::EvalObjective(x, f);
  }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    Check(x);
    return EigenProblem::EvalGradient(x, g);
  }
  bool EvalHessian(const qpm::ConstVectorRef& x, double sigma, const qpm::ConstVectorRef& lambda,
                   qpm::SparseMatrix* h) override {
    Check(x);
    return EigenProblem::EvalHessian(x, sigma, lambda, h);
  }
  bool always_at_value = true;

 private:
  void Check(const qpm::ConstVectorRef& x) { always_at_value = always_at_value && x[3] == value_; }
  double value_;
};

}  // namespace

BOOST_AUTO_TEST_CASE(TheReducedProblemHasNeitherTheColumnsNorTheRowsOfFixedVariables) {
  FixedLeastNorm problem(1.0);
  BOOST_TEST(qpm::FixedVariables::Any(problem));
  BOOST_TEST(!qpm::FixedVariables::Any(EigenProblem(LeastNorm())));
  qpm::FixedVariables reduced(&problem);
  BOOST_TEST(reduced.num_variables() == 3);
  BOOST_TEST(reduced.num_fixed() == 1);
  qpm::SparseMatrix j, h;
  reduced.InitJacobian(&j);
  reduced.InitHessian(&h);
  BOOST_TEST(j.rows() == 2);
  BOOST_TEST(j.cols() == 3);
  BOOST_TEST(j.nonZeros() == 6);
  BOOST_TEST(h.rows() == 3);
  BOOST_TEST(h.nonZeros() == 6);  // the lower triangle of a dense 3 x 3
  const Vector x = (Vector(3) << 0.5, -1.0, 2.0).finished();
  qpm::SparseMatrixView view = qpm::ViewOf(j);
  BOOST_REQUIRE(reduced.EvalJacobian(x, &view));
  Eigen::MatrixXd a(2, 3);
  a << 1, 1, 1, 1, -1, 2;
  BOOST_TEST((Eigen::MatrixXd(j) - a).norm() == 0.0);
  double f = 0.0;
  BOOST_REQUIRE(reduced.EvalObjective(x, &f));
  BOOST_TEST(f == 0.5 * (x.squaredNorm() + 1.0));  // x_3 = 1 in the model's call
}

BOOST_AUTO_TEST_CASE(FixedVariablesReportTheirValueAndIpoptsBoundMultipliers) {
  // With x_3 = v the reduced problem's KKT system gives
  // lambda = -(A_F A_F^T)^{-1} (b - v a_3) and r_3 = v + lambda_1, so
  // z_L,3 = 5/7 for v = 1 and z_U,3 = 5 for v = -3.
  struct Case { double value, z_l, z_u; };
  for (const Case c : {Case{1.0, 5.0 / 7.0, 0.0}, Case{-3.0, 0.0, 5.0}}) {
    BOOST_TEST_CONTEXT("x_3 fixed at " << c.value) {
      FixedLeastNorm problem(c.value);
      qpm::Options options;
      options.termination.tol = 1e-10;
      const Vector x0 = Vector::Constant(4, 3.0);  // x_3 not at its value
      const qpm::Summary s = qpm::Solve(&problem, x0, options);
      BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
      BOOST_TEST(problem.always_at_value);
      BOOST_TEST(s.start_projected == 1);
      BOOST_TEST(s.x.size() == 4);
      BOOST_TEST(s.x[3] == c.value);  // exactly
      BOOST_TEST(s.z_l[3] == c.z_l, boost::test_tools::tolerance(1e-7));
      BOOST_TEST(s.z_u[3] == c.z_u, boost::test_tools::tolerance(1e-7));
      // z_L - z_U is the Lagrangian gradient's entry at the returned point.
      const Vector r = s.x + LeastNorm().jac(s.x).transpose() * s.lambda;
      BOOST_TEST(s.z_l[3] - s.z_u[3] == r[3], boost::test_tools::tolerance(1e-12));
      BOOST_TEST(r.head(3).norm() <= 1e-9);
      BOOST_TEST((s.z_l.head(3).array() == 0.0).all());
    }
  }
}
