#include "core/inner/barrier_newton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/inner/preconditioner.hpp"

namespace qpm {

namespace {
constexpr double kMuMax = 0.1;        // Ipopt's mu_init
constexpr double kMuMin = 1e-11;      // Ipopt's mu_min
constexpr double kKappaEps = 10.0;    // Ipopt's barrier_tol_factor
constexpr double kKappaMu = 0.2;      // Ipopt's mu_linear_decrease_factor
constexpr double kThetaMu = 1.5;      // Ipopt's mu_superlinear_decrease_power
constexpr double kKappaSigma = 1e10;  // Ipopt's kappa_sigma
constexpr double kBoundPush = 1e-2;   // Ipopt's bound_push
// Ipopt's filter line search (Waechter & Biegler 2006, Sec. 2.3): theta_max_fact,
// theta_min_fact, gamma_theta, gamma_phi, s_theta, s_phi, delta and eta_phi.
constexpr double kThetaMaxFactor = 1e4;
constexpr double kThetaMinFactor = 1e-4;
constexpr double kGammaTheta = 1e-5;
constexpr double kGammaPhi = 1e-8;
constexpr double kSTheta = 1.1;
constexpr double kSPhi = 2.3;
constexpr double kSwitchDelta = 1.0;
constexpr double kEtaPhi = 1e-8;
constexpr int kMaxBacktracks = 40;
constexpr int kFaceSteps = 3;
constexpr int kStillSteps = 3;        // steps below resolution before a snap at any mu
// The factor's residual ratio above which it is numerically singular (Ipopt's
// residual_ratio_singular), and the shift floor of the interior steps'
// factorizations, relative to W's scale (docs/algorithm.md, "Interior steps
// on the bounds", The Newton system).
constexpr double kRatioSingular = 1e-5;
constexpr double kShiftFloor = 1e-12;
// Steps at one mu before the trust region takes over: a guard against a
// cycle, far above the tens of steps a barrier problem takes where the
// filter accepts full steps (docs/algorithm.md, "Interior steps on the bounds").
constexpr int kStepsPerMu = 1000;
// Steps in a row that neither lower Q below the steps' least nor halve the
// barrier problem's KKT error, after which mu falls as if that problem were
// solved (LowerMuAnyway), or at mu's floor the trust region takes over
// (docs/algorithm.md, "Interior steps on the bounds").
constexpr int kIdleSteps = 50;
constexpr double kInf = std::numeric_limits<double>::infinity();

bool Finite(double v) { return std::isfinite(v); }
}  // namespace

BarrierNewton::BarrierNewton(const TrustRegionOptions& options, AssembledPenalty q,
                             std::unique_ptr<CholeskyPreconditioner> factor, TrustRegion* finish)
    : q_(q),
      value_noise_(options.value_noise),
      own_finish_(finish ? nullptr : std::make_unique<TrustRegion>(options, &q.penalty())),
      finish_(finish ? finish : own_finish_.get()),
      factor_(std::move(factor)) {
  const int n = q_->layout().n();
  for (Iterate* it : {&trial_, &start_, &snap_, &best_}) q_->Allocate(it);
  for (Vector* v : {&lower_gap_, &upper_gap_, &v_lower_, &v_upper_, &sigma_, &rhs_, &dz_,
                    &dv_lower_, &dv_upper_, &dual_, &residual_, &correction_, &soc_dz_, &soc_rhs_}) {
    v->setZero(n);
  }
  for (Vector* v : {&lambda_, &y_, &dy_, &y_trial_, &jz_dz_, &soc_e_, &soc_dy_}) {
    v->setZero(q_->layout().m());
  }
  filter_.reserve(kStepsPerMu + 2);  // emptied when mu falls, at most one entry per step
  factor_->set_shift_floor(kShiftFloor);
}

InnerSummary BarrierNewton::Minimize(const InnerControl& control, Iterate* x) {
  InnerSummary summary;
  if (CheckStop(control, x, &summary)) return summary;
  const double beta = q_->merit().beta();
  const double q_start = x->Q(beta);
  start_ = *x;
  best_ = *x;
  mu_ = std::min(kMuMax, std::max(kMuMin, 0.1 * summary.tau));
  snapped_at_mu_ = kInf, still_ = 0, steps_at_mu_ = 0, idle_ = 0, kkt_mark_ = kInf;
  // (2.3): a point above Q's start is never returned.
  auto give_back = [&](InnerStatus status) {
    if (!(x->Q(beta) <= q_start)) *x = start_;
    summary.status = status;
    return summary;
  };
  if (!PushInside(x)) {  // x's cached values are stale: the trust region from the start
    *x = start_;
    return Finish(control, q_start, summary, x);
  }
  Gaps(x->x);
  StartMultipliers(start_.grad_q);
  if (q_->merit().has_multipliers()) lambda_ = q_->merit().multipliers();
  q_->merit().FirstOrderMultipliers(*x, &y_);  // r = c(z): theta = 0
  const double theta_start = std::max(1.0, Theta(*x, y_));
  theta_min_ = kThetaMinFactor * theta_start, theta_max_ = kThetaMaxFactor * theta_start;
  filter_.clear();
  bool restored = false;  // y was just reset to lambda + beta c(z)
  StallMonitor monitor(std::numeric_limits<long>::max() / 2, control.stall_rounding, *x, beta);
  while (true) {
    const bool try_snap = mu_ < snapped_at_mu_ || still_ >= kStillSteps;
    if (try_snap && SnapReady(control, *x)) {
      snapped_at_mu_ = mu_;
      const Snap snap = Snapped(control, q_start, *x);
      if (snap == Snap::kConverged) {
        SwapIterates(x, &snap_);
        summary.tau = control.tolerance(x->c_norm());
        summary.status = InnerStatus::kConverged;
        return summary;
      }
      if (snap == Snap::kMoved && (mu_ <= kMuMin || still_ >= kStillSteps)) {
        SwapIterates(x, &snap_);
        return Finish(control, q_start, summary, x);
      }
    }
    if (CheckStop(control, x, &summary)) {
      const bool above = !(x->Q(beta) <= q_start);  // (2.4) at a point (2.3) refuses
      if (summary.status == InnerStatus::kConverged && above) return Finish(control, q_start, summary, x);
      return give_back(summary.status);
    }
    const double mu_before = mu_;
    LowerMu(*x);
    steps_at_mu_ = mu_ < mu_before ? 0 : steps_at_mu_ + 1;
    if (mu_ < mu_before) kkt_mark_ = kInf;
    if (steps_at_mu_ > kStepsPerMu) return Finish(control, q_start, summary, x);
    if (!q_->EvaluateHessianAt(*x, y_)) return give_back(InnerStatus::kEvaluationError);
    StepInfo step;
    if (!Step(beta, x, &step.step_norm)) {
      if (restored || !(Theta(*x, y_) > theta_min_)) return Finish(control, q_start, summary, x);
      Restore(*x);
      restored = true;
      continue;
    }
    restored = false;
    const bool lower = x->Q(beta) < best_.Q(beta);
    if (lower) best_ = *x;
    if (Idle(*x, lower)) {
      if (mu_ <= kMuMin) return Finish(control, q_start, summary, x);  // no smaller mu
      LowerMuAnyway();
    }
    const double resolution = 1e-9 * std::max(1.0, x->x.lpNorm<Eigen::Infinity>());
    still_ = step.step_norm <= resolution ? still_ + 1 : 0;
    if (still_ >= 2 * kStillSteps) return Finish(control, q_start, summary, x);
    if (ReportStep(control, *x, step, &monitor, &summary)) return give_back(summary.status);
  }
}

// Moves z off its bounds by min(mu, bound_push max(1, |bound|)), at least
// a hundred ulps of the bound (so that the gap is not rounded to zero) and at
// most a third of the box's width, as Ipopt pushes its start.
bool BarrierNewton::PushInside(Iterate* x) {
  const SlackLayout& layout = q_->layout();
  auto push = [&](double bound, double third) {
    const double scale = std::max(1.0, std::abs(bound));
    const double floor = 100.0 * std::numeric_limits<double>::epsilon() * scale;
    return std::min(std::max(std::min(mu_, kBoundPush * scale), floor), third);
  };
  bool moved = false;
  for (int i = 0; i < layout.n(); ++i) {
    const double l = layout.lower()[i], u = layout.upper()[i], third = (u - l) / 3.0;
    double& z = x->x[i];
    const double push_l = push(l, third), push_u = push(u, third);
    if (Finite(l) && z < l + push_l) z = l + push_l, moved = true;
    if (Finite(u) && z > u - push_u) z = u - push_u, moved = true;
  }
  return !moved || (q_->EvaluateValues(x) && q_->EvaluateDerivatives(x));
}

void BarrierNewton::Gaps(const Vector& z) {
  lower_gap_ = z - q_->layout().lower();
  upper_gap_ = q_->layout().upper() - z;
}

// v = mu / gap, or the gradient where it pushes against the bound harder:
// the bounds the last subproblem ended on keep their multipliers.
void BarrierNewton::StartMultipliers(const Vector& grad_q) {
  for (int i = 0; i < dz_.size(); ++i) {
    v_lower_[i] = Finite(lower_gap_[i]) ? std::max(mu_ / lower_gap_[i], grad_q[i]) : 0.0;
    v_upper_[i] = Finite(upper_gap_[i]) ? std::max(mu_ / upper_gap_[i], -grad_q[i]) : 0.0;
  }
}

double BarrierNewton::Barrier(const Vector& z) const {
  const SlackLayout& layout = q_->layout();
  double barrier = 0.0;
  for (int i = 0; i < layout.n(); ++i) {
    if (Finite(layout.lower()[i])) barrier -= std::log(z[i] - layout.lower()[i]);
    if (Finite(layout.upper()[i])) barrier -= std::log(layout.upper()[i] - z[i]);
  }
  return barrier;
}

// ||c(z) - r||_1, r = (y - lambda) / beta: the relaxed subproblem's violation.
double BarrierNewton::Theta(const Iterate& it, const Vector& y) const {
  const double beta = q_->merit().beta();
  return (it.c - (y - lambda_) / beta).lpNorm<1>();
}

// f + lambda' r + beta/2 ||r||^2 + mu (barrier): Q_beta where r = c(z).
double BarrierNewton::Phi(const Iterate& it, const Vector& y) const {
  const double beta = q_->merit().beta();
  // lambda' r + beta/2 ||r||^2 = sum (y_j - lambda_j)(y_j + lambda_j) / (2 beta), entry by entry
  const double penalty = ((y - lambda_).array() * (y + lambda_).array()).sum() / (2.0 * beta);
  return it.f + penalty + mu_ * Barrier(it.x);
}

// grad phi . (dz, dy): grad_z phi = grad f + the barrier's, grad_r phi = y, dr = dy / beta.
double BarrierNewton::PhiSlope(const Iterate& x) const {
  const int n_x = q_->layout().n_x();
  double slope = x.grad_f.dot(dz_.head(n_x)) + y_.dot(dy_) / q_->merit().beta();
  for (int i = 0; i < dz_.size(); ++i) {
    if (Finite(lower_gap_[i])) slope -= mu_ / lower_gap_[i] * dz_[i];
    if (Finite(upper_gap_[i])) slope += mu_ / upper_gap_[i] * dz_[i];
  }
  return slope;
}

// The max-norm KKT error of Q over the box at z alone (2.4), the test a snap needs.
double BarrierNewton::BoxKktError(const Iterate& x) const {
  double e = 0.0;
  for (int i = 0; i < dz_.size(); ++i) {
    e = std::max(e, std::abs(x.grad_q[i] - v_lower_[i] + v_upper_[i]));
    if (Finite(lower_gap_[i])) e = std::max(e, lower_gap_[i] * v_lower_[i]);
    if (Finite(upper_gap_[i])) e = std::max(e, upper_gap_[i] * v_upper_[i]);
  }
  return e;
}

// A snap is worth its face steps where the box problem's KKT error is
// below tau: that of Q at z, or that of the relaxed problem at (z, y, v)
// (mu = 0). At a large beta, Q's gradient at z carries beta J_z^T (c(z) - r)
// with c's rounding in it, above tau where the relaxed problem is solved;
// the snap's Newton steps on Q take that last difference out.
bool BarrierNewton::SnapReady(const InnerControl& control, const Iterate& x) {
  const double tau = control.tolerance(x.c_norm());
  return BoxKktError(x) <= tau || KktError(x, 0.0) <= tau;
}

// The max-norm KKT error of the relaxed barrier problem at (z, y, v) and mu:
// grad f + J_z^T y - v_L + v_U, the complementarity's distance from mu, and
// c(z) - r.
double BarrierNewton::KktError(const Iterate& x, double mu) {
  const int n_x = q_->layout().n_x();
  dual_.head(n_x) = x.grad_f;
  q_->jz().TransposeTimesAdd(x, y_, &dual_);
  double e = (x.c - (y_ - lambda_) / q_->merit().beta()).lpNorm<Eigen::Infinity>();
  for (int i = 0; i < dz_.size(); ++i) {
    e = std::max(e, std::abs(dual_[i] - v_lower_[i] + v_upper_[i]));
    if (Finite(lower_gap_[i])) e = std::max(e, std::abs(lower_gap_[i] * v_lower_[i] - mu));
    if (Finite(upper_gap_[i])) e = std::max(e, std::abs(upper_gap_[i] * v_upper_[i] - mu));
  }
  return e;
}

double BarrierNewton::BarrierKktError(const Iterate& x) { return KktError(x, mu_); }

// Where the filter finds no step with theta above theta_min: r = c(z), that
// is y = lambda + beta c(z), makes theta 0 and phi Q plus the barrier, and a
// new filter starts. NCL's relaxed rows make this the whole restoration
// phase (Ipopt's, where its line search fails).
void BarrierNewton::Restore(const Iterate& x) {
  q_->merit().FirstOrderMultipliers(x, &y_);
  filter_.clear();
}

// Ipopt's monotone rule: mu <- max(mu_min, min(kappa_mu mu, mu^theta_mu))
// while the barrier problem at mu is solved to kappa_eps mu; a new mu
// starts a new filter (Ipopt's).
void BarrierNewton::LowerMu(const Iterate& x) {
  while (mu_ > kMuMin && BarrierKktError(x) <= kKappaEps * mu_) {
    mu_ = std::max(kMuMin, std::min(kKappaMu * mu_, std::pow(mu_, kThetaMu)));
    filter_.clear();
  }
}

// Whether kIdleSteps steps in a row have neither lowered Q below the
// steps' least (`lower`) nor brought the barrier KKT error at mu to half
// its mark (each new mu sets the mark afresh).
bool BarrierNewton::Idle(const Iterate& x, bool lower) {
  const double e = BarrierKktError(x);
  const bool halved = e <= 0.5 * kkt_mark_;
  if (halved) kkt_mark_ = e;
  idle_ = lower || halved ? 0 : idle_ + 1;
  return idle_ >= kIdleSteps;
}

// mu falls by Ipopt's factor kappa_mu though its barrier problem is not
// solved: where the steps stopped improving, that problem's minimizer is
// not the subproblem's (degenerate bounds put it mu / v inside), and a new
// filter starts.
void BarrierNewton::LowerMuAnyway() {
  mu_ = std::max(kMuMin, kKappaMu * mu_);
  filter_.clear();
  steps_at_mu_ = 0, idle_ = 0, kkt_mark_ = kInf;
}

// One Newton step on phi_mu; x moves to the accepted point, with values and
// derivatives, and *moved is the step's length. False when no shift makes
// the matrix positive definite or the search finds no decrease.
bool BarrierNewton::Step(double beta, Iterate* x, double* moved) {
  const int n = dz_.size();
  for (int i = 0; i < n; ++i) {
    const bool l = Finite(lower_gap_[i]), u = Finite(upper_gap_[i]);
    sigma_[i] = (l ? v_lower_[i] / lower_gap_[i] : 0.0) + (u ? v_upper_[i] / upper_gap_[i] : 0.0);
    rhs_[i] = -x->grad_q[i] + (l ? mu_ / lower_gap_[i] : 0.0) - (u ? mu_ / upper_gap_[i] : 0.0);
  }
  if (!factor_->FactorWithDiagonal(*x, sigma_)) return false;
  while (factor_->SolveRefined(rhs_, &dz_, &residual_, &correction_) > kRatioSingular) {
    if (!factor_->FactorWithLargerShift()) return false;  // singular to rounding: a larger shift
  }
  if (!dz_.allFinite()) return false;
  const double tau = std::max(0.99, 1.0 - mu_);  // Ipopt's tau_min
  q_->jz().Times(*x, dz_, jz_dz_);
  dy_ = beta * (x->c + jz_dz_) - (y_ - lambda_);  // y + dy = lambda + beta (c + J_z dz)
  const double alpha = Search(tau, x);
  if (!(alpha > 0.0)) return false;
  *moved = alpha * dz_.norm();  // dz_: the step taken, corrected or not
  double alpha_v = 1.0;
  for (int i = 0; i < n; ++i) {
    const bool l = Finite(lower_gap_[i]), u = Finite(upper_gap_[i]);
    dv_lower_[i] = l ? mu_ / lower_gap_[i] - v_lower_[i] - v_lower_[i] / lower_gap_[i] * dz_[i] : 0.0;
    dv_upper_[i] = u ? mu_ / upper_gap_[i] - v_upper_[i] + v_upper_[i] / upper_gap_[i] * dz_[i] : 0.0;
    if (dv_lower_[i] < 0.0) alpha_v = std::min(alpha_v, -tau * v_lower_[i] / dv_lower_[i]);
    if (dv_upper_[i] < 0.0) alpha_v = std::min(alpha_v, -tau * v_upper_[i] / dv_upper_[i]);
  }
  v_lower_ += alpha_v * dv_lower_;
  v_upper_ += alpha_v * dv_upper_;
  Gaps(x->x);
  ClampMultipliers();
  return true;
}

// The largest step in (0, 1] that keeps z the fraction 1 - tau of each gap
// away from its bound.
double BarrierNewton::FractionToBoundary(double tau) const {
  double alpha = 1.0;
  for (int i = 0; i < dz_.size(); ++i) {
    if (dz_[i] < 0.0 && Finite(lower_gap_[i])) alpha = std::min(alpha, -tau * lower_gap_[i] / dz_[i]);
    if (dz_[i] > 0.0 && Finite(upper_gap_[i])) alpha = std::min(alpha, tau * upper_gap_[i] / dz_[i]);
  }
  return alpha;
}

// Ipopt's filter line search on (theta, phi) from alpha, halving: a trial
// within theta_max and not dominated by the filter is taken by Armijo's
// test on phi where theta is small and the step's slope of phi outweighs it
// (the switching condition: an "f-type" step), else where it lowers theta or
// phi by a margin of theta, the filter then keeping the pair it beat. A
// trial that fails to evaluate is cut back as Ipopt does. The step taken, 0
// where none.
double BarrierNewton::Search(double tau, Iterate* x) {
  const double theta = Theta(*x, y_), phi = Phi(*x, y_), slope = PhiSlope(*x);
  double alpha = FractionToBoundary(tau);
  for (int k = 0; k < kMaxBacktracks; ++k, alpha *= 0.5) {
    trial_.x = x->x + alpha * dz_;
    if (!q_->EvaluateValues(&trial_)) continue;
    y_trial_ = y_ + alpha * dy_;
    bool f_type = false;
    const double theta_trial = Theta(trial_, y_trial_);
    if (Acceptable(theta, phi, slope, alpha, theta_trial, Phi(trial_, y_trial_), &f_type)) {
      if (Take(theta, phi, f_type, x)) return alpha;
      continue;
    }
    if (k > 0 || theta_trial < theta) continue;
    const double alpha_soc = Corrected(tau, alpha, *x);  // Ipopt's, on the first trial only
    if (alpha_soc > 0.0 && Acceptable(theta, phi, slope, alpha, Theta(trial_, y_trial_),
                                      Phi(trial_, y_trial_), &f_type) &&
        Take(theta, phi, f_type, x)) {
      dz_.swap(soc_dz_);
      dy_.swap(soc_dy_);
      return alpha_soc;
    }
  }
  return 0.0;
}

// trial_ (values evaluated, y_trial_ its y) becomes the iterate, with its
// derivatives; the filter keeps (theta, phi) after an h-type step.
bool BarrierNewton::Take(double theta, double phi, bool f_type, Iterate* x) {
  q_->SamePointNext();
  if (!q_->EvaluateDerivatives(&trial_)) return false;
  if (!f_type) filter_.push_back({(1.0 - kGammaTheta) * theta, phi - kGammaPhi * theta});
  SwapIterates(x, &trial_);
  y_.swap(y_trial_);
  return true;
}

// The second-order correction of a rejected first trial z + alpha dz (Ipopt's,
// Waechter & Biegler 2006, Sec. 2.4; the trust region's, "Second-order
// correction"): the rows' linearization error there, e = c(z + alpha dz) - c
// - alpha J_z dz, joins c in the Newton system's right side, so soc_dz_ =
// dz - beta H^-1 J_z^T e on the same factor, and y + soc_dy_ = lambda +
// beta (c + e + J_z soc_dz_). trial_ and y_trial_ are set at its fraction to
// the boundary, which is returned (0 where the solve or the evaluation fails).
double BarrierNewton::Corrected(double tau, double alpha, const Iterate& x) {
  const double beta = q_->merit().beta();
  soc_e_ = trial_.c - x.c - alpha * jz_dz_;
  soc_rhs_.setZero();
  q_->jz().TransposeTimesAdd(x, -beta, soc_e_, &soc_rhs_);
  if (factor_->SolveRefined(soc_rhs_, &soc_dz_, &residual_, &correction_) > kRatioSingular) return 0.0;
  soc_dz_ += dz_;
  if (!soc_dz_.allFinite()) return 0.0;
  q_->jz().Times(x, soc_dz_, y_trial_);  // J_z soc_dz_, y_trial_ as work
  soc_dy_ = beta * (x.c + soc_e_ + y_trial_) - (y_ - lambda_);
  dz_.swap(soc_dz_);
  const double alpha_soc = FractionToBoundary(tau);
  dz_.swap(soc_dz_);
  trial_.x = x.x + alpha_soc * soc_dz_;
  if (!q_->EvaluateValues(&trial_)) return 0.0;
  y_trial_ = y_ + alpha_soc * soc_dy_;
  return alpha_soc;
}

// Ipopt's acceptance of a trial (theta_trial, phi_trial) at step alpha from
// (theta, phi) with phi's slope; phi's rounding is allowed for.
bool BarrierNewton::Acceptable(double theta, double phi, double slope, double alpha,
                               double theta_trial, double phi_trial, bool* f_type) const {
  if (!(theta_trial <= theta_max_) || !Finite(phi_trial)) return false;
  const double noise = 1e-12 * std::max(1.0, std::abs(phi));
  for (const FilterEntry& e : filter_) {
    if (theta_trial >= e.theta && phi_trial >= e.phi) return false;
  }
  *f_type = theta <= theta_min_ && slope < 0.0 &&
            alpha * std::pow(-slope, kSPhi) > kSwitchDelta * std::pow(theta, kSTheta);
  if (*f_type) return phi_trial <= phi + kEtaPhi * alpha * slope + noise;
  return theta_trial <= (1.0 - kGammaTheta) * theta || phi_trial <= phi - kGammaPhi * theta + noise;
}

// Ipopt's safeguard: v_i in [mu / (kappa_sigma gap_i), kappa_sigma mu / gap_i].
void BarrierNewton::ClampMultipliers() {
  for (int i = 0; i < dz_.size(); ++i) {
    if (Finite(lower_gap_[i])) {
      v_lower_[i] = std::clamp(v_lower_[i], mu_ / (kKappaSigma * lower_gap_[i]),
                               kKappaSigma * mu_ / lower_gap_[i]);
    }
    if (Finite(upper_gap_[i])) {
      v_upper_[i] = std::clamp(v_upper_[i], mu_ / (kKappaSigma * upper_gap_[i]),
                               kKappaSigma * mu_ / upper_gap_[i]);
    }
  }
}

// snap_ = x with the bounds whose multiplier exceeds their gap snapped onto
// them, then Newton steps on that face: kConverged where (2.4) holds there
// and Q is not above the subproblem's start, kMoved where only the latter.
BarrierNewton::Snap BarrierNewton::Snapped(const InnerControl& control, double q_start,
                                           const Iterate& x) {
  const SlackLayout& layout = q_->layout();
  snap_ = x;
  for (int i = 0; i < layout.n(); ++i) {
    if (Finite(lower_gap_[i]) && v_lower_[i] > lower_gap_[i]) snap_.x[i] = layout.lower()[i];
    if (Finite(upper_gap_[i]) && v_upper_[i] > upper_gap_[i]) snap_.x[i] = layout.upper()[i];
  }
  if (!q_->EvaluateValues(&snap_) || !q_->EvaluateDerivatives(&snap_)) return Snap::kRefused;
  const double beta = q_->merit().beta();
  if (!(snap_.Q(beta) <= q_start)) return Snap::kRefused;  // (2.3)
  return FaceNewton(control, q_start, &snap_) ? Snap::kConverged : Snap::kMoved;
}

// (2.4) at x, or after up to kFaceSteps Newton steps on x's face (its
// bounds held; each projected on the box, kept where Q rises by no more
// than its rounding and stays at most q_start, (2.3)). A face whose H_FF is
// not positive definite takes no step.
bool BarrierNewton::FaceNewton(const InnerControl& control, double q_start, Iterate* x) {
  const SlackLayout& layout = q_->layout();
  const double beta = q_->merit().beta();
  auto solved = [&](Iterate* at) {  // (2.4), or the solve's own test (CheckStop's first branch)
    return at->grad_q_norm <= control.tolerance(at->c_norm()) ||
           (control.solves_problem && control.solves_problem(at));
  };
  for (int k = 0; k < kFaceSteps; ++k) {
    if (solved(x)) return true;
    for (int i = 0; i < layout.n(); ++i) {
      sigma_[i] = x->x[i] > layout.lower()[i] && x->x[i] < layout.upper()[i] ? 1.0 : 0.0;
      rhs_[i] = -sigma_[i] * x->grad_q[i];
    }
    if (!factor_->EvaluateAndFactor(*x, sigma_)) return false;
    factor_->Solve(rhs_, &dz_);
    trial_.x = x->x + dz_;
    layout.Project(trial_.x);
    if (!q_->EvaluateValues(&trial_)) return false;
    const double q = x->Q(beta), q_trial = trial_.Q(beta);
    if (q_trial > q + value_noise_ * std::max(1.0, std::abs(q)) || !(q_trial <= q_start)) return false;
    q_->SamePointNext();
    if (!q_->EvaluateDerivatives(&trial_)) return false;
    SwapIterates(x, &trial_);
  }
  return solved(x);
}

// The trust region for the rest of the subproblem's budget, from x, or from
// the lowest Q of the steps where that is lower (the filter lets Q rise), or
// from the subproblem's start where Q(x) is above it (2.3).
InnerSummary BarrierNewton::Finish(const InnerControl& control, double q_start,
                                   InnerSummary summary, Iterate* x) {
  const double beta = q_->merit().beta();
  if (best_.Q(beta) < x->Q(beta)) *x = best_;
  if (!(x->Q(beta) <= q_start)) *x = start_;
  InnerControl rest = control;
  rest.max_iterations = std::max(0L, control.max_iterations - summary.iterations);
  InnerSummary finished = finish_->Minimize(rest, x);
  finished.iterations += summary.iterations;
  return finished;
}

SwitchingTrustRegion::SwitchingTrustRegion(const TrustRegionOptions& options, AssembledPenalty q,
                                           bool interior_first, bool watch_shift)
    : options_(options), q_(q), trust_region_(options, &q.penalty()),
      watch_shift_(watch_shift && !interior_first) {
  if (interior_first) MakeInterior();
  if (watch_shift_) q_->Allocate(&start_);
}

void SwitchingTrustRegion::MakeInterior() {
  std::unique_ptr<CholeskyPreconditioner> factor = MakeFactorization(options_, q_);
  if (factor) interior_ = std::make_unique<BarrierNewton>(options_, q_, std::move(factor), &trust_region_);
  no_interior_ = !interior_;
}

// The trust region, for at most interior_switch_iterations steps while the
// interior steps may still take over; then, where its cost per step or the
// cut says so, the interior steps from here on, the cut subproblem's rest
// included.
InnerSummary SwitchingTrustRegion::Minimize(const InnerControl& control, Iterate* x) {
  if (interior_) return interior_->Minimize(control, x);
  const long before = trust_region_.factorizations();
  const long cap = options_.interior_switch_iterations;
  InnerControl first = control;
  if (cap > 0 && !no_interior_) first.max_iterations = std::min(control.max_iterations, cap);
  first.stop_at_shifted_model = watch_shift_ && !no_interior_;
  if (first.stop_at_shifted_model) start_ = *x;
  const InnerSummary summary = trust_region_.Minimize(first, x);
  if (summary.shifted_model) return RestartInterior(control, summary.iterations, x);
  if (summary.iterations > 0) watch_shift_ = false;  // the first subproblem that moved chose the path
  const double per_step = static_cast<double>(trust_region_.factorizations() - before) /
                          std::max(1L, summary.iterations);
  const bool costly = options_.interior_switch_factorizations > 0.0 && summary.iterations >= 3 &&
                      per_step > options_.interior_switch_factorizations;
  const bool cut = first.max_iterations < control.max_iterations &&
                   summary.status == InnerStatus::kIterationLimit;
  if ((costly || cut) && !no_interior_) MakeInterior();
  if (!cut) return summary;
  InnerControl rest = control;
  rest.max_iterations = control.max_iterations - summary.iterations;
  InnerSummary more = interior_ ? interior_->Minimize(rest, x) : trust_region_.Minimize(rest, x);
  more.iterations += summary.iterations;
  return more;
}

// The watched subproblem found Q nonconvex: it starts again from its start
// point on the interior steps, which keep the subproblems from here on;
// the trust region's steps stay counted.
InnerSummary SwitchingTrustRegion::RestartInterior(const InnerControl& control, long steps,
                                                   Iterate* x) {
  watch_shift_ = false;
  MakeInterior();
  *x = start_;
  InnerControl rest = control;
  rest.max_iterations = std::max(0L, control.max_iterations - steps);
  InnerSummary summary = interior_ ? interior_->Minimize(rest, x) : trust_region_.Minimize(rest, x);
  summary.iterations += steps;
  return summary;
}

long SwitchingTrustRegion::factorizations() const {
  return trust_region_.factorizations() + (interior_ ? interior_->factorizations() : 0);
}

FaceSolve* SwitchingTrustRegion::LendFactorization() {
  return interior_ ? interior_->LendFactorization() : trust_region_.LendFactorization();
}

}  // namespace qpm
