// Ipopt 3.11.9's SolveStatistics can only be built from (IpoptNLP, IpoptData,
// IpoptCalculatedQuantities), whose values its constructor reads. We hand it
// a stub IpoptNLP and a calculated-quantities subclass that answer zero, and
// override every accessor with QPM's own figures.
#ifndef QPM_SRC_STATISTICS_SHIM_HPP_
#define QPM_SRC_STATISTICS_SHIM_HPP_

#include <IpSmartPtr.hpp>
#include <IpSolveStatistics.hpp>

namespace qpm {

// What Statistics() reports about the most recent solve.
struct SolveFigures {
  int iterations = 0;          // inner iterations (Ipopt's iteration count)
  double cpu_time = 0.0;
  double wall_time = 0.0;
  int obj_evals = 0, constr_evals = 0, obj_grad_evals = 0, constr_jac_evals = 0,
      hess_evals = 0;
  double objective = 0.0;         // unscaled f
  double scaled_objective = 0.0;  // obj_scaling_factor * f
  double dual_inf = 0.0;          // max-norm of grad f + J^T lambda (unscaled)
  double scaled_dual_inf = 0.0;
  double constr_viol = 0.0;       // max-norm of c
};

Ipopt::SmartPtr<Ipopt::SolveStatistics> MakeStatistics(const SolveFigures& figures);

}  // namespace qpm

#endif  // QPM_SRC_STATISTICS_SHIM_HPP_
