// What the outer loop and an inner solver exchange (paper Algorithm 1, line 4):
// the inner solver minimizes Q_beta from a start point until
//   ||grad Q_beta(x)|| <= tau(x)                                   (2.4)
// while never letting Q_beta increase beyond rounding, so (2.3) holds.
#ifndef QPM_CORE_INNER_INNER_SOLVER_HPP_
#define QPM_CORE_INNER_INNER_SOLVER_HPP_

#include <functional>
#include <limits>

#include <memory>

#include "core/inner/face_solve.hpp"
#include "qpm/core/options.hpp"
#include "core/penalty.hpp"
#include "qpm/core/inner_status.hpp"
#include "qpm/core/tolerance.hpp"

namespace qpm {

// Process CPU time in seconds.
double CpuSeconds();

// Tells when process CPU time passes a deadline without reading the CPU
// clock at every iteration: that clock is a system call, which can cost more
// than a small model's callback; the steady clock needs none. CPU time
// advances at most `threads` times faster than wall time, so after reading
// the remaining CPU time r the CPU clock need not be read again before
// r / threads wall seconds of the steady clock. The deadline is therefore
// seen within one iteration (docs/robustness.md, "Limits").
// It also watches a wall-clock deadline (steady clock, read every call).
class CpuDeadline {
 public:
  // Absolute CpuSeconds() value; wall seconds from now (<= 0: none).
  explicit CpuDeadline(double deadline, double wall_seconds = 0.0);
  bool Passed();
  bool wall_passed() const { return wall_passed_; }
  // The processes of a distributed model decide together: the limit has
  // passed when it has on one of them, and each call reads the clocks.
  void Share(const Reductions& reductions) { shared_ = &reductions; }

