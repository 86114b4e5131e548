#include "qpm/core/solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "core/fixed_variables.hpp"
#include "core/inner/gradient_descent.hpp"
#include "core/inner/lbfgs.hpp"
#include "core/inner/trust_region.hpp"
#include "core/linalg/huge_pages.hpp"
#include "core/penalty.hpp"
#include "core/scaled_problem.hpp"
#include "core/stationarity.hpp"
#include "core/outer/strategies.hpp"

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
  const Vector* same_z = nullptr;  // a vector equal to z, kept instead of z
  double f = 0.0;
  double c_squared = std::numeric_limits<double>::infinity();

  // `equal_z`, when given, equals it.x and outlives this point: it is kept
  // by reference instead of a copy of z.
  void Save(const Iterate& it, const Vector* equal_z = nullptr) {
    same_z = equal_z;
    if (same_z) {
      z.resize(0);
    } else {
      CopyLarge(it.x, &z);
    }
    g = it.g, c = it.c;
    f = it.f, c_squared = it.c_squared;
  }
  // The merit at the point (Q_beta, or L_A with multipliers), no callbacks.
  double Q(const PenaltyFunction& q) const {
    const double lambda_c =
        q.merit().has_multipliers() ? Dot(q.layout().reduce(), q.merit().multipliers(), c) : 0.0;
    return f + lambda_c + 0.5 * q.merit().beta() * c_squared;
  }
  // Values into `it`, then derivatives and grad Q there; false only for a
  // model whose derivatives fail where they once did not (`it` is then
  // unusable: OuterLoop::Restore evaluates into a spare).
  bool Restore(PenaltyFunction* q, Iterate* it) const {
    it->x = same_z ? *same_z : z;
    it->g = g, it->c = c;
    it->f = f, it->c_squared = c_squared;
    q->merit().UpdateResidual(it);
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
        method_(MakeStrategies(options, scaling, q_)) {
    if (q_.distributed()) deadline_.Share(q_.layout().reduce());
  }

  Summary Run(const Vector& x0);
  // The model failed where the scaling evaluates it (x_0), as Run would fail.
  Summary StartFailed(const Vector& x0);

 private:
  enum class Next { kUpdate, kRestarted, kStop };  // after a verdict

  // Algorithm 1's steps.
  std::optional<Summary> Refuse();
  bool Start(const Vector& x0);
  double PrepareSubproblem(int k);
  InnerSummary SolveSubproblem();
  Next Verdict(const InnerSummary& inner);
  Next VerdictOnShortSubproblem(const InnerSummary& inner);
  void UpdateMultipliersAndPenalty(const InnerSummary& inner);
  // Tests: predicates, no state changes.
  bool Acceptable() const { return method_.convergence->Acceptable(q_, current_); }
  bool AcceptableForLong() const;
  bool Stuck(int k) const;
  bool MayContinueAfterStall(InnerStatus status) const;
  bool MayRestartFromX0(const InnerSummary& inner) const;
  bool StalledAtInfeasibleStationaryPoint() const;
  double ViolationBeforeSubproblem() const;
  // Safeguards and mechanisms beyond the paper: steps that act
  // (docs/algorithm.md, "Beyond the paper").
  bool RestartFromX0();
  RunawayTest::Feasible OnFeasibleRunaway(double q_start, const InnerSummary& inner);
  bool RestartAfterRunaway(double q_start, const InnerSummary& inner);
  void CountAcceptableIterate();
  void KeepLeastViolation();
  void RestoreLeastViolation();
  bool Restore(const SavedPoint& point);
  void RememberSolution();
  void TryExtrapolation();
  // Reporting. The log and the callbacks get f in the user's units, as
  // Ipopt's "objective" column; ||c|| and ||grad Q|| of the problem solved.
  double UserObjective(double f) const { return scaling_ ? scaling_->UnscaleObjective(f) : f; }
  void Record(int k, double q_start, const InnerSummary& inner);
  bool Notify(const Iterate& x, const StepInfo& step);
  Summary Finish(TerminationType type, const std::string& message);
  void Conclude(TerminationType type, const std::string& message);
  void ConcludeEarly(const InnerSummary& inner);
  void BoundMultipliers();

  const Vector& lambda0_;  // the user's multipliers (warm start), or empty
  const ScaledProblem* scaling_;  // the problem solved is gradient-scaled (default mode), or null
  const Options& options_;
  const Callbacks& callbacks_;
  double start_cpu_;
  CpuDeadline deadline_;
  PenaltyFunction q_;
  Strategies method_;  // where the paper's method and the default mode differ
  Iterate current_;    // x_k before a subproblem, x_{k+1} after it
  SavedPoint x0_;      // Q(x_0) for each beta needs no callback (5.2)
  SavedPoint start_;   // the current subproblem's start, for a runaway restart
  // The outer iterate of least ||c||, which a local-infeasibility stop
  // returns. Copied only once current_ moves away from it and start_ does
  // not hold it (one n-vector saved while ||c|| keeps falling).
  enum class Least { kCurrent, kStart, kStored };
  SavedPoint least_;
  Least least_at_ = Least::kStored;
  double least_c_squared_ = std::numeric_limits<double>::infinity();
  void SaveStart();
  void LeaveCurrent();
  std::unique_ptr<InnerSolver> inner_;
  Summary summary_;
  long iterations_ = 0;  // inner iterations over all subproblems
  int k_ = 0;
  int stalled_subproblems_ = 0;    // continued after a stall
  int runaway_restarts_ = 0;
  int feasible_runaways_ = 0;      // runaways of f with ||c|| within constr_viol_tol
  bool following_descent_ = false;  // a feasible runaway was followed: no f test
  int acceptable_count_ = 0;       // consecutive acceptable outer iterates
  int feasibility_restarts_ = 0;   // second starts from x_0 made (RestartFromX0)
  Vector last_z_, previous_z_;     // extrapolation: x_{k}, x_{k-1}
  double last_beta_ = 0.0, previous_beta_ = 0.0;
  Iterate spare_;                  // extrapolation and restores
};

