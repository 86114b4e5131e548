// The start of the next subproblem predicted along the penalty path
// (Options::extrapolate; docs/algorithm.md, "Beyond the paper"): the
// solutions satisfy x(beta) ~ x* + v / beta, so the last two, at beta_{k-1}
// and beta_{k-2}, predict x(beta_k). The outer loop takes the prediction
// when it lowers Q_{beta_k}.
#ifndef QPM_CORE_OUTER_PATH_EXTRAPOLATION_HPP_
#define QPM_CORE_OUTER_PATH_EXTRAPOLATION_HPP_

#include "core/outer/saved_points.hpp"
#include "core/penalty.hpp"

namespace qpm {

class PathExtrapolation {
 public:
  explicit PathExtrapolation(bool enabled) : enabled_(enabled) {}
  // x_{k+1}, the solution of the subproblem with `beta`.
  void Remember(const Iterate& solution, double beta) {
    if (!enabled_) return;
    previous_z_.swap(last_z_);
    previous_beta_ = last_beta_;
    last_z_ = solution.x;
    last_beta_ = beta;
  }
  // The current iterate <- the prediction x(beta) for q's beta, when it
  // lowers Q_beta (values and derivatives evaluated); false otherwise.
  bool Try(PenaltyFunction* q, SavedPoints* points) const;

 private:
  const bool enabled_;
  Vector last_z_, previous_z_;  // x_{k}, x_{k-1}
  double last_beta_ = 0.0, previous_beta_ = 0.0;
};

}  // namespace qpm

#endif  // QPM_CORE_OUTER_PATH_EXTRAPOLATION_HPP_
