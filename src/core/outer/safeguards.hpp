// Counters of the outer loop's safeguards beyond the paper
// (docs/algorithm.md, "Beyond the paper"), each with its own rule; the
// outer loop asks them (predicates) and tells them what happened (actions).
#ifndef QPM_CORE_OUTER_SAFEGUARDS_HPP_
#define QPM_CORE_OUTER_SAFEGUARDS_HPP_

#include "qpm/core/options.hpp"

namespace qpm {

// Going on with a larger beta after a stalled subproblem (docs/algorithm.md,
// "Stalls at the rounding floor"): after lowering ||c|| by more than
// infeasibility_decrease, or at the acceptable level by at least
// feasibility_decrease, at most max_stalled_subproblems times.
class StallAllowance {
 public:
  explicit StallAllowance(const Options& o)
      : max_(o.max_stalled_subproblems),
        acceptable_decrease_(o.multipliers.feasibility_decrease),
        decrease_(1.0 - o.infeasibility_decrease) {}
  bool MayContinue(double c_norm, double c_before, bool acceptable) const {
    const double kept = acceptable ? acceptable_decrease_ : decrease_;
    if (!(c_norm < kept * c_before)) return false;
    return used_ < max_;
  }
  void Use() { ++used_; }

 private:
  const int max_;
  const double acceptable_decrease_;
  const double decrease_;
  int used_ = 0;
};

// Ipopt's acceptable_iter, counted in outer iterations: that many
// consecutive acceptable outer iterates end the solve (0: never).
class AcceptableCount {
 public:
  explicit AcceptableCount(int needed) : needed_(needed) {}
  bool counting() const { return needed_ > 0; }
  void Observe(bool acceptable) { count_ = acceptable ? count_ + 1 : 0; }
  bool held() const { return needed_ > 0 && count_ >= needed_; }
  void Reset() { count_ = 0; }

 private:
  const int needed_;
  int count_ = 0;
};

}  // namespace qpm

#endif  // QPM_CORE_OUTER_SAFEGUARDS_HPP_
