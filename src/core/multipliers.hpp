// Multiplier estimates of the default mode (docs/algorithm.md, "Multiplier
// estimates"): the first estimate lambda_0 and the safeguarded first-order
// update lambda_{k+1} = P(lambda_k + beta_k c(x_{k+1})).
#ifndef QPM_CORE_MULTIPLIERS_HPP_
#define QPM_CORE_MULTIPLIERS_HPP_

#include "core/penalty.hpp"

namespace qpm {

// The least-squares multipliers at z: argmin over lambda of
//   || grad f(x) + J^T lambda ||^2 + || lambda_I ||^2
// over the entries of z = (x, s) not on a bound (the gradient of the
// Lagrangian in z; on a bound a bound multiplier absorbs it), as Ipopt's
// constraint-multiplier initialization. Solved by CG on the normal equations
// (CGLS, matrix-free in J, in the penalty's scratch vector). Returns zeros
// when the estimate's max-norm exceeds `max_abs` (a nearly rank-deficient J
// gives huge, meaningless estimates; Ipopt's constr_mult_init_max) or when
// it is not finite. `it` must hold values and derivatives at z.
Vector LeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it, double max_abs);

// The same estimate solved to rounding accuracy (CG from `guess`, up to
// max(50, min(2m, 1000)) iterations), with no size limit: the multipliers a
// converged solve may report in place of lambda + beta c
// (docs/algorithm.md, "Termination in the default mode").
Vector AccurateLeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it,
                                       const Vector& guess);

// lambda + beta c projected onto [-max_abs, max_abs]^m: the safeguarded
// first-order update (ALGENCAN), in place.
void UpdateMultipliers(double beta, const Vector& c, double max_abs, Vector* lambda);

}  // namespace qpm

#endif  // QPM_CORE_MULTIPLIERS_HPP_
