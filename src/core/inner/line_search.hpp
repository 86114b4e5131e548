// Backtracking line search on Q_beta along the projection arc of a descent
// direction d (Bertsekas' projected Armijo rule): for t = t0, rho t0, ...
//
//   z(t) = P(x + t d),  e = z(t) - x,  psi(s) = Q(x + s e),  psi'(0) = g.e < 0,
//   accept when psi(1) <= psi(0) + c1 psi'(0)                        (Armijo)
//   where Q's values can resolve that decrease, and otherwise (c1 |psi'(0)|
//   below the rounding allowance eps |Q(x)|) when
//   psi(1) <= psi(0) + eps |Q(x)|  and  psi'(1) <= (2 c1 - 1) psi'(0),
//   Hager & Zhang's approximate Armijo condition (SIAM J. Optim. 16(1),
//   2005, eq. (4.1)), which is exact on quadratics and needs no value
//   difference. A plain value test in that regime accepts steps whose only
//   "decrease" is rounding (seen at beta ~ 4e4 on the paper's problem).
//   Without bounds P is the identity and psi'(0) = t g.d.
//
// Used by QPM-GD (d = -grad Q) and L-BFGS (d = -H grad Q).
#ifndef QPM_CORE_INNER_LINE_SEARCH_HPP_
#define QPM_CORE_INNER_LINE_SEARCH_HPP_

#include "core/inner/inner_solver.hpp"
#include "qpm/core/options.hpp"

namespace qpm {

class ArmijoLineSearch {
 public:
  explicit ArmijoLineSearch(const LineSearchOptions& options) : options_(options) {}

  // Tries t0, rho t0, rho^2 t0, ... On success `trial` holds x + t d with
  // values and derivatives and `step` describes it; false when no trial
  // was acceptable within max_backtracks (trial then holds garbage).
  bool Search(AssembledPenalty q, const Iterate& x, const Vector& d, double t0,
              Iterate* trial, StepInfo* step) const;
  // After a failed Search: its last trial failed to evaluate (Ipopt's
  // Invalid_Number_Detected when the step cannot be cut back further).
  bool last_trial_failed() const { return last_trial_failed_; }

 private:
  bool IsAcceptable(AssembledPenalty q, const Iterate& x, double slope0, Iterate* trial) const;

  LineSearchOptions options_;
  mutable bool last_trial_failed_ = false;
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_LINE_SEARCH_HPP_