// Algorithm 1 (paper, Sec. 2): each subproblem starts at argmin{Q(x_k),
// Q(x_0)} (5.2), ends with (2.3) and (2.4), then the verdict, then lambda
// and beta for the next one (method_ says how, for either mode).
Summary OuterLoop::Run(const Vector& x0) {
  if (std::optional<Summary> refused = Refuse()) {
    refused->x = x0;
    return *refused;
  }
  if (!Start(x0)) {
    summary_.x = x0;
    return Finish(TerminationType::kInvalidNumberAtStart,
                  "the model returned an error or a non-finite value at the start point");
  }
  if (!Notify(current_, StepInfo())) return Finish(TerminationType::kUserStop, "stopped by the user callback");
  for (k_ = 0; k_ < options_.max_outer_iter; ++k_) {
    const double q_start = PrepareSubproblem(k_);
    if (std::isnan(q_start)) {
      return Finish(TerminationType::kEvaluationError,
                    "derivatives failed at both x_0 and x_k, where they had not before");
    }
    SaveStart();
    const InnerSummary inner = SolveSubproblem();
    if (inner.status == InnerStatus::kRunaway) {
      const RunawayTest::Feasible feasible = OnFeasibleRunaway(q_start, inner);
      if (feasible == RunawayTest::Feasible::kFollow) continue;
      if (feasible != RunawayTest::Feasible::kDiverged && RestartAfterRunaway(q_start, inner)) continue;
      // Runaways at a point a larger beta did not make feasible: the second
      // start from x_0 before the verdict.
      if (inner.runaway_c_norm > options_.termination.constr_viol_tol &&
          MayRestartFromX0(inner) && RestartFromX0()) {
        runaway_restarts_ = 0;
        continue;
      }
      return Finish(TerminationType::kDiverging,
                    "the iterates ran away: the objective seems unbounded below (||x||_inf > "
                    "diverging_iterates_tol, or f falling without bound on the feasible set)");
    }
    Record(k_, q_start, inner);
    method_.tolerance->Observe(summary_.outer.back(), ViolationBeforeSubproblem(), k_);
    KeepLeastViolation();
    const Next next = Verdict(inner);
    if (next == Next::kStop) return std::move(summary_);
    if (next == Next::kRestarted || k_ + 1 == options_.max_outer_iter) continue;
    RememberSolution();
    UpdateMultipliersAndPenalty(inner);
  }
  return Finish(TerminationType::kMaxOuterIterations, "reached max_outer_iter");
}

