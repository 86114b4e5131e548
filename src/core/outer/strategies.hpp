// The parts of Algorithm 1 in which the paper's method (Mode::kPaper) and
// the default mode differ, each behind a narrow interface and chosen once,
// when the solver is built (MakeStrategies). The outer loop (outer_loop.cpp)
// calls them and never asks which mode it runs. The paper's versions are in
// paper_strategies.cpp, the default mode's in default_strategies.cpp; why
// each differs: docs/algorithm.md, "The default mode". Each keeps a copy of
// the options it reads, so that it may outlive the caller's Options.
#ifndef QPM_CORE_OUTER_STRATEGIES_HPP_
#define QPM_CORE_OUTER_STRATEGIES_HPP_

#include <memory>

#include "core/inner/inner_solver.hpp"
#include "qpm/core/options.hpp"
#include "core/penalty.hpp"
#include "core/scaled_problem.hpp"
#include "qpm/core/solver.hpp"
#include "qpm/core/tolerance.hpp"

namespace qpm {

// When the solve ends, and in which norm the subproblems measure
// stationarity. Predicates only.
class ConvergenceTest {
 public:
  virtual ~ConvergenceTest() = default;
  // x, the end of a subproblem that ended with `status`, is a solution.
  virtual bool Converged(const PenaltyFunction& q, const Iterate& x, InnerStatus status) const = 0;
  virtual bool Acceptable(const PenaltyFunction& q, const Iterate& x) const = 0;
  // The violation at x exceeds what the test calls feasible.
  virtual bool Violated(const PenaltyFunction& q, const Iterate& x) const = 0;
  // The violation at x is within the acceptable level: too small for a
  // verdict of local infeasibility (docs/algorithm.md, "Local infeasibility").
  virtual bool NearlyFeasible(const PenaltyFunction& q, const Iterate& x) const = 0;
  // ||c||_2 at or below which a stalled subproblem ends the solve instead of
  // going on with a larger beta.
  virtual double stall_feasibility_tol() const = 0;
  // Consecutive acceptable outer iterates that end the solve (0: never).
  virtual int acceptable_iter() const = 0;
  // The stationarity of Iterate::grad_q_norm: max-norm or the paper's 2-norm.
  virtual bool max_norm() const = 0;
  virtual const char* converged_message() const = 0;
  // x, met inside a subproblem, already passes the final test, so the
  // subproblem may end there. The paper's subproblems end at (2.4) only.
  virtual bool EndsSubproblem(const PenaltyFunction&, const Iterate&) const { return false; }
};

// beta_0 and beta_{k+1}.
class PenaltyUpdate {
 public:
  virtual ~PenaltyUpdate() = default;
  // beta_0 at the start point (f and c evaluated, slacks fitted).
  virtual double Start(const PenaltyFunction& q, const Iterate& x0) = 0;
  // beta_0 once lambda_0 is set in q's merit (MultiplierUpdate::Seed).
  virtual double Seeded(double beta, const PenaltyFunction& q, const Iterate& x0) = 0;
  // beta_{k+1} after subproblem k ended at x after `inner_iterations`.
  virtual double Next(double beta, const Iterate& x, long inner_iterations, int k) = 0;
  // beta for the second start from x_0 (Restarts::RestartFromX0).
  virtual double Restart(double beta, const PenaltyFunction& q, const Iterate& x0) = 0;
  // beta grows by this on a runaway restart: max(runaway_penalty_factor, alpha_k).
  virtual double runaway_factor() const = 0;
};

// The multiplier estimates lambda of the merit f + lambda' c + beta/2 ||c||^2.
class MultiplierUpdate {
 public:
  virtual ~MultiplierUpdate() = default;
  // lambda_0 at x0 (`lambda0`: the user's warm start, or empty).
  virtual void Seed(const Vector& lambda0, PenaltyFunction* q, Iterate* x0) = 0;
  // lambda_{k+1} after a subproblem ended at x; `newton` solves with the
  // Hessian of Q on a face (null when the inner solver has no factorization).
  virtual void Update(const Iterate& x, FaceSolve* newton, PenaltyFunction* q) = 0;
  // lambda = 0 for the second start from x_0.
  virtual void Reset(PenaltyFunction* q) = 0;
  // At a feasible x where `test` fails with the current multipliers: takes
  // the least-squares multipliers at x when the test holds with them, and
  // returns true; otherwise leaves q and x as they were.
  virtual bool AdoptLeastSquaresIfConverged(const ConvergenceTest& test, InnerStatus status,
                                            PenaltyFunction* q, Iterate* x) = 0;
  // The same test inside a subproblem, at an accepted inner iterate x: true
  // ends the subproblem there, and the verdict adopts the multipliers. q and
  // x are left as they were (they change during the test: not thread-safe).
  // The paper's subproblems end at (2.4) only.
  virtual bool EndsSubproblem(const ConvergenceTest&, PenaltyFunction*, Iterate*) { return false; }
  // After a subproblem stalled at a nearly feasible x (test.NearlyFeasible)
  // where `test` fails, and the stall would end the solve: sets
  // lambda so that lambda + beta c(x) is the least-squares estimate at x,
  // and returns true when one more subproblem at the same beta should be
  // solved from x (docs/algorithm.md, "Multipliers at the end").
  virtual bool PolishAfterStall(const ConvergenceTest&, PenaltyFunction*, Iterate*) { return false; }
};

// tau of Definition 2.1 for the next subproblem, and which subproblems count
// toward the window of local infeasibility (Options::infeasibility_window).
class SubproblemTolerance {
 public:
  virtual ~SubproblemTolerance() = default;
  // The next subproblem starts at x (before Tolerance() is asked for it).
  virtual void Start(const Iterate& /*x*/) {}
  virtual FeasibilityTolerance Tolerance() const = 0;
  // After subproblem k ended at the point `r` records, whose violation was
  // `c_before` at its start.
  virtual void Observe(const OuterRecord& r, double c_before, int k) = 0;
  // Subproblems are solved to tau = eps1 (the solve looks stuck at a
  // stationary point of the violation).
  virtual bool tight() const = 0;
  // Subproblem k closes a window of `window` subproblems that counts as
  // evidence of local infeasibility.
  virtual bool WindowCounts(int k, int window) const = 0;
  virtual void Reset() = 0;  // the second start from x_0
};

// The limits that call a subproblem a runaway, and when runaways mean an
// objective unbounded below on the feasible set.
class RunawayTest {
 public:
  virtual ~RunawayTest() = default;
  // The mode's own limits for a subproblem from `start` (kappa =
  // Options::runaway_violation_factor); the shared ones are set by the loop.
  virtual void SetLimits(const Iterate& start, double kappa, InnerControl* control) const = 0;
  // `feasible_runaways` runaways of f at feasible points mean unboundedness.
  virtual bool Unbounded(int feasible_runaways) const = 0;
  // A runaway at a feasible point (||c|| within constr_viol_tol), where no
  // beta helps: restart from x_k with a larger beta as for any runaway,
  // follow the descent from the runaway point (once: `followed` says it was),
  // or end the solve, diverged.
  enum class Feasible { kRestart, kFollow, kDiverged };
  virtual Feasible OnFeasibleRunaway(const InnerSummary& inner, double diverging_iterates_tol,
                                     bool followed) const = 0;
};

struct Strategies {
  std::unique_ptr<ConvergenceTest> convergence;
  std::unique_ptr<PenaltyUpdate> penalty;
  std::unique_ptr<MultiplierUpdate> multipliers;
  std::unique_ptr<SubproblemTolerance> tolerance;
  std::unique_ptr<RunawayTest> runaway;
  // Second starts from x_0 before a verdict of local infeasibility, per solve.
  int feasibility_restarts = 0;
  // Stalls held at the bounds that raise beta, per solve (HeldStallRaise).
  int held_stall_raises = 0;
};

// The paper's Algorithm 1 exactly (Mode::kPaper).
Strategies PaperStrategies(const Options& options, const PenaltyFunction& q);
// The default mode; `scaling` (or null) is the problem the penalty works on
// when gradient-scaled, `q` the penalty (its slack layout).
Strategies DefaultStrategies(const Options& options, const ScaledProblem* scaling,
                             const PenaltyFunction& q);

inline Strategies MakeStrategies(const Options& options, const ScaledProblem* scaling,
                                 const PenaltyFunction& q) {
  return options.mode == Mode::kPaper ? PaperStrategies(options, q)
                                      : DefaultStrategies(options, scaling, q);
}

}  // namespace qpm

#endif  // QPM_CORE_OUTER_STRATEGIES_HPP_
