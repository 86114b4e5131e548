#include "qpm/inner/lbfgs.hpp"

#include <algorithm>

namespace qpm {

Lbfgs::Lbfgs(const LbfgsOptions& options, PenaltyFunction* q)
    : options_(options), line_search_(options.line_search), q_(q) {
  q_->Allocate(&trial_);
  direction_.resize(q_->n());
  s_.resize(q_->n(), options_.memory);
  y_.resize(q_->n(), options_.memory);
  rho_.resize(options_.memory);
  alpha_.resize(options_.memory);
}

InnerSummary Lbfgs::Minimize(const InnerControl& control, Iterate* x) {
  InnerSummary summary;
  StallMonitor monitor(options_.stall_window, control.stall_rounding, *x, q_->beta());
  count_ = 0;
  newest_ = -1;
  while (!CheckStop(control, *x, &summary)) {
    Direction(x->grad_q);
    StepInfo step;
    if (!line_search_.Search(q_, *x, direction_, 1.0, &trial_, &step)) {
      summary.status = InnerStatus::kStalled;
      return summary;
    }
    Remember(*x, trial_);
    SwapIterates(x, &trial_);
    if (ReportStep(control, *x, step, &monitor, &summary)) return summary;
  }
  return summary;
}

// Two-loop recursion; without pairs, a steepest-descent step of length <= 1.
void Lbfgs::Direction(const Vector& g) {
  direction_ = -g;
  if (count_ == 0) {
    direction_ /= std::max(1.0, g.norm());
    return;
  }
  const int m = options_.memory;
  for (int i = 0, j = newest_; i < count_; ++i, j = (j + m - 1) % m) {
    alpha_[j] = rho_[j] * s_.col(j).dot(direction_);
    direction_ -= alpha_[j] * y_.col(j);
  }
  direction_ *= 1.0 / (rho_[newest_] * y_.col(newest_).squaredNorm());  // H0 = s.y / y.y
  for (int i = 0, j = (newest_ + m - count_ + 1) % m; i < count_; ++i, j = (j + 1) % m) {
    const double b = rho_[j] * y_.col(j).dot(direction_);
    direction_ += (alpha_[j] - b) * s_.col(j);
  }
}

void Lbfgs::Remember(const Iterate& from, const Iterate& to) {
  const auto s = to.x - from.x;            // expressions: evaluated lazily,
  const auto y = to.grad_q - from.grad_q;  // no temporaries
  const double sy = s.dot(y);
  if (!(sy > options_.curvature_eps * s.norm() * y.norm())) return;  // keep H SPD
  const int slot = (newest_ + 1) % options_.memory;
  s_.col(slot) = s;
  y_.col(slot) = y;
  rho_[slot] = 1.0 / sy;
  newest_ = slot;
  count_ = std::min(count_ + 1, options_.memory);
}

}  // namespace qpm