Summary OuterLoop::StartFailed(const Vector& x0) {
  summary_.x = x0;
  if (std::optional<Summary> refused = Refuse()) return *refused;
  return Finish(TerminationType::kInvalidNumberAtStart,
                "the model returned an error or a non-finite derivative at the start point");
}

// Options that do not fit the problem, before any evaluation.
std::optional<Summary> OuterLoop::Refuse() {
  std::string why;
  if (!options_.IsValid(&why)) return Finish(TerminationType::kInvalidOptions, why);
  if (q_.distributed() && options_.inner_solver != InnerSolverType::kTrustRegion) {
    return Finish(TerminationType::kInvalidOptions,
                  "a distributed model is solved by the trust-region inner solver only "
                  "(docs/petsc.md, Distributed models)");
  }
  if (options_.inner_solver == InnerSolverType::kTrustRegion && !q_.has_hessian()) {
    return Finish(TerminationType::kInvalidOptions,
                  "the trust-region inner solver needs the Hessian of the Lagrangian, which "
                  "the model does not provide; use lbfgs (hessian_approximation "
                  "limited-memory)");
  }
  return std::nullopt;
}

// After subproblem k: converged, ended short, acceptable for long, locally
// infeasible (kStop, summary_ final), restarted from x_0, or on to the
// multiplier and penalty update.
OuterLoop::Next OuterLoop::Verdict(const InnerSummary& inner) {
  const ConvergenceTest& test = *method_.convergence;
  if (test.Converged(q_, current_, inner.status) ||
      method_.multipliers->AdoptLeastSquaresIfConverged(test, inner.status, &q_, &current_)) {
    Conclude(TerminationType::kConverged, test.converged_message());
    return Next::kStop;
  }
  if (inner.status != InnerStatus::kConverged) {
    if (!MayContinueAfterStall(inner.status)) return VerdictOnShortSubproblem(inner);
    ++stalled_subproblems_;
  }
  CountAcceptableIterate();
  if (AcceptableForLong()) {
    Conclude(TerminationType::kAcceptable, "acceptable level held for acceptable_iter outer iterations");
    return Next::kStop;
  }
  if (!Stuck(k_)) return Next::kUpdate;
  if (MayRestartFromX0(inner) && RestartFromX0()) return Next::kRestarted;
  RestoreLeastViolation();
  Conclude(TerminationType::kInfeasible,
           "||c|| stopped decreasing while beta grew: a stationary point of the constraint "
           "violation (locally infeasible)");
  return Next::kStop;
}

// A subproblem that stopped short of (2.4) and may not go on: a second start
// from x_0, a verdict of local infeasibility, or the end its status says.
OuterLoop::Next OuterLoop::VerdictOnShortSubproblem(const InnerSummary& inner) {
  const bool stalled = inner.status == InnerStatus::kStalled;
  if (stalled && MayRestartFromX0(inner) && RestartFromX0()) return Next::kRestarted;
  if (stalled && StalledAtInfeasibleStationaryPoint()) {
    RestoreLeastViolation();
    Conclude(TerminationType::kInfeasible,
             "stalled at a stationary point of the constraint violation, from x_0 too "
             "(locally infeasible)");
    return Next::kStop;
  }
  ConcludeEarly(inner);
  return Next::kStop;
}

