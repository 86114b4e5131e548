#include "core/inner/line_search.hpp"

#include <cmath>

namespace qpm {

bool ArmijoLineSearch::Search(AssembledPenalty q, const Iterate& x, const Vector& d, double t0,
                              Iterate* trial, StepInfo* step) const {
  double t = t0;
  for (int b = 0; b < options_.max_backtracks; ++b, t *= options_.backtrack_factor) {
    trial->x = x.x + t * d;
    if (q->layout().has_bounds()) q->layout().Project(trial->x);
    // e = P(x + t d) - x; g.e < 0 is the model decrease along the arc.
    const double slope = x.grad_q.dot(trial->x - x.x);
    if (!(slope < 0.0)) {
      if (trial->x == x.x) return false;  // the box leaves no step at all
      continue;
    }
    if (!IsAcceptable(q, x, slope, trial)) continue;
    step->step_size = t;
    step->step_norm = (trial->x - x.x).norm();
    step->backtracks = b;
    return true;
  }
  return false;
}

// Armijo on the chord e = trial - x, psi(s) = Q(x + s e), psi'(0) = g.e:
// psi(1) <= psi(0) + c1 psi'(0) where Q's values resolve c1 |psi'(0)|, else
// Hager-Zhang's psi'(1) <= (2 c1 - 1) psi'(0) with psi(1) <= psi(0) + rounding.
bool ArmijoLineSearch::IsAcceptable(AssembledPenalty q, const Iterate& x, double slope0,
                                    Iterate* trial) const {
  last_trial_failed_ = !q->EvaluateValues(trial);
  if (last_trial_failed_) return false;  // failed evaluation: backtrack
  const double beta = q->merit().beta();
  const double q0 = x.Q(beta);
  const double qt = trial->Q(beta);
  const double rounding = options_.rounding_allowance * std::abs(q0);
  const double decrease = -options_.armijo_c1 * slope0;
  if (qt > q0 + rounding) return false;  // worse beyond rounding
  if (decrease > rounding) {
    if (!(qt <= q0 - decrease)) return false;  // Armijo
    last_trial_failed_ = !q->EvaluateDerivatives(trial);
    return !last_trial_failed_;
  }
  last_trial_failed_ = !q->EvaluateDerivatives(trial);
  if (last_trial_failed_) return false;
  const double slope = trial->grad_q.dot(trial->x - x.x);  // psi'(1)
  return slope <= (2.0 * options_.armijo_c1 - 1.0) * slope0;
}

}  // namespace qpm
