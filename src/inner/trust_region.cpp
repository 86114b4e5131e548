#include "qpm/inner/trust_region.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qpm {

TrustRegion::TrustRegion(const TrustRegionOptions& options, PenaltyFunction* q)
    : options_(options), q_(q), cg_(q->n()), radius_(options.initial_radius) {
  q_->Allocate(&trial_);
  step_.resize(q_->n());
  hessian_ = [this](const Vector& v, Vector* hv) { q_->HessianProduct(*at_, v, hv); };
}

InnerSummary TrustRegion::Minimize(const InnerControl& control, Iterate* x) {
  InnerSummary summary;
  StallMonitor monitor(options_.stall_window, control.stall_rounding, *x, q_->beta());
  bool hessian_current = false;  // W depends on x and on beta
  int rejected = 0;
  while (!CheckStop(control, *x, &summary)) {
    if (!hessian_current) {
      if (!q_->EvaluateHessian(*x)) {
        summary.status = InnerStatus::kStalled;  // no model without W
        return summary;
      }
      at_ = x;
      hessian_current = true;
    }
    StepInfo step;
    if (!TryStep(*x, &step)) {
      ++rejected;
      if (radius_ < options_.min_radius) {
        summary.status = InnerStatus::kStalled;
        return summary;
      }
      continue;
    }
    step.backtracks = rejected;
    rejected = 0;
    SwapIterates(x, &trial_);
    hessian_current = false;
    if (ReportStep(control, *x, step, &monitor, &summary)) return summary;
  }
  return summary;
}

bool TrustRegion::TryStep(const Iterate& x, StepInfo* step) {
  const double g_norm = x.grad_q_norm;
  const double tol = std::min(options_.cg_relative_tol, std::sqrt(g_norm)) * g_norm;
  const int max_iter = options_.cg_max_iter > 0 ? options_.cg_max_iter : q_->n();
  const CgResult cg = cg_.Solve(hessian_, x.grad_q, radius_, tol, max_iter, &step_);
  const double step_norm = step_.norm();
  step->step_size = radius_;
  step->step_norm = step_norm;
  trial_.x = x.x + step_;
  double rho = -std::numeric_limits<double>::infinity();  // failed evaluation
  if (q_->EvaluateValues(&trial_)) {
    const double beta = q_->beta();
    const double q0 = x.Q(beta);
    const double reg = options_.rho_regularization * std::max(1.0, std::abs(q0));
    rho = (q0 - trial_.Q(beta) + reg) / (cg.model_decrease + reg);
  }
  const bool accept = rho >= options_.eta_accept && q_->EvaluateDerivatives(&trial_);
  UpdateRadius(accept ? rho : std::min(rho, 0.0), step_norm);
  return accept;
}

void TrustRegion::UpdateRadius(double rho, double step_norm) {
  if (rho < options_.eta_shrink) {
    radius_ = options_.shrink_factor * std::min(radius_, step_norm);
  } else if (rho > options_.eta_expand && step_norm >= 0.99 * radius_) {
    radius_ = std::min(options_.expand_factor * radius_, options_.max_radius);
  }
}

}  // namespace qpm
