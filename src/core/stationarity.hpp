// Measures at a point of the penalty that the outer loop and the default
// mode's strategies decide on; none calls the model (O(nnz(J)) at most).
#ifndef QPM_CORE_STATIONARITY_HPP_
#define QPM_CORE_STATIONARITY_HPP_

#include "core/penalty.hpp"

namespace qpm {

// Ipopt's dual measures at a point: the max-norm of grad Q over the
// entries of z not blocked by a bound (the blocked ones are absorbed by
// bound multipliers z_L, z_U >= 0, so this is ||grad_z L - z_L + z_U||_inf
// with L's multipliers y = lambda + beta c), and ||(z_L, z_U)||_1.
// With weights, also the max-norm of the weighted entries: the dual
// infeasibility of the unscaled problem when the penalty works on a
// ScaledProblem.
struct DualMeasures {
  double dual_inf = 0.0;
  double bound_multipliers_l1 = 0.0;
  double weighted_dual_inf = 0.0;
};
// Weights of the entries of z: `x` for every x entry, `slacks[i]` for slack i.
struct DualWeights {
  double x = 1.0;
  Vector slacks;
};
DualMeasures Dual(const PenaltyFunction& q, const Iterate& it,
                  const DualWeights* weights = nullptr);

// The same dual infeasibility (max-norm over the entries not blocked by a
// bound) of the Lagrangian at the multipliers alone, grad f + J_z^T lambda
// = grad Q - beta J_z^T c: what lambda explains of grad f at z without the
// penalty term (docs/algorithm.md, "The default mode"). J_z^T c goes to
// work->z.
double DualInfeasibilityAtMultipliers(const PenaltyFunction& q, const Iterate& it,
                                      Workspace* work);

// Stationarity of the violation ||c(z)|| over the box: the norm of
// grad ||c|| = J_z^T c / ||c|| projected on the tangent cone as
// Iterate::grad_q_norm; 0 when c = 0. Small with ||c|| large: z is (nearly)
// a stationary point of the violation, the evidence of local infeasibility
// (docs/algorithm.md, "Local infeasibility"). J_z^T c goes to work->z.
double ViolationStationarity(const PenaltyFunction& q, const Iterate& it, Workspace* work);

// The penalty at which the first entry of z that the objective holds at a
// bound against the violation's descent yields: over the blocked entries
// (grad Q pushes them out of the box) where J_z^T c points inward, the least
// |a_i| / |b_i|, b = J_z^T c and a = grad Q - beta b (f's and the
// multipliers' part): above it, a_i + beta b_i changes sign. +inf where no
// entry is so held (docs/algorithm.md, "Stalls held at the bounds"). J_z^T c
// goes to work->z.
double HeldBoundsRelease(const PenaltyFunction& q, const Iterate& it, Workspace* work);

}  // namespace qpm

#endif  // QPM_CORE_STATIONARITY_HPP_
