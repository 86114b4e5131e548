#include "core/stationarity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qpm {

DualMeasures Dual(const PenaltyFunction& q, const Iterate& it, const DualWeights* weights) {
  const SlackLayout& z = q.layout();
  DualMeasures d;
  for (int i = 0; i < z.n(); ++i) {
    const double g = it.grad_q[i];
    if (z.Blocked(it.x, i, g)) {
      d.bound_multipliers_l1 += std::abs(g);
    } else {
      d.dual_inf = std::max(d.dual_inf, std::abs(g));
      if (weights) {
        const double w = i < z.n_x() ? weights->x : weights->slacks[i - z.n_x()];
        d.weighted_dual_inf = std::max(d.weighted_dual_inf, std::abs(g) * w);
      }
    }
  }
  d.dual_inf = z.reduce().Max(d.dual_inf);
  d.bound_multipliers_l1 = z.reduce().Sum(d.bound_multipliers_l1);
  if (weights) d.weighted_dual_inf = z.reduce().Max(d.weighted_dual_inf);
  return d;
}

double DualInfeasibilityAtMultipliers(const PenaltyFunction& q, const Iterate& it,
                                      Workspace* work) {
  const SlackLayout& z = q.layout();
  q.jz().TransposeTimes(it, it.c, &work->z);  // J_z^T c, the gradient of ||c||^2 / 2
  const double beta = q.merit().beta();
  double dual_inf = 0.0;
  for (int i = 0; i < z.n(); ++i) {
    const double g = it.grad_q[i] - beta * work->z[i];
    if (!z.Blocked(it.x, i, g)) dual_inf = std::max(dual_inf, std::abs(g));
  }
  return z.reduce().Max(dual_inf);
}

double ViolationStationarity(const PenaltyFunction& q, const Iterate& it, Workspace* work) {
  const SlackLayout& z = q.layout();
  const double c_norm = it.c_norm();
  if (!z.any_rows() || !(c_norm > 0.0)) return 0.0;
  q.jz().TransposeTimes(it, it.c, &work->z);  // J_z^T c
  double sum = 0.0;
  for (int i = 0; i < z.n(); ++i) {
    const double g = work->z[i];
    if (!z.Blocked(it.x, i, g)) sum += g * g;
  }
  return std::sqrt(z.reduce().Sum(sum)) / c_norm;
}

double HeldBoundsRelease(const PenaltyFunction& q, const Iterate& it, Workspace* work) {
  const SlackLayout& z = q.layout();
  q.jz().TransposeTimes(it, it.c, &work->z);
  const double beta = q.merit().beta();
  double release = std::numeric_limits<double>::infinity();
  for (int i = 0; i < z.n(); ++i) {
    const double g = it.grad_q[i], b = work->z[i];
    const bool held = z.Blocked(it.x, i, g) && ((g > 0.0 && b < 0.0) || (g < 0.0 && b > 0.0));
    if (held) release = std::min(release, std::abs(g - beta * b) / std::abs(b));
  }
  return z.reduce().Min(release);
}

}  // namespace qpm
