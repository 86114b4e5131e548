// Runaway subproblems (docs/algorithm.md, "Runaway subproblems"): the limits
// that call a subproblem a runaway, and what follows one. A runaway
// subproblem returns its start, x_{k+1} = x_k, which keeps (2.3), and beta
// grows, at most max_runaway_restarts times in a row; at a feasible point
// the mode may follow the descent instead (RunawayTest::Feasible), and
// runaways of f there may mean an objective unbounded below.
#ifndef QPM_CORE_OUTER_RUNAWAY_POLICY_HPP_
#define QPM_CORE_OUTER_RUNAWAY_POLICY_HPP_

#include <algorithm>
#include <cmath>

#include "core/outer/strategies.hpp"

namespace qpm {

class RunawayPolicy {
 public:
  RunawayPolicy(const Options& options, const RunawayTest& test)
      : test_(test),
        max_restarts_(options.max_runaway_restarts),
        kappa_(options.runaway_violation_factor),
        constr_viol_tol_(options.termination.constr_viol_tol),
        diverging_iterates_tol_(options.diverging_iterates_tol) {}

  // The runaway limits of a subproblem from `start`, while restarts remain.
  void SetLimits(const Iterate& start, InnerControl* control) const {
    control->relative_radius_cap = following_;
    if (restarts_ >= max_restarts_) return;
    control->max_violation = kappa_ * std::max(start.c_norm(), 1.0);
    if (!following_) control->min_objective = start.f - kappa_ * std::max(std::abs(start.f), 1.0);
    test_.SetLimits(start, kappa_, control);
  }
  // The runaway ended above the feasibility tolerance.
  bool Infeasible(const InnerSummary& inner) const {
    return inner.runaway_c_norm > constr_viol_tol_;
  }
  // What the mode does with a runaway: restart (any infeasible one), follow
  // or end diverged.
  RunawayTest::Feasible Classify(const InnerSummary& inner) const {
    if (Infeasible(inner)) return RunawayTest::Feasible::kRestart;
    return test_.OnFeasibleRunaway(inner, diverging_iterates_tol_, following_);
  }
  // The descent from a feasible runaway point is followed: the subproblems
  // from there run without the f test.
  void Follow() { following_ = true; }
  // Counts a restart from the subproblem's start; false once the restarts
  // are used up or the runaways say the objective is unbounded below.
  bool CountRestart(const InnerSummary& inner) {
    if (restarts_++ >= max_restarts_) return false;
    if (inner.runaway_objective && inner.runaway_c_norm <= constr_viol_tol_) ++feasible_runaways_;
    return !test_.Unbounded(feasible_runaways_);
  }
  // A second start from x_0 gives the restarts back.
  void ResetRestarts() { restarts_ = 0; }

 private:
  const RunawayTest& test_;
  const int max_restarts_;
  const double kappa_;  // Options::runaway_violation_factor
  const double constr_viol_tol_;
  const double diverging_iterates_tol_;
  int restarts_ = 0;            // in a row
  int feasible_runaways_ = 0;   // runaways of f with ||c|| within constr_viol_tol
  bool following_ = false;      // a feasible runaway was followed: no f test
};

}  // namespace qpm

#endif  // QPM_CORE_OUTER_RUNAWAY_POLICY_HPP_
