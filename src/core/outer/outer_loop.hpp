// Algorithm 1 of the paper (Sec. 2) over a PenaltyFunction: the loop and the
// verdict after each subproblem. Where the paper's method and the default
// mode differ is in the strategies (strategies.hpp); the safeguards beyond
// the paper are small objects the loop owns (saved_points.hpp,
// path_extrapolation.hpp, restarts.hpp, safeguards.hpp) and its reporting
// is the SummaryWriter's.
#ifndef QPM_CORE_OUTER_OUTER_LOOP_HPP_
#define QPM_CORE_OUTER_OUTER_LOOP_HPP_

#include <memory>
#include <string>

#include "core/inner/inner_solver.hpp"
#include "core/outer/path_extrapolation.hpp"
#include "core/outer/restarts.hpp"
#include "core/outer/safeguards.hpp"
#include "core/outer/saved_points.hpp"
#include "core/outer/strategies.hpp"
#include "core/outer/summary_writer.hpp"
#include "core/penalty.hpp"

namespace qpm {

class OuterLoop {
 public:
  // The time limits count from `start_cpu` (CpuSeconds()) and from when
  // `deadline` was made: before the penalty's set-up (bounds, O(n)).
  // `scaling`: the problem is gradient-scaled (default mode), or null.
  OuterLoop(Problem* problem, const Options& options, const Callbacks& callbacks,
            double start_cpu, const CpuDeadline& deadline, const ScaledProblem* scaling);

  // From x0, with the user's multipliers `lambda0` (warm start) or empty.
  Summary Run(const Vector& x0, const Vector& lambda0);
  // The options are refused, or the model failed where the scaling evaluates it (x_0).
  Summary StartFailed(const Vector& x0);

 private:
  enum class Next { kUpdate, kRestarted, kStop };  // after a verdict

  // Algorithm 1's steps.
  bool Start(const Vector& x0, const Vector& lambda0);
  double PrepareSubproblem(int k);
  InnerSummary SolveSubproblem();
  Next Verdict(const InnerSummary& inner, int k);
  Next VerdictOnShortSubproblem(const InnerSummary& inner);
  bool RaisePastHeldBounds();
  void UpdateMultipliersAndPenalty(const InnerSummary& inner, int k);
  // Tests: predicates, no state changes.
  bool Acceptable() const { return method_.convergence->Acceptable(q_, current()); }
  // ||c|| before the subproblem just solved: at x_k, or x_0 for the first.
  double ViolationBefore() const { return report_.ViolationBefore(points_.x0().c_squared); }
  Summary Finish(TerminationType type, const std::string& message);
  void Conclude(TerminationType type, const std::string& message);

  Iterate& current() { return points_.current(); }  // x_k, then x_{k+1}
  const Iterate& current() const { return points_.current(); }

  const Options& options_;
  CpuDeadline deadline_;
  PenaltyFunction q_;
  Strategies method_;  // where the paper's method and the default mode differ
  SavedPoints points_;
  PathExtrapolation extrapolation_;
  StallAllowance stalls_;
  HeldStallRaise held_;
  AcceptableCount acceptable_;
  SummaryWriter report_;
  Restarts restarts_;  // the second start and runaway recovery
  std::unique_ptr<InnerSolver> inner_;
};

}  // namespace qpm

#endif  // QPM_CORE_OUTER_OUTER_LOOP_HPP_
