// The verdict of local infeasibility (docs/algorithm.md, "Local
// infeasibility") and the second start from x_0 that the default mode makes
// before it (docs/algorithm.md, "A second start from `x_0` before an
// infeasibility verdict"). Predicates over the outer records and the current
// point; the outer loop acts on them.
#ifndef QPM_CORE_OUTER_LOCAL_INFEASIBILITY_HPP_
#define QPM_CORE_OUTER_LOCAL_INFEASIBILITY_HPP_

#include <vector>

#include "core/outer/strategies.hpp"

namespace qpm {

class LocalInfeasibility {
 public:
  LocalInfeasibility(const Options& o, const Strategies& method)
      : window_(o.infeasibility_window),
        decrease_(o.infeasibility_decrease),
        stationarity_tol_(o.infeasibility_stationarity_tol),
        method_(method),
        second_starts_(method.feasibility_restarts) {}

  // After subproblem k (Options::infeasibility_window): the last window of
  // subproblems lowered ||c|| by less than infeasibility_decrease, x_{k+1}
  // is a stationary point of ||c|| over the box, and the mode counts this
  // window.
  bool Stuck(const std::vector<OuterRecord>& outer, int k, const PenaltyFunction& q,
             const Iterate& x) const {
    if (k < window_) return false;
    const double before = outer[k - window_].c_norm;
    const double now = outer[k].c_norm;
    if (now < (1.0 - decrease_) * before) return false;
    const bool stationary = outer[k].violation_stationarity <= stationarity_tol_;
    return stationary && method_.tolerance->WindowCounts(k, window_) &&
           !method_.convergence->NearlyFeasible(q, x);
  }
  // A stall at a stationary point of the violation above the feasibility
  // tolerance, in tight subproblems, after the second start from x_0 came
  // back to such a point (`acceptable`: x is within the acceptable level).
  bool StalledAtStationaryPoint(const std::vector<OuterRecord>& outer, const PenaltyFunction& q,
                                const Iterate& x, bool acceptable) const {
    if (second_starts_made_ == 0 || !method_.tolerance->tight() || outer.empty()) return false;
    const bool stationary = outer.back().violation_stationarity <= stationarity_tol_;
    return stationary && !method_.convergence->NearlyFeasible(q, x) && !acceptable;
  }
  bool second_start_available() const { return second_starts_made_ < second_starts_; }
  void UseSecondStart() { ++second_starts_made_; }

 private:
  const int window_;
  const double decrease_;
  const double stationarity_tol_;
  const Strategies& method_;
  const int second_starts_;  // allowed per solve
  int second_starts_made_ = 0;
};

}  // namespace qpm

#endif  // QPM_CORE_OUTER_LOCAL_INFEASIBILITY_HPP_
