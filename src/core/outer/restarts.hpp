// The moves back to a saved point beyond the paper (docs/algorithm.md,
// "Beyond the paper"): the second start from x_0 before a verdict of local
// infeasibility, and the recovery from a runaway subproblem
// (runaway_policy.hpp). Owns the policies that decide them; acts on the
// outer loop's saved points, penalty and strategies.
#ifndef QPM_CORE_OUTER_RESTARTS_HPP_
#define QPM_CORE_OUTER_RESTARTS_HPP_

#include "core/outer/local_infeasibility.hpp"
#include "core/outer/runaway_policy.hpp"
#include "core/outer/safeguards.hpp"
#include "core/outer/saved_points.hpp"
#include "core/outer/strategies.hpp"
#include "core/outer/summary_writer.hpp"

namespace qpm {

class Restarts {
 public:
  Restarts(const Options& options, Strategies* method, PenaltyFunction* q, SavedPoints* points,
           AcceptableCount* acceptable, SummaryWriter* report);

  const LocalInfeasibility& infeasibility() const { return infeasibility_; }
  const RunawayPolicy& runaway() const { return runaway_; }

  // The second start from x_0 where the mode allows one; true when made.
  bool TrySecondStart(const InnerSummary& inner);
  // After a runaway subproblem from Q = q_start: the descent followed, a
  // restart from the subproblem's start or the second start; false: the
  // solve ends, diverged. `factorizations`: the inner solver's, recorded.
  bool RecoverFromRunaway(double q_start, const InnerSummary& inner, long factorizations);

 private:
  bool RestartFromX0();
  bool RestartFromStart(double q_start, const InnerSummary& inner, long factorizations);

  Strategies& method_;
  PenaltyFunction& q_;
  SavedPoints& points_;
  AcceptableCount& acceptable_;
  SummaryWriter& report_;
  RunawayPolicy runaway_;
  LocalInfeasibility infeasibility_;
};

}  // namespace qpm

#endif  // QPM_CORE_OUTER_RESTARTS_HPP_
