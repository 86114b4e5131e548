// Typed options of the solver. QpmApplication maps Ipopt's OptionsList onto
// this struct once per solve; the core never reads option strings.
#ifndef QPM_CORE_OPTIONS_HPP_
#define QPM_CORE_OPTIONS_HPP_

#include <string>

namespace qpm {

enum class InnerSolverType {
  kGradientDescent,  // QPM-GD: steepest descent with an Armijo line search
  kTrustRegion,      // QPM-TR: trust region, Steihaug-Toint truncated CG
  kLbfgs,            // limited-memory BFGS with the same line search; no Hessian
};

const char* ToString(InnerSolverType type);

// Backtracking Armijo line search (inner/line_search.hpp).
struct LineSearchOptions {
  // Sufficient decrease: Q(x + t d) <= Q(x) + armijo_c1 t grad Q . d.
  double armijo_c1 = 1e-4;
  // Backtracking: t <- backtrack_factor * t after a rejected trial.
  double backtrack_factor = 0.5;
  // Below rounding_allowance * |Q(x)| a decrease cannot be told from the
  // rounding of Q; there the slope test of Hager & Zhang decides, and no
  // accepted step raises Q by more than this allowance.
  double rounding_allowance = 1e-12;
  // Rejected trials per iteration before the search is declared stalled.
  int max_backtracks = 60;
};

// How QPM-GD picks the first trial step of an iteration.
enum class GdTrialStep {
  kGrowth,           // step_growth * last accepted t (default; plain GD)
  kBarzilaiBorwein,  // t = s.s / s.y of the last step, then Armijo backtracking
};

// Gradient descent on Q_beta (QPM-GD of the paper, Sec. 7).
struct GradientDescentOptions {
  GdTrialStep trial_step = GdTrialStep::kGrowth;
  LineSearchOptions line_search;
  // The first trial of an iteration is step_growth * (last accepted t).
  double step_growth = 2.0;
  // Trial step of the very first iteration (t, not a length: the step is -t g).
  double initial_step = 1.0;
  // Stalled after max(stall_window, steps before the last progress) steps
  // without progress. Long: on ill-conditioned subproblems steepest descent
  // zigzags for thousands of steps with ||grad Q|| above its last low while Q
  // decreases below its rounding.
  long stall_window = 100000;
};

// Trust region on Q_beta with the Steihaug-Toint truncated CG (QPM-TR).
// rho = (actual + reg) / (predicted + reg) with reg = rho_regularization *
// max(1, |Q(x)|): near convergence both reductions fall below Q's rounding
// and the plain ratio is noise (the regularization makes it tend to 1).
enum class PreconditionerKind { kNone, kJacobi, kPenalty };  // see inner/preconditioner.hpp

struct TrustRegionOptions {
  PreconditionerKind preconditioner = PreconditionerKind::kJacobi;  // CG preconditioner (paper mode: none)
  int dense_limit = 3000;  // penalty preconditioner: dense m x m factor when m <= this
  double initial_radius = 1.0;   // Delta_0
  double max_radius = 1e3;       // Delta_max (paper assumption A9 needs a bound)
  double eta_accept = 0.1;       // accept the step when rho >= eta_accept
  double eta_expand = 0.75;      // grow the radius when rho > eta_expand at the boundary
  double eta_shrink = 0.25;      // shrink the radius when rho < eta_shrink
  double expand_factor = 2.0;    // Delta <- min(expand_factor Delta, max_radius)
  double shrink_factor = 0.25;   // Delta <- shrink_factor Delta
  double cg_relative_tol = 0.1;  // CG stops at ||r|| <= min(cg_relative_tol, sqrt||g||) ||g||
  int cg_max_iter = 0;           // CG iteration cap per step; 0 means n
  double rho_regularization = 1e-13;  // see above (~ 1e3 machine epsilon)
  // Predicted decreases below value_noise * max(1, |Q|) are judged from
  // gradients (trapezoidal rule) instead of the noisy difference of values.
  double value_noise = 1e-10;
  double min_radius = 1e-30;     // below this the trust region has stalled
  long stall_window = 1000;      // as GradientDescentOptions::stall_window
  // Stalled after this many consecutive accepted steps with the radius below
  // collapsed_radius * max(1, ||z||_inf) (0: never). On a smooth Q the
  // radius stays that small only where grad Q changes by ||grad Q|| over a
  // step of 1e-8: a kink of the model (s365mod's sqrt(x^2): steps of 1e-9
  // accepted for 10 million iterations, each lowering Q by 1e-13 of itself,
  // which the stall monitor counts as progress).
  double collapsed_radius = 1e-8;
  long collapsed_window = 1000;
  // A runaway (InnerStatus::kRunaway) after this many consecutive accepted
  // steps of length max_radius (0: never): Q keeps falling along a direction
  // at the radius cap, the sign of a merit unbounded below, which the value
  // tests of InnerControl reach only after ~|f| / max_radius steps (eigmaxc:
  // f falling by 1e3 a step toward the threshold -1.5e9, 760,000 steps).
  long capped_radius_window = 1000;
  // Stalled at once when CG converged inside the region to a step with
  // |p_i| <= resolution_steps * eps_mach * |z_i| for every i: the model's
  // minimizer is within a few spacings of the doubles around z, so no representable
  // point lowers ||grad Q|| further (the rounding floor of grad Q, about
  // ||Hess Q|| eps_mach ||z||, is above tau). 0 disables the test.
  double resolution_steps = 4.0;
  // Bounded problems: the active-set step of TRON (inner/active_set.hpp;
  // Lin & More, SIAM J. Optim. 9, 1999). The generalized Cauchy point
  // p(t) = P(z - t g) - z needs ||p(t)|| <= Delta and the sufficient decrease
  // m(p(t)) <= cauchy_decrease g.p(t) (their mu_0); t starts at the last
  // step's value and is multiplied by cauchy_extrapolation while both hold,
  // or by cauchy_interpolation until they do, at most max_cauchy_trials times.
  double cauchy_decrease = 0.01;
  double cauchy_interpolation = 0.1;
  double cauchy_extrapolation = 10.0;
  int max_cauchy_trials = 60;
  // The projected search along each face's CG direction w: P(z + p + a w),
  // a = 1, search_backtrack, search_backtrack^2, ... while a passes a
  // breakpoint of the box, until m decreases by cauchy_decrease times its
  // linear prediction (at most max_search_trials trials; then a stops at the
  // first breakpoint).
  double search_backtrack = 0.5;
  int max_search_trials = 60;
  // GPCG's projected-gradient steps after the Cauchy point, until three in a
  // row free no entry (within CG's iteration budget), at a step whose Cauchy point
  // freed bounds as those of the gradient_projection_after - 1 accepted steps
  // before it did (0: never). Why, and why not at once: docs/algorithm.md,
  // "Freeing many bounds in one step".
  int gradient_projection_after = 3;
};

// Limited-memory BFGS on Q_beta (two-loop recursion) with the line search.
struct LbfgsOptions {
  int memory = 6;                 // curvature pairs kept (limited_memory_max_history)
  LineSearchOptions line_search;
  // Pairs with s.y <= curvature_eps * ||s|| ||y|| are skipped (keeps H SPD).
  double curvature_eps = 1e-10;
  long stall_window = 1000;       // as GradientDescentOptions::stall_window
  // Bounded problems (L-BFGS-B, inner/lbfgs.hpp): iterations of the exact
  // subspace minimization over the free entries (LBFGS++'s BOXCQP, its
  // max_submin); when they run out its last iterate is projected on the box.
  int max_subspace_iterations = 10;
  // Keep the curvature pairs from one subproblem to the next (they then mix
  // two betas; the default clears them).
  bool warm_start = false;
};

enum class PenaltyGrowthMode {
  kFixed,     // beta_{k+1} = alpha beta_k (the paper)
  kAdaptive,  // alpha doubles after a cheap subproblem, halves after a costly one
};

// Which method the outer loop runs (docs/algorithm.md).
enum class Mode {
  // Default: each subproblem minimizes the augmented Lagrangian
  // f + lambda' c + beta/2 ||c||^2 (safeguarded first-order multiplier
  // update, beta grown only when ||c|| did not fall enough), and the solve
  // ends on Ipopt's optimality error (TerminationOptions).
  kMultipliers,
  // The paper's Algorithm 1 exactly: lambda = 0, beta *= alpha after every
  // subproblem, stop when ||c||_2 <= eps0 after a subproblem met (2.4).
  kPaper,
};

const char* ToString(Mode mode);

// Multiplier estimates of the default mode, in the manner of ALGENCAN
// (Andreani, Birgin, Martinez & Schuverdt, SIAM J. Optim. 18, 2007;
// Birgin & Martinez, "Practical Augmented Lagrangian Methods", SIAM 2014).
struct MultiplierOptions {
  // lambda_{k+1} = P(lambda_k + beta_k c(x_{k+1})) onto [-max_multiplier,
  // max_multiplier]^m: the safeguard that keeps the global theory.
  double max_multiplier = 1e20;
  // beta grows when ||c(x_{k+1})||_inf > feasibility_decrease ||c(x_k)||_inf ...
  double feasibility_decrease = 0.5;
  // ... by this factor (ALGENCAN's gamma = 10).
  double penalty_increase = 10.0;
  // beta_0 > 0, or 0 for ALGENCAN's rule 10 max(1, |f(x_0)|) / max(1, ||c(x_0)||^2 / 2)
  // clipped to [penalty_init_min, penalty_init_max].
  double penalty_init = 0.0;
  double penalty_init_min = 1e-8;
  double penalty_init_max = 1e8;
  // lambda_0: the least-squares estimate argmin ||P(grad_z L(z_0, lambda))||
  // (Ipopt's constraint multiplier initialization), discarded (lambda_0 = 0)
  // when its max-norm exceeds init_max (Ipopt's constr_mult_init_max).
  bool least_squares_init = true;
  double init_max = 1e3;
};

// Ipopt's termination test (Waechter & Biegler 2006, Sec. 2.1), default mode:
// the optimality error E = max(dual_inf / s_d, constr_viol, compl / s_c) of
// the problem the core solves (gradient-scaled when Options::scaling says
// so) must be <= tol, and the unscaled dual infeasibility, constraint
// violation and complementarity <= dual_inf_tol, constr_viol_tol,
// compl_inf_tol. Max-norms throughout.
struct TerminationOptions {
  double tol = 1e-8;
  double dual_inf_tol = 1.0;
  double constr_viol_tol = 1e-4;
  double compl_inf_tol = 1e-4;
  double acceptable_tol = 1e-6;
  double acceptable_dual_inf_tol = 1e10;
  double acceptable_constr_viol_tol = 1e-2;
  double acceptable_compl_inf_tol = 1e-2;
  // Acceptable level held for this many consecutive outer iterations ends the
  // solve Solved_To_Acceptable_Level (0: only when a subproblem stalls).
  int acceptable_iter = 15;
  double s_max = 100.0;  // Ipopt's s_max of the multiplier scaling s_d, s_c
};

// Ipopt's gradient-based NLP scaling (scaled_problem.hpp), default mode only:
// f and each constraint row are scaled at x_0 so that their largest gradient
// entry is at most max_gradient; the termination test is then Ipopt's, on
// the scaled problem, plus the unscaled limits.
struct ScalingOptions {
  bool gradient_based = true;  // nlp_scaling_method gradient-based (else none)
  double max_gradient = 100.0;  // nlp_scaling_max_gradient
  double min_value = 1e-8;      // nlp_scaling_min_value
  double obj_scaling = 1.0;     // on top of s_f; nonzero (TnlpProblem applies obj_scaling_factor)
};

struct Options {
  Mode mode = Mode::kMultipliers;
  ScalingOptions scaling;
  MultiplierOptions multipliers;
  TerminationOptions termination;
  InnerSolverType inner_solver = InnerSolverType::kTrustRegion;
  double penalty_init = 1.0;      // beta_0 >= 1 (Algorithm 1)
  double penalty_growth = 1.2;    // alpha > 1: beta_{k+1} = alpha beta_k
  // Adaptive mode: alpha_k in [penalty_growth, penalty_growth_max]; a
  // subproblem of <= cheap_subproblem inner iterations doubles it, one of
  // more than kCostlySubproblemFactor cheap_subproblem halves it.
  PenaltyGrowthMode penalty_growth_mode = PenaltyGrowthMode::kFixed;
  double penalty_growth_max = 100.0;
  int cheap_subproblem = 3;
  static constexpr int kCostlySubproblemFactor = 4;
  // Warm start along the penalty path: before subproblem k >= 2, predict
  // x(beta_k) from the last two solutions, linear in 1/beta, and start there
  // if it lowers Q_{beta_k} (one Q evaluation, one gradient if taken).
  bool extrapolate = false;
  // Local infeasibility: stop with kInfeasible when both
  //  (a) infeasibility_window consecutive subproblems (beta growing all
  //      along) lowered ||c|| by less than the fraction
  //      infeasibility_decrease in all, and
  //  (b) x_{k+1} is a stationary point of the violation over the box:
  //      ||P_T(-grad ||c||)|| = ||P_T(-J_z^T c)|| / ||c|| <= infeasibility_stationarity_tol.
  // (a) alone is no evidence: with tau = eps1/eps0 ||c|| a start point with
  // ||grad f + beta J^T c|| <= tau passes each subproblem unmoved until beta
  // ||J^T c|| outgrows ||grad f|| + tau, which can take more than the window
  // (hs090: 30 subproblems, ||c|| = 0.13 unchanged, ||grad ||c|||| ~ 1e-3).
  // Converged subproblems give ||J_z^T c|| <= (||grad f|| + tau) / beta, so
  // at a true stationary point of ||c|| with c != 0, which no beta leaves,
  // (b) is reached as beta grows; away from one, beta grows until the
  // subproblems move x. (b) is absolute in the scale of x (as Ipopt's
  // restoration phase, which tests the stationarity of its l1 violation).
  int infeasibility_window = 30;
  double infeasibility_decrease = 0.01;
  double infeasibility_stationarity_tol = 1e-6;
  // A subproblem that stalls (no progress in double precision) at a point
  // outside the acceptable tolerances but with ||c|| lower than after the
  // previous subproblem by more than the fraction infeasibility_decrease
  // does not end the solve: beta grows and the next
  // subproblem starts there, at most max_stalled_subproblems times per solve
  // (0: every stall ends the solve, as before). At large beta the rounding of
  // grad Q (~ ||Hess Q|| eps_mach ||x||) can exceed tau while ||c|| still
  // falls ~ 1/beta. A stalled subproblem that reaches ||c|| <= eps0 ends
  // the solve acceptable or stalled, with its point; kConverged still needs
  // a subproblem that met (2.4).
  int max_stalled_subproblems = 100;
  // Runaway subproblems. At small beta, Q_beta can be unbounded below in the
  // box (f falls faster than beta/2 ||c||^2 rises: eigmaxc, ex2_1_7 of the
  // AMPL corpus), and an inner solver that only has to lower Q follows f to
  // -infinity, with ||c|| or ||x|| growing, until a limit ends the solve.
  // f -> -infinity needs ||z|| -> infinity (f is continuous on bounded
  // sets), and every accepted inner point has f(x) <= Q_beta(x_start) -
  // beta/2 ||c(x)||^2, so f, ||c|| and ||z|| running far from the start are
  // signs of the same descent. With kappa = runaway_violation_factor, the
  // inner solve is abandoned at the first accepted point with
  //   ||c(x)|| > kappa max(||c(x_start)||, 1),  or
  //   f(x) < f(x_start) - kappa max(|f(x_start)|, 1),  or
  //   ||z||_inf > min(kappa max(||z_start||_inf, 1), diverging_iterates_tol),
  // x_start the point the subproblem started from (x_k, x_0 or the
  // extrapolation). The subproblem then returns x_{k+1} = x_start (Q did
  // not increase, so (2.3) holds) and beta grows by
  // max(runaway_penalty_factor, alpha) instead of alpha: a larger beta
  // makes Q_beta bounded near the feasible set (beta > 2 |negative curvature
  // of f| / sigma_min(J)^2 for quadratic f and linear c). At most
  // max_runaway_restarts restarts per solve (beta up by >= 1e20 in all: a
  // false alarm, e.g. a start point far from a solution of large |x| or |f|,
  // costs only a faster beta ramp). After them only Ipopt's test remains:
  // ||z||_inf > diverging_iterates_tol ends the solve with kDiverging
  // (Ipopt's Diverging_Iterates) at the subproblem's start point.
  double runaway_violation_factor = 1e4;  // kappa (> 1; qpm_runaway_factor)
  double runaway_penalty_factor = 10.0;   // beta <- max(this, alpha) beta on a restart
  int max_runaway_restarts = 20;          // per solve
  double diverging_iterates_tol = 1e20;   // Ipopt's diverging_iterates_tol (on ||z||_inf)
  double feasibility_tol = 1e-8;  // eps0: stop when ||c(x_{k+1})||_2 <= eps0
  double stationarity_tol = 1e-8; // eps1: ||grad Q(x_{k+1})||_2 <= tau(x_{k+1})
  double tolerance_cap = 1e20;    // tau_cap of Def. 2.1; >= 1e20 is +inf, 0 fixed
  // A stalled solve ends "acceptable" (Ipopt's Solved_To_Acceptable_Level)
  // when ||c||_2 <= acceptable_feasibility_tol and the stationarity measure
  // <= acceptable_stationarity_tol; otherwise it ends stalled.
  double acceptable_feasibility_tol = 1e-6;
  double acceptable_stationarity_tol = 1e-6;
  int max_outer_iter = 500;       // outer iterations k before giving up
  long max_inner_iter = 10000000; // total inner iterations over all k
  double max_cpu_time = 1e6;      // seconds of process CPU time
  double max_wall_time = 0.0;     // seconds of wall-clock time; <= 0 means none
  // Progress that the stall monitors count: a relative decrease of Q above
  // stall_rounding, or a new lowest ||grad Q|| (inner_solver.hpp).
  double stall_rounding = 1e-14;
  GradientDescentOptions gd;
  TrustRegionOptions tr;
  LbfgsOptions lbfgs;

  // True when every field is in the range of its entry in OptionTable()
  // (option_table.hpp) and the fields agree with each other; otherwise `why`
  // names the first bad option and its value.
  bool IsValid(std::string* why) const;
};

}  // namespace qpm

#endif  // QPM_CORE_OPTIONS_HPP_
