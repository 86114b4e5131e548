#include "qpm/core/solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "qpm/core/fixed_variables.hpp"
#include "qpm/core/inner/gradient_descent.hpp"
#include "qpm/core/inner/lbfgs.hpp"
#include "qpm/core/inner/trust_region.hpp"
#include "qpm/core/multipliers.hpp"
#include "qpm/core/penalty.hpp"
#include "qpm/core/scaled_problem.hpp"

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

// A point the outer loop keeps (x_0, the start of the current subproblem,
// the outer iterate of least violation): its values only. Derivatives are
// evaluated again when it is restored (O(nnz(J)) memory saved; the counts
// show it).
struct SavedPoint {
  Vector z, g, c;
  double f = 0.0;
  double c_squared = std::numeric_limits<double>::infinity();

  void Save(const Iterate& it) {
    z = it.x, g = it.g, c = it.c;
    f = it.f, c_squared = it.c_squared;
  }
  // The merit at the point (Q_beta, or L_A with multipliers), no callbacks.
  double Q(const PenaltyFunction& q) const {
    const double lambda_c = q.has_multipliers() ? q.multipliers().dot(c) : 0.0;
    return f + lambda_c + 0.5 * q.beta() * c_squared;
  }
  // Values into `it`, then derivatives and grad Q there; false only for a
  // nondeterministic model whose derivatives fail where they once did not.
  bool Restore(PenaltyFunction* q, Iterate* it) const {
    it->x = z, it->g = g, it->c = c;
    it->f = f, it->c_squared = c_squared;
    q->UpdateResidual(it);
    return q->EvaluateDerivatives(it);
  }
};

class OuterLoop {
 public:
  // The time limits count from `start_cpu` (CpuSeconds()) and from when
  // `deadline` was made: before the penalty's set-up (bounds, O(n)).
  OuterLoop(Problem* problem, const Options& options, const Callbacks& callbacks,
            double start_cpu, const CpuDeadline& deadline, const Vector& lambda0,
            const ScaledProblem* scaling)
      : lambda0_(lambda0),
        scaling_(scaling),
        options_(options),
        callbacks_(callbacks),
        start_cpu_(start_cpu),
        deadline_(deadline),
        q_(problem),
        paper_(options.mode == Mode::kPaper) {}

  Summary Run(const Vector& x0);
  // The model failed where the scaling evaluates it (x_0), as Run would fail.
  Summary StartFailed(const Vector& x0);

 private:
  // Algorithm 1's steps.
  bool Start(const Vector& x0);
  double PrepareSubproblem(int k);
  InnerSummary SolveSubproblem();
  std::optional<Summary> Verdict(const InnerSummary& inner);
  void UpdateMultipliers();
  void UpdatePenalty(const InnerSummary& inner);
  // Termination tests.
  bool Converged(const InnerSummary& inner) const;
  bool ConvergedWithLeastSquaresMultipliers(const InnerSummary& inner);
  bool RestartForFeasibility(const InnerSummary& inner);
  bool StalledAtInfeasibleStationaryPoint() const;
  bool Acceptable() const;
  bool AcceptableForLong();
  bool Stuck(int k) const;
  bool ContinueAfterStall(InnerStatus status);
  // Extra mechanisms, each documented where it is defined.
  bool RestartAfterRunaway(double q_start, const InnerSummary& inner);
  double NextGrowth(long inner_iterations);
  void SeedMultipliers();
  double InitialPenalty() const;
  double AlgencanPenalty() const;  // ALGENCAN's beta_0 at current_
  void KeepLeastViolation();
  void RestoreLeastViolation();
  void RememberSolution();
  void TryExtrapolation();
  FeasibilityTolerance Tolerance() const;
  // Reporting. The log and the callbacks get f in the user's units, as
  // Ipopt's "objective" column; ||c|| and ||grad Q|| of the problem solved.
  double UserObjective(double f) const { return scaling_ ? scaling_->UnscaleObjective(f) : f; }
  void Record(int k, double q_start, const InnerSummary& inner);
  bool Notify(const Iterate& x, const StepInfo& step);
  Summary Finish(TerminationType type, const std::string& message);
  Summary FinishEarly(const InnerSummary& inner);
  void BoundMultipliers();