 private:
  bool PassedHere();
  const Reductions* shared_ = nullptr;
  double deadline_;
  double threads_;
  double next_read_ = 0.0;  // steady-clock seconds
  double wall_deadline_;    // steady-clock seconds, +inf for none
  bool wall_passed_ = false;
};

struct InnerControl {
  FeasibilityTolerance tolerance;
  const Reductions* reduce = &SerialReductions();  // the penalty's (reduce.hpp)
  long max_iterations = 0;      // budget for this call
  CpuDeadline* deadline = nullptr;  // max_cpu_time; none when null
  double stall_rounding = 1e-14;  // relative decrease of Q that counts as progress
  // An accepted point with ||c|| > max_violation, f < min_objective or
  // ||z||_inf > max_abs_z ends the solve with kRunaway (Q_beta unbounded
  // below: Options::runaway_violation_factor).
  double max_violation = std::numeric_limits<double>::infinity();
  double min_objective = -std::numeric_limits<double>::infinity();
  double max_abs_z = std::numeric_limits<double>::infinity();
  // f < min_objective counts only at points with ||z||_inf above this: f
  // can fall without bound only while z grows, and a fall by kappa |f_k|
  // alone is no sign of it where f sums n terms from f(x_0) = 0
  // (docs/algorithm.md, "Runaway subproblems").
  double objective_runaway_min_z = 0.0;
  // The trust region's Delta_max is max_radius * max(1, ||z||_inf), not
  // max_radius: set once a fall of f on the feasible set is followed, so
  // that a minimizer however far is reached, and a descent without end
  // passes max_abs_z, in O(log ||z||) steps rather than ||z|| / max_radius
  // (docs/algorithm.md, "Runaway subproblems").
  bool relative_radius_cap = false;
  // True at a point that already solves the problem (the outer loop's test):
  // the subproblem ends there, kConverged. It may refresh x's cached values
  // for new multipliers when it returns true. Null: never.
  std::function<bool(Iterate*)> solves_problem;
  // Called after each accepted step; returning false stops with kUserStop.
  std::function<bool(const Iterate&, const StepInfo&)> on_iteration;
  // Trust region: stop (kIterationLimit, InnerSummary::shifted_model) at the
  // first step whose factorization of H needed a shift, H not positive
  // definite on its face (SwitchingTrustRegion's nonconvexity watch).
  bool stop_at_shifted_model = false;
};

struct InnerSummary {
  InnerStatus status = InnerStatus::kConverged;
  long iterations = 0;  // accepted steps
  double tau = 0.0;     // tau(x) at the returned point
  // kRunaway: ||c|| at the point that ran away, and whether f fell below
  // InnerControl::min_objective there (the outer loop tells an objective
  // unbounded below on the feasible set from a penalty too weak by them).
  double runaway_c_norm = 0.0;
  bool runaway_objective = false;
  double runaway_z_max = 0.0;  // ||z||_inf there
  // kStalled because every trial of the last step failed to evaluate (Ipopt
  // ends such a solve Invalid_Number_Detected).
  bool evaluation_failed = false;
  // Stopped by InnerControl::stop_at_shifted_model.
  bool shifted_model = false;
};

// An inner solver: `x` holds a point with values and gradient for the
// penalty's current beta; on return it holds the point its status describes.
class InnerSolver {
 public:
  virtual ~InnerSolver() = default;
  virtual InnerSummary Minimize(const InnerControl& control, Iterate* x) = 0;
  // Numeric factorizations of the preconditioner so far (0 without one).
  virtual long factorizations() const { return 0; }
  // Trials accepted after a second-order correction so far (trust region).
  virtual long corrections() const { return 0; }
  // The CG preconditioner's name (inner/preconditioner.hpp), "" without CG.
  virtual const char* preconditioner() const { return ""; }
  // The CG preconditioner's factorization of the Hessian of Q, lent between
  // subproblems to solve on a face (face_solve.hpp: the borrower replaces
  // it); null when there is none.
  virtual FaceSolve* LendFactorization() { return nullptr; }
};

// The inner solver Options::inner_solver names, over `q`, for a solve from
// `start` (evaluated; the interior start's test reads it).
std::unique_ptr<InnerSolver> MakeInnerSolver(const Options& options, PenaltyFunction* q,
                                             const Iterate& start);

// Declares a subproblem stalled when max(window, steps before the last
// progress) accepted steps in a row brought neither a new lowest ||grad Q||
// (below gradient_drop times the last low) nor a decrease of Q beyond its
// rounding. The iterates then only move inside the rounding noise of
// grad Q, which at large beta (about beta ||J|| eps_mach |c|'s terms) can
// exceed eps1: asking for more cannot succeed in double precision.
// With below_ulp_window > 0, also stalled after that many accepted steps in
// a row whose predicted decrease was below one unit in the last place of Q
// (so that Q cannot change by them at all) without a new lowest ||grad Q||:
// the growing window above would let such steps crawl on for as many steps
// as the subproblem took before (docs/algorithm.md, "Stalls at the rounding
// floor").
class StallMonitor {
 public:
  StallMonitor(long window, double rounding, const Iterate& x, double beta,
               double gradient_drop = 1.0, long below_ulp_window = 0);
  // After each accepted step; `below_ulp`: its predicted decrease was below
  // eps_mach max(1, |Q|).
  bool Stalled(const Iterate& x, bool below_ulp = false);

 private:
  long window_;
  double rounding_;
  double gradient_drop_;
  double beta_;
  double best_grad_;
  double best_q_;
  long below_ulp_window_;
  long steps_ = 0;          // accepted steps so far
  long last_progress_ = 0;  // step of the last new low
  long below_ulp_ = 0;      // such steps in a row without a new low of ||grad Q||
};

// Exchanges the contents of two iterates without copying (pointer swaps).
void SwapIterates(Iterate* a, Iterate* b);

// Shared loop steps of the inner solvers. CheckStop sets the status and
// returns true when the solver must return: (2.4) holds at x, or a limit is
// reached. ReportStep counts an accepted step and tells the observer; true
// when the observer asked to stop or the monitor saw a stall.
bool CheckStop(const InnerControl& control, Iterate* x, InnerSummary* summary);
bool ReportStep(const InnerControl& control, const Iterate& x, const StepInfo& step,
                StallMonitor* monitor, InnerSummary* summary);

}  // namespace qpm

#endif  // QPM_CORE_INNER_INNER_SOLVER_HPP_
