// The models of Ipopt's ScalableProblems written in models/ (bench/ipopt_scalable):
// their derivatives, and QPM's solves of them against Ipopt's at small sizes.
#define BOOST_TEST_MODULE scalable_models
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <IpIpoptApplication.hpp>

#include "boundary_control_2d_tnlp.hpp"
#include "boundary_control_3d_sin_tnlp.hpp"
#include "boundary_control_3d_tnlp.hpp"
#include "boundary_control_neumann_2d_tnlp.hpp"
#include "distributed_control_2d_tnlp.hpp"
#include "distributed_control_neumann_2d_tnlp.hpp"
#include "luksan_vlcek4_tnlp.hpp"
#include "parabolic_control_tnlp.hpp"
#include "qpm/qpm.hpp"

using Ipopt::SmartPtr;

namespace {

// qpm's derivative checker (Ipopt's derivative_test second-order) at a seeded
// random point within `radius` of the start and within the bounds, relative
// error at most `tol`; the first entry it flags, if any, as the message.
void CheckSecondOrder(Ipopt::TNLP& model, double radius, double tol) {
  qpm::DerivativeTestOptions options;
  options.level = qpm::DerivativeTestOptions::Level::kSecondOrder;
  options.tol = tol;
  options.point_perturbation_radius = radius;
  const qpm::DerivativeTestResult r = qpm::CheckDerivatives(model, options);
  BOOST_TEST(r.evaluated, r.failure);
  const auto first_error = std::find_if(r.lines.begin(), r.lines.end(),
                                        [](const std::string& l) { return l.rfind('*', 0) == 0; });
  BOOST_TEST(r.errors == 0, (first_error != r.lines.end() ? *first_error : std::string()));
  BOOST_TEST(r.checked > 0);
}

struct Outcome {
  Ipopt::ApplicationReturnStatus status;
  double f;
};

Outcome Solve(SmartPtr<Ipopt::IpoptApplication> app, SmartPtr<RecordingTnlp> model) {
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  BOOST_REQUIRE(app->Initialize() == Ipopt::Solve_Succeeded);
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(GetRawPtr(model));
  return {status, model->f_};
}

double RelativeGap(double a, double reference) { return std::abs(a - reference) / std::abs(reference); }

}  // namespace

BOOST_AUTO_TEST_CASE(DerivativesOfTheModelsAgreeWithFiniteDifferences) {
  SmartPtr<BoundaryControl2dTnlp> square = new BoundaryControl2dTnlp(4);
  CheckSecondOrder(*square, 0.1, 1e-6);
  for (int example = 5; example <= 8; ++example) {
    BOOST_TEST_CONTEXT("MBndryCntrl" << example) {
      SmartPtr<BoundaryControlNeumann2dTnlp> sides = new BoundaryControlNeumann2dTnlp(4, example);
      CheckSecondOrder(*sides, 0.1, 1e-6);
    }
  }
  using Heat = ParabolicControlTnlp::Example;
  for (Heat example : {Heat::k5_1, Heat::k5_2_1, Heat::k5_2_2, Heat::k5_2_3}) {
    BOOST_TEST_CONTEXT("MPara example " << static_cast<int>(example)) {
      SmartPtr<ParabolicControlTnlp> heat = new ParabolicControlTnlp(5, example);
      CheckSecondOrder(*heat, 0.1, 1e-6);
    }
  }
  SmartPtr<BoundaryControl3dTnlp> boundary = new BoundaryControl3dTnlp(3);
  CheckSecondOrder(*boundary, 0.1, 1e-6);
  SmartPtr<BoundaryControl3dSinTnlp> sine = new BoundaryControl3dSinTnlp(3);
  // The sine of a Laplacian over h^2: third derivatives ~1e4 at N = 3, so
  // the checker's forward differences are off by up to 2e-4 relative
  // (central differences agree to 4e-8); a wrong entry is off by O(1).
  CheckSecondOrder(*sine, 0.1, 1e-3);
  SmartPtr<DistributedControl2dTnlp> distributed = new DistributedControl2dTnlp(4);
  CheckSecondOrder(*distributed, 0.1, 1e-6);
  SmartPtr<DistributedControlNeumann2dTnlp> neumann = new DistributedControlNeumann2dTnlp(4);
  CheckSecondOrder(*neumann, 0.1, 1e-6);
  SmartPtr<LuksanVlcek4Tnlp> chained = new LuksanVlcek4Tnlp(10);
  // Ipopt's tolerance: f ~ 1e3 there, so the differences' rounding is 1e-5.
  CheckSecondOrder(*chained, 0.1, 1e-4);
}