  struct Optimality {  // Ipopt's measures at current_ (TerminationOptions)
    double error = 0.0;        // E, scaled by s_d
    double dual_inf = 0.0;     // ||grad_z L - z_L + z_U||_inf, unscaled problem
    double constr_viol = 0.0;  // ||c||_inf, unscaled problem
  };
  void PrepareUnscaling();
  Optimality Measure() const;

  const Vector& lambda0_;  // the user's multipliers (warm start), or empty
  const ScaledProblem* scaling_;  // the problem solved is gradient-scaled (default mode), or null
  Vector unscale_weights_;        // per entry of z: scaled -> unscaled dual infeasibility
  const Options& options_;
  const Callbacks& callbacks_;
  double start_cpu_;
  CpuDeadline deadline_;
  PenaltyFunction q_;
  const bool paper_;  // Options::mode == kPaper: Algorithm 1 exactly
  Iterate current_;   // x_k before a subproblem, x_{k+1} after it
  SavedPoint x0_;     // Q(x_0) for each beta needs no callback (5.2)
  SavedPoint start_;  // the current subproblem's start, for a runaway restart
  SavedPoint least_;  // the outer iterate of least ||c||: a local-infeasibility stop returns it
  std::unique_ptr<InnerSolver> inner_;
  Summary summary_;
  long iterations_ = 0;  // inner iterations over all subproblems
  int k_ = 0;
  int stalled_subproblems_ = 0;  // continued after a stall (ContinueAfterStall)
  int runaway_restarts_ = 0;
  int feasible_runaways_ = 0;    // runaways of f with ||c|| small (default mode)
  int acceptable_count_ = 0;     // consecutive acceptable outer iterates (default mode)
  bool tight_ = false;           // default mode: subproblems at tau = eps1 (Stuck)
  bool restarted_for_feasibility_ = false;  // RestartForFeasibility used (once per solve)
  bool restarted_ = false;       // ... for the next subproblem: no lambda/beta update
  int tight_since_ = 0;
  double alpha_ = 0.0;           // adaptive growth factor
  double previous_c_max_ = 0.0;  // ||c(x_k)||_inf before the subproblem (default mode)
  Vector last_z_, previous_z_;   // extrapolation: x_{k}, x_{k-1}
  double last_beta_ = 0.0, previous_beta_ = 0.0;
  Iterate spare_;                // extrapolation and restores
};

// Algorithm 1 (paper, Sec. 2) with the multiplier step of the default mode:
// each subproblem starts at argmin{L(x_k), L(x_0)} (5.2), ends with (2.3)
// and (2.4), then the verdict, then lambda and beta for the next one.
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
  if (!Start(x0)) {
    return Finish(TerminationType::kInvalidNumberAtStart,
                  "the model returned an error or a non-finite value at the start point");
  }
  if (!Notify(current_, StepInfo())) return Finish(TerminationType::kUserStop, "stopped by the user callback");
  for (k_ = 0; k_ < options_.max_outer_iter; ++k_) {
    const double q_start = PrepareSubproblem(k_);
    if (std::isnan(q_start)) {
      return Finish(TerminationType::kStalled, "derivatives at x_0 failed on the restart (5.2)");
    }
    start_.Save(current_);
    const InnerSummary inner = SolveSubproblem();
    if (inner.status == InnerStatus::kRunaway) {
      if (!RestartAfterRunaway(q_start, inner)) {
        // Runaways at a point a larger beta did not make feasible (eigmaxc:
        // x = 0, where f = -d falls without bound): the second start of
        // RestartForFeasibility, before the verdict.
        if (inner.runaway_c_norm > options_.termination.constr_viol_tol &&
            RestartForFeasibility(inner)) {
          restarted_ = false, runaway_restarts_ = 0;
          continue;
        }
        return Finish(TerminationType::kDiverging,
                      "the iterates ran away: the objective seems unbounded below (||x||_inf > "
                      "diverging_iterates_tol, or f falling without bound on the feasible set)");
      }
      continue;
    }
    Record(k_, q_start, inner);
    KeepLeastViolation();
    if (std::optional<Summary> end = Verdict(inner)) return *end;
    if (k_ + 1 == options_.max_outer_iter) break;
    if (std::exchange(restarted_, false)) continue;  // from x_0, lambda and beta set
    RememberSolution();
    UpdateMultipliers();
    UpdatePenalty(inner);
  }
  return Finish(TerminationType::kMaxOuterIterations, "reached max_outer_iter");
}

