#include "core/outer/outer_loop.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/outer/refusal.hpp"
#include "core/stationarity.hpp"

namespace qpm {

OuterLoop::OuterLoop(Problem* problem, const Options& options, const Callbacks& callbacks,
                     double start_cpu, const CpuDeadline& deadline, const ScaledProblem* scaling)
    : options_(options),
      deadline_(deadline),
      q_(problem),
      method_(MakeStrategies(options, scaling, q_)),
      points_(&q_),
      extrapolation_(options.extrapolate),
      stalls_(options),
      held_(options, method_.held_stall_raises),
      acceptable_(method_.convergence->acceptable_iter()),
      report_(callbacks, scaling, start_cpu),
      restarts_(options, &method_, &q_, &points_, &acceptable_, &report_) {
  if (q_.distributed()) deadline_.Share(q_.layout().reduce());
  q_.merit().set_max_norm_stationarity(method_.convergence->max_norm());
}

// Algorithm 1 (paper, Sec. 2): each subproblem starts at argmin{Q(x_k),
// Q(x_0)} (5.2), ends with (2.3) and (2.4), then the verdict, then lambda
// and beta for the next one (method_ says how, for either mode).
Summary OuterLoop::Run(const Vector& x0, const Vector& lambda0) {
  if (!Refusal(options_, q_).empty() || !Start(x0, lambda0)) return StartFailed(x0);
  const bool go_on = report_.Notify(current(), StepInfo(), q_, method_.tolerance->Tolerance(), false);
  if (!go_on) return Finish(TerminationType::kUserStop, "stopped by the user callback");
  for (int k = 0; k < options_.max_outer_iter; ++k) {
    const double q_start = PrepareSubproblem(k);
    if (std::isnan(q_start)) {
      return Finish(TerminationType::kEvaluationError,
                    "derivatives failed at both x_0 and x_k, where they had not before");
    }
    points_.SaveStart();
    const InnerSummary inner = SolveSubproblem();
    if (inner.status == InnerStatus::kRunaway) {
      if (restarts_.RecoverFromRunaway(q_start, inner, inner_->factorizations())) continue;
      return Finish(TerminationType::kDiverging,
                    "the iterates ran away: the objective seems unbounded below (||x||_inf > "
                    "diverging_iterates_tol, or f falling without bound on the feasible set)");
    }
    report_.Record(q_start, inner, &q_, current(), inner_->factorizations());
    method_.tolerance->Observe(report_.outer().back(), ViolationBefore(), k);
    points_.KeepLeastViolation();
    const Next next = Verdict(inner, k);
    if (next == Next::kStop) return std::move(report_.summary());
    if (next == Next::kRestarted || k + 1 == options_.max_outer_iter) continue;
    extrapolation_.Remember(current(), q_.merit().beta());
    UpdateMultipliersAndPenalty(inner, k);
  }
  return Finish(TerminationType::kMaxOuterIterations, "reached max_outer_iter");
}

Summary OuterLoop::StartFailed(const Vector& x0) {
  report_.summary().x = x0;
  const std::string refusal = Refusal(options_, q_);
  if (!refusal.empty()) return Finish(TerminationType::kInvalidOptions, refusal);
  return Finish(TerminationType::kInvalidNumberAtStart,
                "the model returned an error or a non-finite value at the start point");
}

// x_0 projected on the bounds, slacks at g(x_0) projected on the row
// bounds, then beta_0 and lambda_0 (method_).
bool OuterLoop::Start(const Vector& x0, const Vector& lambda0) {
  Iterate& x = current();
  q_.Allocate(&x);
  x.x.head(q_.layout().n_x()) = x0;
  report_.summary().start_projected = q_.layout().Project(x.x.head(q_.layout().n_x()));
  if (!q_.EvaluateValues(&x)) return false;
  q_.merit().FitSlacks(&x);
  q_.merit().set_beta(method_.penalty->Start(q_, x));
  if (!q_.EvaluateDerivatives(&x)) return false;
  method_.multipliers->Seed(lambda0, &q_, &x);
  const double beta0 = method_.penalty->Seeded(q_.merit().beta(), q_, x);
  if (beta0 != q_.merit().beta()) {
    q_.merit().set_beta(beta0);
    q_.merit().Refresh(&x);
  }
  // z_0 is the caller's x0 (alive for the solve) when nothing was projected
  // and there are no slacks: one n-vector less (docs/algorithm.md, "Memory budget").
  const bool z0_is_x0 = report_.summary().start_projected == 0 && q_.layout().num_slacks() == 0;
  points_.SaveX0(z0_is_x0 ? &x0 : nullptr);
  inner_ = MakeInnerSolver(options_, &q_, x);
  return true;
}

// Starts subproblem k at argmin of the merit over {x_k, x_0} (eq. (5.2)),
// from cached f and c (no callbacks); returns that minimum, the bound of
// (2.3), or NaN where the derivatives failed at both.
double OuterLoop::PrepareSubproblem(int k) {
  q_.merit().Refresh(&current());  // lambda' c and grad Q for this lambda and beta
  bool at_x0 = k > 0 && points_.x0().Q(q_) < current().Q(q_.merit().beta());
  if (at_x0) {
    const SavedPoints::FromX0 moved = points_.MoveToX0();
    if (moved == SavedPoints::FromX0::kFailed) return std::nan("");
    at_x0 = moved == SavedPoints::FromX0::kMoved;
  }
  if (!at_x0 && extrapolation_.Try(&q_, &points_)) ++report_.summary().extrapolations;
  report_.BeginSubproblem(k, at_x0 || k == 0);
  return current().Q(q_.merit().beta());
}

// Stops at (2.4) with tau of Definition 2.1, or where the mode's own test
// holds, within the limits (the runaway policy sets its own).
InnerSummary OuterLoop::SolveSubproblem() {
  InnerControl control;
  method_.tolerance->Start(current());
  control.tolerance = method_.tolerance->Tolerance();
  control.reduce = &q_.layout().reduce();
  control.solves_problem = [this](Iterate* x) {
    return method_.convergence->EndsSubproblem(q_, *x) ||
           method_.multipliers->EndsSubproblem(*method_.convergence, &q_, x);
  };
  control.max_iterations = options_.max_inner_iter - report_.inner_iterations();
  control.deadline = &deadline_;
  control.stall_rounding = options_.stall_rounding;
  control.max_abs_z = options_.diverging_iterates_tol;
  restarts_.runaway().SetLimits(current(), &control);
  control.on_iteration = [this](const Iterate& x, const StepInfo& step) {
    return report_.Notify(x, step, q_, method_.tolerance->Tolerance(), true);
  };
  return inner_->Minimize(control, &current());
}

// After subproblem k: converged, ended short, acceptable for long, locally
// infeasible (kStop, the summary final), restarted from x_0, or on to the
// multiplier and penalty update.
OuterLoop::Next OuterLoop::Verdict(const InnerSummary& inner, int k) {
  const ConvergenceTest& test = *method_.convergence;
  bool converged = test.Converged(q_, current(), inner.status);
  if (!converged) {
    converged = method_.multipliers->AdoptLeastSquaresIfConverged(test, inner.status, &q_, &current());
  }
  if (converged) {
    Conclude(TerminationType::kConverged, test.converged_message());
    return Next::kStop;
  }
  if (inner.status != InnerStatus::kConverged) {  // StallAllowance: beta grows as after (2.4)
    const double c = current().c_norm(), floor = method_.convergence->stall_feasibility_tol();
    const bool may = inner.status == InnerStatus::kStalled && !(c <= floor) &&
                     stalls_.MayContinue(c, ViolationBefore(), Acceptable());
    if (!may) return VerdictOnShortSubproblem(inner);
    stalls_.Use();
  }
  if (acceptable_.counting()) acceptable_.Observe(Acceptable());
  if (acceptable_.held()) {
    Conclude(TerminationType::kAcceptable, "acceptable level held for acceptable_iter outer iterations");
    return Next::kStop;
  }
  if (!restarts_.infeasibility().Stuck(report_.outer(), k, q_, current())) return Next::kUpdate;
  if (restarts_.TrySecondStart(inner)) return Next::kRestarted;
  points_.RestoreLeastViolation();
  Conclude(TerminationType::kInfeasible,
           "||c|| stopped decreasing while beta grew: a stationary point of the constraint "
           "violation (locally infeasible)");
  return Next::kStop;
}

// A subproblem that stopped short of (2.4) and may not go on: one more
// subproblem from least-squares multipliers where it is nearly feasible
// (MultiplierUpdate::PolishAfterStall), a second start from x_0, a verdict
// of local infeasibility, or the end its status says.
OuterLoop::Next OuterLoop::VerdictOnShortSubproblem(const InnerSummary& inner) {
  const bool stalled = inner.status == InnerStatus::kStalled;
  if (stalled && method_.multipliers->PolishAfterStall(*method_.convergence, &q_, &current())) {
    return Next::kRestarted;
  }
  // Near feasibility a stall is the rounding floor, not local infeasibility.
  const bool infeasible_stall = stalled && !method_.convergence->NearlyFeasible(q_, current());
  if (infeasible_stall && !Acceptable() && RaisePastHeldBounds()) return Next::kUpdate;
  if (infeasible_stall && restarts_.TrySecondStart(inner)) return Next::kRestarted;
  if (stalled && restarts_.infeasibility().StalledAtStationaryPoint(report_.outer(), q_, current(), Acceptable())) {
    points_.RestoreLeastViolation();
    Conclude(TerminationType::kInfeasible,
             "stalled at a stationary point of the constraint violation, from x_0 too "
             "(locally infeasible)");
    return Next::kStop;
  }
  std::string message;  // the end EarlyEnd gives
  const bool acceptable_stall = stalled && Acceptable();
  Conclude(EarlyEnd(inner, acceptable_stall, deadline_.wall_passed(), &message), message);
  return Next::kStop;
}

// A stall where f holds bounds against the violation's descent is not local
// infeasibility: beta goes on, past the penalty at which the first of them
// yields (HeldStallRaise), instead of a second start.
bool OuterLoop::RaisePastHeldBounds() {
  if (!held_.available(current().c_norm())) return false;
  const double release = HeldBoundsRelease(q_, current(), q_.workspace());
  if (!std::isfinite(release)) return false;
  held_.Use(q_.merit().beta(), release, current().c_norm());
  ++report_.summary().held_stall_raises;
  return true;
}

// lambda_{k+1}, then beta_{k+1} (method_), at least a pending
// HeldStallRaise's floor. The Newton multiplier step evaluates W at x_{k+1}
// and factors on the inner solver's factorization, lent for this call
// (face_solve.hpp).
void OuterLoop::UpdateMultipliersAndPenalty(const InnerSummary& inner, int k) {
  FaceSolve* const lent = inner_->LendFactorization();
  method_.multipliers->Update(current(), lent, &q_);
  const double next = method_.penalty->Next(q_.merit().beta(), current(), inner.iterations, k);
  q_.merit().set_beta(std::max(next, held_.TakeFloor()));
}

Summary OuterLoop::Finish(TerminationType type, const std::string& message) {
  Conclude(type, message);
  return std::move(report_.summary());
}

void OuterLoop::Conclude(TerminationType type, const std::string& message) {
  report_.ConcludeCounts(type, message, q_.counts(), inner_.get());
  inner_.reset();  // its work vectors go before the summary's are made (peak memory)
  report_.ConcludePoint(type, &q_, &current());
}

}  // namespace qpm
