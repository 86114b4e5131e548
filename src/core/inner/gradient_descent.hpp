// QPM-GD inner solver: steepest descent on Q_beta,
//
//   x+ = x - t g,  g = grad Q_beta(x),
//
// with t from the Armijo line search of inner/line_search.hpp (its
// rounding-aware form keeps working where plain Armijo stalls, near
// beta ~ 4e4 on the paper's problem). The first trial of each iteration is
// step_growth times the last accepted t (the default), or the
// Barzilai-Borwein step s.s / s.y of the last step (trial_step option). Stops when ||g|| <= tau(x) (paper
// eq. (2.4) with Definition 2.1).
#ifndef QPM_CORE_INNER_GRADIENT_DESCENT_HPP_
#define QPM_CORE_INNER_GRADIENT_DESCENT_HPP_

#include "core/inner/inner_solver.hpp"
#include "core/inner/line_search.hpp"
#include "qpm/core/options.hpp"

namespace qpm {

class GradientDescent : public InnerSolver {
 public:
  // `q` outlives the solver; work storage is allocated here, once.
  GradientDescent(const GradientDescentOptions& options, AssembledPenalty q);

  InnerSummary Minimize(const InnerControl& control, Iterate* x) override;

 private:
  GradientDescentOptions options_;
  ArmijoLineSearch line_search_;
  AssembledPenalty q_;
  Iterate trial_;
  Vector direction_;
  double FirstTrial() const;
  void RememberStep(const Iterate& from, const Iterate& to);

  double last_step_;
  double bb_step_ = 0.0;
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_GRADIENT_DESCENT_HPP_
