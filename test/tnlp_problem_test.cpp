#define BOOST_TEST_MODULE tnlp_problem
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>
#include <string>

#include "qpm/ipopt/tnlp_problem.hpp"
#include "test_problems.hpp"

using namespace qpm_test;
using Ipopt::SmartPtr;
using Ipopt::TNLP;

namespace {

std::unique_ptr<qpm::TnlpProblem> Adapt(const SmartPtr<DenseTnlp>& tnlp, std::string* error) {
  return qpm::TnlpProblem::Create(GetRawPtr(tnlp), qpm::TnlpOptions(), error);
}

// Jacobian of the adapter at x as a dense matrix.
Eigen::MatrixXd AdaptedJacobian(qpm::TnlpProblem& problem, const Vector& x) {
  qpm::SparseMatrix j;
  problem.InitJacobian(&j);
  qpm::SparseMatrixView view = qpm::ViewOf(j);
  BOOST_REQUIRE(problem.EvalJacobian(x, &view));
  return Eigen::MatrixXd(j);
}

}  // namespace

BOOST_AUTO_TEST_CASE(ReadsBothIndexStylesAndSumsRepeatedTriplets) {
  const TestProblem p = LeastNorm();
  for (auto style : {TNLP::C_STYLE, TNLP::FORTRAN_STYLE}) {
    for (bool split : {false, true}) {
      SmartPtr<DenseTnlp> tnlp = new DenseTnlp(p, style, split);
      std::string error;
      auto problem = Adapt(tnlp, &error);
      BOOST_TEST_CONTEXT("style " << style << " split " << split) {
        BOOST_REQUIRE_MESSAGE(problem, error);
        BOOST_TEST(problem->num_variables() == 4);
        BOOST_TEST(problem->num_constraints() == 2);
        const Eigen::MatrixXd j = AdaptedJacobian(*problem, p.x0);
        BOOST_TEST((j - p.jac(p.x0)).norm() == 0.0);
        qpm::SparseMatrix pattern;
        problem->InitJacobian(&pattern);
        BOOST_TEST(pattern.nonZeros() == 8);  // duplicates merged into one slot
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(PassesTheModelsConstraintValues) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  std::string error;
  auto problem = Adapt(tnlp, &error);
  BOOST_REQUIRE(problem);
  Vector g(1);
  BOOST_REQUIRE(problem->EvalConstraints(Hs7().x0, g));
  BOOST_TEST(g[0] == Hs7().c(Hs7().x0)[0]);  // the model's g, unshifted
  BOOST_TEST((problem->starting_point() - Hs7().x0).norm() == 0.0);
}

// Hs6 through the adapter, with buffers for its values.
struct Hs6Adapted {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6());
  std::string error;
  std::unique_ptr<qpm::TnlpProblem> problem = Adapt(tnlp, &error);
  Vector x = Hs6().x0, c = Vector(1), g = Vector(2);
  double f = 0.0;
};

BOOST_FIXTURE_TEST_CASE(NewXIsFalseOnlyForTheSamePoint, Hs6Adapted) {
  BOOST_REQUIRE(problem);
  problem->EvalObjective(x, &f);
  problem->EvalConstraints(x, c);
  problem->EvalGradient(x, g);
  x[0] += 1e-300;  // a different point, however close
  x[0] += 0.5;
  problem->EvalObjective(x, &f);
  const Vector copy = x;  // the same point elsewhere: new_x may say true (safe)...
  problem->EvalObjective(copy, &f);
  problem->EvalConstraints(copy, c);  // ... and then false at that buffer
  x[1] = -x[1];  // the last entry changed in place
  problem->EvalObjective(x, &f);
  const std::vector<bool> expected = {true, false, false, true, true, false, true};
  BOOST_TEST(tnlp->new_x_flags == expected, boost::test_tools::per_element());
}

// SamePointNext covers the next call only: a later call at the same buffer,
// changed in place, is a new x again.
BOOST_FIXTURE_TEST_CASE(SamePointPromiseCoversOnlyTheNextCall, Hs6Adapted) {
  BOOST_REQUIRE(problem);
  problem->EvalObjective(x, &f);
  problem->SamePointNext();
  problem->EvalConstraints(x, c);  // promised: false without reading x
  problem->EvalGradient(x, g);     // not promised, unchanged: false from the hash
  problem->SamePointNext();
  x[0] += 0.5;                     // a broken promise is not the shell's to catch...
  problem->EvalObjective(x, &f);
  problem->EvalObjective(x, &f);   // ... but it ends there: hashed again, new
  x[1] = -x[1];
  problem->EvalConstraints(x, c);  // changed in place, no promise: new
  const std::vector<bool> expected = {true, false, false, false, true, true};
  BOOST_TEST(tnlp->new_x_flags == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ObjectiveScalingAppliesToValueAndGradient) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  qpm::TnlpOptions options;
  options.obj_scaling = -2.0;
  std::string error;
  auto problem = qpm::TnlpProblem::Create(GetRawPtr(tnlp), options, &error);
  BOOST_REQUIRE(problem);
  double f;
  Vector g(2);
  BOOST_REQUIRE(problem->EvalObjective(Hs7().x0, &f));
  BOOST_REQUIRE(problem->EvalGradient(Hs7().x0, g));
  BOOST_TEST(f == -2.0 * Hs7().f(Hs7().x0));
  BOOST_TEST((g + 2.0 * Hs7().grad(Hs7().x0)).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(RefusesInconsistentVariableBoundsNamingTheVariable) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6());
  tnlp->x_lower = 2.0;
  tnlp->x_upper = 1.0;
  std::string error;
  BOOST_TEST(!Adapt(tnlp, &error));
  BOOST_TEST(error.find("variable 0 has inconsistent bounds x_l = 2 > x_u = 1") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(TreatsBoundsBeyondInfinityAsAbsent) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6());
  tnlp->x_lower = -2e19;
  tnlp->x_upper = 1e19;
  std::string error;
  BOOST_TEST(Adapt(tnlp, &error).get() != nullptr);
}

BOOST_AUTO_TEST_CASE(RefusesInconsistentRowBoundsNamingTheRow) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(LeastNorm());
  tnlp->crossed_row = 1;
  std::string error;
  BOOST_TEST(!Adapt(tnlp, &error));
  BOOST_TEST(error.find("constraint 1 has inconsistent bounds g_l = 1 > g_u = -1") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(PassesBoundsWithInfinitiesMapped) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(LeastNorm());
  tnlp->x_lower = -3.0;
  tnlp->inequality = true;
  std::string error;
  auto problem = Adapt(tnlp, &error);
  BOOST_REQUIRE_MESSAGE(problem, error);
  Vector x_l(4), x_u(4), g_l(2), g_u(2);
  problem->GetBounds(x_l, x_u, g_l, g_u);
  BOOST_TEST(x_l[2] == -3.0);
  BOOST_TEST(std::isinf(x_u[2]));
  BOOST_TEST(x_u[2] > 0);
  BOOST_TEST(g_l[1] == 0.0);
  BOOST_TEST(g_u[1] == 1.0);
}

BOOST_AUTO_TEST_CASE(RefusesOutOfRangeStructureIndices) {
  for (auto style : {TNLP::C_STYLE, TNLP::FORTRAN_STYLE}) {
    SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6(), style);
    tnlp->bad_index = 1;
    std::string error;
    BOOST_TEST(!Adapt(tnlp, &error));
    BOOST_TEST(error.find("eval_jac_g structure") != std::string::npos);
    BOOST_TEST(error.find(style == TNLP::C_STYLE ? "C_STYLE" : "FORTRAN_STYLE") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(RefusesNonzeroCountsThatDisagreeWithTheStructure) {
  struct Case { Ipopt::Index jac, hess; const char* call; const char* says; };
  for (const Case& c : {Case{2, 0, "eval_jac_g", "larger"}, Case{-1, 0, "eval_jac_g", "smaller"},
                        Case{0, 3, "eval_h", "larger"}, Case{0, -2, "eval_h", "smaller"}}) {
    SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
    tnlp->nnz_jac_offset = c.jac;
    tnlp->nnz_h_offset = c.hess;
    qpm::TnlpOptions options;
    options.need_hessian = true;
    std::string error;
    BOOST_TEST_CONTEXT("offsets " << c.jac << ", " << c.hess) {
      BOOST_TEST(!qpm::TnlpProblem::Create(SmartPtr<TNLP>(GetRawPtr(tnlp)), options, &error));
      BOOST_TEST(error.find(std::string(c.call) + " structure") == 0u, error);
      BOOST_TEST(error.find(c.says) != std::string::npos, error);
    }
  }
}

BOOST_AUTO_TEST_CASE(ReadsTheHessianFromEitherTriangleAndSumsRepeats) {
  const TestProblem p = Hs7();
  const Vector lambda = Vector::Constant(1, 0.7);
  const Eigen::MatrixXd expected = p.hess(p.x0, 1.0, lambda);
  for (bool upper : {false, true}) {
    for (auto style : {TNLP::C_STYLE, TNLP::FORTRAN_STYLE}) {
      SmartPtr<DenseTnlp> tnlp = new DenseTnlp(p, style, /*split=*/true);
      tnlp->upper_hessian = upper;
      qpm::TnlpOptions options;
      options.need_hessian = true;
      std::string error;
      auto problem = qpm::TnlpProblem::Create(GetRawPtr(tnlp), options, &error);
      BOOST_REQUIRE_MESSAGE(problem, error);
      BOOST_REQUIRE(problem->has_hessian());
      qpm::SparseMatrix h;
      problem->InitHessian(&h);
      BOOST_REQUIRE(problem->EvalHessian(p.x0, 1.0, lambda, &h));
      const Eigen::MatrixXd lower = Eigen::MatrixXd(h);
      BOOST_TEST_CONTEXT("upper " << upper << " style " << style) {
        BOOST_TEST(h.nonZeros() == 3);
        BOOST_TEST((lower - Eigen::MatrixXd(expected.triangularView<Eigen::Lower>())).norm() <= 1e-14);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(NoHessianCallUnlessAsked) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  std::string error;
  auto problem = Adapt(tnlp, &error);
  BOOST_REQUIRE(problem);
  BOOST_TEST(!problem->has_hessian());
  BOOST_TEST(tnlp->eval_h_calls == 0);
}
