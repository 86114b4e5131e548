#include "qpm/core/solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "core/fixed_variables.hpp"
#include "core/outer/outer_loop.hpp"
#include "core/scaled_problem.hpp"

namespace qpm {

const char* ToString(TerminationType type) {
  switch (type) {
    case TerminationType::kConverged: return "converged";
    case TerminationType::kAcceptable: return "acceptable";
    case TerminationType::kMaxOuterIterations: return "maximum outer iterations";
    case TerminationType::kInfeasible: return "locally infeasible";
    case TerminationType::kMaxInnerIterations: return "maximum inner iterations";
    case TerminationType::kMaxCpuTime: return "maximum CPU time";
    case TerminationType::kMaxWallTime: return "maximum wall time";
    case TerminationType::kStalled: return "stalled";
    case TerminationType::kUserStop: return "user stop";
    case TerminationType::kEvaluationError: return "evaluation error";
    case TerminationType::kDiverging: return "diverging iterates";
    case TerminationType::kInvalidNumberAtStart: return "invalid number at start";
    case TerminationType::kInvalidOptions: return "invalid options";
  }
  return "unknown";
}

std::string Summary::BriefReport() const {
  char line[320];
  std::snprintf(line, sizeof line,
                "QPM %s: %d outer / %ld inner iterations, f = %.10g, ||c|| = %.3e, "
                "||grad Q|| = %.3e, beta = %.4g, Q evals %ld, grad evals %ld, Hessian evals %ld",
                ToString(termination), outer_iterations, inner_iterations, f, c_norm,
                grad_q_norm, beta, q_evals, grad_evals, hess_evals);
  return line;
}

namespace {

// x_0 projected on the variable bounds: where the solve starts, and where
// Ipopt computes its scaling.
Vector ProjectedStart(const Problem& problem, const Vector& x0) {
  const int n = problem.num_variables(), m = problem.num_constraints();
  Vector x_l(n), x_u(n), g_l(m), g_u(m);
  problem.GetBounds(x_l, x_u, g_l, g_u);
  return x0.cwiseMax(x_l).cwiseMin(x_u);
}

// The summary of the scaled problem in the user's units.
void Unscale(const ScaledProblem& scaled, Summary* s) {
  const double df = scaled.objective_factor();
  s->f = scaled.UnscaleObjective(s->f);
  if (s->g.size() == scaled.num_constraints()) {
    scaled.UnscaleConstraints(s->g, s->g);
    s->c = s->c.cwiseQuotient(scaled.constraint_factors());
    scaled.UnscaleMultipliers(s->lambda, s->lambda);
    s->c_norm = s->c.norm();
    s->c_max = s->c.size() ? s->c.lpNorm<Eigen::Infinity>() : 0.0;
  }
  if (s->z_l.size() == scaled.num_variables()) {
    scaled.UnscaleBoundMultipliers(s->z_l, s->z_l);
    scaled.UnscaleBoundMultipliers(s->z_u, s->z_u);
  }
  s->grad_q_norm /= std::abs(df);
  s->grad_q_max /= std::abs(df);
}

// The paper's mode solves the problem as given; the default mode solves it
// with Ipopt's gradient-based scaling (Options::scaling) and reports in the
// user's units.
Summary SolveScaledOrNot(Problem* problem, const Vector& x0, const Options& options,
                         const Callbacks& callbacks, const Vector& lambda0, double start_cpu,
                         const CpuDeadline& deadline) {
  if (options.mode == Mode::kPaper || !options.scaling.gradient_based ||
      x0.size() != problem->num_variables() || problem->distributed()) {
    OuterLoop loop(problem, options, callbacks, start_cpu, deadline, nullptr);
    return loop.Run(x0, lambda0);
  }
  ScaledProblem scaled(problem, options.scaling);
  const bool evaluated = problem->AnyVariableBound() ? scaled.Compute(ProjectedStart(*problem, x0))
                                                     : scaled.Compute(x0);
  Vector scaled_lambda0;
  if (lambda0.size() == problem->num_constraints() && lambda0.size() > 0) {
    scaled_lambda0.resize(lambda0.size());
    scaled.ScaleMultipliers(lambda0, scaled_lambda0);
  }
  OuterLoop loop(&scaled, options, callbacks, start_cpu, deadline, &scaled);
  Summary summary = evaluated ? loop.Run(x0, scaled_lambda0) : loop.StartFailed(x0);
  Unscale(scaled, &summary);
  return summary;
}

}  // namespace

// Fixed variables are removed once (FixedVariables, as Ipopt's
// make_parameter); the outer loop and the inner solvers never see them.
Summary Solve(Problem* problem, const Vector& x0, const Options& user_options,
              const Callbacks& callbacks, const Vector& lambda0) {
  const Options options = user_options.Resolved();
  const double start_cpu = CpuSeconds();
  const CpuDeadline deadline(start_cpu + options.max_cpu_time, options.max_wall_time);
  // A distributed model keeps its fixed variables as bounds l = u.
  if (problem->distributed() || !FixedVariables::Any(*problem)) {
    return SolveScaledOrNot(problem, x0, options, callbacks, lambda0, start_cpu, deadline);
  }
  FixedVariables reduced(problem);
  Summary summary = SolveScaledOrNot(&reduced, reduced.Reduce(x0), options, callbacks, lambda0,
                                     start_cpu, deadline);
  reduced.Expand(x0, &summary);
  return summary;
}

}  // namespace qpm
