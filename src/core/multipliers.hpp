// Multiplier estimates of the default mode (docs/algorithm.md, "The default
// mode"): the first estimate lambda_0, the least-squares estimate at
// the end, and the Newton step of the update lambda_{k+1}.
#ifndef QPM_CORE_MULTIPLIERS_HPP_
#define QPM_CORE_MULTIPLIERS_HPP_

#include "core/inner/face_solve.hpp"
#include "core/penalty.hpp"

namespace qpm {

// The least-squares multipliers at z: argmin over lambda of
//   || grad f(x) + J^T lambda ||^2 + || lambda_I ||^2
// over the entries of z = (x, s) not on a bound (the gradient of the
// Lagrangian in z; on a bound a bound multiplier absorbs it), as Ipopt's
// constraint-multiplier initialization. Solved by CG on the normal equations
// (CGLS, matrix-free in J_z, A y in the borrowed work->z). Returns zeros
// when the estimate's max-norm exceeds `max_abs` (a nearly rank-deficient J
// gives huge, meaningless estimates; Ipopt's constr_mult_init_max) or when
// it is not finite. `it` must hold values and derivatives at z.
Vector LeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it, double max_abs,
                               Workspace* work);

// The same estimate solved to rounding accuracy from `guess`, with no size
// limit: the multipliers a converged solve may report in place of
// lambda + beta c. By a sparse Cholesky of J_z F J_z^T in iterated Tikhonov
// steps where J is assembled and the factor is cheap, else by CGLS (up to
// max(50, min(2m, 1000)) iterations) (docs/algorithm.md, "Multipliers at
// the end"); flops_per_entry weighs the factor's flops against CGLS's
// streamed entries (TrustRegionOptions::factor_flops_per_entry). The factor
// allocates: it runs at the ends of subproblems, not in an inner loop.
Vector AccurateLeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it,
                                       const Vector& guess, double flops_per_entry,
                                       Workspace* work);

// The Newton step of the augmented Lagrangian's dual function at the end x
// of a subproblem (docs/algorithm.md, "Newton multiplier step"):
//   d = S^{-1} c,   S = J_F H_FF^{-1} J_F^T,   H = W + beta J_z^T J_z,
// F the entries of z = (x, s) off their bounds, by CG on S from the
// first-order step d = beta c (S^{-1} = beta I + (J W^{-1} J^T)^{-1}: CG
// adds the second term, which the first-order step lacks where J J^T is
// ill-conditioned). At most `max_iterations` products with S, each one
// solve with H_FF. The step goes from the first-order one toward d only as
// far as its predicted move of the minimizer stays in reach, and not at all
// where c, evaluated at the predicted minimizer (one counted evaluation),
// departs from its linearization by more than half of ||c||_inf. Adds the
// step to `lambda` and returns true; false (lambda untouched) without a
// positive definite H_FF or a finite step.
bool NewtonMultiplierStep(const AssembledPenalty& q, const Iterate& x, int max_iterations,
                          FaceSolve* solve, Vector* lambda);

}  // namespace qpm

#endif  // QPM_CORE_MULTIPLIERS_HPP_
