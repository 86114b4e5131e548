#include "core/outer/restarts.hpp"

namespace qpm {

Restarts::Restarts(const Options& options, Strategies* method, PenaltyFunction* q,
                   SavedPoints* points, AcceptableCount* acceptable, SummaryWriter* report)
    : method_(*method),
      q_(*q),
      points_(*points),
      acceptable_(*acceptable),
      report_(*report),
      runaway_(options, *method->runaway),
      infeasibility_(options, *method) {}

bool Restarts::TrySecondStart(const InnerSummary& inner) {
  const bool may = infeasibility_.second_start_available() && !inner.evaluation_failed;
  if (!may || method_.convergence->Acceptable(q_, points_.current())) return false;
  return RestartFromX0();
}

// The next subproblem starts from x_0 with lambda = 0 and the beta of
// PenaltyUpdate::Restart; false when x_0's derivatives fail now (the
// second start is then used up all the same).
bool Restarts::RestartFromX0() {
  infeasibility_.UseSecondStart();
  ++report_.summary().second_starts;
  if (!points_.RestoreX0()) return false;
  q_.merit().set_beta(method_.penalty->Restart(q_.merit().beta(), q_, points_.current()));
  method_.multipliers->Reset(&q_);
  q_.merit().Refresh(&points_.current());
  method_.tolerance->Reset();
  acceptable_.Reset();
  return true;
}

// Above the feasibility tolerance, the second start once the restarts from
// the subproblem's start are used up.
bool Restarts::RecoverFromRunaway(double q_start, const InnerSummary& inner, long factorizations) {
  const RunawayTest::Feasible what = runaway_.Classify(inner);
  if (what == RunawayTest::Feasible::kDiverged) return false;
  if (what == RunawayTest::Feasible::kFollow) {  // x_{k+1} = the runaway point: (2.3) holds
    runaway_.Follow();
    report_.last().followed = true;
    report_.Record(q_start, inner, &q_, points_.current(), factorizations);
    return true;
  }
  if (RestartFromStart(q_start, inner, factorizations)) return true;
  if (!runaway_.Infeasible(inner) || !TrySecondStart(inner)) return false;
  runaway_.ResetRestarts();
  return true;
}

// x_{k+1} = x_start, which keeps (2.3), and beta grows by the runaway
// factor; false once RunawayPolicy::CountRestart says no more.
bool Restarts::RestartFromStart(double q_start, const InnerSummary& inner, long factorizations) {
  const bool restored = points_.RestoreStart();
  InnerSummary restart = inner;
  restart.tau = method_.tolerance->Tolerance()(points_.current().c_norm());
  report_.Record(q_start, restart, &q_, points_.current(), factorizations);
  if (!restored || !runaway_.CountRestart(inner)) return false;
  q_.merit().set_beta(q_.merit().beta() * method_.penalty->runaway_factor());
  return true;
}

}  // namespace qpm
