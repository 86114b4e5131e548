// Options that do not fit the problem, found before any evaluation: why, or
// an empty string.
#ifndef QPM_CORE_OUTER_REFUSAL_HPP_
#define QPM_CORE_OUTER_REFUSAL_HPP_

#include <string>

#include "core/penalty.hpp"
#include "qpm/core/options.hpp"

namespace qpm {

inline std::string Refusal(const Options& options, const PenaltyFunction& q) {
  std::string why;
  if (!options.IsValid(&why)) return why;
  const bool newton = options.inner_solver == InnerSolverType::kTrustRegion ||
                      options.inner_solver == InnerSolverType::kInterior;
  if (q.distributed() && options.inner_solver != InnerSolverType::kTrustRegion) {
    return "a distributed model is solved by the trust-region inner solver only "
           "(docs/petsc.md, Distributed models)";
  }
  if (newton && !q.has_hessian()) {
    return std::string("the ") + ToString(options.inner_solver) + " inner solver needs the Hessian of the Lagrangian, which the model "
           "does not provide; use lbfgs (hessian_approximation limited-memory)";
  }
  return "";
}

}  // namespace qpm

#endif  // QPM_CORE_OUTER_REFUSAL_HPP_
