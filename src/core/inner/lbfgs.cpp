#include "core/inner/lbfgs.hpp"

#include <algorithm>
#include <exception>
#include <vector>

#include <LBFGSpp/BFGSMat.h>
#include <LBFGSpp/Cauchy.h>
#include <LBFGSpp/SubspaceMin.h>

namespace qpm {

struct Lbfgs::Box {
  LBFGSpp::BFGSMat<double, true> bfgs;  // B = theta I - W M W'
  Vector cauchy_point;                  // z_c
  Vector wc;                            // W'(z_c - z), for the subspace minimization
  Vector s, y;                          // the newest pair
  std::vector<int> new_active, free;    // of z_c
};

Lbfgs::Lbfgs(const LbfgsOptions& options, AssembledPenalty q)
    : options_(options), line_search_(options.line_search), q_(q), box_(q->layout().has_bounds()) {
  q_->Allocate(&trial_);
  direction_.resize(q_->layout().n());
  if (box_) {
    b_ = std::make_unique<Box>();
    b_->bfgs.reset(q_->layout().n(), options_.memory);
    return;
  }
  s_.resize(q_->layout().n(), options_.memory);
  y_.resize(q_->layout().n(), options_.memory);
  rho_.resize(options_.memory);
  alpha_.resize(options_.memory);
}

Lbfgs::~Lbfgs() = default;

int Lbfgs::cauchy_new_active() const { return b_ ? static_cast<int>(b_->new_active.size()) : 0; }
int Lbfgs::cauchy_free() const { return b_ ? static_cast<int>(b_->free.size()) : 0; }

InnerSummary Lbfgs::Minimize(const InnerControl& control, Iterate* x) {
  InnerSummary summary;
  StallMonitor monitor(options_.stall_window, control.stall_rounding, *x, q_->merit().beta());
  if (!options_.warm_start) ClearMemory();
  while (!CheckStop(control, x, &summary)) {
    if (box_ && !BoxDirection(*x)) {
      summary.status = InnerStatus::kStalled;  // no descent direction in the box
      return summary;
    }
    if (!box_) Direction(*x);
    StepInfo step;
    if (!Step(x, &step, &summary)) return summary;
    if (ReportStep(control, *x, step, &monitor, &summary)) return summary;
  }
  return summary;
}

// The line search along direction_ from x, the new pair, x <- the accepted
// point; false (kStalled) when no trial was acceptable.
bool Lbfgs::Step(Iterate* x, StepInfo* step, InnerSummary* summary) {
  if (!line_search_.Search(q_, *x, direction_, 1.0, &trial_, step)) {
    summary->status = InnerStatus::kStalled;
    summary->evaluation_failed = line_search_.last_trial_failed();
    return false;
  }
  Remember(*x, trial_);
  SwapIterates(x, &trial_);
  return true;
}

void Lbfgs::ClearMemory() {
  count_ = 0, newest_ = -1;
  if (box_) b_->bfgs.reset(q_->layout().n(), options_.memory);
}

void Lbfgs::LimitFirstStep() { direction_ /= std::max(1.0, direction_.norm()); }

void Lbfgs::Direction(const Iterate& x) {
  direction_ = -x.grad_q;
  if (count_ == 0) return LimitFirstStep();
  TwoLoop();
  if (!(direction_.dot(x.grad_q) < 0.0)) direction_ = -x.grad_q;  // lost descent
}

// LBFGS++'s steps 1-2: direction_ = z_s - z. False when a piece threw
// (e.g. std::bad_alloc) or left a non-finite direction.
bool Lbfgs::CauchyAndSubspace(const Iterate& x) {
  Box& b = *b_;
  try {
    const SlackLayout& z = q_->layout();
    LBFGSpp::Cauchy<double>::get_cauchy_point(b.bfgs, x.x, x.grad_q, z.lower(), z.upper(),
                                              b.cauchy_point, b.wc, b.new_active, b.free);
    LBFGSpp::SubspaceMin<double>::subspace_minimize(
        b.bfgs, x.x, b.cauchy_point, x.grad_q, z.lower(), z.upper(), b.wc, b.new_active,
        b.free, options_.max_subspace_iterations, direction_);
  } catch (const std::exception&) {
    return false;
  }
  return direction_.allFinite();
}

// A descent direction with z + d in the box; with the memory cleared first
// when B's direction is not one (LBFGS++ 0.1.0's driver has no such check).
bool Lbfgs::BoxDirection(const Iterate& x) {
  const bool has_pairs = b_->bfgs.num_corrections() > 0;
  if (has_pairs && CauchyAndSubspace(x) && direction_.dot(x.grad_q) < 0.0) return true;
  if (has_pairs) ClearMemory();
  if (!CauchyAndSubspace(x) || !(direction_.dot(x.grad_q) < 0.0)) return false;
  LimitFirstStep();  // B = I: the projected steepest-descent step, at most 1 long
  return true;
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
  if (box_) return RememberInBox(from, to);
  const int slot = (newest_ + 1) % options_.memory;
  s_.col(slot) = s;
  y_.col(slot) = y;
  rho_[slot] = 1.0 / sy;
  newest_ = slot;
  count_ = std::min(count_ + 1, options_.memory);
}

// B's update (their (3.2)-(3.3)); a failure (std::bad_alloc) clears the
// memory rather than leave B half updated.
void Lbfgs::RememberInBox(const Iterate& from, const Iterate& to) {
  Box& b = *b_;
  b.s = to.x - from.x;
  b.y = to.grad_q - from.grad_q;
  try {
    b.bfgs.add_correction(b.s, b.y);
  } catch (const std::exception&) {
    ClearMemory();
  }
}

}  // namespace qpm
