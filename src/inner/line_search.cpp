#include "qpm/inner/line_search.hpp"

#include <cmath>

namespace qpm {

bool ArmijoLineSearch::Search(PenaltyFunction* q, const Iterate& x, const Vector& d, double t0,
                              Iterate* trial, StepInfo* step) const {
  const double slope0 = x.grad_q.dot(d);  // phi'(0) < 0 for a descent direction
  if (!(slope0 < 0.0)) return false;
  double t = t0;
  for (int b = 0; b < options_.max_backtracks; ++b, t *= options_.backtrack_factor) {
    trial->x = x.x + t * d;
    if (!IsAcceptable(q, x, d, slope0, t, trial)) continue;
    step->step_size = t;
    step->step_norm = t * d.norm();
    step->backtracks = b;
    return true;
  }
  return false;
}

bool ArmijoLineSearch::IsAcceptable(PenaltyFunction* q, const Iterate& x, const Vector& d,
                                    double slope0, double t, Iterate* trial) const {
  if (!q->EvaluateValues(trial)) return false;  // failed evaluation: backtrack
  const double beta = q->beta();
  const double q0 = x.Q(beta);
  const double qt = trial->Q(beta);
  const double rounding = options_.rounding_allowance * std::abs(q0);
  const double decrease = -options_.armijo_c1 * t * slope0;
  if (qt > q0 + rounding) return false;  // worse beyond rounding
  if (decrease > rounding) {
    return qt <= q0 - decrease && q->EvaluateDerivatives(trial);  // Armijo
  }
  if (!q->EvaluateDerivatives(trial)) return false;
  const double slope = trial->grad_q.dot(d);  // phi'(t)
  return slope <= (2.0 * options_.armijo_c1 - 1.0) * slope0;
}

}  // namespace qpm
