#include "qpm/core/options.hpp"

namespace qpm {

const char* ToString(InnerSolverType type) {
  switch (type) {
    case InnerSolverType::kGradientDescent: return "gradient-descent";
    case InnerSolverType::kTrustRegion: return "trust-region";
    case InnerSolverType::kLbfgs: return "lbfgs";
  }
  return "unknown";
}

const char* ToString(Mode mode) {
  return mode == Mode::kPaper ? "paper" : "multipliers";
}

namespace {

bool Fail(std::string* why, const char* message) {
  if (why) *why = message;
  return false;
}

bool IsValid(const LineSearchOptions& o, std::string* why) {
  if (!(o.armijo_c1 > 0.0 && o.armijo_c1 < 0.5)) return Fail(why, "armijo_c1 must be in (0, 0.5)");
  if (!(o.backtrack_factor > 0.0 && o.backtrack_factor < 1.0)) return Fail(why, "backtrack_factor must be in (0, 1)");
  if (!(o.rounding_allowance >= 0.0)) return Fail(why, "rounding_allowance must be >= 0");
  if (o.max_backtracks < 1) return Fail(why, "max_backtracks must be >= 1");
  return true;
}

bool IsValid(const TrustRegionOptions& o, std::string* why) {
  if (!(o.initial_radius > 0.0)) return Fail(why, "tr.initial_radius must be > 0");
  if (!(o.max_radius >= o.initial_radius)) return Fail(why, "tr.max_radius must be >= tr.initial_radius");
  if (!(o.eta_accept > 0.0 && o.eta_accept < 1.0)) return Fail(why, "tr.eta_accept must be in (0, 1)");
  if (!(o.eta_shrink >= o.eta_accept && o.eta_shrink < o.eta_expand)) return Fail(why, "tr needs eta_accept <= eta_shrink < eta_expand");
  if (!(o.eta_expand < 1.0)) return Fail(why, "tr.eta_expand must be < 1");
  if (!(o.expand_factor > 1.0)) return Fail(why, "tr.expand_factor must be > 1");
  if (!(o.shrink_factor > 0.0 && o.shrink_factor < 1.0)) return Fail(why, "tr.shrink_factor must be in (0, 1)");
  if (!(o.cg_relative_tol > 0.0 && o.cg_relative_tol < 1.0)) return Fail(why, "tr.cg_relative_tol must be in (0, 1)");
  if (o.cg_max_iter < 0) return Fail(why, "tr.cg_max_iter must be >= 0");
  if (!(o.rho_regularization >= 0.0)) return Fail(why, "tr.rho_regularization must be >= 0");
  if (!(o.value_noise >= 0.0)) return Fail(why, "tr.value_noise must be >= 0");
  if (!(o.resolution_steps >= 0.0)) return Fail(why, "tr.resolution_steps must be >= 0");
  if (!(o.min_radius > 0.0)) return Fail(why, "tr.min_radius must be > 0");
  if (!(o.cauchy_decrease > 0.0 && o.cauchy_decrease < 0.5)) return Fail(why, "tr.cauchy_decrease must be in (0, 0.5)");
  if (o.max_cauchy_halvings < 1) return Fail(why, "tr.max_cauchy_halvings must be >= 1");
  return true;
}


bool IsValid(const MultiplierOptions& o, std::string* why) {
  if (!(o.max_multiplier > 0.0)) return Fail(why, "multipliers.max_multiplier must be > 0");
  if (!(o.feasibility_decrease > 0.0 && o.feasibility_decrease < 1.0)) return Fail(why, "multipliers.feasibility_decrease must be in (0, 1)");
  if (!(o.penalty_increase > 1.0)) return Fail(why, "multipliers.penalty_increase must be > 1");
  if (!(o.penalty_init >= 0.0)) return Fail(why, "multipliers.penalty_init must be >= 0");
  if (!(o.penalty_init_min > 0.0 && o.penalty_init_max >= o.penalty_init_min)) return Fail(why, "multipliers needs 0 < penalty_init_min <= penalty_init_max");
  if (!(o.init_max >= 0.0)) return Fail(why, "multipliers.init_max must be >= 0");
  return true;
}

bool IsValid(const TerminationOptions& o, std::string* why) {
  if (!(o.tol > 0.0)) return Fail(why, "tol must be > 0");
  if (!(o.dual_inf_tol > 0.0)) return Fail(why, "dual_inf_tol must be > 0");
  if (!(o.constr_viol_tol > 0.0)) return Fail(why, "constr_viol_tol must be > 0");
  if (!(o.compl_inf_tol > 0.0)) return Fail(why, "compl_inf_tol must be > 0");
  if (!(o.acceptable_tol > 0.0 && o.acceptable_dual_inf_tol > 0.0 &&
        o.acceptable_constr_viol_tol > 0.0 && o.acceptable_compl_inf_tol > 0.0)) {
    return Fail(why, "the acceptable tolerances must be > 0");
  }
  if (o.acceptable_iter < 0) return Fail(why, "acceptable_iter must be >= 0");
  if (!(o.s_max >= 1.0)) return Fail(why, "termination.s_max must be >= 1");
  return true;
}

}  // namespace

bool Options::IsValid(std::string* why) const {
  if (!qpm::IsValid(multipliers, why) || !qpm::IsValid(termination, why)) return false;
  if (!(penalty_init >= 1.0)) return Fail(why, "penalty_init (beta0) must be >= 1");
  if (!(penalty_growth > 1.0)) return Fail(why, "penalty_growth (alpha) must be > 1");
  if (!(penalty_growth_max >= penalty_growth)) return Fail(why, "penalty_growth_max must be >= penalty_growth");
  if (cheap_subproblem < 0) return Fail(why, "cheap_subproblem must be >= 0");
  if (infeasibility_window < 1) return Fail(why, "infeasibility_window must be >= 1");
  if (!(infeasibility_decrease >= 0.0 && infeasibility_decrease < 1.0)) return Fail(why, "infeasibility_decrease must be in [0, 1)");
  if (!(infeasibility_stationarity_tol >= 0.0)) return Fail(why, "infeasibility_stationarity_tol must be >= 0");
  if (max_stalled_subproblems < 0) return Fail(why, "max_stalled_subproblems must be >= 0");
  if (!(runaway_violation_factor > 1.0)) return Fail(why, "runaway_violation_factor must be > 1");
  if (!(runaway_penalty_factor > 1.0)) return Fail(why, "runaway_penalty_factor must be > 1");
  if (max_runaway_restarts < 0) return Fail(why, "max_runaway_restarts must be >= 0");
  if (!(diverging_iterates_tol > 0.0)) return Fail(why, "diverging_iterates_tol must be > 0");
  if (!(feasibility_tol > 0.0)) return Fail(why, "feasibility_tol (eps0) must be > 0");
  if (!(stationarity_tol > 0.0)) return Fail(why, "stationarity_tol (eps1) must be > 0");
  if (!(tolerance_cap >= 0.0)) return Fail(why, "tolerance_cap must be >= 0");
  if (!(acceptable_feasibility_tol >= 0.0)) return Fail(why, "acceptable_feasibility_tol must be >= 0");
  if (!(acceptable_stationarity_tol >= 0.0)) return Fail(why, "acceptable_stationarity_tol must be >= 0");
  if (max_outer_iter < 0) return Fail(why, "max_outer_iter must be >= 0");
  if (max_inner_iter < 0) return Fail(why, "max_inner_iter must be >= 0");
  if (!(max_cpu_time > 0.0)) return Fail(why, "max_cpu_time must be > 0");
  if (!(stall_rounding >= 0.0)) return Fail(why, "stall_rounding must be >= 0");
  if (!qpm::IsValid(gd.line_search, why)) return false;
  if (!(gd.step_growth >= 1.0)) return Fail(why, "gd.step_growth must be >= 1");
  if (!(gd.initial_step > 0.0)) return Fail(why, "gd.initial_step must be > 0");
  if (gd.stall_window < 1 || tr.stall_window < 1 || lbfgs.stall_window < 1) {
    return Fail(why, "stall_window must be >= 1");
  }
  if (!qpm::IsValid(tr, why)) return false;
  if (lbfgs.memory < 1) return Fail(why, "lbfgs.memory must be >= 1");
  if (!qpm::IsValid(lbfgs.line_search, why)) return false;
  if (!(lbfgs.curvature_eps >= 0.0)) return Fail(why, "lbfgs.curvature_eps must be >= 0");
  return true;
}

}  // namespace qpm
