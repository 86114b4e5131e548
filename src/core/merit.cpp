#include "core/merit.hpp"

#include <algorithm>
#include <cmath>

namespace qpm {

void MeritFunction::SetMultipliers(const Vector& lambda) {
  multipliers_ = lambda;
  for (int j : layout_.free_rows()) multipliers_[j] = 0.0;  // W must not see a free row either
  has_multipliers_ = true;
  shifted_.resize(layout_.m());
}

void MeritFunction::FirstOrderMultipliers(const Iterate& it, Vector* y) const {
  *y = beta_ * it.c;
  if (has_multipliers_) *y += multipliers_;
}

void MeritFunction::UpdateResidual(Iterate* it) const {
  layout_.Residual(it->g, it->x, &it->c);
  it->c_squared = SquaredNorm(layout_.reduce(), it->c);
  it->lambda_c = has_multipliers_ ? Dot(layout_.reduce(), multipliers_, it->c) : 0.0;
}

void MeritFunction::FitSlacks(Iterate* it) const {
  layout_.FitSlacks(it->g, &it->x);
  UpdateResidual(it);
}

void MeritFunction::Refresh(Iterate* it) {
  UpdateResidual(it);
  FormGradient(it);
}

void MeritFunction::FormGradient(Iterate* it) {
  it->grad_q.head(layout_.n_x()) = it->grad_f;
  if (has_multipliers_) {  // grad L_A: y = lambda + beta c in place of beta c
    shifted_ = multipliers_ + beta_ * it->c;
    jz_.TransposeTimesAdd(*it, shifted_, &it->grad_q);
  } else {
    jz_.TransposeTimesAdd(*it, beta_, it->c, &it->grad_q);
  }
  const Reductions& reduce = layout_.reduce();
  if (!layout_.has_bounds()) {
    it->grad_q_norm = max_norm_ ? MaxNorm(reduce, it->grad_q) : Norm(reduce, it->grad_q);
    return;
  }
  double sum = 0.0, largest = 0.0;  // ||P_T(-grad Q)||^2 and its max-norm, tangent cone
  for (int i = 0; i < layout_.n(); ++i) {
    const double g = it->grad_q[i];
    if (!layout_.Blocked(it->x, i, g)) sum += g * g, largest = std::max(largest, std::abs(g));
  }
  it->grad_q_norm = max_norm_ ? reduce.Max(largest) : std::sqrt(reduce.Sum(sum));
}

}  // namespace qpm