BOOST_AUTO_TEST_CASE(LuksanVlcek4IsSizedAsTheOriginal) {
  SmartPtr<LuksanVlcek4Tnlp> chained = new LuksanVlcek4Tnlp(99998);  // N + 2 = 1e5
  BOOST_TEST(chained->variables() == 100000);
  BOOST_TEST(chained->rows() == 99996);
  SmartPtr<LuksanVlcek4Tnlp> rounded = new LuksanVlcek4Tnlp(7);  // N + 2 = 9 -> 12
  BOOST_TEST(rounded->variables() == 12);
}

// The issue that asked for these models saw QPM end 0.2% above Ipopt's f on
// LukVlE4 (n = 1e5); both now end at the same local solution.
BOOST_AUTO_TEST_CASE(QpmEndsAtIpoptsObjectiveOnLuksanVlcek4) {
  const Outcome qpm = Solve(new qpm::QpmApplication(), new LuksanVlcek4Tnlp(998));
  const Outcome ipopt = Solve(IpoptApplicationFactory(), new LuksanVlcek4Tnlp(998));
  BOOST_TEST(qpm.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(ipopt.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(RelativeGap(qpm.f, ipopt.f) <= 1e-8);
}

// A convex QP: one minimizer, which both must find.
BOOST_AUTO_TEST_CASE(QpmEndsAtIpoptsObjectiveOnTheBoundaryControl) {
  const Outcome qpm = Solve(new qpm::QpmApplication(), new BoundaryControl2dTnlp(20));
  const Outcome ipopt = Solve(IpoptApplicationFactory(), new BoundaryControl2dTnlp(20));
  BOOST_TEST(qpm.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(ipopt.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(RelativeGap(qpm.f, ipopt.f) <= 1e-6);
}

// State and control bounds on a semilinear PDE: QPM's f at most Ipopt's
// (both end on Ipopt's test at tol 1e-8; QPM's is the lower by 4e-5 relative at N = 100).
BOOST_AUTO_TEST_CASE(QpmEndsAtOrBelowIpoptsObjectiveOnTheDistributedControl) {
  const Outcome qpm = Solve(new qpm::QpmApplication(), new DistributedControl2dTnlp(20));
  const Outcome ipopt = Solve(IpoptApplicationFactory(), new DistributedControl2dTnlp(20));
  BOOST_TEST(qpm.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(ipopt.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(qpm.f <= ipopt.f * (1.0 + 1e-6));
}

// The same with Neumann boundary rows and an exponential term (MDistCntrl4).
BOOST_AUTO_TEST_CASE(QpmEndsAtOrBelowIpoptsObjectiveOnTheNeumannDistributedControl) {
  const Outcome qpm = Solve(new qpm::QpmApplication(), new DistributedControlNeumann2dTnlp(20));
  const Outcome ipopt = Solve(IpoptApplicationFactory(), new DistributedControlNeumann2dTnlp(20));
  BOOST_TEST(qpm.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(ipopt.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(qpm.f <= ipopt.f * (1.0 + 1e-6));
}

// Interior steps that improve neither Q nor the barrier's KKT error for 50
// steps lower mu instead of drifting to the 1000-step guard: LukVlI4 at
// n = 2e4 has such a subproblem (docs/algorithm.md, "Interior steps on the
// bounds", where the counts with and without the rule are).
BOOST_AUTO_TEST_CASE(InteriorStepsThatStopImprovingLowerMuInsteadOfDrifting) {
  SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication();
  const Outcome qpm = Solve(app, new LuksanVlcek4Tnlp(19998, true));
  BOOST_TEST(qpm.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(app->LastSummary().inner_iterations < 600);
}

// Boundary control through a nonlinear Neumann condition (MBndryCntrl5):
// QPM's f at most Ipopt's.
BOOST_AUTO_TEST_CASE(QpmEndsAtOrBelowIpoptsObjectiveOnTheNeumannBoundaryControl) {
  const Outcome qpm = Solve(new qpm::QpmApplication(), new BoundaryControlNeumann2dTnlp(20, 5));
  const Outcome ipopt = Solve(IpoptApplicationFactory(), new BoundaryControlNeumann2dTnlp(20, 5));
  BOOST_TEST(qpm.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(ipopt.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(qpm.f <= ipopt.f * (1.0 + 1e-6));
}

// The parabolic control (MPara5_1): a fixed initial state, a nonlinear
// boundary row; QPM's f at most Ipopt's.
BOOST_AUTO_TEST_CASE(QpmEndsAtOrBelowIpoptsObjectiveOnTheParabolicControl) {
  const Outcome qpm = Solve(new qpm::QpmApplication(), new ParabolicControlTnlp(20));
  const Outcome ipopt = Solve(IpoptApplicationFactory(), new ParabolicControlTnlp(20));
  BOOST_TEST(qpm.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(ipopt.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(qpm.f <= ipopt.f * (1.0 + 1e-6));
}
