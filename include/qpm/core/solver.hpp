// The outer loop of the Quadratic Penalty Method, paper Algorithm 1:
//
//   given eps0, eps1, alpha > 1, beta_0 >= 1, tau (Def. 2.1) and x_0:
//   for k = 0, 1, ...
//     start the subproblem at argmin{ Q_{beta_k}(x_k), Q_{beta_k}(x_0) } (5.2)
//     find x_{k+1} with Q_{beta_k}(x_{k+1}) <= min(Q_{beta_k}(x_k), Q_{beta_k}(x_0))  (2.3)
//                  and ||grad Q_{beta_k}(x_{k+1})|| <= tau(x_{k+1})               (2.4)
//     if ||c(x_{k+1})|| <= eps0: return x_{k+1}
//     beta_{k+1} = alpha beta_k
//
// That is Options::mode kPaper exactly (2-norms, lambda = 0). The default
// mode minimizes the augmented Lagrangian f + lambda' c + beta/2 ||c||^2
// instead, with safeguarded multiplier estimates lambda, beta grown only
// when ||c|| did not fall enough, and ends on Ipopt's optimality error
// (docs/algorithm.md, "The default mode"). Either way the multipliers are
// returned in Ipopt's sign, lambda + beta_k c(x) (lambda = 0 in the paper's
// mode), so that grad f + J^T lambda - z_L + z_U is the stationarity residual.
// Bounds and inequality rows enter through the slack form of penalty.hpp;
// Q, c and the stationarity test are then those of z = (x, s) in its box.
#ifndef QPM_CORE_SOLVER_HPP_
#define QPM_CORE_SOLVER_HPP_

#include <functional>
#include <string>
#include <vector>

#include "qpm/core/inner_status.hpp"
#include "qpm/core/options.hpp"
#include "qpm/core/problem.hpp"