Summary OuterLoop::StartFailed(const Vector& x0) {
  std::string why;
  summary_.x = x0;
  if (!options_.IsValid(&why)) return Finish(TerminationType::kInvalidOptions, why);
  return Finish(TerminationType::kInvalidNumberAtStart,
                "the model returned an error or a non-finite derivative at the start point");
}

// After subproblem k: converged, ended short, acceptable for long, locally
// infeasible, or on to the next one (nullopt).
std::optional<Summary> OuterLoop::Verdict(const InnerSummary& inner) {
  if (Converged(inner) || ConvergedWithLeastSquaresMultipliers(inner)) {
    return Finish(TerminationType::kConverged,
                  paper_ ? "||c|| <= eps0 and ||grad Q|| <= eps1"
                         : "optimality error <= tol (Ipopt's test)");
  }
  if (inner.status != InnerStatus::kConverged && !ContinueAfterStall(inner.status)) {
    if (inner.status == InnerStatus::kStalled && RestartForFeasibility(inner)) return std::nullopt;
    if (inner.status == InnerStatus::kStalled && StalledAtInfeasibleStationaryPoint()) {
      RestoreLeastViolation();
      return Finish(TerminationType::kInfeasible,
                    "stalled at a stationary point of the constraint violation, from x_0 too "
                    "(locally infeasible)");
    }
    return FinishEarly(inner);
  }
  if (AcceptableForLong()) {
    return Finish(TerminationType::kAcceptable,
                  "acceptable level held for acceptable_iter outer iterations");
  }
  if (Stuck(k_)) {
    if (RestartForFeasibility(inner)) return std::nullopt;
    RestoreLeastViolation();
    return Finish(TerminationType::kInfeasible,
                  "||c|| stopped decreasing while beta grew: a stationary point of the "
                  "constraint violation (locally infeasible)");
  }
  return std::nullopt;
}

// Paper: (2.4) held and ||c||_2 <= eps0. Default: Ipopt's optimality error.
bool OuterLoop::Converged(const InnerSummary& inner) const {
  if (paper_) {
    return inner.status == InnerStatus::kConverged && current_.c_norm() <= options_.feasibility_tol;
  }
  const TerminationOptions& t = options_.termination;
  const Optimality o = Measure();
  return o.error <= t.tol && o.dual_inf <= t.dual_inf_tol && o.constr_viol <= t.constr_viol_tol;
}

// Default mode. At a point that passes the feasibility part of Ipopt's
// test, the first-order multipliers y = lambda + beta c can still miss the
// dual part: y carries beta times the rounding error of c (hs106: rows with
// terms ~1e6, beta = 2e5, ||grad Q|| stuck near 1e-4 in that noise). The
// least-squares multipliers at the same point carry no beta; when Ipopt's
// test holds with them, the solve ends converged and reports them.
bool OuterLoop::ConvergedWithLeastSquaresMultipliers(const InnerSummary& inner) {
  if (paper_ || q_.m() == 0) return false;
  if (current_.c.lpNorm<Eigen::Infinity>() > options_.termination.tol ||
      Measure().constr_viol > options_.termination.constr_viol_tol) {
    return false;
  }
  const Vector first_order = q_.multipliers();
  const Vector guess = first_order + q_.beta() * current_.c;
  q_.SetMultipliers(AccurateLeastSquaresMultipliers(q_, current_, guess) - q_.beta() * current_.c);
  q_.Refresh(&current_);
  if (Converged(inner)) return true;
  q_.SetMultipliers(first_order);
  q_.Refresh(&current_);
  return false;
}

// Default mode, before a verdict of local infeasibility (Stuck, or a stall
// short of the acceptable level): once per solve, the next subproblem
// starts again from x_0 with lambda = 0 and the current beta. The paper's
// return to x_0 (5.2) happens when x_0 is the better point; here x_k is
// better but is a stationary point of the violation that a larger beta does
// not move (J^T c = 0 with c != 0), while from x_0 a subproblem whose
// penalty term now outweighs f follows another path, toward the feasible
// set first, as Ipopt's restoration phase would. s365mod (LANCELOT too
// ends there: f = 0.25, ||c||_inf = 1) reaches f = 52.14, feasible, this
// way. A problem that is infeasible gets its verdict after the second run.
bool OuterLoop::RestartForFeasibility(const InnerSummary& inner) {
  if (paper_ || restarted_for_feasibility_ || inner.evaluation_failed || Acceptable()) return false;
  restarted_for_feasibility_ = true;
  if (!x0_.Restore(&q_, &current_)) return false;
  // beta at most 1000 times ALGENCAN's beta_0 at x_0 (its penalty term then
  // outweighs f there 1000-fold): the beta reached at a stationary point of
  // the violation can be far larger (30 subproblems x10), and its rounding
  // noise would stall the new path.
  q_.set_beta(std::min(q_.beta(), 1e3 * AlgencanPenalty()));
  q_.SetMultipliers(Vector::Zero(q_.m()));
  q_.Refresh(&current_);
  tight_ = false;
  acceptable_count_ = 0;
  previous_c_max_ = current_.c.size() ? current_.c.lpNorm<Eigen::Infinity>() : 0.0;
  restarted_ = true;
  return true;
}

