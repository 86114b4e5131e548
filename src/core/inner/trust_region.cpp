#include "core/inner/trust_region.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/linalg/hash_bits.hpp"
#include "core/linalg/huge_pages.hpp"

namespace qpm {

TrustRegion::TrustRegion(const TrustRegionOptions& options, PenaltyFunction* q)
    : options_(options),
      q_(q),
      // With a box the active-set step's CG runs, else cg_; the one that runs
      // borrows the penalty's workspace for H d (workspace.hpp: nothing in a
      // CG step uses it).
      cg_(q->layout().has_bounds() ? 0 : q->layout().n(),
          q->layout().has_bounds() ? nullptr : &q->workspace()->z, q->layout().reduce()),
      active_set_(q->layout().has_bounds() ? q->layout().n() : 0, options,
                  q->layout().has_bounds() ? &q->workspace()->z : nullptr, q->layout().reduce()),
      radius_(FirstRadius(options, q->layout())),
      // No jump with a box (TrustRegionOptions::exact_ratio): -1 never holds.
      exact_ratio_(q->layout().has_bounds() ? -1.0 : options.exact_ratio),
      max_radius_(options.max_radius),
      // Without a box only (the active-set step's faces have their own
      // factorizations): docs/algorithm.md, "The lowered shift".
      shift_lowering_trials_(q->layout().has_bounds() ? 0 : options.shift_lowering_trials),
      preconditioner_(MakePreconditioner(options, q)),
      size_(static_cast<int>(Count(q->layout().reduce(), q->layout().n()))) {
  cg_.Reserve(preconditioner_.get());
  active_set_.Reserve(preconditioner_.get());
  q_->Allocate(&trial_);
  step_.resize(q_->layout().n());
  AdviseHugePages(step_.data(), sizeof(double) * step_.size());
  if (q_->layout().has_bounds()) {
    step_lower_.resize(q_->layout().n());
    step_upper_.resize(q_->layout().n());
  }
  hessian_ = [this](const Vector& v, Vector* hv) { q_->HessianProduct(*at_, v, hv); };
  shifted_hessian_ = [this](const Vector& v, Vector* hv) {
    q_->HessianProduct(*at_, v, hv);
    *hv += shift_ * v;
  };
  // An unresolved kModeDefault (a trust region built outside Solve) is the
  // default mode's, as for the preconditioner.
  const bool correct = options.correction != CorrectionKind::kNone && q_->layout().m() > 0;
  correct_ = correct ? &TrustRegion::SecondOrderCorrection : &TrustRegion::NoCorrection;
  const bool gauss_newton = options.gauss_newton_after_shift && !q_->layout().has_bounds();
  trial_hessian_ = gauss_newton ? &TrustRegion::HessianAfterShift : &TrustRegion::ExactHessian;
  if (correct) linear_residual_.resize(q_->layout().m());
}

// Delta_0: tr.initial_radius, or where it is 0 (the default mode's) the whole
// step without a box, the paper's 1 with one: there the step's length also
// decides how many bounds the projected search meets at once, as for the
// jump to Delta_max (docs/algorithm.md, "The first radius").
double TrustRegion::FirstRadius(const TrustRegionOptions& options, const SlackLayout& layout) {
  if (options.initial_radius > 0.0) return options.initial_radius;
  return layout.has_bounds() ? kPapersInitialRadius : options.max_radius;
}

// W is evaluated at a trial point before it is accepted: when the model
// cannot give it there, the trial is rejected and the radius shrunk, as
// Ipopt cuts back its step on an evaluation error. W at the subproblem's
// first point (it depends on beta) failing ends the subproblem.
InnerSummary TrustRegion::Minimize(const InnerControl& control, Iterate* x) {
  if (RadiusCollapsedAt(*x) && q_->layout().reduce().Any(HashBits(x->x) != last_end_)) {
    radius_ = FirstRadius(options_, q_->layout());
  }
  const InnerSummary summary = Steps(control, x);
  last_end_ = HashBits(x->x);
  return summary;
}

InnerSummary TrustRegion::Steps(const InnerControl& control, Iterate* x) {
  InnerSummary summary;
  StallMonitor monitor = NewStallMonitor(control, *x);
  bool hessian_current = false;  // W at x for this beta
  bool preconditioner_current = false;
  int rejected = 0;
  collapsed_ = 0, capped_ = 0, release_streak_ = 0;
  cap_scale_ = 1.0;
  rejected_here_ = false;
  while (!CheckStop(control, x, &summary)) {
    if (!hessian_current) {
      if (!q_->EvaluateHessian(*x)) {
        summary.status = InnerStatus::kEvaluationError;  // no model without W
        return summary;
      }
      hessian_current = true, preconditioner_current = false;
    }
    if (!preconditioner_current && preconditioner_ && !preconditioner_->Update(*x)) {
      summary.status = InnerStatus::kStalled;
      return summary;
    }
    if (!preconditioner_current) SetModel(*x);
    at_ = x;
    preconditioner_current = true;
    max_radius_ = cap_scale_ * (control.relative_radius_cap ? RelativeCap(*x) : options_.max_radius);
    StepInfo step;
    const bool stepped = TryStep(*x, &step);
    if (control.stop_at_shifted_model && preconditioner_ && preconditioner_->Shifted()) {
      summary.status = InnerStatus::kIterationLimit;  // x: the last accepted point
      summary.shifted_model = true;
      return summary;
    }
    const bool accepted = stepped && HessianAtTrial(control, &hessian_current);
    if (!accepted) {
      ++rejected;
      rejected_here_ = true;
      last_rejection_failed_ = last_trial_failed_;
      if (radius_ < options_.min_radius || below_resolution_) {
        summary.status = InnerStatus::kStalled;
        summary.evaluation_failed = last_rejection_failed_;
        return summary;
      }
      continue;
    }
    step.backtracks = rejected;
    step.below_ulp = below_ulp_;
    rejected = 0;
    release_streak_ = last_cauchy_freed_ ? release_streak_ + 1 : 0;
    SwapIterates(x, &trial_);
    preconditioner_current = false;
    if (RadiusCollapsed(*x)) {  // at a kink, or held back by failing trials
      summary.status = InnerStatus::kStalled;
      summary.evaluation_failed = last_rejection_failed_;
      return summary;
    }
    if (RadiusCapped(step.step_norm)) {
      summary.status = InnerStatus::kRunaway;
      summary.runaway_c_norm = x->c_norm();
      summary.runaway_objective = true;
      summary.runaway_z_max = MaxNorm(q_->layout().reduce(), x->x);
      return summary;
    }
    if (ReportStep(control, *x, step, &monitor, &summary) ||
        (below_resolution_ && !CheckStop(control, x, &summary))) {
      if (summary.status == InnerStatus::kConverged) summary.status = InnerStatus::kStalled;
      summary.evaluation_failed = summary.status == InnerStatus::kStalled && last_rejection_failed_;
      return summary;
    }
  }
  return summary;
}

// The steps at a new point model Q by H + sigma I, sigma the preconditioner's
// StepShift: where H is indefinite on the face, Ipopt's convexified Newton
// step (W + delta_w I; Waechter & Biegler 2006, Sec. 3.1) instead of CG
// following negative curvature to the ball (docs/algorithm.md, "The Newton
// path: a sparse Cholesky of W + beta J_z^T J_z", Inertia). sigma = 0 without
// a factorizing preconditioner (the paper's QPM-TR: H itself). Without a
// box the preconditioner may lower sigma toward the trust-region step at
// the current radius (docs/algorithm.md, "The lowered shift").
void TrustRegion::SetModel(const Iterate& x) {
  shift_ = preconditioner_ ? preconditioner_->LowerStepShift(x.grad_q, radius_, shift_lowering_trials_,
                                                             options_.shift_lowering_factor)
                           : 0.0;
  model_ = shift_ > 0.0 ? &shifted_hessian_ : &hessian_;
}

// The Newton window and gradient drop while the preconditioner is exact
// (auto may switch to cholesky during the solve), else stall_window and any
// new low.
StallMonitor TrustRegion::NewStallMonitor(const InnerControl& control, const Iterate& x) const {
  const bool newton = preconditioner_ && preconditioner_->exact();
  return StallMonitor(newton ? options_.newton_stall_window : options_.stall_window,
                      control.stall_rounding, x, q_->merit().beta(),
                      newton ? options_.newton_stall_gradient_drop : 1.0,
                      newton ? options_.newton_stall_window : 0);
}

// max_radius * max(1, ||z||_inf): the relative Delta_max (trust_region.hpp).
double TrustRegion::RelativeCap(const Iterate& x) const {
  return options_.max_radius * std::max(1.0, MaxNorm(q_->layout().reduce(), x.x));
}

// A subproblem starts from the radius the last one left, unless that one
// collapsed (below collapsed_radius * max(1, ||z||_inf): a stall at the
// rounding floor, "Stalls at the rounding floor") and the subproblem starts
// elsewhere than the last one ended (the second start from x_0, where every
// step fell below the resolution of z and the start stalled at once;
// docs/algorithm.md, "The first radius"). From the same point a collapsed
// radius stays: there it is the floor a new subproblem would meet again.
bool TrustRegion::RadiusCollapsedAt(const Iterate& x) const {
  const double scale = std::max(1.0, MaxNorm(q_->layout().reduce(), x.x));
  return radius_ < options_.collapsed_radius * scale;
}

// TrustRegionOptions::collapsed_radius: many accepted steps in a row with a
// radius far below the scale of z (rejected trials shrink it to min_radius).
bool TrustRegion::RadiusCollapsed(const Iterate& x) {
  if (options_.collapsed_window <= 0) return false;
  collapsed_ = RadiusCollapsedAt(x) ? collapsed_ + 1 : 0;
  return collapsed_ >= options_.collapsed_window;
}

// TrustRegionOptions::capped_radius_window.
bool TrustRegion::RadiusCapped(double step_norm) {
  if (options_.capped_radius_window <= 0) return false;
  capped_ = step_norm >= 0.99 * max_radius_ ? capped_ + 1 : 0;
  return capped_ >= options_.capped_radius_window;
}

// W at the trial point about to be accepted, unless (2.4) holds there and
// the subproblem ends with it (W would then be wasted: beta changes). On
// failure the radius shrinks and W at x must be evaluated again (the stored
// one was overwritten).
bool TrustRegion::HessianAtTrial(const InnerControl& control, bool* hessian_current) {
  if (trial_.grad_q_norm <= control.tolerance(trial_.c_norm())) {
    *hessian_current = false;  // not needed: the subproblem ends at the trial point
    return true;
  }
  q_->SamePointNext();  // right after the trial's derivatives (TryStep accepted it)
  *hessian_current = (this->*trial_hessian_)(trial_);
  last_trial_failed_ = !*hessian_current;
  if (!*hessian_current) {
    radius_ = options_.shrink_factor * std::min(radius_, Norm(q_->layout().reduce(), step_));
  }
  return *hessian_current;
}

// The model's W at an accepted trial (TrustRegionOptions::
// gauss_newton_after_shift, chosen once): W(lambda + beta c), or W(lambda)
// where the last factorization needed a shift: far from feasibility beta c_i
// Hess c_i makes H indefinite and says nothing of the solution, and the
// shift it calls for decays by a third a point (docs/algorithm.md, "The
// Gauss-Newton model after a shift").
bool TrustRegion::ExactHessian(const Iterate& x) { return q_->EvaluateHessian(x); }

bool TrustRegion::HessianAfterShift(const Iterate& x) {
  const bool shifted = preconditioner_ && preconditioner_->Shifted();
  return shifted ? q_->EvaluateGaussNewtonHessian(x) : q_->EvaluateHessian(x);
}

bool TrustRegion::TryStep(const Iterate& x, StepInfo* step) {
  const double g_norm = x.grad_q_norm;
  const double tol = std::min(options_.cg_relative_tol, std::sqrt(g_norm)) * g_norm;
  const int max_iter = CgBudget();
  CgPreconditioner* m = preconditioner_.get();
  const CgResult cg = q_->layout().has_bounds()
                          ? BoundedStep(x, tol, max_iter, m)
                          : cg_.Solve(*model_, x.grad_q, radius_, tol, max_iter, &step_, m);
  const double step_norm = Norm(q_->layout().reduce(), step_);
  // Converged inside the region or cut by a radius that shrank below the
  // spacing of the doubles around z: either way no step changes z.
  below_resolution_ = BelowResolution(x.x);
  step->step_size = radius_;
  step->step_norm = step_norm;
  trial_.x = x.x + step_;
  if (q_->layout().has_bounds()) SnapToBounds();
  double rho = Ratio(x, cg.model_decrease);
  bool accept = rho >= options_.eta_accept && derivatives_ready_;
  if (!accept && (this->*correct_)(x, cg.model_decrease, &rho)) {
    accept = rho >= options_.eta_accept && derivatives_ready_;
    corrections_ += accept;
  }
  UpdateRadius(accept ? rho : std::min(rho, 0.0), step_norm);
  return accept;
}

// After a rejected trial z + p whose residual exceeds its linearization
// c(z) + J_z p, the second-order error e = c(z + p) - c(z) - J_z p is
// removed as the step's own model would: q minimizes
// beta (J_z^T e).q + 1/2 q.H q (for large beta nearly the least-norm q with
// J_z q = -e) on the step's face inside the same ball, by CG with the same H
// and preconditioner, and z + p + q (projected on the box) is judged with
// p's predicted decrease (Nocedal & Wright, Numerical Optimization, 2nd ed.,
// Sec. 15.5; docs/algorithm.md, "Second-order correction"). A curved
// constraint otherwise limits tangential steps of Q_beta to the length at
// which beta/8 ||p.Hess(c) p||^2, absent from the model, outweighs the
// predicted decrease. Vectors: trial_'s gradient (not yet evaluated) holds
// beta J_z^T e, and trial_'s z holds q, then z + p + q.
bool TrustRegion::SecondOrderCorrection(const Iterate& x, double predicted, double* rho) {
  if (last_trial_failed_ || !std::isfinite(*rho)) return false;
  const Reductions& reduce = q_->layout().reduce();
  q_->jz().Times(x, step_, linear_residual_);
  linear_residual_ += x.c;
  if (trial_.c_squared <= SquaredNorm(reduce, linear_residual_)) return false;
  linear_residual_ = trial_.c - linear_residual_;  // e
  Vector& r = trial_.grad_q;
  q_->jz().TransposeTimes(x, linear_residual_, &r);
  r *= q_->merit().beta();
  const double tol = options_.cg_relative_tol * Norm(reduce, r);
  const int max_iter = CgBudget();
  CgPreconditioner* m = preconditioner_.get();
  Vector& q = trial_.x;
  if (m) preconditioner_->HoldFace(true);
  if (q_->layout().has_bounds()) {
    active_set_.CorrectOnFace(*model_, step_, radius_, tol, max_iter, &r, &q, m);
  } else {
    cg_.Solve(*model_, r, radius_, tol, max_iter, &q, m);
  }
  if (m) preconditioner_->HoldFace(false);
  q += x.x + step_;  // trial_.x = z + p + q
  if (q_->layout().has_bounds()) q_->layout().Project(trial_.x);
  step_ = trial_.x - x.x;
  *rho = Ratio(x, predicted);
  return true;
}

// True when every entry of the step is within resolution_steps spacings of
// the doubles around z_i: |p_i| <= resolution_steps eps_mach |z_i|.
bool TrustRegion::BelowResolution(const Vector& z) const {
  const double ulps = options_.resolution_steps * std::numeric_limits<double>::epsilon();
  bool above = false;
  for (int i = 0; i < z.size() && !above; ++i) above = std::abs(step_[i]) > ulps * std::abs(z[i]);
  return !q_->layout().reduce().Any(above);
}

// CG's iterations for a step: cg_max_iter (0: n), fewer while the
// preconditioner may still switch (Preconditioner::StepIterations).
int TrustRegion::CgBudget() const {
  const int max_iter = options_.cg_max_iter > 0 ? options_.cg_max_iter : size_;
  return preconditioner_ ? preconditioner_->StepIterations(max_iter) : max_iter;
}

// The step over the box l - z <= p <= u - z: TRON's active-set step
// (inner/active_set.hpp; Lin & More, SIAM J. Optim. 9, 1999, Sec. 3-4).
CgResult TrustRegion::BoundedStep(const Iterate& x, double tol, int max_iter,
                                  CgPreconditioner* preconditioner) {
  step_lower_ = q_->layout().lower() - x.x;
  step_upper_ = q_->layout().upper() - x.x;
  const ActiveSetResult result = active_set_.Solve(
      *model_, x.grad_q, step_lower_, step_upper_, radius_, tol, max_iter, &step_, preconditioner,
      release_streak_, preconditioner_ ? preconditioner_->Assembled() : nullptr, shift_,
      ReleaseRounds());
  last_cauchy_freed_ = result.cauchy_freed;
  return result.cg;
}

// Step 3 of the active-set step only where its faces are solved exactly
// (an exact preconditioner) and the model is H itself (no shift): its
// rounds minimize the model on the box, which is worth it where the model
// is convex and exact; a shifted model stands for a nonconvex Q, whose
// box minimizer may lie in another basin than the one the step is in.
int TrustRegion::ReleaseRounds() const {
  const bool exact = preconditioner_ && preconditioner_->exact() && shift_ == 0.0;
  return exact ? options_.release_rounds : 0;
}

// z + p in the box, and exactly on the bounds the step reached: z + (l - z)
// can differ from l in the last bit, which would leave that entry "free" a
// rounding error away from its bound at the next step.
void TrustRegion::SnapToBounds() {
  q_->layout().Project(trial_.x);
  for (int i = 0; i < step_.size(); ++i) {
    if (step_[i] <= step_lower_[i]) trial_.x[i] = q_->layout().lower()[i];
    if (step_[i] >= step_upper_[i]) trial_.x[i] = q_->layout().upper()[i];
  }
}

// rho = actual / predicted decrease. Where the predicted decrease is below
// the rounding noise of Q's values (value_noise max(1, |Q|): Q sums many
// rounded terms, so a difference of values has no trustworthy sign there and
// would shrink the radius for steps that did decrease Q), the actual decrease
// is measured from gradients instead, by the trapezoidal rule
// -(g + g_trial).p / 2, exact for quadratics; this is the trust-region twin of
// the line search's Hager-Zhang test (docs/algorithm.md, "Why the trust region
// accepts a rise of Q up to 1e-10 max(1, |Q|)").
double TrustRegion::Ratio(const Iterate& x, double predicted) {
  derivatives_ready_ = false;
  last_trial_failed_ = !q_->EvaluateValues(&trial_);
  if (last_trial_failed_) return -std::numeric_limits<double>::infinity();
  const double beta = q_->merit().beta();
  const double q0 = x.Q(beta);
  const double scale = std::max(1.0, std::abs(q0));
  below_ulp_ = predicted < std::numeric_limits<double>::epsilon() * scale;
  if (predicted > options_.value_noise * scale) {
    const double reg = options_.rho_regularization * scale;
    const double rho = (q0 - trial_.Q(beta) + reg) / (predicted + reg);
    if (rho < options_.eta_accept) return rho;
    q_->SamePointNext();  // right after the trial's values
    derivatives_ready_ = q_->EvaluateDerivatives(&trial_);
    last_trial_failed_ = !derivatives_ready_;
    return rho;
  }
  // Here a trial whose Q is HIGHER than Q(x) by up to value_noise * max(1,
  // |Q(x)|) (1e-10 by default) can still be accepted, on the gradients'
  // verdict. Why: Q = f + beta/2 ||c||^2 is a sum of many rounded terms, so
  // the computed Q carries an error of about (number of terms) eps_mach
  // (largest term), ~1e-10 |Q| at n ~ 1e4 (and more when f and beta/2 ||c||^2
  // nearly cancel). The predicted decrease is below that level, so the
  // difference Q(x) - Q(trial) is rounding noise of either sign: demanding
  // that it be >= 0 rejects good steps at random and shrinks the radius until
  // the solve stalls above tau. So values only refuse a rise that rounding
  // cannot explain; the decrease itself is measured by the trapezoidal rule
  // below, which has no cancellation. max(1, |Q|) keeps an absolute floor
  // where Q is near 0. Such a rise is below Q's resolution, so (2.3) holds up
  // to rounding, as with the line search's rounding_allowance. (Above this
  // level the ratio uses values, and with the defaults rho >= eta_accept
  // there implies actual >= eta_accept predicted - reg > 0, a true decrease:
  // rho_regularization (1e-13) is 1000 times below value_noise.)
  if (trial_.Q(beta) > q0 + options_.value_noise * scale) return 0.0;  // clearly worse
  q_->SamePointNext();  // right after the trial's values
  last_trial_failed_ = !q_->EvaluateDerivatives(&trial_);
  if (last_trial_failed_) return -std::numeric_limits<double>::infinity();
  derivatives_ready_ = true;
  const double actual = -0.5 * Dot(q_->layout().reduce(), x.grad_q + trial_.grad_q, step_);
  return predicted > 0.0 ? actual / predicted : 0.0;
}

// Expansion doubles the radius, or opens it to Delta_max where rho is 1 to
// rounding with an exact preconditioner and no box
// (TrustRegionOptions::exact_ratio); with an exact preconditioner a good
// step at Delta_max raises the cap (TrustRegionOptions::cap_growth).
void TrustRegion::UpdateRadius(double rho, double step_norm) {
  if (rho < options_.eta_shrink) {
    radius_ = options_.shrink_factor * std::min(radius_, step_norm);
  } else if (rho > options_.eta_expand && step_norm >= 0.99 * radius_) {
    if (radius_ >= max_radius_ && preconditioner_ && preconditioner_->exact()) {
      cap_scale_ *= options_.cap_growth;
      max_radius_ *= options_.cap_growth;
    }
    radius_ = std::min(options_.expand_factor * radius_, max_radius_);
    if (std::abs(rho - 1.0) <= exact_ratio_ && !rejected_here_ && preconditioner_ &&
        preconditioner_->exact()) {
      radius_ = max_radius_;
    }
  }
}

}  // namespace qpm
