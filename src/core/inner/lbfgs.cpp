#include "qpm/core/inner/lbfgs.hpp"

#include <algorithm>

namespace qpm {

Lbfgs::Lbfgs(const LbfgsOptions& options, PenaltyFunction* q)
    : options_(options), line_search_(options.line_search), q_(q) {
  q_->Allocate(&trial_);
  direction_.resize(q_->n());
  active_.assign(q_->n(), 0);
  s_.resize(q_->n(), options_.memory);
  y_.resize(q_->n(), options_.memory);
  rho_.resize(options_.memory);
  alpha_.resize(options_.memory);
}

InnerSummary Lbfgs::Minimize(const InnerControl& control, Iterate* x) {
  InnerSummary summary;
  StallMonitor monitor(options_.stall_window, control.stall_rounding, *x, q_->beta());
  if (!options_.warm_start) count_ = 0, newest_ = -1;
  while (!CheckStop(control, *x, &summary)) {
    Direction(*x);
    StepInfo step;
    if (!line_search_.Search(q_, *x, direction_, 1.0, &trial_, &step)) {
      summary.status = InnerStatus::kStalled;
      summary.evaluation_failed = line_search_.last_trial_failed();
      return summary;
    }
    Remember(*x, trial_);
    SwapIterates(x, &trial_);
    if (ReportStep(control, *x, step, &monitor, &summary)) return summary;
  }
  return summary;
}

// Marks the entries at a bound whose steepest-descent move points outward;
// the direction keeps them fixed (a projected L-BFGS on the free entries).
// A change of the active set clears the memory: pairs measured while other
// entries were free mix curvature of two different reduced problems.
void Lbfgs::FindActive(const Iterate& x) {
  const Vector& l = q_->lower();
  const Vector& u = q_->upper();
  bool changed = false;
  for (int i = 0; i < q_->n(); ++i) {
    const double g = x.grad_q[i];
    const char active = (x.x[i] <= l[i] && g > 0.0) || (x.x[i] >= u[i] && g < 0.0);
    changed |= active != active_[i];
    active_[i] = active;
  }
  if (changed) count_ = 0, newest_ = -1;
}

void Lbfgs::ZeroActive() {
  for (int i = 0; i < q_->n(); ++i) {
    if (active_[i]) direction_[i] = 0.0;
  }
}

void Lbfgs::Direction(const Iterate& x) {
  const bool bounds = q_->has_bounds();
  if (bounds) FindActive(x);
  direction_ = -x.grad_q;
  if (bounds) ZeroActive();
  if (count_ == 0) {
    direction_ /= std::max(1.0, direction_.norm());  // first step: length <= 1
    return;
  }
  TwoLoop();
  if (bounds) ZeroActive();
  if (!(direction_.dot(x.grad_q) < 0.0)) {  // lost descent on the free set
    direction_ = -x.grad_q;
    if (bounds) ZeroActive();
  }
}

void TwoLoopRecursion(const Eigen::MatrixXd& s, const Eigen::MatrixXd& y, const Vector& rho,
                      int newest, int count, Vector* alpha, Vector* d) {
  const int m = static_cast<int>(s.cols());
  for (int i = 0, j = newest; i < count; ++i, j = (j + m - 1) % m) {
    (*alpha)[j] = rho[j] * s.col(j).dot(*d);
    *d -= (*alpha)[j] * y.col(j);
  }
  *d *= 1.0 / (rho[newest] * y.col(newest).squaredNorm());  // H0 = s.y / y.y
  for (int i = 0, j = (newest + m - count + 1) % m; i < count; ++i, j = (j + 1) % m) {
    const double b = rho[j] * y.col(j).dot(*d);
    *d += ((*alpha)[j] - b) * s.col(j);
  }
}

// direction_ <- H direction_.
void Lbfgs::TwoLoop() { TwoLoopRecursion(s_, y_, rho_, newest_, count_, &alpha_, &direction_); }

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
