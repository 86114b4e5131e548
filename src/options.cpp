#include "qpm/options.hpp"

namespace qpm {

const char* ToString(InnerSolverType type) {
  switch (type) {
    case InnerSolverType::kGradientDescent: return "gradient-descent";
  }
  return "unknown";
}

namespace {
bool Fail(std::string* why, const char* message) {
  if (why) *why = message;
  return false;
}
}  // namespace

bool Options::IsValid(std::string* why) const {
  if (!(penalty_init >= 1.0)) return Fail(why, "penalty_init (beta0) must be >= 1");
  if (!(penalty_growth > 1.0)) return Fail(why, "penalty_growth (alpha) must be > 1");
  if (!(feasibility_tol > 0.0)) return Fail(why, "feasibility_tol (eps0) must be > 0");
  if (!(stationarity_tol > 0.0)) return Fail(why, "stationarity_tol (eps1) must be > 0");
  if (!(tolerance_cap >= 0.0)) return Fail(why, "tolerance_cap must be >= 0");
  if (max_outer_iter < 0) return Fail(why, "max_outer_iter must be >= 0");
  if (max_inner_iter < 0) return Fail(why, "max_inner_iter must be >= 0");
  if (!(max_cpu_time > 0.0)) return Fail(why, "max_cpu_time must be > 0");
  if (!(gd.armijo_c1 > 0.0 && gd.armijo_c1 < 0.5)) return Fail(why, "gd.armijo_c1 must be in (0, 0.5)");
  if (!(gd.backtrack_factor > 0.0 && gd.backtrack_factor < 1.0)) return Fail(why, "gd.backtrack_factor must be in (0, 1)");
  if (!(gd.step_growth >= 1.0)) return Fail(why, "gd.step_growth must be >= 1");
  if (!(gd.initial_step > 0.0)) return Fail(why, "gd.initial_step must be > 0");
  if (!(gd.rounding_allowance >= 0.0)) return Fail(why, "gd.rounding_allowance must be >= 0");
  if (gd.max_backtracks < 1) return Fail(why, "gd.max_backtracks must be >= 1");
  return true;
}

}  // namespace qpm
