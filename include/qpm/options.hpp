// Typed options of the solver. QpmApplication maps Ipopt's OptionsList onto
// this struct once per solve; the core never reads option strings.
#ifndef QPM_OPTIONS_HPP_
#define QPM_OPTIONS_HPP_

#include <string>

namespace qpm {

enum class InnerSolverType {
  kGradientDescent,  // QPM-GD: steepest descent with an Armijo line search
};

const char* ToString(InnerSolverType type);

// Gradient descent with backtracking on Q_beta (QPM-GD of the paper, Sec. 7).
struct GradientDescentOptions {
  // Sufficient decrease: Q(x - t g) <= Q(x) - armijo_c1 * t * ||g||^2.
  double armijo_c1 = 1e-4;
  // Backtracking: t <- backtrack_factor * t after a rejected trial.
  double backtrack_factor = 0.5;
  // The first trial of an iteration is step_growth * (last accepted t).
  double step_growth = 2.0;
  // Trial step of the very first iteration (t, not a length: the step is t*g).
  double initial_step = 1.0;
  // Rounding-aware acceptance (Hager & Zhang 2005, "approximate Wolfe"):
  // when Q(trial) <= Q(x) + rounding_allowance * |Q(x)| the value test is
  // at or below Q's rounding, so the trial is judged by its directional
  // derivative phi'(t) = -g_trial . g instead: accepted when
  //   phi'(t) <= (1 - 2 armijo_c1) ||g||^2      (HZ's approximate Armijo,
  // equivalent to the Armijo test on quadratics, exact in floating point).
  // Below this relative size a decrease cannot be told from rounding of Q.
  double rounding_allowance = 1e-12;
  // Backtracks per iteration before the search is declared stalled.
  int max_backtracks = 60;
};

struct Options {
  InnerSolverType inner_solver = InnerSolverType::kGradientDescent;
  double penalty_init = 1.0;      // beta_0 >= 1 (Algorithm 1)
  double penalty_growth = 1.2;    // alpha > 1: beta_{k+1} = alpha beta_k
  double feasibility_tol = 1e-8;  // eps0: stop when ||c(x_{k+1})||_2 <= eps0
  double stationarity_tol = 1e-8; // eps1: ||grad Q(x_{k+1})||_2 <= tau(x_{k+1})
  double tolerance_cap = 1e20;    // tau_cap of Def. 2.1; >= 1e20 is +inf, 0 fixed
  int max_outer_iter = 500;       // outer iterations k before giving up
  long max_inner_iter = 10000000; // total inner iterations over all k
  double max_cpu_time = 1e6;      // seconds of process CPU time
  GradientDescentOptions gd;

  // True when every field is in range; otherwise `why` names the first bad one.
  bool IsValid(std::string* why) const;
};

}  // namespace qpm

#endif  // QPM_OPTIONS_HPP_
