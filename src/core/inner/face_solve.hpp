// Solves with H_FF, H = W + beta J_z^T J_z restricted to a face F of z (the
// entries off their bounds), from a factorization of H: what the Newton
// multiplier step needs (docs/algorithm.md, "Newton multiplier step"). The
// trust region's Cholesky preconditioner owns the one factorization and
// lends it between subproblems (InnerSolver::LendFactorization): the
// borrower's EvaluateAndFactor replaces W and the factor, and the
// preconditioner assembles and factors again at the trust region's next step.
#ifndef QPM_CORE_INNER_FACE_SOLVE_HPP_
#define QPM_CORE_INNER_FACE_SOLVE_HPP_

#include "core/penalty.hpp"

namespace qpm {

class FaceSolve {
 public:
  virtual ~FaceSolve() = default;
  // Evaluates W at x and factors H_FF, F the entries with free[i] != 0.
  // False when W fails or H_FF is not positive definite (a shift would be
  // needed): the step then has no meaning.
  virtual bool EvaluateAndFactor(const Iterate& x, const Vector& free) = 0;
  // z = H_FF^{-1} r for r zero off F (z is then zero off F).
  virtual void Solve(const Vector& r, Vector* z) = 0;
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_FACE_SOLVE_HPP_