// lambda_{k+1}, then beta_{k+1} (method_).
void OuterLoop::UpdateMultipliersAndPenalty(const InnerSummary& inner) {
  method_.multipliers->Update(current_, inner_->face_solve(), &q_);
  q_.merit().set_beta(method_.penalty->Next(q_.merit().beta(), current_, inner.iterations, k_));
}

// ||c|| before the subproblem just solved: at x_k, or x_0 for the first.
double OuterLoop::ViolationBeforeSubproblem() const {
  const size_t k = summary_.outer.size();
  return k >= 2 ? summary_.outer[k - 2].c_norm : std::sqrt(x0_.c_squared);
}

// A stall (no progress in double precision) above the feasibility
// tolerance, after lowering ||c|| by more than infeasibility_decrease, or
// at the acceptable level by at least half (then the default mode's beta
// does not grow, nor the rounding floor with it): beta grows as after a
// converged subproblem (docs/algorithm.md, "Stalls at the rounding floor").
bool OuterLoop::MayContinueAfterStall(InnerStatus status) const {
  if (status != InnerStatus::kStalled) return false;
  if (current_.c_norm() <= method_.convergence->stall_feasibility_tol()) return false;
  const double kept = Acceptable() ? options_.multipliers.feasibility_decrease
                                   : 1.0 - options_.infeasibility_decrease;
  if (!(current_.c_norm() < kept * ViolationBeforeSubproblem())) return false;
  return stalled_subproblems_ < options_.max_stalled_subproblems;
}

// The second start from x_0 (docs/algorithm.md, "A second start from x_0
// before an infeasibility verdict"), while the mode allows one.
bool OuterLoop::MayRestartFromX0(const InnerSummary& inner) const {
  return feasibility_restarts_ < method_.feasibility_restarts && !inner.evaluation_failed &&
         !Acceptable();
}

// The next subproblem starts from x_0 with lambda = 0 and the beta of
// PenaltyUpdate::Restart; false when x_0's derivatives fail now (the
// restart is then used up all the same).
bool OuterLoop::RestartFromX0() {
  ++feasibility_restarts_;
  LeaveCurrent();
  if (!Restore(x0_)) return false;
  q_.merit().set_beta(method_.penalty->Restart(q_.merit().beta(), q_, current_));
  method_.multipliers->Reset(&q_);
  q_.merit().Refresh(&current_);
  method_.tolerance->Reset();
  acceptable_count_ = 0;
  return true;
}

// A stall at a stationary point of the violation above the feasibility
// tolerance, in tight subproblems, after the second start from x_0 came back
// to such a point: local infeasibility (docs/algorithm.md, "Local infeasibility").
bool OuterLoop::StalledAtInfeasibleStationaryPoint() const {
  if (feasibility_restarts_ == 0 || !method_.tolerance->tight() || summary_.outer.empty()) {
    return false;
  }
  const bool stationary = summary_.outer.back().violation_stationarity <=
                          options_.infeasibility_stationarity_tol;
  return stationary && !method_.convergence->NearlyFeasible(q_, current_) && !Acceptable();
}

// Ipopt's acceptable_iter, counted in outer iterations.
void OuterLoop::CountAcceptableIterate() {
  if (method_.convergence->acceptable_iter() == 0) return;
  acceptable_count_ = Acceptable() ? acceptable_count_ + 1 : 0;
}

bool OuterLoop::AcceptableForLong() const {
  const int needed = method_.convergence->acceptable_iter();
  return needed > 0 && acceptable_count_ >= needed;
}

