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
  kInterior,         // log-barrier Newton steps on the bounds, finished by the trust region
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
// kModeDefault: the mode's own, made concrete by Options::Resolved.
enum class PreconditionerKind { kNone, kJacobi, kPenalty, kCholesky, kAuto, kModeDefault };  // inner/preconditioner.hpp
// The trust region's second-order correction of a rejected trial
// (docs/algorithm.md, "Second-order correction"); kModeDefault: none in the
// paper's mode, kSecondOrder in the default mode (Options::Resolved).
enum class CorrectionKind { kNone, kSecondOrder, kModeDefault };

// The paper's Delta_0: tr.initial_radius in paper mode, and the default
// mode's first radius over a box (TrustRegion::FirstRadius).
constexpr double kPapersInitialRadius = 1.0;

struct TrustRegionOptions {
  PreconditionerKind preconditioner = PreconditionerKind::kModeDefault;  // CG preconditioner: the mode's
  CorrectionKind correction = CorrectionKind::kModeDefault;  // of a rejected trial: the mode's
  int dense_limit = 3000;  // penalty preconditioner: dense m x m factor when m <= this
  // kAuto takes cholesky when its symbolic analysis predicts at most max(factor_min_flops, factor_flops_per_product
  // * w) flops and max(factor_min_nonzeros, factor_nonzeros_per_product * w)
  // entries in the factor, w = nnz(W) + 2 nnz(J) + n the work of one product
  // with H (docs/algorithm.md, "Choosing the preconditioner").
  double factor_flops_per_product = 2000.0;
  double factor_min_flops = 1e8;
  double factor_nonzeros_per_product = 100.0;
  double factor_min_nonzeros = 1e6;
  // kAuto where only the flops are beyond that budget: jacobi, and one step
  // with cholesky once a step's products with H cost this fraction of the
  // predicted factorization (in units of w); 0: never. The trial step's
  // counted work against the jacobi step's decides; a jacobi step cut at a
  // cholesky step's counted work switches without a trial (docs/algorithm.md).
  double auto_trial_fraction = 0.1;
  // A factorization's flops per entry a product streams in the same time
  // (BLAS 3 against memory-bound streaming; measured on cvxqp3 of nl-large,
  // docs/algorithm.md), for that comparison.
  double factor_flops_per_entry = 4.0;
  double initial_radius = 0.0;   // Delta_0; 0: the mode's (Options::Resolved)
  double max_radius = 1e3;       // Delta_max (paper assumption A9 needs a bound)
  double eta_accept = 0.1;       // accept the step when rho >= eta_accept
  double eta_expand = 0.75;      // grow the radius when rho > eta_expand at the boundary
  double eta_shrink = 0.25;      // shrink the radius when rho < eta_shrink
  double expand_factor = 2.0;    // Delta <- min(expand_factor Delta, max_radius)
  double shrink_factor = 0.25;   // Delta <- shrink_factor Delta
  // With an exact preconditioner (cholesky) and no box, a step at the
  // boundary whose rho is within exact_ratio of 1, in a subproblem that has
  // rejected no trial, sets Delta to max_radius: Q is quadratic along it to
  // rounding, and doubling would take log2(Delta_max / Delta) steps to reach
  // the Newton step of a quadratic (docs/algorithm.md, "The Newton path: a
  // sparse Cholesky of W + beta J_z^T J_z", Reuse). 0: never.
  double exact_ratio = 1e-6;
  // With an exact preconditioner (cholesky), an accepted step at Delta =
  // Delta_max with rho > eta_expand multiplies Delta_max by cap_growth for
  // the rest of the subproblem: a Newton step the model predicts well is
  // not cut at an absolute length that knows nothing of the problem's scale
  // (docs/algorithm.md, "The Newton path: a sparse Cholesky of W + beta
  // J_z^T J_z", Reuse). 1: never (max_radius then bounds Delta, the paper's
  // assumption A9).
  double cap_growth = 2.0;
  // With an exact preconditioner (cholesky) and no box, a point whose
  // decayed shift sigma factors at once and whose Newton step -(H + sigma
  // I)^{-1} g lies inside the ball tries sigma / shift_lowering_factor, then
  // that over the factor again, ... (0 once below the shift's floor), at most
  // shift_lowering_trials times, and keeps the first shift whose step reaches
  // the ball or the last that factors: the shift stands for W's inertia, not
  // for the radius (docs/algorithm.md, "The lowered shift"). 0: never.
  int shift_lowering_trials = 4;
  double shift_lowering_factor = 10.0;
  // With an exact preconditioner (cholesky) and no box, the W of an
  // accepted trial after a point whose factorization needed a shift is the
  // Hessian of the Lagrangian at lambda alone, not at lambda + beta c: the
  // Gauss-Newton model of the penalty term, which beta J^T J keeps convex
  // where W(lambda) is (docs/algorithm.md, "The Gauss-Newton model after a
  // shift"). false: always lambda + beta c.
  bool gauss_newton_after_shift = true;
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
  // step of 1e-8: a kink of the model, where tiny accepted steps would go on
  // for ever (docs/algorithm.md, "Stalls at the rounding floor").
  double collapsed_radius = 1e-8;
  long collapsed_window = 1000;
  // A runaway (InnerStatus::kRunaway) after this many consecutive accepted
  // steps of length max_radius (0: never): Q keeps falling along a direction
  // at the radius cap, the sign of a merit unbounded below, which the value
  // tests of InnerControl reach only after ~|f| / max_radius steps
  // (docs/algorithm.md, "Runaway subproblems").
  long capped_radius_window = 1000;
  // Stalled at once when the step (CG's converged one, or one cut by the
  // radius) has |p_i| <= resolution_steps * eps_mach * |z_i| for every i:
  // the model's minimizer, or the region the ratio test still trusts, is
  // within a few spacings of the doubles around z, so no representable
  // point lowers ||grad Q|| further (the rounding floor of grad Q, about
  // ||Hess Q|| eps_mach ||z||, is above tau). 0 disables the test.
  double resolution_steps = 4.0;
  // stall_window with an exact preconditioner (cholesky): each step is then
  // a Newton step, which near a minimizer brings a new low of ||grad Q|| or
  // of Q at once, so a drought of a few steps already means the rounding
  // floor (docs/algorithm.md, "Stalls at the rounding floor").
  long newton_stall_window = 10;
  // With that preconditioner a new low of ||grad Q|| is progress only below
  // this fraction of the last one: a Newton step near a minimizer cuts
  // ||grad Q|| by far more, while a walk in the rounding noise makes lows by
  // ever-smaller margins, each of which restarted the drought (same place).
  double newton_stall_gradient_drop = 0.5;
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
  // A projected-gradient step that frees fewer entries than this fraction of
  // the most one step of the phase freed counts as freeing none: a front
  // that has slowed to a trickle is freed faster by the face's CG, each
  // step costing a product (docs/algorithm.md, "Freeing many bounds in one
  // step"). 0: only steps that free nothing.
  double gradient_projection_trickle = 0.05;
  // With an exact preconditioner (cholesky), rounds of the step's third
  // phase: entries on a bound whose model gradient points into the box are
  // freed together and the faces solved again, until the model is
  // stationary on the box to CG's tolerance (inner/active_set.hpp; 0: never),
  // or a round lowers the model by less than release_gain times the step's
  // whole decrease so far (a round costs a solve on a new face).
  int release_rounds = 10;
  double release_gain = 0.1;
  // Bounded problems with a factorizing preconditioner: after a subproblem
  // whose trust region took more than this many factorizations per accepted
  // step (over at least 3 steps), the later subproblems take the interior
  // steps on the bounds (InnerSolverType::kInterior), each of which costs one
  // or two; 0: never (docs/algorithm.md, "Interior steps on the bounds").
  double interior_switch_factorizations = 20.0;
  // The same switch within the subproblem whose trust region reaches this
  // many accepted steps: the interior steps take over from there, for its
  // rest and the later subproblems. A Newton method that has not converged
  // in a hundred steps is crawling, as at a large beta along curved
  // constraints (docs/acopf.md); 0: never.
  long interior_switch_iterations = 100;
  // The interior steps from the first subproblem where z has at least this
  // many bounded entries and some row is curved (two Hessian evaluations
  // tell): the trust region's model of Q misses beta times the rows'
  // curvature, and its projected path pays per face change. Where no row is
  // curved, the first subproblem that moves starts again on the interior
  // steps if its trust region meets a nonconvex Q (a shifted
  // factorization). 0: never (docs/algorithm.md, "The interior start").
  long interior_start_bounds = 1000;
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
  double feasibility_decrease = 0.25;
  // ... by this factor (ALGENCAN's gamma = 10).
  double penalty_increase = 10.0;
  // Clips of the automatic beta_0 (Options::penalty_init = 0).
  double penalty_init_min = 1e-8;
  double penalty_init_max = 1e8;
  // lambda_0: the least-squares estimate argmin ||P(grad_z L(z_0, lambda))||
  // (Ipopt's constraint multiplier initialization), discarded (lambda_0 = 0)
  // when its max-norm exceeds init_max (Ipopt's constr_mult_init_max).
  bool least_squares_init = true;
  double init_max = 1e3;
  // The multiplier step is the Newton step of the augmented Lagrangian's
  // dual function, by at most this many CG iterations, where the inner
  // solver factors the Hessian of Q (trust region, cholesky preconditioner);
  // 0: always the first-order step (docs/algorithm.md, "Newton multiplier step").
  int newton_cg_iter = 50;
  // ... and only where ||c||_inf is at most this: far from feasibility the
  // step's model (face and W fixed) does not hold (docs/algorithm.md,
  // "Newton multiplier step").
  double newton_max_violation = 1e-1;
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

// The paper's tests (Mode::kPaper), in 2-norms: a solve converges when a
// subproblem met (2.4) and ||c(x_{k+1})||_2 <= eps0; a stalled one ends
// acceptable within the acceptable pair. The default mode reads
// TerminationOptions instead: one tolerance set per mode.
struct PaperTolerances {
  double feasibility_tol = 1e-8;   // eps0
  double stationarity_tol = 1e-8;  // eps1: (2.4) asks ||grad Q(x_{k+1})||_2 <= tau(x_{k+1}), tau >= eps1
  double acceptable_feasibility_tol = 1e-6;   // ||c||_2 of an acceptable stall
  double acceptable_stationarity_tol = 1e-6;  // stationarity measure of an acceptable stall
};

struct Options {
  Mode mode = Mode::kMultipliers;
  ScalingOptions scaling;
  MultiplierOptions multipliers;
  TerminationOptions termination;  // the default mode's tests
  PaperTolerances paper;           // the paper's tests
  InnerSolverType inner_solver = InnerSolverType::kTrustRegion;
  // beta_0; 0 leaves it to the mode: 1 in the paper's (Algorithm 1 asks
  // beta_0 >= 1), ALGENCAN's rule in the default mode, clipped to
  // [multipliers.penalty_init_min, multipliers.penalty_init_max]
  // (docs/algorithm.md, "The default mode").
  double penalty_init = 0.0;
  double PaperPenaltyInit() const { return penalty_init > 0.0 ? penalty_init : 1.0; }
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
  // Local infeasibility (docs/algorithm.md, "Local infeasibility"): stop
  // with kInfeasible when infeasibility_window consecutive subproblems
  // lowered ||c|| by less than the fraction infeasibility_decrease in all AND
  // x_{k+1} is a stationary point of the violation over the box,
  // ||P_T(-J_z^T c)|| / ||c|| <= infeasibility_stationarity_tol.
  int infeasibility_window = 30;
  double infeasibility_decrease = 0.01;
  double infeasibility_stationarity_tol = 1e-6;
  // A subproblem that stalls outside the acceptable tolerances but lowered
  // ||c|| by more than infeasibility_decrease goes on with a larger beta, at
  // most this many times per solve (docs/algorithm.md, "Stalls at the
  // rounding floor"; 0: every stall ends the solve).
  int max_stalled_subproblems = 100;
  // Default mode: a subproblem that stalls outside the acceptable tolerances
  // without lowering ||c||, where the objective holds entries of z at their
  // bounds against the violation's descent, goes on with beta raised to
  // where the first of them yields, at most this many times per solve
  // (docs/algorithm.md, "Stalls held at the bounds"; 0: never).
  int max_held_stalls = 3;
  // Runaway subproblems (docs/algorithm.md, "Runaway subproblems"): with
  // kappa = runaway_violation_factor, an inner solve is abandoned at the
  // first accepted point with ||c|| > kappa max(||c(x_start)||, 1), or
  // f < f(x_start) - kappa max(|f(x_start)|, 1), or ||z||_inf beyond its
  // limit; x_{k+1} = x_start and beta grows by max(runaway_penalty_factor,
  // alpha), at most max_runaway_restarts times per solve. After them
  // ||z||_inf > diverging_iterates_tol ends the solve with kDiverging.
  double runaway_violation_factor = 1e4;  // kappa (> 1; qpm_runaway_factor)
  double runaway_penalty_factor = 10.0;   // beta <- max(this, alpha) beta on a restart
  int max_runaway_restarts = 20;          // per solve
  double diverging_iterates_tol = 1e20;   // Ipopt's diverging_iterates_tol (on ||z||_inf)
  double tolerance_cap = 1e20;    // tau_cap of Def. 2.1; >= 1e20 is +inf, 0 fixed
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
  // These options with the mode-dependent defaults made concrete, once, for
  // every front end (qpm::Solve calls it): tr.preconditioner kModeDefault is
  // none (the paper's plain CG) in the paper's mode and auto in the default mode;
  // tr.correction kModeDefault none and second-order likewise;
  // tr.initial_radius 0 is 1 (the paper's Delta_0) in the paper's mode and
  // stays 0 in the default mode (TrustRegion: tr.max_radius without a box).
  Options Resolved() const;
};

}  // namespace qpm

#endif  // QPM_CORE_OPTIONS_HPP_
