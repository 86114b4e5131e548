#include "solve_log.hpp"

#include <cmath>
#include <limits>

#include "qpm/ipopt/application.hpp"

namespace qpm {

using Ipopt::J_ITERSUMMARY;
using Ipopt::J_MAIN;
using Ipopt::J_SUMMARY;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

void PrintBanner(Ipopt::Journalist& jnlst, const char* version) {
  jnlst.Printf(J_SUMMARY, J_MAIN,
               "\n******************************************************************************\n"
               "This is qpm %s, the Quadratic Penalty Method behind Ipopt's interface.\n"
               "Default mode: multiplier estimates and Ipopt's termination test;\n"
               "qpm_mode paper: the paper's Algorithm 1 with 2-norm tests.\n"
               "******************************************************************************\n\n",
               version);
}

void PrintHeader(Ipopt::Journalist& jnlst, const TnlpProblem& problem, const Options& o) {
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of variables............................: %8d\n",
               problem.num_variables());
  long bounded = 0, fixed = 0;
  if (problem.AnyVariableBound()) {  // else no n-vectors of infinite bounds to read
    Vector x_l(problem.num_variables()), x_u(problem.num_variables());
    Vector g_l(problem.num_constraints()), g_u(problem.num_constraints());
    problem.GetBounds(x_l, x_u, g_l, g_u);
    bounded = ((x_l.array() > -kInf) || (x_u.array() < kInf)).count();
    fixed = (x_l.array() == x_u.array()).count();
  }
  const Vector& g_l = problem.row_lower();
  const Vector& g_u = problem.row_upper();
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of variables with bounds................: %8ld (%ld fixed)\n",
               bounded, fixed);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of equality constraints.................: %8d\n",
               problem.num_equalities());
  const long free_rows = ((g_l.array() <= -kInf) && (g_u.array() >= kInf)).count();
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of inequality constraints (slacks)......: %8ld\n",
               problem.num_constraints() - problem.num_equalities() - free_rows);
  if (free_rows > 0) {
    jnlst.Printf(J_SUMMARY, J_MAIN, "Number of free rows (no bounds, not used)......: %8ld\n",
                 free_rows);
  }
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of nonzeros in constraint Jacobian......: %8ld\n",
               problem.jacobian_nonzeros());
  if (o.mode == Mode::kMultipliers) {
    jnlst.Printf(J_SUMMARY, J_MAIN,
                 "Mode: multipliers; inner solver: %s; tol = %g, dual_inf_tol = %g, "
                 "constr_viol_tol = %g (max-norms, Ipopt's test)\n\n",
                 ToString(o.inner_solver), o.termination.tol, o.termination.dual_inf_tol,
                 o.termination.constr_viol_tol);
  } else jnlst.Printf(J_SUMMARY, J_MAIN,
               "Mode: paper; inner solver: %s; beta0 = %g, alpha = %g, eps0 = %g, eps1 = %g, tau_cap = %s\n\n",
               ToString(o.inner_solver), o.PaperPenaltyInit(), o.penalty_growth,
               o.paper.feasibility_tol, o.paper.stationarity_tol,
               o.tolerance_cap >= 1e20 ? "inf (adaptive)"
                                       : (o.tolerance_cap == 0.0 ? "0 (fixed)" : "finite"));
  jnlst.Printf(J_ITERSUMMARY, J_MAIN,
               "outer      beta       objective     ||c||_2    ||gradQ||        tau   inner"
               "   Q evals  gQ evals\n");
}

void PrintOuterLine(Ipopt::Journalist& jnlst, const OuterRecord& r, double obj_scaling) {
  jnlst.Printf(J_ITERSUMMARY, J_MAIN, "%5d %9.3e %15.8e %11.4e %12.4e %10.3e %7ld %9ld %9ld%s\n", r.k,
               r.beta, r.f / obj_scaling, r.c_norm, r.grad_q_norm, r.tau, r.inner_iterations,
               r.q_evals, r.grad_evals,
               r.inner_status != InnerStatus::kRunaway ? ""
               : r.followed ? "  runaway of f at a feasible point: followed"
                            : "  runaway: restart from x_k");
}

void PrintFooter(Ipopt::Journalist& jnlst, const Summary& s, const CallbackCounts& counts,
                 double obj_scaling, double wall_time, Ipopt::ApplicationReturnStatus status) {
  jnlst.Printf(J_SUMMARY, J_MAIN, "\nNumber of outer iterations.........................: %ld\n",
               static_cast<long>(s.outer_iterations));
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of inner iterations.........................: %ld\n",
               s.inner_iterations);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Final penalty parameter beta.......................: %g\n\n",
               s.beta);
  jnlst.Printf(J_SUMMARY, J_MAIN, "                                   (scaled)                 (unscaled)\n");
  jnlst.Printf(J_SUMMARY, J_MAIN, "Objective...............: %24.16e  %24.16e\n", s.f,
               s.f / obj_scaling);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Constraint violation....: %24.16e  %24.16e  (||c||_2; max-norm %.3e)\n",
               s.c_norm, s.c_norm, s.c_max);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Dual infeasibility......: %24.16e  %24.16e  (projected-gradient 2-norm)\n\n",
               s.grad_q_norm, s.grad_q_norm / std::abs(obj_scaling));
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of objective function evaluations             = %ld\n", counts.eval_f);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of objective gradient evaluations             = %ld\n", counts.eval_grad_f);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of constraint evaluations (eval_g)            = %ld\n", counts.eval_g);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of constraint Jacobian evaluations            = %ld\n", counts.eval_jac_g);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Number of Lagrangian Hessian evaluations             = %ld\n", counts.eval_h);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Penalty evaluations: Q %ld, grad Q %ld, Hessian %ld, Hessian-vector products %ld\n",
               s.q_evals, s.grad_evals, s.hess_evals, s.hess_products);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Factorizations (preconditioner and inner steps).....: %ld\n",
               s.factorizations);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Total CPU secs in QPM (incl. function evaluations) = %10.3f\n",
               s.cpu_time);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Total wall secs in NLP function evaluations        = %10.3f\n",
               counts.wall_time);
  jnlst.Printf(J_SUMMARY, J_MAIN, "Total wall-clock secs                              = %10.3f\n",
               wall_time);
  jnlst.Printf(J_SUMMARY, J_MAIN, "\nEXIT: %s\n", ExitMessage(status));
}

}  // namespace qpm
