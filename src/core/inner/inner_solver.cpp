// Shared steps of the inner solvers (inner_solver.hpp): stopping tests,
// step reporting, the stall monitor, clocks and deadlines.
#include "core/inner/inner_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <thread>

#include "core/inner/barrier_newton.hpp"
#include "core/inner/gradient_descent.hpp"
#include "core/inner/lbfgs.hpp"
#include "core/inner/trust_region.hpp"

namespace qpm {

const char* ToString(InnerStatus status) {
  switch (status) {
    case InnerStatus::kConverged: return "converged";
    case InnerStatus::kIterationLimit: return "iteration limit";
    case InnerStatus::kTimeLimit: return "time limit";
    case InnerStatus::kStalled: return "stalled";
    case InnerStatus::kUserStop: return "user stop";
    case InnerStatus::kEvaluationError: return "evaluation error";
    case InnerStatus::kRunaway: return "runaway";
  }
  return "unknown";
}

double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

namespace {
double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

CpuDeadline::CpuDeadline(double deadline, double wall_seconds)
    : deadline_(deadline),
      threads_(std::max(1u, std::thread::hardware_concurrency())),
      wall_deadline_(wall_seconds > 0.0 ? SteadySeconds() + wall_seconds
                                        : std::numeric_limits<double>::infinity()) {}

bool CpuDeadline::Passed() {
  if (!shared_) return PassedHere();
  next_read_ = 0.0;
  const bool passed = shared_->Any(PassedHere());
  wall_passed_ = shared_->Any(wall_passed_);
  return passed;
}

bool CpuDeadline::PassedHere() {
  const double now = SteadySeconds();
  if (now > wall_deadline_) return wall_passed_ = true;
  if (now < next_read_) return false;
  const double remaining = deadline_ - CpuSeconds();
  next_read_ = now + std::max(remaining, 0.0) / threads_;
  return remaining < 0.0;
}

void SwapIterates(Iterate* a, Iterate* b) {
  a->x.swap(b->x);
  std::swap(a->f, b->f);
  a->g.swap(b->g);
  a->c.swap(b->c);
  std::swap(a->c_squared, b->c_squared);
  std::swap(a->lambda_c, b->lambda_c);
  a->grad_f.swap(b->grad_f);
  a->jacobian_values.swap(b->jacobian_values);
  std::swap(a->jacobian_pattern, b->jacobian_pattern);
  std::swap(a->jacobian_slot, b->jacobian_slot);
  a->grad_q.swap(b->grad_q);
  std::swap(a->grad_q_norm, b->grad_q_norm);
}

bool CheckStop(const InnerControl& control, Iterate* x, InnerSummary* summary) {
  summary->tau = control.tolerance(x->c_norm());
  if (x->grad_q_norm <= summary->tau ||
      (control.solves_problem && control.solves_problem(x))) {  // (2.4), or the solve's own test
    summary->status = InnerStatus::kConverged;
  } else if (summary->iterations >= control.max_iterations) {
    summary->status = InnerStatus::kIterationLimit;
  } else if (control.deadline && control.deadline->Passed()) {
    summary->status = InnerStatus::kTimeLimit;
  } else {
    return false;
  }
  return true;
}

StallMonitor::StallMonitor(long window, double rounding, const Iterate& x, double beta,
                           double gradient_drop, long below_ulp_window)
    : window_(window),
      rounding_(rounding),
      gradient_drop_(gradient_drop),
      beta_(beta),
      best_grad_(x.grad_q_norm),
      best_q_(x.Q(beta)),
      below_ulp_window_(below_ulp_window) {}

bool StallMonitor::Stalled(const Iterate& x, bool below_ulp) {
  const double q = x.Q(beta_);
  bool progress = false;
  const bool new_low = x.grad_q_norm < gradient_drop_ * best_grad_;
  below_ulp_ = below_ulp && !new_low ? below_ulp_ + 1 : 0;
  if (below_ulp_window_ > 0 && below_ulp_ >= below_ulp_window_) return true;
  if (new_low) best_grad_ = x.grad_q_norm, progress = true;
  if (q < best_q_ - rounding_ * std::abs(best_q_)) best_q_ = q, progress = true;
  ++steps_;
  if (progress) last_progress_ = steps_;
  // Slow but real progress makes new lows at a steady rate; a random walk in
  // the noise makes them ever more rarely. So the window grows with the
  // subproblem: stalled once the drought outlasts everything before it.
  const long drought = steps_ - last_progress_;
  return drought >= std::max(window_, last_progress_);
}

namespace {
// ||c|| far beyond the subproblem's start or |z| beyond Ipopt's divergence
// limit (Options::runaway_violation_factor). ||c|| is cached (O(1)); the
// max-norm of z is O(n), as the step itself.
bool RanAway(const InnerControl& control, const Iterate& x) {
  if (x.c_norm() > control.max_violation) return true;
  const bool f_low = x.f < control.min_objective;
  if (!f_low && control.max_abs_z == std::numeric_limits<double>::infinity()) return false;
  const double z_max = MaxNorm(*control.reduce, x.x);
  return (f_low && z_max >= control.objective_runaway_min_z) || z_max > control.max_abs_z;
}
}  // namespace

bool ReportStep(const InnerControl& control, const Iterate& x, const StepInfo& step,
                StallMonitor* monitor, InnerSummary* summary) {
  ++summary->iterations;
  summary->tau = control.tolerance(x.c_norm());
  if (control.on_iteration && !control.on_iteration(x, step)) {
    summary->status = InnerStatus::kUserStop;
    return true;
  }
  if (RanAway(control, x)) {
    summary->status = InnerStatus::kRunaway;
    summary->runaway_c_norm = x.c_norm();
    summary->runaway_objective = x.f < control.min_objective;
    summary->runaway_z_max = MaxNorm(*control.reduce, x.x);
    return true;
  }
  if (monitor->Stalled(x, step.below_ulp)) {
    summary->status = InnerStatus::kStalled;
    return true;
  }
  return false;
}

namespace {

// Entries of z with a finite bound.
long BoundedEntries(const SlackLayout& layout) {
  if (!layout.has_bounds()) return 0;
  long count = 0;
  for (int i = 0; i < layout.n(); ++i) {
    count += std::isfinite(layout.lower()[i]) || std::isfinite(layout.upper()[i]) ? 1 : 0;
  }
  return count;
}

// z moved by 1% of max(1, |z_i|) in each entry of x, inward where a bound
// is that near (a layout with bounds: InteriorFirst counts them first).
Vector MovedInside(const SlackLayout& layout, const Vector& z) {
  Vector moved = z;
  for (int i = 0; i < layout.n_x(); ++i) {
    const double step = 0.01 * std::max(1.0, std::abs(z[i]));
    const double l = layout.lower()[i], u = layout.upper()[i];
    moved[i] = z[i] + step <= u ? z[i] + step : std::max(l, std::min(u, z[i] - step));
  }
  return moved;
}

// Whether the rows are curved on their own scale: the Lagrangian's Hessian
// at MovedInside(z_0) with row weights y (1 to 2, so that no two rows cancel
// by symmetry) less the one with y = 0 (Hess f alone) has an entry above
// kRowCurvature times J's largest at z_0. AC power flow's rows are 30 to 50
// times their slope there, a semilinear PDE's 6e-6 to 7e-5 (docs/algorithm.md,
// "The interior start"). Two Hessian evaluations, counted; false where
// either fails.
constexpr double kRowCurvature = 1e-2;
bool RowsCurved(AssembledPenalty q, const Iterate& start) {
  PenaltyFunction& penalty = q.penalty();
  const int m = penalty.layout().m();
  if (m == 0 || start.jacobian_values.size() == 0) return false;
  Iterate moved;
  moved.x = MovedInside(penalty.layout(), start.x);
  if (!penalty.EvaluateHessianAt(moved, Vector::Zero(m))) return false;
  const SparseMatrix& w = q.hessian();
  const Vector f_only = Eigen::Map<const Vector>(w.valuePtr(), w.nonZeros());
  Vector y(m);
  for (int j = 0; j < m; ++j) y[j] = 1.0 + (j % 7) / 7.0;
  if (!penalty.EvaluateHessianAt(moved, y)) return false;
  const Vector rows = Eigen::Map<const Vector>(w.valuePtr(), w.nonZeros()) - f_only;
  const double slope = start.jacobian_values.lpNorm<Eigen::Infinity>();
  return rows.size() > 0 && rows.lpNorm<Eigen::Infinity>() > kRowCurvature * slope;
}

// TrustRegionOptions::interior_start_bounds: enough bounds and some rows
// for the interior start (where a row is curved) or the nonconvexity watch.
bool ManyBounds(const TrustRegionOptions& tr, const SlackLayout& layout) {
  return tr.interior_start_bounds > 0 && layout.m() > 0 &&
         BoundedEntries(layout) >= tr.interior_start_bounds;
}

}  // namespace

// Gradient descent, L-BFGS and the interior steps only on an assembled penalty (a distributed
// model is refused them before: outer/refusal.hpp).
std::unique_ptr<InnerSolver> MakeInnerSolver(const Options& options, PenaltyFunction* q,
                                             const Iterate& start) {
  if (options.inner_solver == InnerSolverType::kInterior && q->layout().has_bounds() && q->assembled()) {
    std::unique_ptr<CholeskyPreconditioner> factor = MakeFactorization(options.tr, *q->assembled());
    if (factor) return std::make_unique<BarrierNewton>(options.tr, *q->assembled(), std::move(factor));
  }
  if (options.inner_solver == InnerSolverType::kTrustRegion && q->layout().has_bounds() &&
      q->assembled() &&
      (options.tr.interior_switch_factorizations > 0.0 || options.tr.interior_switch_iterations > 0 ||
       options.tr.interior_start_bounds > 0) &&
      options.mode != Mode::kPaper) {
    const bool many = ManyBounds(options.tr, q->layout());
    const bool first = many && RowsCurved(*q->assembled(), start);
    return std::make_unique<SwitchingTrustRegion>(options.tr, *q->assembled(), first, many);
  }
  if (options.inner_solver == InnerSolverType::kTrustRegion ||
      options.inner_solver == InnerSolverType::kInterior) {
    return std::make_unique<TrustRegion>(options.tr, q);
  }
  const std::optional<AssembledPenalty> assembled = q->assembled();
  if (!assembled) return nullptr;
  if (options.inner_solver == InnerSolverType::kGradientDescent) {
    return std::make_unique<GradientDescent>(options.gd, *assembled);
  }
  return std::make_unique<Lbfgs>(options.lbfgs, *assembled);
}

}  // namespace qpm