// An inner solver stopped short of (2.4): a stall within the acceptable
// tolerances ends as Ipopt's Solved_To_Acceptable_Level, a stall because
// every trial failed to evaluate as Invalid_Number_Detected, the rest as
// the inner status says.
void OuterLoop::ConcludeEarly(const InnerSummary& inner) {
  const InnerStatus status = inner.status;
  if (status == InnerStatus::kStalled && Acceptable()) {
    return Conclude(TerminationType::kAcceptable,
                    "stalled within the acceptable tolerances (||c|| and stationarity)");
  }
  if (status == InnerStatus::kStalled && inner.evaluation_failed) {
    return Conclude(TerminationType::kEvaluationError,
                    "the model failed to evaluate at every trial point, down to the smallest step");
  }
  const TerminationType type = status == InnerStatus::kTimeLimit && deadline_.wall_passed()
                                   ? TerminationType::kMaxWallTime
                                   : FromInner(status);
  Conclude(type, std::string("inner solver stopped: ") + ToString(type));
}

// x_0 is projected on the bounds (the count goes to the summary), the
// slacks start at g(x_0) projected on the row bounds, then beta_0 and
// lambda_0 (method_).
bool OuterLoop::Start(const Vector& x0) {
  q_.merit().set_max_norm_stationarity(method_.convergence->max_norm());
  q_.Allocate(&current_);
  current_.x.head(q_.layout().n_x()) = x0;
  summary_.start_projected = q_.layout().Project(current_.x.head(q_.layout().n_x()));
  if (!q_.EvaluateValues(&current_)) return false;
  q_.merit().FitSlacks(&current_);
  q_.merit().set_beta(method_.penalty->Start(q_, current_));
  if (!q_.EvaluateDerivatives(&current_)) return false;
  method_.multipliers->Seed(lambda0_, &q_, &current_);
  // z_0 is the caller's x0 (alive for the solve) when nothing was projected
  // and there are no slacks: one n-vector less (docs/algorithm.md, "Memory budget").
  const bool z0_is_x0 = summary_.start_projected == 0 && q_.layout().num_slacks() == 0;
  x0_.Save(current_, z0_is_x0 ? &x0 : nullptr);
  inner_ = MakeInnerSolver(options_, &q_);
  return true;
}

// Starts subproblem k at argmin of the merit over {x_k, x_0} (eq. (5.2)),
// from cached f and c (no callbacks); returns that minimum, the bound of (2.3).
double OuterLoop::PrepareSubproblem(int k) {
  q_.merit().Refresh(&current_);  // lambda' c and grad Q for this lambda and beta
  bool use_x0 = k > 0 && x0_.Q(q_) < current_.Q(q_.merit().beta());
  if (use_x0) {
    // Derivatives at x_0 that fail now (they did not at the start) leave x_k,
    // saved in start_ (no spare iterate: it would hold a copy of J).
    SaveStart();
    use_x0 = x0_.Restore(&q_, &current_);
    if (!use_x0 && !start_.Restore(&q_, &current_)) return std::nan("");
  }
  if (!use_x0 && options_.extrapolate) TryExtrapolation();
  summary_.outer.push_back(OuterRecord());
  summary_.outer.back().started_at_x0 = use_x0 || k == 0;
  return current_.Q(q_.merit().beta());
}

// Local infeasibility (Options::infeasibility_window): the last window of
// subproblems lowered ||c|| by less than infeasibility_decrease, x_{k+1} is
// a stationary point of ||c|| over the box, and the mode counts this window
// (docs/algorithm.md, "Local infeasibility").
bool OuterLoop::Stuck(int k) const {
  const int w = options_.infeasibility_window;
  if (k < w) return false;
  const double before = summary_.outer[k - w].c_norm;
  const double now = summary_.outer[k].c_norm;
  if (now < (1.0 - options_.infeasibility_decrease) * before) return false;
  const bool stationary =
      summary_.outer[k].violation_stationarity <= options_.infeasibility_stationarity_tol;
  return stationary && method_.tolerance->WindowCounts(k, w) &&
         !method_.convergence->NearlyFeasible(q_, current_);
}

