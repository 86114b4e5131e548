// Evaluation faults at any call of any callback, at the defaults: a NaN or
// Inf from one call away from the start is a rejected trial point (the step
// is cut and the solve goes on to Solve_Succeeded); at the start point, or
// persisting from some call on, the solve ends Invalid_Number_Detected with
// the last good point handed to finalize_solution.
#define BOOST_TEST_MODULE evaluation_fault
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>

#include <IpIpoptApplication.hpp>

#include "fault_tnlp.hpp"
#include "model_library.hpp"
#include "qpm/qpm.hpp"
#include "status_print.hpp"

using Ipopt::SmartPtr;
using namespace qpm_test;

namespace {

constexpr std::array<FaultCallback, 5> kCallbacks = {FaultCallback::kF, FaultCallback::kG,
                                                     FaultCallback::kGradF, FaultCallback::kJacG,
                                                     FaultCallback::kH};

struct Result {
  Ipopt::ApplicationReturnStatus status;
  qpm::SolverRun run;
  bool fired;
};

Result Solve(const Model& model, const Fault& fault) {
  SmartPtr<FaultTnlp> faulty = new FaultTnlp(new ModelTnlp(model), fault);
  SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  const qpm::SolverRun run = qpm::RunSolver(app, GetRawPtr(faulty), "QPM", [](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", 1e-8);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
    o.SetNumericValue("qpm_max_wall_time", 10.0);  // a hang becomes a status
  });
  return {run.status, run, faulty->injected()};
}

// Value calls of each callback in a clean solve.
std::array<long, 5> CleanCalls(const Model& model) {
  Fault none;
  none.first_call = none.last_call = -1;
  SmartPtr<FaultTnlp> clean = new FaultTnlp(new ModelTnlp(model), none);
  SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetNumericValue("tol", 1e-8);
  app->Initialize("");
  BOOST_REQUIRE_EQUAL(app->OptimizeTNLP(GetRawPtr(clean)), Ipopt::Solve_Succeeded);
  std::array<long, 5> calls{};
  for (FaultCallback c : kCallbacks) calls[static_cast<int>(c)] = clean->calls(c);
  return calls;
}

// hs071 (bounds, an equality and an inequality row) and hs076 (a QP with
// inequality rows), both solved by the defaults.
const char* kModels[] = {"hs071", "hs076"};

// Calls visit(model, callback, call, made) for each model of kModels, each
// callback made at least 3 times in a clean solve, and an early, a middle
// and a late one of its `made` calls.
template <class Visit>
void ForEachFaultCall(Visit visit) {
  for (const char* name : kModels) {
    const Model model = LibraryModel(name);
    const std::array<long, 5> calls = CleanCalls(model);
    for (FaultCallback callback : kCallbacks) {
      const long made = calls[static_cast<int>(callback)];
      if (made < 3) continue;
      for (long call : {long{3}, made / 2, made - 1}) visit(model, callback, call, made);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(AFaultOnceAwayFromTheStartIsRecoveredFrom) {
  ForEachFaultCall([](const Model& model, FaultCallback callback, long call, long made) {
    for (FaultKind kind : {FaultKind::kNaN, FaultKind::kInf, FaultKind::kFalse}) {
      Fault fault;
      fault.callback = callback, fault.kind = kind, fault.first_call = fault.last_call = call;
      fault.entry = static_cast<int>(call);
      const Result r = Solve(model, fault);
      BOOST_TEST_CONTEXT(model.name << ": " << FaultKindName(kind) << " from "
                                    << FaultCallbackName(callback) << " at call " << call
                                    << " of " << made) {
        BOOST_TEST(r.fired);
        // Second derivatives failing where a subproblem starts (W is needed
        // at its first point, which is not a trial) end the solve cleanly.
        if (callback == FaultCallback::kH && r.status == Ipopt::Invalid_Number_Detected) continue;
        BOOST_TEST(r.status == Ipopt::Solve_Succeeded);
        BOOST_TEST(std::abs(r.run.f - model.f_star) <= 1e-6 * (1 + std::abs(model.f_star)));
      }
    }
  });
}

BOOST_AUTO_TEST_CASE(AFaultAtTheStartPointEndsInvalidNumberDetected) {
  const Model model = LibraryModel("hs071");
  for (FaultCallback callback : kCallbacks) {
    Fault fault;
    fault.callback = callback, fault.kind = FaultKind::kNaN, fault.first_call = fault.last_call = 1;
    const Result r = Solve(model, fault);
    BOOST_TEST_CONTEXT(FaultCallbackName(callback)) {
      BOOST_TEST(r.status == Ipopt::Invalid_Number_Detected);
      BOOST_TEST(r.run.finalized);
    }
  }
}

BOOST_AUTO_TEST_CASE(APersistingFaultEndsInvalidNumberDetectedAtTheLastGoodPoint) {
  ForEachFaultCall([](const Model& model, FaultCallback callback, long call, long made) {
    Fault fault;
    fault.callback = callback, fault.kind = FaultKind::kNaN, fault.first_call = call;
    fault.last_call = 1L << 40;
    const Result r = Solve(model, fault);
    BOOST_TEST_CONTEXT(model.name << ": NaN from " << FaultCallbackName(callback)
                                  << " from call " << call << " of " << made << " on") {
      BOOST_TEST(r.status == Ipopt::Invalid_Number_Detected);
      BOOST_REQUIRE(r.run.finalized);
      BOOST_TEST(r.run.x.allFinite());  // a point that evaluated, not the failed trial
      BOOST_TEST(std::isfinite(r.run.f));
      BOOST_TEST(r.run.lambda.allFinite());
    }
  });
}
