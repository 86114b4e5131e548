#include "core/outer/saved_points.hpp"

#include <utility>

#include "core/inner/inner_solver.hpp"
#include "core/linalg/huge_pages.hpp"

namespace qpm {

void SavedPoint::Save(const Iterate& it, const Vector* equal_z) {
  same_z = equal_z;
  if (same_z) {
    z.resize(0);
  } else {
    CopyLarge(it.x, &z);
  }
  g = it.g, c = it.c;
  f = it.f, c_squared = it.c_squared;
}

double SavedPoint::Q(const PenaltyFunction& q) const {
  const MeritFunction& merit = q.merit();
  const double lambda_c = merit.has_multipliers() ? Dot(q.layout().reduce(), merit.multipliers(), c) : 0.0;
  return f + lambda_c + 0.5 * merit.beta() * c_squared;
}

bool SavedPoint::Restore(PenaltyFunction* q, Iterate* it) const {
  it->x = same_z ? *same_z : z;
  it->g = g, it->c = c;
  it->f = f, it->c_squared = c_squared;
  q->merit().UpdateResidual(it);
  return q->EvaluateDerivatives(it);
}

void SavedPoints::KeepLeastViolation() {
  if (!(current_.c_squared < least_c_squared_)) return;
  least_c_squared_ = current_.c_squared;
  least_at_ = Least::kCurrent;
  least_ = SavedPoint();
}

// start_ <- current_, first moving the least-violation point out of start_.
void SavedPoints::SaveStart() {
  if (least_at_ == Least::kStart) std::swap(least_, start_), least_at_ = Least::kStored;
  start_.Save(current_);
  if (least_at_ == Least::kCurrent) least_at_ = Least::kStart;
}

// current_ is about to become another point: keep it if it is the least.
void SavedPoints::LeaveCurrent() {
  if (least_at_ == Least::kCurrent) least_.Save(current_), least_at_ = Least::kStored;
}

// x_0 restored in place: no spare iterate, which would hold a copy of J.
SavedPoints::FromX0 SavedPoints::MoveToX0() {
  SaveStart();
  if (x0_.Restore(q_, &current_)) return FromX0::kMoved;
  return start_.Restore(q_, &current_) ? FromX0::kStayed : FromX0::kFailed;
}

bool SavedPoints::RestoreX0() {
  LeaveCurrent();
  return Restore(x0_);
}

void SavedPoints::RestoreLeastViolation() {
  if (!(least_c_squared_ < current_.c_squared)) return;
  Restore(least_at_ == Least::kStart ? start_ : least_);
}

bool SavedPoints::Restore(const SavedPoint& point) {
  if (!point.Restore(q_, &spare())) return false;
  SwapIterates(&current_, &spare_);
  return true;
}

Iterate& SavedPoints::spare() {
  if (!spare_.x.size()) q_->Allocate(&spare_);
  return spare_;
}

void SavedPoints::AdoptSpare() {
  LeaveCurrent();
  SwapIterates(&current_, &spare_);
}

}  // namespace qpm