// Default mode: a stall at a stationary point of the violation over the box
// with ||c|| above constr_viol_tol, in the subproblems solved to tau = tol
// (tight_), after the second start from x_0 (RestartForFeasibility) came back
// to such a point: what Ipopt calls converging to a point of local
// infeasibility. (Perturbed starts of hs063 and hs077 end so; Ipopt solves
// them from there. Before, the status was Search_Direction_Becomes_Too_Small.)
bool OuterLoop::StalledAtInfeasibleStationaryPoint() const {
  if (paper_ || !restarted_for_feasibility_ || !tight_ || summary_.outer.empty()) return false;
  const bool stationary = summary_.outer.back().violation_stationarity <=
                          options_.infeasibility_stationarity_tol;
  return stationary && Measure().constr_viol > options_.termination.constr_viol_tol &&
         !Acceptable();
}

// Ipopt's E = max(dual_inf / s_d, constr_viol, compl / s_c) with
// s_d = max(s_max, (||y||_1 + ||z||_1) / (m + n)) / s_max. Complementarity
// is zero by construction: bound multipliers are nonzero only on a bound.
OuterLoop::Optimality OuterLoop::Measure() const {
  Optimality o;
  const PenaltyFunction::DualMeasures d =
      q_.Dual(current_, unscale_weights_.size() ? &unscale_weights_ : nullptr);
  double y_l1 = 0.0;
  for (int j = 0; j < q_.m(); ++j) {
    y_l1 += std::abs((q_.has_multipliers() ? q_.multipliers()[j] : 0.0) + q_.beta() * current_.c[j]);
  }
  const double s_max = options_.termination.s_max;
  const double count = std::max(1, q_.m() + q_.n());
  const double s_d = std::max(s_max, (y_l1 + d.bound_multipliers_l1) / count) / s_max;
  const double constr_viol = current_.c.size() ? current_.c.lpNorm<Eigen::Infinity>() : 0.0;
  o.error = std::max(d.dual_inf / s_d, constr_viol);  // on the problem solved (scaled)
  o.dual_inf = scaling_ ? d.weighted_dual_inf : d.dual_inf;
  o.constr_viol = constr_viol;
  if (scaling_) {
    o.constr_viol = 0.0;
    for (int j = 0; j < q_.m(); ++j) {
      o.constr_viol = std::max(o.constr_viol, std::abs(current_.c[j]) / scaling_->constraint_factors()[j]);
    }
  }
  return o;
}

bool OuterLoop::Acceptable() const {
  if (paper_) {
    return current_.c_norm() <= options_.acceptable_feasibility_tol &&
           current_.grad_q_norm <= options_.acceptable_stationarity_tol;
  }
  const TerminationOptions& t = options_.termination;
  const Optimality o = Measure();
  return o.error <= t.acceptable_tol && o.dual_inf <= t.acceptable_dual_inf_tol &&
         o.constr_viol <= t.acceptable_constr_viol_tol;
}

// Default mode: Ipopt's acceptable_iter, counted in outer iterations.
bool OuterLoop::AcceptableForLong() {
  if (paper_ || options_.termination.acceptable_iter == 0) return false;
  acceptable_count_ = Acceptable() ? acceptable_count_ + 1 : 0;
  return acceptable_count_ >= options_.termination.acceptable_iter;
}