void OuterLoop::KeepLeastViolation() {
  if (!(current_.c_squared < least_c_squared_)) return;
  least_c_squared_ = current_.c_squared;
  least_at_ = Least::kCurrent;
  least_ = SavedPoint();
}

// start_ <- current_, first moving the least-violation point out of start_.
void OuterLoop::SaveStart() {
  if (least_at_ == Least::kStart) std::swap(least_, start_), least_at_ = Least::kStored;
  start_.Save(current_);
  if (least_at_ == Least::kCurrent) least_at_ = Least::kStart;
}

// current_ is about to become another point: keep it if it is the least.
void OuterLoop::LeaveCurrent() {
  if (least_at_ == Least::kCurrent) least_.Save(current_), least_at_ = Least::kStored;
}

// Back to the least-violation outer iterate, when it is not the current one
// and its derivatives can be evaluated again (they always could there).
void OuterLoop::RestoreLeastViolation() {
  if (!(least_c_squared_ < current_.c_squared)) return;
  Restore(least_at_ == Least::kStart ? start_ : least_);
}

// current_ <- the saved point, evaluated again; false (current_ unchanged)
// when its derivatives fail now.
bool OuterLoop::Restore(const SavedPoint& point) {
  if (!spare_.x.size()) q_.Allocate(&spare_);
  if (!point.Restore(&q_, &spare_)) return false;
  SwapIterates(&current_, &spare_);
  return true;
}

// Keeps x_{k+1} and beta_k for the extrapolation of the next start.
void OuterLoop::RememberSolution() {
  if (!options_.extrapolate) return;
  previous_z_.swap(last_z_);
  previous_beta_ = last_beta_;
  last_z_ = current_.x;
  last_beta_ = q_.merit().beta();
}

// x(beta) ~ x* + v / beta along the penalty path: from the last two
// solutions, predict x(beta_k) and take it when it lowers Q_{beta_k}.
void OuterLoop::TryExtrapolation() {
  if (previous_z_.size() == 0 || last_z_.size() == 0) return;
  const double beta = q_.merit().beta();
  const double s = (1.0 / beta - 1.0 / last_beta_) / (1.0 / last_beta_ - 1.0 / previous_beta_);
  if (!spare_.x.size()) q_.Allocate(&spare_);
  spare_.x = last_z_ + s * (last_z_ - previous_z_);
  q_.layout().Project(spare_.x);
  if (!q_.EvaluateValues(&spare_) || !(spare_.Q(beta) < current_.Q(beta))) return;
  if (!q_.EvaluateDerivatives(&spare_)) return;
  LeaveCurrent();
  SwapIterates(&current_, &spare_);
  ++summary_.extrapolations;
}

// A runaway at a feasible point, as the mode says (RunawayTest::Feasible).
// Followed: x_{k+1} = the runaway point (its Q is below the start's, so
// (2.3) holds), beta and lambda unchanged, and the subproblems from there
// run without the f test.
RunawayTest::Feasible OuterLoop::OnFeasibleRunaway(double q_start, const InnerSummary& inner) {
  if (inner.runaway_c_norm > options_.termination.constr_viol_tol) {
    return RunawayTest::Feasible::kRestart;
  }
  const RunawayTest::Feasible what = method_.runaway->OnFeasibleRunaway(
      inner, options_.diverging_iterates_tol, following_descent_);
  if (what == RunawayTest::Feasible::kFollow) {
    following_descent_ = true;
    summary_.outer.back().followed = true;
    Record(k_, q_start, inner);
  }
  return what;
}

