// QPM-GD inner solver: steepest descent on Q_beta with backtracking,
//
//   x+ = x - t g,  g = grad Q_beta(x),
//   accept t when  Q(x+) <= Q(x) - c1 t ||g||^2                  (Armijo)
//   or, when the value test is lost in Q's rounding
//   (Q(x+) <= Q(x) + eps |Q(x)|), when -grad Q(x+) . g <= (1 - 2 c1) ||g||^2
//   (Hager & Zhang's approximate Armijo condition, SIAM J. Optim. 16, 2005).
//
// Without the second test plain Armijo stalls on the paper's problem near
// beta ~ 4e4, where the required decrease is far below the rounding of Q.
// Stops when ||g|| <= tau(x) (paper eq. (2.4) with Definition 2.1).
#ifndef QPM_INNER_GRADIENT_DESCENT_HPP_
#define QPM_INNER_GRADIENT_DESCENT_HPP_

#include "qpm/inner/inner_solver.hpp"
#include "qpm/options.hpp"

namespace qpm {

class GradientDescent : public InnerSolver {
 public:
  // `q` outlives the solver; work storage is allocated here, once.
  GradientDescent(const GradientDescentOptions& options, PenaltyFunction* q);

  InnerSummary Minimize(const InnerControl& control, Iterate* x) override;

 private:
  // Finds an acceptable t along -grad Q; the accepted point (with values and
  // derivatives) is left in trial_. Returns false when none was found.
  bool LineSearch(const Iterate& x, StepInfo* step);
  bool IsAcceptable(const Iterate& x, double t);

  GradientDescentOptions options_;
  PenaltyFunction* q_;
  Iterate trial_;
  double last_step_;
};

// Exchanges the contents of two iterates without copying (pointer swaps).
void SwapIterates(Iterate* a, Iterate* b);

}  // namespace qpm

#endif  // QPM_INNER_GRADIENT_DESCENT_HPP_