// An inner solver stopped short of (2.4). A stall (no further progress in
// double precision) at a point within the acceptable tolerances is reported
// as such, as Ipopt's Solved_To_Acceptable_Level; a stall because every
// trial failed to evaluate as Ipopt's Invalid_Number_Detected (default mode).
Summary OuterLoop::FinishEarly(const InnerSummary& inner) {
  const InnerStatus status = inner.status;
  if (status == InnerStatus::kStalled && Acceptable()) {
    return Finish(TerminationType::kAcceptable,
                  "stalled within the acceptable tolerances (||c|| and stationarity)");
  }
  if (!paper_ && status == InnerStatus::kStalled && inner.evaluation_failed) {
    return Finish(TerminationType::kEvaluationError,
                  "the model failed to evaluate at every trial point, down to the smallest step");
  }
  const TerminationType type = status == InnerStatus::kTimeLimit && deadline_.wall_passed()
                                   ? TerminationType::kMaxWallTime
                                   : FromInner(status);
  return Finish(type, std::string("inner solver stopped: ") + ToString(type));
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
  const double before = k >= 2 ? summary_.outer[k - 2].c_norm : std::sqrt(x0_.c_squared);
  if (!(current_.c_norm() < (1.0 - options_.infeasibility_decrease) * before)) return false;
  return ++stalled_subproblems_ <= options_.max_stalled_subproblems;
}

// x_0 is projected on the bounds (the count goes to the summary) and the
// slacks start at g(x_0) projected on the row bounds. The default mode then
// seeds lambda and beta.
bool OuterLoop::Start(const Vector& x0) {
  q_.set_max_norm_stationarity(!paper_);  // the norm of the test the solve ends on
  q_.Allocate(&current_);
  current_.x.head(q_.num_x()) = x0;
  summary_.start_projected = q_.Project(current_.x.head(q_.num_x()));
  if (!q_.EvaluateValues(&current_)) return false;
  q_.FitSlacks(&current_);
  q_.set_beta(paper_ ? options_.penalty_init : InitialPenalty());
  if (!q_.EvaluateDerivatives(&current_)) return false;
  alpha_ = options_.penalty_growth;
  if (!paper_) SeedMultipliers();
  PrepareUnscaling();
  x0_.Save(current_);
  previous_c_max_ = current_.c.size() ? current_.c.lpNorm<Eigen::Infinity>() : 0.0;
  inner_ = MakeInnerSolver(options_, &q_);
  return true;
}

// Unscaled dual infeasibility from the scaled one (ScaledProblem: L~ = df L
// with lambda~ = df lambda ./ dc): x entries divide by df, the slack entry of
// row j multiplies by dc_j / df.
void OuterLoop::PrepareUnscaling() {
  if (!scaling_) return;
  const double df = std::abs(scaling_->objective_factor());
  unscale_weights_ = Vector::Constant(q_.n(), 1.0 / df);
  for (int i = 0; i < q_.num_slacks(); ++i) {
    unscale_weights_[q_.num_x() + i] = scaling_->constraint_factors()[q_.slack_row(i)] / df;
  }
}

// ALGENCAN's beta_0 = 10 max(1, |f(x_0)|) / max(1, ||c(x_0)||^2 / 2), clipped:
// the penalty term starts comparable to the objective. Near feasibility
// (||c||^2 / 2 < 1) ALGENCAN's unit 1 leaves beta_0 = 10 |f(x_0)|, which
// grows with the model's size where f sums n terms (a band of 1e5 inequality
// rows satisfied at x_0: beta_0 = 2.8e6, inner iterations 38 times the
// equality form's); there the unit grows as 1 / (||c||^2 / 2) up to one per
// row, m: continuous, and ALGENCAN's value wherever ||c(x_0)||^2 / 2 >= 1.
double OuterLoop::InitialPenalty() const {
  const MultiplierOptions& m = options_.multipliers;
  return m.penalty_init > 0.0 ? m.penalty_init : AlgencanPenalty();
}

double OuterLoop::AlgencanPenalty() const {
  const MultiplierOptions& m = options_.multipliers;
  const double half_c2 = 0.5 * current_.c_squared;
  const double rows = std::max(1, q_.m());
  const double unit = half_c2 > 0.0 ? std::min(rows, 1.0 / half_c2) : rows;
  const double beta = 10.0 * std::max(1.0, std::abs(current_.f)) / std::max(half_c2, unit);
  return std::min(std::max(beta, m.penalty_init_min), m.penalty_init_max);
}

