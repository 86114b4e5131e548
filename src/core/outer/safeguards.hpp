// Counters of the outer loop's safeguards beyond the paper
// (docs/algorithm.md, "Beyond the paper"), each with its own rule; the
// outer loop asks them (predicates) and tells them what happened (actions).
#ifndef QPM_CORE_OUTER_SAFEGUARDS_HPP_
#define QPM_CORE_OUTER_SAFEGUARDS_HPP_

#include <algorithm>

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

// Going on past a stall that did not lower ||c|| where the objective holds
// entries at their bounds against the violation's descent (docs/algorithm.md,
// "Stalls held at the bounds"): the next beta is at least kMargin times the
// penalty at which the first of them yields (HeldBoundsRelease), at most
// kMaxJump times the current beta, at most `allowed` times per solve
// (Strategies::held_stall_raises), and again only where the last raise
// lowered ||c|| by more than infeasibility_decrease: one that did not
// showed that what holds the point is not those bounds.
class HeldStallRaise {
 public:
  HeldStallRaise(const Options& o, int allowed)
      : allowed_(allowed), decrease_(1.0 - o.infeasibility_decrease) {}
  bool available(double c_norm) const {
    return used_ < allowed_ && (used_ == 0 || c_norm < decrease_ * c_at_raise_);
  }
  void Use(double beta, double release, double c_norm) {
    ++used_;
    floor_ = std::min(kMaxJump * beta, kMargin * release);
    c_at_raise_ = c_norm;
  }
  // The floor for the next beta (0 when no raise is pending), once.
  double TakeFloor() {
    const double floor = floor_;
    floor_ = 0.0;
    return floor;
  }

 private:
  static constexpr double kMargin = 2.0;
  static constexpr double kMaxJump = 1e4;
  const int allowed_;
  const double decrease_;
  int used_ = 0;
  double floor_ = 0.0;
  double c_at_raise_ = 0.0;
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
