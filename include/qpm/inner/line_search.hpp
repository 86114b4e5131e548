// Backtracking line search on Q_beta along a descent direction d:
//
//   phi(t) = Q(x + t d),   phi'(0) = g . d < 0,
//   accept t when phi(t) <= phi(0) + c1 t phi'(0)                    (Armijo)
//   where Q's values can resolve that decrease, and otherwise (the decrease
//   c1 t |phi'(0)| is below the rounding allowance eps |Q(x)|) when
//   phi(t) <= phi(0) + eps |Q(x)|  and  phi'(t) <= (2 c1 - 1) phi'(0),
//   Hager & Zhang's approximate Armijo condition (SIAM J. Optim. 16(1),
//   2005, eq. (4.1)), which is exact on quadratics and needs no value
//   difference. A plain value test in that regime accepts steps whose only
//   "decrease" is rounding (seen at beta ~ 4e4 on the paper's problem).
//
// Used by QPM-GD (d = -grad Q) and L-BFGS (d = -H grad Q).
#ifndef QPM_INNER_LINE_SEARCH_HPP_
#define QPM_INNER_LINE_SEARCH_HPP_

#include "qpm/inner/inner_solver.hpp"
#include "qpm/options.hpp"

namespace qpm {

class ArmijoLineSearch {
 public:
  explicit ArmijoLineSearch(const LineSearchOptions& options) : options_(options) {}

  // Tries t0, rho t0, rho^2 t0, ... On success `trial` holds x + t d with
  // values and derivatives and `step` describes it; false when no trial
  // was acceptable within max_backtracks (trial then holds garbage).
  bool Search(PenaltyFunction* q, const Iterate& x, const Vector& d, double t0,
              Iterate* trial, StepInfo* step) const;

 private:
  bool IsAcceptable(PenaltyFunction* q, const Iterate& x, const Vector& d, double slope0,
                    double t, Iterate* trial) const;

  LineSearchOptions options_;
};

}  // namespace qpm

#endif  // QPM_INNER_LINE_SEARCH_HPP_
