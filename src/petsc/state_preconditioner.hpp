// A preconditioner of the penalty's Hessian H = W + beta J^T J for rows in
// TAOLCL's form, J = [A, B] over TaoSetStateDesignIS (A the state Jacobian,
// B the design Jacobian), built from the inverse of A that the program
// gives (TaoSetJacobianStateRoutine's Jinv) (docs/petsc.md, "The state
// Jacobian's inverse").
//
// With y = A^{-1}(s - B u), i.e. x = P (s, u), P = [A^{-1}, -A^{-1} B; 0, I],
// J P = [I, 0]: P^T H P is beta I plus P^T W P, whose design block is the
// reduced Hessian Z^T W Z, Z = [-A^{-1} B; I]. M^{-1} = P D^{-1} P^T with
// D = diag(beta I, d I), d the reduced curvature along (1, ..., 1) (a
// Rayleigh quotient, one W product per update), is SPD; each application
// costs one product with Jinv^T, one with Jinv, and one each with B^T and B.
#ifndef QPM_PETSC_STATE_PRECONDITIONER_HPP_
#define QPM_PETSC_STATE_PRECONDITIONER_HPP_

#include <petsctao.h>

#include <functional>

#include "petsc/state_design.hpp"

namespace qpm {
namespace petsc {

class StatePreconditioner {
 public:
  // W v into out, at the point of the last Hessian evaluation.
  using HessianProduct = std::function<PetscErrorCode(Vec v, Vec out)>;

  // `tao` holds the state and design Jacobians, Jinv and the index sets.
  static bool Available(Tao tao);
  // `split`: x's state and design entries, alive while this is.
  StatePreconditioner(Tao tao, const StateDesignSplit* split);
  ~StatePreconditioner();
  StatePreconditioner(const StatePreconditioner&) = delete;
  StatePreconditioner& operator=(const StatePreconditioner&) = delete;

  PetscErrorCode error() const { return error_; }
  // After W and the Jacobians were evaluated near the current point.
  PetscErrorCode Update(double beta, const HessianProduct& w);
  PetscErrorCode Apply(Vec r, Vec z);  // z = M^{-1} r, x's layout

 private:
  PetscErrorCode Transform(Vec x, Vec s, Vec t);  // (s, t) = P^T x
  PetscErrorCode Back(Vec s, Vec t, Vec x);       // x = P (s, t)

  Tao tao_;
  const StateDesignSplit& split_;
  PetscErrorCode error_ = 0;
  double beta_ = 1.0, d_ = 1.0;
  Vec s_ = nullptr, w_ = nullptr;   // the rows' layout
  Vec t_ = nullptr, e_ = nullptr;   // the design's layout
  Vec ys_ = nullptr, yd_ = nullptr; // x's state and design entries
  Vec x_ = nullptr, wx_ = nullptr;  // x's layout (the Rayleigh quotient)
};

}  // namespace petsc
}  // namespace qpm

#endif  // QPM_PETSC_STATE_PRECONDITIONER_HPP_