// lambda_0: the user's (warm start) when given, else the least-squares
// estimate (multipliers.hpp), else 0.
void OuterLoop::SeedMultipliers() {
  Vector lambda = Vector::Zero(q_.m());
  if (lambda0_.size() == q_.m() && q_.m() > 0) {
    lambda = lambda0_;
  } else if (options_.multipliers.least_squares_init) {
    lambda = LeastSquaresMultipliers(q_, current_, options_.multipliers.init_max);
  }
  q_.SetMultipliers(lambda);
  q_.Refresh(&current_);
}

// Default mode: lambda_{k+1} = P(lambda_k + beta_k c(x_{k+1})) (ALGENCAN's
// safeguarded first-order update); the paper's lambda stays 0.
void OuterLoop::UpdateMultipliers() {
  if (paper_) return;
  Vector lambda = q_.multipliers();
  qpm::UpdateMultipliers(q_.beta(), current_.c, options_.multipliers.max_multiplier, &lambda);
  q_.SetMultipliers(lambda);
}

// Paper: beta *= alpha (or the adaptive alpha). Default: beta *= gamma only
// when ||c||_inf did not fall below feasibility_decrease times its value
// before the subproblem, so beta stays bounded on regular problems.
void OuterLoop::UpdatePenalty(const InnerSummary& inner) {
  if (paper_) {
    q_.set_beta(q_.beta() * NextGrowth(inner.iterations));
    return;
  }
  const double c_max = current_.c.size() ? current_.c.lpNorm<Eigen::Infinity>() : 0.0;
  // After the first subproblem there is no earlier multiplier step to judge:
  // x_0's violation says nothing about lambda_0 (ALGENCAN tests from k = 1).
  if (k_ > 0 && c_max > options_.multipliers.feasibility_decrease * previous_c_max_) {
    q_.set_beta(q_.beta() * options_.multipliers.penalty_increase);
  }
  previous_c_max_ = c_max;
}

// Starts subproblem k at argmin of the merit over {x_k, x_0} (eq. (5.2)),
// from cached f and c (no callbacks); returns that minimum, the bound of (2.3).
double OuterLoop::PrepareSubproblem(int k) {
  q_.Refresh(&current_);  // lambda' c and grad Q for this lambda and beta
  const bool use_x0 = k > 0 && x0_.Q(q_) < current_.Q(q_.beta());
  if (use_x0) {
    // Evaluated there at the start; only a nondeterministic model can fail
    // now. NaN tells Run to stop with the point it has.
    if (!x0_.Restore(&q_, &current_)) return std::nan("");
  }
  if (!use_x0 && options_.extrapolate) TryExtrapolation();
  summary_.outer.push_back(OuterRecord());
  summary_.outer.back().started_at_x0 = use_x0 || k == 0;
  return current_.Q(q_.beta());
}

// Local infeasibility (Options::infeasibility_window): true when the last
// infeasibility_window subproblems together lowered ||c|| by less than
// infeasibility_decrease (relative) AND x_{k+1} is a stationary point of
// ||c|| over the box. The first part alone also holds while the iterates do
// not move because the adaptive tau lets each start point pass (2.4); only
// the second is evidence that no beta will lower ||c||. In the default mode
// a stationary point of ||c|| is not yet a minimizer (x_0 with J^T c = 0 on
// a maximum or saddle of ||c||): the subproblems from there on are solved
// to tau = eps1 (tight_), where the trust region's negative curvature moves
// off such points, and only such subproblems count toward the window.
bool OuterLoop::Stuck(int k) const {
  const int w = options_.infeasibility_window;
  if (k < w) return false;
  const double before = summary_.outer[k - w].c_norm;
  const double now = summary_.outer[k].c_norm;
  if (now < (1.0 - options_.infeasibility_decrease) * before) return false;
  const bool stationary =
      summary_.outer[k].violation_stationarity <= options_.infeasibility_stationarity_tol;
  if (paper_) return stationary;
  return stationary && tight_ && k - tight_since_ >= w;
}

