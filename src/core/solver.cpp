#include "qpm/core/solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <memory>

#include "qpm/core/inner/gradient_descent.hpp"
#include "qpm/core/inner/lbfgs.hpp"
#include "qpm/core/inner/trust_region.hpp"
#include "qpm/core/penalty.hpp"

namespace qpm {

const char* ToString(TerminationType type) {
  switch (type) {
    case TerminationType::kConverged: return "converged";
    case TerminationType::kAcceptable: return "acceptable";
    case TerminationType::kMaxOuterIterations: return "maximum outer iterations";
    case TerminationType::kInfeasible: return "locally infeasible";
    case TerminationType::kMaxInnerIterations: return "maximum inner iterations";
    case TerminationType::kMaxCpuTime: return "maximum CPU time";
    case TerminationType::kMaxWallTime: return "maximum wall time";
    case TerminationType::kStalled: return "stalled";
    case TerminationType::kUserStop: return "user stop";
    case TerminationType::kEvaluationError: return "evaluation error";
    case TerminationType::kDiverging: return "diverging iterates";
    case TerminationType::kInvalidNumberAtStart: return "invalid number at start";
    case TerminationType::kInvalidOptions: return "invalid options";
  }
  return "unknown";
}

std::string Summary::BriefReport() const {
  char line[320];
  std::snprintf(line, sizeof line,
                "QPM %s: %d outer / %ld inner iterations, f = %.10g, ||c|| = %.3e, "
                "||grad Q|| = %.3e, beta = %.4g, Q evals %ld, grad evals %ld, Hessian evals %ld",
                ToString(termination), outer_iterations, inner_iterations, f, c_norm,
                grad_q_norm, beta, q_evals, grad_evals, hess_evals);
  return line;
}

namespace {

std::unique_ptr<InnerSolver> MakeInnerSolver(const Options& options, PenaltyFunction* q) {
  switch (options.inner_solver) {
    case InnerSolverType::kGradientDescent:
      return std::make_unique<GradientDescent>(options.gd, q);
    case InnerSolverType::kTrustRegion:
      return std::make_unique<TrustRegion>(options.tr, q);
    case InnerSolverType::kLbfgs:
      return std::make_unique<Lbfgs>(options.lbfgs, q);
  }
  return nullptr;
}

TerminationType FromInner(InnerStatus status) {
  switch (status) {
    case InnerStatus::kConverged: return TerminationType::kConverged;
    case InnerStatus::kIterationLimit: return TerminationType::kMaxInnerIterations;
    case InnerStatus::kTimeLimit: return TerminationType::kMaxCpuTime;
    case InnerStatus::kStalled: return TerminationType::kStalled;
    case InnerStatus::kUserStop: return TerminationType::kUserStop;
    case InnerStatus::kEvaluationError: return TerminationType::kEvaluationError;
    case InnerStatus::kRunaway: return TerminationType::kDiverging;
  }
  return TerminationType::kStalled;
}

class OuterLoop {
 public:
  // The time limits count from `start_cpu` (CpuSeconds()) and from when
  // `deadline` was made: before the penalty's set-up (bounds, O(n)).
  OuterLoop(Problem* problem, const Options& options, const Callbacks& callbacks,
            double start_cpu, const CpuDeadline& deadline)
      : options_(options),
        callbacks_(callbacks),
        start_cpu_(start_cpu),
        deadline_(deadline),
        q_(problem) {}

  Summary Run(const Vector& x0);

 private:
  bool EvaluateStart(const Vector& x0);
  double PrepareSubproblem(int k);
  InnerSummary SolveSubproblem();
  void Record(int k, double q_start, const InnerSummary& inner);
  bool Notify(const Iterate& x, const StepInfo& step);
  Summary Finish(TerminationType type, const std::string& message);
  void BoundMultipliers();
  Summary FinishEarly(InnerStatus status);
  bool Acceptable() const;
  bool ContinueAfterStall(InnerStatus status);
  double NextGrowth(long inner_iterations);
  bool Stuck(int k) const;
  void RememberSolution();
  void KeepLeastViolation();
  void RestoreLeastViolation();
  void TryExtrapolation();
  void KeepStart();
  bool RestoreStart();

