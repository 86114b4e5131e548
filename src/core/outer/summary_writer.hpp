// The outer loop's reporting: a record per subproblem (OuterRecord and
// Callbacks::on_outer_iteration), the per-iteration callback
// (Callbacks::on_iteration) and the final Summary. The log and the
// callbacks get f in the user's units, as Ipopt's "objective" column; ||c||
// and ||grad Q|| of the problem solved.
#ifndef QPM_CORE_OUTER_SUMMARY_WRITER_HPP_
#define QPM_CORE_OUTER_SUMMARY_WRITER_HPP_

#include <cmath>
#include <string>

#include "core/inner/inner_solver.hpp"
#include "core/penalty.hpp"
#include "core/scaled_problem.hpp"
#include "qpm/core/solver.hpp"
#include "qpm/core/tolerance.hpp"

namespace qpm {

// The end of a solve whose subproblem stopped short of (2.4) and may not go
// on: a stall within the acceptable tolerances (`acceptable_stall`) ends as
// Ipopt's Solved_To_Acceptable_Level, a stall because every trial failed to
// evaluate as Invalid_Number_Detected, the rest as the inner status says.
TerminationType EarlyEnd(const InnerSummary& inner, bool acceptable_stall, bool wall_passed,
                         std::string* message);

class SummaryWriter {
 public:
  // `scaling`: the problem solved is gradient-scaled (default mode), or null.
  // CPU time counts from `start_cpu` (CpuSeconds()).
  SummaryWriter(const Callbacks& callbacks, const ScaledProblem* scaling, double start_cpu)
      : callbacks_(callbacks), scaling_(scaling), start_cpu_(start_cpu) {}

  Summary& summary() { return summary_; }
  const std::vector<OuterRecord>& outer() const { return summary_.outer; }
  OuterRecord& last() { return summary_.outer.back(); }
  long inner_iterations() const { return iterations_; }
  // ||c|| at the start of the last recorded subproblem (`x0_c_squared` for the first).
  double ViolationBefore(double x0_c_squared) const {
    const size_t k = summary_.outer.size();
    return k >= 2 ? summary_.outer[k - 2].c_norm : std::sqrt(x0_c_squared);
  }

  // Subproblem k begins (its record is filled by Record).
  void BeginSubproblem(int k, bool started_at_x0);
  // The record of the subproblem that ended at x.
  void Record(double q_start, const InnerSummary& inner, PenaltyFunction* q, const Iterate& x,
              long factorizations);
  // An accepted inner iterate (counted) or the start (not): the user's
  // callback; false stops the solve.
  bool Notify(const Iterate& x, const StepInfo& step, const PenaltyFunction& q,
              const FeasibilityTolerance& tau, bool counted);
  // The end: counts, then (after the inner solver has gone: peak memory)
  // the point, its multipliers and measures.
  void ConcludeCounts(TerminationType type, const std::string& message,
                      const PenaltyCounts& counts, const InnerSolver* inner);
  void ConcludePoint(TerminationType type, PenaltyFunction* q, Iterate* x);

 private:
  double UserObjective(double f) const { return scaling_ ? scaling_->UnscaleObjective(f) : f; }
  void BoundMultipliers(const PenaltyFunction& q, const Iterate& x);

  const Callbacks& callbacks_;
  const ScaledProblem* scaling_;
  const double start_cpu_;
  Summary summary_;
  long iterations_ = 0;  // inner iterations over all subproblems
  int k_ = 0;            // the current subproblem
};

}  // namespace qpm

#endif  // QPM_CORE_OUTER_SUMMARY_WRITER_HPP_