// A runaway subproblem (docs/algorithm.md, "Runaway subproblems") returns
// its start, x_{k+1} = x_start, which keeps (2.3), and beta grows by the
// runaway factor; false once the restarts are used up or the runaways say
// the objective is unbounded below on the feasible set.
bool OuterLoop::RestartAfterRunaway(double q_start, const InnerSummary& inner) {
  const bool restored = Restore(start_);  // x_{k+1} = x_k
  InnerSummary restart = inner;
  restart.tau = method_.tolerance->Tolerance()(current_.c_norm());
  Record(k_, q_start, restart);
  if (!restored || runaway_restarts_++ >= options_.max_runaway_restarts) return false;
  if (inner.runaway_objective && inner.runaway_c_norm <= options_.termination.constr_viol_tol) {
    ++feasible_runaways_;
  }
  if (method_.runaway->Unbounded(feasible_runaways_)) return false;
  q_.merit().set_beta(q_.merit().beta() * method_.penalty->runaway_factor());
  return true;
}

InnerSummary OuterLoop::SolveSubproblem() {
  InnerControl control;
  method_.tolerance->Start(current_);
  control.tolerance = method_.tolerance->Tolerance();
  control.reduce = &q_.layout().reduce();
  control.solves_problem = [this](Iterate* x) {
    return method_.convergence->EndsSubproblem(q_, *x) ||
           method_.multipliers->EndsSubproblem(*method_.convergence, &q_, x);
  };
  control.max_iterations = options_.max_inner_iter - iterations_;
  control.deadline = &deadline_;
  control.stall_rounding = options_.stall_rounding;
  control.max_abs_z = options_.diverging_iterates_tol;
  control.relative_radius_cap = following_descent_;
  if (runaway_restarts_ < options_.max_runaway_restarts) {
    const double kappa = options_.runaway_violation_factor;
    control.max_violation = kappa * std::max(current_.c_norm(), 1.0);
    if (!following_descent_) control.min_objective = current_.f - kappa * std::max(std::abs(current_.f), 1.0);
    method_.runaway->SetLimits(current_, kappa, &control);
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
  r.beta = q_.merit().beta();
  r.f = UserObjective(current_.f);
  r.c_norm = current_.c_norm();
  r.grad_q_norm = current_.grad_q_norm;
  r.tau = inner.tau;
  r.violation_stationarity = ViolationStationarity(q_, current_, q_.workspace());
  r.q_start = q_start;
  r.q_end = current_.Q(q_.merit().beta());
  r.inner_status = inner.status;
  r.inner_iterations = inner.iterations;
  r.q_evals = q_.counts().q_evals;
  r.grad_evals = q_.counts().grad_evals;
  r.hess_evals = q_.counts().hess_evals;
  r.hess_products = q_.counts().hess_products;
  r.factorizations = inner_->factorizations();
  if (callbacks_.on_outer_iteration) callbacks_.on_outer_iteration(r);
}

bool OuterLoop::Notify(const Iterate& x, const StepInfo& step) {
  if (!callbacks_.on_iteration) return true;
  IterationInfo info;
  info.iter = iterations_;
  info.k = k_;
  info.beta = q_.merit().beta();
  info.f = UserObjective(x.f);
  info.c_norm = x.c_norm();
  info.c_max = MaxNorm(q_.layout().reduce(), x.c);
  info.grad_q_norm = x.grad_q_norm;
  info.grad_q_max = MaxNorm(q_.layout().reduce(), x.grad_q);
  info.tau = method_.tolerance->Tolerance()(info.c_norm);
  info.step = step;
  return callbacks_.on_iteration(info);
}

// The summary, moved out: the loop ends with it.
Summary OuterLoop::Finish(TerminationType type, const std::string& message) {
  Conclude(type, message);
  return std::move(summary_);
}

// summary_ final for `type`, from the current point.
void OuterLoop::Conclude(TerminationType type, const std::string& message) {
  summary_.termination = type;
  summary_.message = message;
  summary_.outer_iterations = static_cast<int>(summary_.outer.size());
  summary_.inner_iterations = iterations_;
  summary_.q_evals = q_.counts().q_evals;
  summary_.grad_evals = q_.counts().grad_evals;
  summary_.hess_evals = q_.counts().hess_evals;
  summary_.hess_products = q_.counts().hess_products;
  summary_.factorizations = inner_ ? inner_->factorizations() : 0;
  summary_.preconditioner = inner_ ? inner_->preconditioner() : "";
  inner_.reset();  // its work vectors go before the summary's are made (peak memory)
  summary_.cpu_time = CpuSeconds() - start_cpu_;
  summary_.beta = q_.merit().beta();
  const bool have_point = type != TerminationType::kInvalidOptions &&
                          type != TerminationType::kInvalidNumberAtStart;
  if (!have_point) {
    summary_.g.setZero(q_.layout().m());
    summary_.c.setZero(q_.layout().m());
    summary_.lambda.setZero(q_.layout().m());
    summary_.z_l.setZero(q_.layout().n_x());
    summary_.z_u.setZero(q_.layout().n_x());
    return;
  }
  // A runaway restart grew beta for a subproblem that never came.
  if (type == TerminationType::kMaxOuterIterations && !summary_.outer.empty()) {
    summary_.beta = summary_.outer.back().beta;
  }
  q_.merit().set_beta(summary_.beta);
  SetZeroLarge(&summary_.x, q_.layout().n_x());
  summary_.x = current_.x.head(q_.layout().n_x());
  summary_.g = current_.g;
  summary_.c = current_.c;
  q_.merit().FirstOrderMultipliers(current_, &summary_.lambda);
  summary_.f = current_.f;
  summary_.c_norm = current_.c_norm();
  summary_.c_max = MaxNorm(q_.layout().reduce(), current_.c);
  q_.merit().FormGradient(&current_);
  summary_.grad_q_norm = current_.grad_q_norm;
  BoundMultipliers();
  summary_.grad_q_max = 0.0;  // ||grad_x Q - z_l + z_u||_inf, no temporary
  for (int i = 0; i < q_.layout().n_x(); ++i) {
    const double r = current_.grad_q[i] - summary_.z_l[i] + summary_.z_u[i];
    summary_.grad_q_max = std::max(summary_.grad_q_max, std::abs(r));
  }
  summary_.grad_q_max = q_.layout().reduce().Max(summary_.grad_q_max);
}

// Ipopt's bound multipliers from the x part of grad Q = grad f + J^T lambda:
// an entry on a bound whose gradient points out of the box (the entries the
// stationarity measure drops) gives that bound's multiplier (z >= 0), so that
// grad f + J^T lambda - z_L + z_U vanishes there.
void OuterLoop::BoundMultipliers() {
  const int n = q_.layout().n_x();
  SetZeroLarge(&summary_.z_l, n);
  SetZeroLarge(&summary_.z_u, n);
  if (!q_.layout().has_bounds()) return;
  for (int i = 0; i < n; ++i) {
    const double g = current_.grad_q[i];
    const double z = current_.x[i];
    if (g > 0.0 && z <= q_.layout().lower()[i]) summary_.z_l[i] = g;
    if (g < 0.0 && z >= q_.layout().upper()[i]) summary_.z_u[i] = -g;
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
      x0.size() != problem->num_variables() || problem->distributed()) {
    OuterLoop loop(problem, options, callbacks, start_cpu, deadline, lambda0, nullptr);
    return loop.Run(x0);
  }
  ScaledProblem scaled(problem, options.scaling);
  const bool evaluated = problem->AnyVariableBound() ? scaled.Compute(ProjectedStart(*problem, x0))
                                                     : scaled.Compute(x0);
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
  // A distributed model keeps its fixed variables as bounds l = u.
  if (problem->distributed() || !FixedVariables::Any(*problem)) {
    return SolveScaledOrNot(problem, x0, options, callbacks, lambda0, start_cpu, deadline);
  }
  FixedVariables reduced(problem);
  Summary summary = SolveScaledOrNot(&reduced, reduced.Reduce(x0), options, callbacks, lambda0,
                                     start_cpu, deadline);
  reduced.Expand(x0, &summary);
  return summary;
}

}  // namespace qpm