  const Options& options_;
  const Callbacks& callbacks_;
  double start_cpu_;
  CpuDeadline deadline_;
  PenaltyFunction q_;
  // x_0's point and values (f, g, c): Q(x_0) for each beta needs no callback.
  // Its derivatives are not kept (O(nnz(J)) memory); the rare restart at x_0
  // (5.2) re-evaluates them, and the counts show it.
  Vector x0_z_, x0_g_, x0_c_;
  double x0_f_ = 0.0;
  double x0_c_squared_ = 0.0;
  Iterate current_;  // x_k before a subproblem, x_{k+1} after it
  std::unique_ptr<InnerSolver> inner_;
  Summary summary_;
  long iterations_ = 0;  // inner iterations over all subproblems
  int k_ = 0;
  int stalled_subproblems_ = 0;  // continued after a stall (ContinueAfterStall)
  // The outer iterate of least ||c|| so far (x, f, g, c; derivatives are
  // re-evaluated if it is returned): a local-infeasibility stop returns it.
  Vector least_z_, least_g_, least_c_;
  double least_f_ = 0.0, least_c_squared_ = std::numeric_limits<double>::infinity();
  double alpha_ = 0.0;             // adaptive growth factor
  Vector last_z_, previous_z_;     // extrapolation: x_{k}, x_{k-1}
  double last_beta_ = 0.0, previous_beta_ = 0.0;
  Iterate extrapolated_;
  // The start point of the current subproblem (x, f, g, c), for the restart
  // after a runaway; its derivatives are re-evaluated then.
  Vector start_z_, start_g_, start_c_;
  double start_f_ = 0.0, start_c_squared_ = 0.0;
  int runaway_restarts_ = 0;
};

Summary OuterLoop::Run(const Vector& x0) {
  std::string why;
  summary_.x = x0;
  if (!options_.IsValid(&why)) return Finish(TerminationType::kInvalidOptions, why);
  if (options_.inner_solver == InnerSolverType::kTrustRegion && !q_.has_hessian()) {
    return Finish(TerminationType::kInvalidOptions,
                  "the trust-region inner solver needs the Hessian of the Lagrangian, which "
                  "the model does not provide; use lbfgs (hessian_approximation "
                  "limited-memory)");
  }
  alpha_ = options_.penalty_growth;
  q_.set_beta(options_.penalty_init);
  if (!EvaluateStart(x0)) {
    return Finish(TerminationType::kInvalidNumberAtStart,
                  "the model returned an error or a non-finite value at the start point");
  }
  inner_ = MakeInnerSolver(options_, &q_);
  if (!Notify(current_, StepInfo())) return Finish(TerminationType::kUserStop, "stopped by the user callback");
  for (k_ = 0; k_ < options_.max_outer_iter; ++k_) {
    const double q_start = PrepareSubproblem(k_);
    if (std::isnan(q_start)) {
      return Finish(TerminationType::kStalled, "derivatives at x_0 failed on the restart (5.2)");
    }
    KeepStart();
    const InnerSummary inner = SolveSubproblem();
    if (inner.status == InnerStatus::kRunaway) {
      const bool restored = RestoreStart();  // x_{k+1} = x_k
      InnerSummary restart = inner;
      restart.tau = FeasibilityTolerance{options_.feasibility_tol, options_.stationarity_tol,
                                         options_.tolerance_cap}(current_.c_norm());
      Record(k_, q_start, restart);
      if (!restored || runaway_restarts_++ >= options_.max_runaway_restarts) {
        return Finish(TerminationType::kDiverging,
                      "the subproblem's iterates ran away (||x||_inf > diverging_iterates_tol, "
                      "after max_runaway_restarts restarts with larger penalties)");
      }
      q_.set_beta(q_.beta() * std::max(options_.runaway_penalty_factor, alpha_));
      continue;
    }
    Record(k_, q_start, inner);
    KeepLeastViolation();
    if (inner.status != InnerStatus::kConverged && !ContinueAfterStall(inner.status)) {
      return FinishEarly(inner.status);
    }
    if (inner.status == InnerStatus::kConverged && current_.c_norm() <= options_.feasibility_tol) {
      return Finish(TerminationType::kConverged, "||c|| <= eps0 and ||grad Q|| <= eps1");
    }
    if (Stuck(k_)) {
      RestoreLeastViolation();
      return Finish(TerminationType::kInfeasible,
                    "||c|| stopped decreasing while beta grew: a stationary point of the "
                    "constraint violation (locally infeasible)");
    }
    RememberSolution();
    q_.set_beta(q_.beta() * NextGrowth(inner.iterations));
  }
  return Finish(TerminationType::kMaxOuterIterations, "reached max_outer_iter");
}

// x_0 is projected on the bounds (the count goes to the summary) and the
// slacks start at g(x_0) projected on the row bounds.
// An inner solver stopped short of (2.4). A stall (no further progress in
// double precision) at a point within the acceptable tolerances is reported
// as such, as Ipopt's Solved_To_Acceptable_Level.
Summary OuterLoop::FinishEarly(InnerStatus status) {
  if (status == InnerStatus::kStalled && Acceptable()) {
    return Finish(TerminationType::kAcceptable,
                  "stalled within the acceptable tolerances (||c|| and stationarity)");
  }
  const TerminationType type = status == InnerStatus::kTimeLimit && deadline_.wall_passed()
                                   ? TerminationType::kMaxWallTime
                                   : FromInner(status);
  return Finish(type, std::string("inner solver stopped: ") + ToString(type));
}

bool OuterLoop::Acceptable() const {
  return current_.c_norm() <= options_.acceptable_feasibility_tol &&
         current_.grad_q_norm <= options_.acceptable_stationarity_tol;
}

// A subproblem that stalled short of (2.4) at a point that is not acceptable
// but lowered ||c|| by more than infeasibility_decrease (relative; hs099
// crept down in the 5th digit for 60 subproblems while the rounding noise of
// grad Q grew with beta to 3e7): beta grows as after a converged one (Options::
// max_stalled_subproblems). The stall is the rounding floor of grad Q at this
// beta (catena: ||grad Q|| = 8e-6 > tau = 5e-6 at beta = 1e9, the Newton step
// 6e-16 below the spacing of x's doubles), which a larger beta does not lower,
// but ||c|| ~ ||lambda|| / beta still falls. Q did not increase (2.3), so
// x_{k+1} is a valid start for the next subproblem; the solve can end
// "converged" only after a subproblem that met (2.4).
bool OuterLoop::ContinueAfterStall(InnerStatus status) {
  if (status != InnerStatus::kStalled || Acceptable()) return false;
  if (current_.c_norm() <= options_.feasibility_tol) return false;
  const size_t k = summary_.outer.size();
  const double before = k >= 2 ? summary_.outer[k - 2].c_norm : std::sqrt(x0_c_squared_);
  if (!(current_.c_norm() < (1.0 - options_.infeasibility_decrease) * before)) return false;
  return ++stalled_subproblems_ <= options_.max_stalled_subproblems;
}

bool OuterLoop::EvaluateStart(const Vector& x0) {
  q_.Allocate(&current_);
  current_.x.head(q_.num_x()) = x0;
  summary_.start_projected = q_.Project(current_.x.head(q_.num_x()));
  if (!q_.EvaluateValues(&current_)) return false;
  q_.FitSlacks(&current_);
  if (!q_.EvaluateDerivatives(&current_)) return false;
  x0_z_ = current_.x, x0_g_ = current_.g, x0_c_ = current_.c;
  x0_f_ = current_.f, x0_c_squared_ = current_.c_squared;
  return true;
}

// Starts subproblem k at argmin of Q_{beta_k} over {x_k, x_0} (eq. (5.2)),
// from cached f and c (no callbacks); returns that minimum, the bound of (2.3).
double OuterLoop::PrepareSubproblem(int k) {
  const double beta = q_.beta();
  const bool use_x0 = k > 0 && x0_f_ + 0.5 * beta * x0_c_squared_ < current_.Q(beta);
  if (use_x0) {
    current_.x = x0_z_, current_.g = x0_g_, current_.c = x0_c_;
    current_.f = x0_f_, current_.c_squared = x0_c_squared_;
    // They were evaluated there at the start; only a nondeterministic model
    // can fail now. NaN tells Run to stop with the point it has.
    if (!q_.EvaluateDerivatives(&current_)) return std::nan("");
  }
  q_.FormGradient(&current_);
  if (!use_x0 && options_.extrapolate) TryExtrapolation();
  summary_.outer.push_back(OuterRecord());
  summary_.outer.back().started_at_x0 = use_x0 || k == 0;
  return current_.Q(beta);
}

// Local infeasibility (Options::infeasibility_window): true when the last
// infeasibility_window subproblems together lowered ||c|| by less than
// infeasibility_decrease (relative) AND x_{k+1} is a stationary point of
// ||c|| over the box. The first part alone also holds while the iterates do
// not move because the adaptive tau lets each start point pass (2.4); only
// the second is evidence that no beta will lower ||c||.
bool OuterLoop::Stuck(int k) const {
  const int w = options_.infeasibility_window;
  if (k < w) return false;
  const double before = summary_.outer[k - w].c_norm;
  const double now = summary_.outer[k].c_norm;
  if (now < (1.0 - options_.infeasibility_decrease) * before) return false;
  return summary_.outer[k].violation_stationarity <= options_.infeasibility_stationarity_tol;
}

// alpha_k: the paper's fixed alpha, or the adaptive rule of Options.
double OuterLoop::NextGrowth(long inner_iterations) {
  if (options_.penalty_growth_mode == PenaltyGrowthMode::kFixed) return options_.penalty_growth;
  if (inner_iterations <= options_.cheap_subproblem) {
    alpha_ = std::min(2.0 * alpha_, options_.penalty_growth_max);
  } else if (inner_iterations > Options::kCostlySubproblemFactor * options_.cheap_subproblem) {
    alpha_ = std::max(0.5 * alpha_, options_.penalty_growth);
  }
  return alpha_;
}

void OuterLoop::KeepLeastViolation() {
  if (!(current_.c_squared < least_c_squared_)) return;
  least_z_ = current_.x, least_g_ = current_.g, least_c_ = current_.c;
  least_f_ = current_.f, least_c_squared_ = current_.c_squared;
}

// Back to the least-violation outer iterate, when it is not the current one
// and its derivatives can be evaluated again (they always could there).
void OuterLoop::RestoreLeastViolation() {
  if (!(least_c_squared_ < current_.c_squared)) return;
  Iterate& x = extrapolated_;  // spare storage, unused from here on
  if (!x.x.size()) q_.Allocate(&x);
  x.x = least_z_, x.g = least_g_, x.c = least_c_;
  x.f = least_f_, x.c_squared = least_c_squared_;
  if (q_.EvaluateDerivatives(&x)) SwapIterates(&current_, &x);
}

// Keeps x_{k+1} and beta_k for the extrapolation of the next start.
void OuterLoop::RememberSolution() {
  if (!options_.extrapolate) return;
  previous_z_.swap(last_z_);
  previous_beta_ = last_beta_;
  last_z_ = current_.x;
  last_beta_ = q_.beta();
}

// x(beta) ~ x* + v / beta along the penalty path: from the last two
// solutions, predict x(beta_k) and take it when it lowers Q_{beta_k}.
void OuterLoop::TryExtrapolation() {
  if (previous_z_.size() == 0 || last_z_.size() == 0) return;
  const double beta = q_.beta();
  const double s = (1.0 / beta - 1.0 / last_beta_) / (1.0 / last_beta_ - 1.0 / previous_beta_);
  if (!extrapolated_.x.size()) q_.Allocate(&extrapolated_);
  extrapolated_.x = last_z_ + s * (last_z_ - previous_z_);
  q_.Project(extrapolated_.x);
  if (!q_.EvaluateValues(&extrapolated_) || !(extrapolated_.Q(beta) < current_.Q(beta))) return;
  if (!q_.EvaluateDerivatives(&extrapolated_)) return;
  SwapIterates(&current_, &extrapolated_);
  ++summary_.extrapolations;
}

// Runaway subproblems (Options::runaway_violation_factor). Q_beta can be
// unbounded below in the box at small beta: on eigmaxc of the AMPL corpus the
// trust region followed f to -7e8 with ||c|| stuck at 1.0, on ex2_1_7 to
// -2e20 with ||c|| growing, each until the CPU limit. Each accepted inner
// point x has f(x) <= Q_beta(x_start) - beta/2 ||c(x)||^2, and f can fall
// without bound only as ||z|| grows: f, ||c|| or ||z|| far beyond their
// values at the start (a factor kappa = 1e4 of their scale) is that descent,
// whose end, if any, is not near the penalty path x(beta) -> x*.
// Restarting from the subproblem's start with a larger beta keeps (2.3):
// x_{k+1} = x_start does not increase Q, and the next subproblem starts at
// argmin of Q over {x_k, x_0} (5.2) for the new beta, as any other does.
void OuterLoop::KeepStart() {
  start_z_ = current_.x, start_g_ = current_.g, start_c_ = current_.c;
  start_f_ = current_.f, start_c_squared_ = current_.c_squared;
}

// Back to the subproblem's start after a runaway, derivatives and grad Q for
// this beta evaluated again; false only for a nondeterministic model whose
// derivatives fail where they once did not.
bool OuterLoop::RestoreStart() {
  current_.x = start_z_, current_.g = start_g_, current_.c = start_c_;
  current_.f = start_f_, current_.c_squared = start_c_squared_;
  return q_.EvaluateDerivatives(&current_);  // also forms grad Q
}

InnerSummary OuterLoop::SolveSubproblem() {
  InnerControl control;
  control.tolerance.eps0 = options_.feasibility_tol;
  control.tolerance.eps1 = options_.stationarity_tol;
  control.tolerance.tau_cap = options_.tolerance_cap;
  control.max_iterations = options_.max_inner_iter - iterations_;
  control.deadline = &deadline_;
  control.stall_rounding = options_.stall_rounding;
  control.max_abs_z = options_.diverging_iterates_tol;
  if (runaway_restarts_ < options_.max_runaway_restarts) {
    const double kappa = options_.runaway_violation_factor;
    control.max_violation = kappa * std::max(current_.c_norm(), 1.0);
    control.min_objective = current_.f - kappa * std::max(std::abs(current_.f), 1.0);
    control.max_abs_z = std::min(control.max_abs_z,
                                 kappa * std::max(current_.x.lpNorm<Eigen::Infinity>(), 1.0));
  }
  control.on_iteration = [this](const Iterate& x, const StepInfo& step) {
    ++iterations_;
    return Notify(x, step);
  };
  return inner_->Minimize(control, &current_);
}

void OuterLoop::Record(int k, double q_start, const InnerSummary& inner) {
  OuterRecord& r = summary_.outer.back();
  r.k = k;
  r.beta = q_.beta();
  r.f = current_.f;
  r.c_norm = current_.c_norm();
  r.grad_q_norm = current_.grad_q_norm;
  r.tau = inner.tau;
  r.violation_stationarity = q_.ViolationStationarity(current_);
  r.q_start = q_start;
  r.q_end = current_.Q(q_.beta());
  r.inner_status = inner.status;
  r.inner_iterations = inner.iterations;
  r.q_evals = q_.counts().q_evals;
  r.grad_evals = q_.counts().grad_evals;
  r.hess_evals = q_.counts().hess_evals;
  r.hess_products = q_.counts().hess_products;
  if (callbacks_.on_outer_iteration) callbacks_.on_outer_iteration(r);
}

bool OuterLoop::Notify(const Iterate& x, const StepInfo& step) {
  if (!callbacks_.on_iteration) return true;
  IterationInfo info;
  info.iter = iterations_;
  info.k = k_;
  info.beta = q_.beta();
  info.f = x.f;
  info.c_norm = x.c_norm();
  info.c_max = x.c.size() ? x.c.lpNorm<Eigen::Infinity>() : 0.0;
  info.grad_q_norm = x.grad_q_norm;
  info.grad_q_max = x.grad_q.size() ? x.grad_q.lpNorm<Eigen::Infinity>() : 0.0;
  info.tau = FeasibilityTolerance{options_.feasibility_tol, options_.stationarity_tol,
                                  options_.tolerance_cap}(info.c_norm);
  info.step = step;
  return callbacks_.on_iteration(info);
}

Summary OuterLoop::Finish(TerminationType type, const std::string& message) {
  summary_.termination = type;
  summary_.message = message;
  summary_.outer_iterations = static_cast<int>(summary_.outer.size());
  summary_.inner_iterations = iterations_;
  summary_.q_evals = q_.counts().q_evals;
  summary_.grad_evals = q_.counts().grad_evals;
  summary_.hess_evals = q_.counts().hess_evals;
  summary_.hess_products = q_.counts().hess_products;
  summary_.cpu_time = CpuSeconds() - start_cpu_;
  summary_.beta = q_.beta();
  const bool have_point = type != TerminationType::kInvalidOptions &&
                          type != TerminationType::kInvalidNumberAtStart;
  if (!have_point) {
    summary_.g.setZero(q_.m());
    summary_.c.setZero(q_.m());
    summary_.lambda.setZero(q_.m());
    summary_.z_l.setZero(q_.num_x());
    summary_.z_u.setZero(q_.num_x());
    return summary_;
  }
  // After the last subproblem beta was grown only if another one followed.
  if (type == TerminationType::kMaxOuterIterations && !summary_.outer.empty()) {
    summary_.beta = summary_.outer.back().beta;
  }
  summary_.x = current_.x.head(q_.num_x());
  summary_.g = current_.g;
  summary_.c = current_.c;
  summary_.lambda = summary_.beta * current_.c;
  summary_.f = current_.f;
  summary_.c_norm = current_.c_norm();
  summary_.c_max = current_.c.size() ? current_.c.lpNorm<Eigen::Infinity>() : 0.0;
  q_.set_beta(summary_.beta);
  q_.FormGradient(&current_);
  summary_.grad_q_norm = current_.grad_q_norm;
  BoundMultipliers();
  const Vector residual = current_.grad_q.head(q_.num_x()) - summary_.z_l + summary_.z_u;
  summary_.grad_q_max = residual.size() ? residual.lpNorm<Eigen::Infinity>() : 0.0;
  return summary_;
}

// Ipopt's bound multipliers from the x part of grad Q = grad f + J^T lambda:
// an entry on a bound whose gradient points out of the box (the entries the
// stationarity measure drops) gives that bound's multiplier (z >= 0), so that
// grad f + J^T lambda - z_L + z_U vanishes there.
void OuterLoop::BoundMultipliers() {
  const int n = q_.num_x();
  summary_.z_l.setZero(n);
  summary_.z_u.setZero(n);
  if (!q_.has_bounds()) return;
  for (int i = 0; i < n; ++i) {
    const double g = current_.grad_q[i];
    const double z = current_.x[i];
    if (g > 0.0 && z <= q_.lower()[i]) summary_.z_l[i] = g;
    if (g < 0.0 && z >= q_.upper()[i]) summary_.z_u[i] = -g;
  }
}

}  // namespace

Summary Solve(Problem* problem, const Vector& x0, const Options& options,
              const Callbacks& callbacks) {
  const double start_cpu = CpuSeconds();
  const CpuDeadline deadline(start_cpu + options.max_cpu_time, options.max_wall_time);
  OuterLoop loop(problem, options, callbacks, start_cpu, deadline);
  return loop.Run(x0);
}

}  // namespace qpm