// tau(x) of Def. 2.1 for this subproblem. Paper: (eps0, eps1, tau_cap).
// Default: eps0 = eps1 = tol, so tau = max(tol, ||c||), and tau = tol once the
// solve looks stuck at a stationary point of ||c|| (Stuck). Not Ipopt's s_d
// here: it grows with ||lambda||, and where the multipliers diverge (s365mod:
// ||c|| stuck at 1.41 while beta grew) a tau scaled by it let every start
// point pass unmoved. The solve still ends on Ipopt's test with s_d
// (Converged), which a point meeting tau meets.
FeasibilityTolerance OuterLoop::Tolerance() const {
  if (paper_) {
    return FeasibilityTolerance{options_.feasibility_tol, options_.stationarity_tol,
                                options_.tolerance_cap};
  }
  const double tol = options_.termination.tol;
  return FeasibilityTolerance{tol, tol, tight_ ? 0.0 : options_.tolerance_cap};
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

// Also decides the default mode's tight_ (see Stuck): ||c|| not lower than
// before the subproblem, at a stationary point of ||c||.
void OuterLoop::KeepLeastViolation() {
  const OuterRecord& r = summary_.outer.back();
  const double before = summary_.outer.size() >= 2 ? summary_.outer[summary_.outer.size() - 2].c_norm
                                                   : std::sqrt(x0_.c_squared);
  if (!paper_ && !tight_ && r.violation_stationarity <= options_.infeasibility_stationarity_tol &&
      !(r.c_norm < (1.0 - options_.infeasibility_decrease) * before)) {
    tight_ = true, tight_since_ = k_;
  }
  if (!(current_.c_squared < least_.c_squared)) return;
  least_.Save(current_);
}

// Back to the least-violation outer iterate, when it is not the current one
// and its derivatives can be evaluated again (they always could there).
void OuterLoop::RestoreLeastViolation() {
  if (!(least_.c_squared < current_.c_squared)) return;
  if (!spare_.x.size()) q_.Allocate(&spare_);
  if (least_.Restore(&q_, &spare_)) SwapIterates(&current_, &spare_);
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
  if (!spare_.x.size()) q_.Allocate(&spare_);
  spare_.x = last_z_ + s * (last_z_ - previous_z_);
  q_.Project(spare_.x);
  if (!q_.EvaluateValues(&spare_) || !(spare_.Q(beta) < current_.Q(beta))) return;
  if (!q_.EvaluateDerivatives(&spare_)) return;
  SwapIterates(&current_, &spare_);
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
// Default mode: f running away three times at points within constr_viol_tol
// of feasibility, whatever beta, is an objective unbounded below on the
// feasible set (Ipopt's Diverging_Iterates), not a penalty too weak.
bool OuterLoop::RestartAfterRunaway(double q_start, const InnerSummary& inner) {
  const bool restored = start_.Restore(&q_, &current_);  // x_{k+1} = x_k
  InnerSummary restart = inner;
  restart.tau = Tolerance()(current_.c_norm());
  Record(k_, q_start, restart);
  if (!restored || runaway_restarts_++ >= options_.max_runaway_restarts) return false;
  if (!paper_ && inner.runaway_objective &&
      inner.runaway_c_norm <= options_.termination.constr_viol_tol && ++feasible_runaways_ >= 3) {
    return false;
  }
  q_.set_beta(q_.beta() * std::max(options_.runaway_penalty_factor, alpha_));
  return true;
}

InnerSummary OuterLoop::SolveSubproblem() {
  InnerControl control;
  control.tolerance = Tolerance();
  control.max_iterations = options_.max_inner_iter - iterations_;
  control.deadline = &deadline_;
  control.stall_rounding = options_.stall_rounding;
  control.max_abs_z = options_.diverging_iterates_tol;
  if (runaway_restarts_ < options_.max_runaway_restarts) {
    const double kappa = options_.runaway_violation_factor;
    control.max_violation = kappa * std::max(current_.c_norm(), 1.0);
    control.min_objective = current_.f - kappa * std::max(std::abs(current_.f), 1.0);
    // Paper mode only: in the default mode ||z|| far from the start is no
    // sign of an unbounded merit by itself (hs099's solution has entries
    // ~1e5 where x_0 has 0: the test restarted it 20 times); f and ||c||
    // running away still are.
    if (paper_) {
      control.max_abs_z = std::min(control.max_abs_z,
                                   kappa * std::max(current_.x.lpNorm<Eigen::Infinity>(), 1.0));
    } else {
      control.objective_runaway_min_z = 10.0 * std::max(current_.x.lpNorm<Eigen::Infinity>(), 1.0);
    }
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
  r.f = UserObjective(current_.f);
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
  info.f = UserObjective(x.f);
  info.c_norm = x.c_norm();
  info.c_max = x.c.size() ? x.c.lpNorm<Eigen::Infinity>() : 0.0;
  info.grad_q_norm = x.grad_q_norm;
  info.grad_q_max = x.grad_q.size() ? x.grad_q.lpNorm<Eigen::Infinity>() : 0.0;
  info.tau = Tolerance()(info.c_norm);
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
  // A runaway restart grew beta for a subproblem that never came.
  if (type == TerminationType::kMaxOuterIterations && !summary_.outer.empty()) {
    summary_.beta = summary_.outer.back().beta;
  }
  q_.set_beta(summary_.beta);
  summary_.x = current_.x.head(q_.num_x());
  summary_.g = current_.g;
  summary_.c = current_.c;
  q_.FirstOrderMultipliers(current_, &summary_.lambda);
  summary_.f = current_.f;
  summary_.c_norm = current_.c_norm();
  summary_.c_max = current_.c.size() ? current_.c.lpNorm<Eigen::Infinity>() : 0.0;
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

namespace {

// x_0 projected on the variable bounds: where the solve starts, and where
// Ipopt computes its scaling.
Vector ProjectedStart(const Problem& problem, const Vector& x0) {
  const int n = problem.num_variables(), m = problem.num_constraints();
  Vector x_l(n), x_u(n), g_l(m), g_u(m);
  problem.GetBounds(x_l, x_u, g_l, g_u);
  return x0.cwiseMax(x_l).cwiseMin(x_u);
}

// The summary of the scaled problem in the user's units.
void Unscale(const ScaledProblem& scaled, Summary* s) {
  const double df = scaled.objective_factor();
  s->f = scaled.UnscaleObjective(s->f);
  if (s->g.size() == scaled.num_constraints()) {
    scaled.UnscaleConstraints(s->g, s->g);
    s->c = s->c.cwiseQuotient(scaled.constraint_factors());
    scaled.UnscaleMultipliers(s->lambda, s->lambda);
    s->c_norm = s->c.norm();
    s->c_max = s->c.size() ? s->c.lpNorm<Eigen::Infinity>() : 0.0;
  }
  if (s->z_l.size() == scaled.num_variables()) {
    scaled.UnscaleBoundMultipliers(s->z_l, s->z_l);
    scaled.UnscaleBoundMultipliers(s->z_u, s->z_u);
  }
  s->grad_q_norm /= std::abs(df);
  s->grad_q_max /= std::abs(df);
}

// The paper's mode solves the problem as given; the default mode solves it
// with Ipopt's gradient-based scaling (Options::scaling) and reports in the
// user's units.
Summary SolveScaledOrNot(Problem* problem, const Vector& x0, const Options& options,
                         const Callbacks& callbacks, const Vector& lambda0, double start_cpu,
                         const CpuDeadline& deadline) {
  if (options.mode == Mode::kPaper || !options.scaling.gradient_based ||
      x0.size() != problem->num_variables()) {
    OuterLoop loop(problem, options, callbacks, start_cpu, deadline, lambda0, nullptr);
    return loop.Run(x0);
  }
  ScaledProblem scaled(problem, options.scaling);
  const bool evaluated = scaled.Compute(ProjectedStart(*problem, x0));
  Vector scaled_lambda0;
  if (lambda0.size() == problem->num_constraints() && lambda0.size() > 0) {
    scaled_lambda0.resize(lambda0.size());
    scaled.ScaleMultipliers(lambda0, scaled_lambda0);
  }
  OuterLoop loop(&scaled, options, callbacks, start_cpu, deadline, scaled_lambda0, &scaled);
  Summary summary = evaluated ? loop.Run(x0) : loop.StartFailed(x0);
  Unscale(scaled, &summary);
  return summary;
}

}  // namespace

// Fixed variables are removed once (FixedVariables, as Ipopt's
// make_parameter); the outer loop and the inner solvers never see them.
Summary Solve(Problem* problem, const Vector& x0, const Options& options,
              const Callbacks& callbacks, const Vector& lambda0) {
  const double start_cpu = CpuSeconds();
  const CpuDeadline deadline(start_cpu + options.max_cpu_time, options.max_wall_time);
  if (!FixedVariables::Any(*problem)) {
    return SolveScaledOrNot(problem, x0, options, callbacks, lambda0, start_cpu, deadline);
  }
  FixedVariables reduced(problem);
  Summary summary = SolveScaledOrNot(&reduced, reduced.Reduce(x0), options, callbacks, lambda0,
                                     start_cpu, deadline);
  reduced.Expand(x0, &summary);
  return summary;
}

}  // namespace qpm