namespace qpm {

// Each value says what Summary::x holds.
enum class TerminationType {
  kConverged,             // the mode's test holds: Ipopt's optimality error <= tol (default),
                          // or ||c||_2 <= eps0 after (2.4) held (paper)
  kAcceptable,            // within the acceptable tolerances: stalled there, or (default
                          // mode) held there for acceptable_iter outer iterations
  kMaxOuterIterations,    // x_k of the last outer iteration; max_outer_iter reached
  kInfeasible,            // x_k; a stationary point of ||c|| > eps0 that beta did not leave (see Options)
  kMaxInnerIterations,    // the last accepted inner iterate; inner budget spent
  kMaxCpuTime,            // the last accepted inner iterate; max_cpu_time passed
  kMaxWallTime,           // the last accepted inner iterate; max_wall_time passed
  kStalled,               // the last accepted inner iterate; line search found no step
  kUserStop,              // the last accepted inner iterate; callback returned false
  kInvalidNumberAtStart,  // x_0; the model cannot be evaluated there
  kEvaluationError,       // the last accepted point; W could not be evaluated there, or no
                          // trial point could, down to the smallest step
  kDiverging,             // x_k, the start of a subproblem whose iterates ran away after
                          // max_runaway_restarts restarts (Options::runaway_violation_factor)
  kInvalidOptions,        // x_0 unchanged; Options::IsValid failed
};

const char* ToString(TerminationType type);

// One line of the outer loop's history, recorded after each subproblem.
struct OuterRecord {
  int k = 0;
  double beta = 0.0;
  double f = 0.0;            // f(x_{k+1}), in the user's units (unscaled)
  double c_norm = 0.0;       // ||c(x_{k+1})||_2
  double grad_q_norm = 0.0;  // stationarity of Q_{beta_k} at x_{k+1}, as Summary::grad_q_norm
  double tau = 0.0;          // tau(x_{k+1})
  double violation_stationarity = 0.0;  // ||P_T(-J_z^T c)|| / ||c|| at x_{k+1}
  bool started_at_x0 = false;  // (5.2) chose x_0 over x_k
  double q_start = 0.0;      // min(Q(x_k), Q(x_0)) for beta_k
  double q_end = 0.0;        // Q(x_{k+1}); (2.3) asks q_end <= q_start
  InnerStatus inner_status = InnerStatus::kConverged;
  bool followed = false;     // kRunaway of f on the feasible set, x_{k+1} its point
  long inner_iterations = 0;
  long q_evals = 0;          // cumulative
  long grad_evals = 0;       // cumulative
  long hess_evals = 0;       // cumulative
  long hess_products = 0;    // cumulative Hessian-of-Q products (CG iterations)
  long factorizations = 0;   // cumulative sparse/dense factorizations (preconditioner)
};

struct Summary {
  TerminationType termination = TerminationType::kInvalidOptions;
  std::string message;
  Vector x;          // see TerminationType
  Vector g;          // g(x)
  Vector c;          // c(z): g - g_l on equality rows, g - s on inequality rows
  Vector lambda;     // lambda + beta c (paper: beta c), Ipopt's sign (<= 0 at an active lower row bound)
  Vector z_l, z_u;   // bound multipliers >= 0 (Ipopt's), from the projected gradient
  int start_projected = 0;  // entries of x_0 moved into the bounds
  int extrapolations = 0;   // subproblems started at an extrapolated point
  int second_starts = 0;    // restarts from x_0 (docs/algorithm.md, "Beyond the paper")
  int held_stall_raises = 0;  // beta raised past bounds f held (docs/algorithm.md, "Stalls held at the bounds")
  double f = 0.0;
  double c_norm = 0.0;       // ||c(x)||_2
  double c_max = 0.0;        // ||c(x)||_inf (Ipopt's constraint violation)
  double grad_q_norm = 0.0;  // stationarity ||P_T(-grad Q)|| (= ||grad Q|| unbounded): 2-norm
                             // in the paper's mode, max-norm in the default mode
  double grad_q_max = 0.0;   // ||grad f + J^T lambda - z_L + z_U||_inf (Ipopt's dual inf.)
  double beta = 0.0;         // beta of the last subproblem
  int outer_iterations = 0;
  long inner_iterations = 0;
  long q_evals = 0;
  long grad_evals = 0;
  long hess_evals = 0;
  long hess_products = 0;    // Hessian-of-Q products (TR's CG)
  long factorizations = 0;   // numeric factorizations of the CG's preconditioner, shifted
                             // retries included (inner/preconditioner.hpp)
  long corrections = 0;      // rejected trust-region trials accepted after a second-order
                             // correction (docs/algorithm.md, "Second-order correction")
  std::string preconditioner;  // the one the trust region used ("" without CG)
  double cpu_time = 0.0;
  std::vector<OuterRecord> outer;

  bool IsSolutionUsable() const { return termination == TerminationType::kConverged; }
  std::string BriefReport() const;
};

// One inner iteration as reported to observers (logs, Ipopt callbacks).
struct IterationInfo {
  long iter = 0;       // inner iterations so far (0 is the start point)
  int k = 0;           // outer iteration
  double beta = 0.0;
  double f = 0.0;       // in the user's units (the default mode solves a scaled problem)
  double c_norm = 0.0;  // this and what follows: of the problem solved
  double c_max = 0.0;
  double grad_q_norm = 0.0;
  double grad_q_max = 0.0;
  double tau = 0.0;
  StepInfo step;
  // The point's n variables (of the problem solved: with fixed variables
  // removed, the free ones; no slacks), valid during the callback only.
  const double* x = nullptr;
  int n = 0;
};

struct Callbacks {
  // After the start point and each accepted inner step; false stops the solve.
  std::function<bool(const IterationInfo&)> on_iteration;
  // After each subproblem.
  std::function<void(const OuterRecord&)> on_outer_iteration;
};

// Solves `problem` from x0. Never throws for a normal termination. In the
// default mode, `lambda0` (size m, Ipopt's sign) seeds the multiplier
// estimates (a warm start); empty, the least-squares estimate does.
Summary Solve(Problem* problem, const Vector& x0, const Options& options,
              const Callbacks& callbacks = Callbacks(), const Vector& lambda0 = Vector());

}  // namespace qpm

#endif  // QPM_CORE_SOLVER_HPP_
