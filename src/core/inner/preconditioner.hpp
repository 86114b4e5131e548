// Preconditioners for the truncated CG of QPM-TR, whose matrix is
//   H = W + beta J_z^T J_z,   J_z = [J, -E] (E: slack columns of rows),
// and whose conditioning worsens as beta grows. Each is rebuilt after each
// Hessian evaluation (once per accepted iterate), never inside CG:
//
//   jacobi:   M = diag(H) = |diag W| + beta sum_i J_ij^2 (+ beta on slacks)
//   penalty:  M = D + beta J_z^T J_z with D = |diag W| (floored), applied
//             exactly by the Sherman-Morrison-Woodbury identity
//               M^{-1} = D^{-1} - D^{-1} J_z^T (I/beta + J_z D^{-1} J_z^T)^{-1} J_z D^{-1},
//             with the m x m matrix S = I/beta + J_z D^{-1} J_z^T factored densely
//             (m <= dense_limit) or by a sparse Cholesky. M captures the
//             beta-dependent part of H exactly, so the CG iterations per step
//             stay flat as beta grows (only W's off-diagonal part is left).
//   cholesky: M = H + delta I on the face, by a sparse Cholesky
//             (cholesky_preconditioner.hpp): CG's first iterate is the
//             Newton step; delta > 0 only where H is not positive definite.
//   auto:     from the patterns of W and J before the first iteration:
//             cholesky where the symbolic analysis predicts its
//             factorization affordable, else jacobi. Where only the
//             predicted flops exceed the budget, it may switch once during
//             the solve (AutoPreconditioner): jacobi until a step's CG costs
//             auto_trial_fraction of one factorization, then one step with
//             cholesky, and the one of less counted work stays; a jacobi
//             step that costs a whole factorization unfinished switches at
//             once (docs/algorithm.md, "Choosing the preconditioner").
#ifndef QPM_CORE_INNER_PRECONDITIONER_HPP_
#define QPM_CORE_INNER_PRECONDITIONER_HPP_

#include <memory>

#include "core/inner/face_solve.hpp"
#include "core/inner/truncated_cg.hpp"
#include "core/linalg/sparse_cholesky.hpp"
#include "core/linalg/symmetric_columns.hpp"
#include "core/penalty.hpp"
#include "qpm/core/options.hpp"

namespace qpm {

class CholeskyPreconditioner;

const char* ToString(PreconditionerKind kind);

class Preconditioner : public CgPreconditioner {
 public:
  virtual PreconditionerKind kind() const = 0;
  virtual const char* name() const { return ToString(kind()); }
  // Rebuilds M from W (loaded by q->EvaluateHessian(it)) and J at it.
  // False when no M could be formed.
  virtual bool Update(const Iterate& it) = 0;
  long factorizations() const { return factorizations_; }
  // M = H whenever H is positive definite on the face: a step at which CG
  // converged inside the region is then a Newton step.
  virtual bool exact() const { return false; }
  // Solves with H on a face from the factorization M is made of, or null
  // when M is not a factorization of H.
  virtual FaceSolve* LendFactorization() { return nullptr; }
  // H assembled at the point of the last Update, by whole columns, or null
  // when M is not built from it or the problem has no bounds (its one
  // reader is the active-set step's projected search).
  virtual const SymmetricColumns* Assembled() const { return nullptr; }
  // While held, a factorizing M keeps the face it has for a new one (any
  // factored face gives an SPD M): the trust region's second-order
  // correction, one loose solve, is not worth a factorization.
  virtual void HoldFace(bool /*hold*/) {}
  // The shift sigma >= 0 of the next step's model H + sigma I: the diagonal
  // shift its factorizations try first (a factorizing M that needed one,
  // decayed as Ipopt's delta_w), 0 for any other M. Called once per point,
  // after Update.
  virtual double StepShift() { return 0.0; }
  // The step shift lowered toward the trust-region step for gradient g and
  // radius Delta on the whole space (no box): StepShift's sigma where M is
  // no factorization or lowering does not apply (TrustRegionOptions::
  // shift_lowering_trials); M is then factored with the shift returned.
  virtual double LowerStepShift(const Vector& /*g*/, double /*radius*/, int /*trials*/,
                                double /*factor*/) {
    return StepShift();
  }
  // The CG iterations a step may take, of max_iter: fewer only where M may
  // still change during the solve (AutoPreconditioner).
  virtual int StepIterations(int max_iter) const { return max_iter; }
  // Whether the last factorization needed a diagonal shift: H was not
  // positive definite on its face (false for any M that is no factorization).
  virtual bool Shifted() const { return false; }

 protected:
  long factorizations_ = 0;  // numeric sparse or dense factorizations so far
};

// What a candidate's factorization would cost, against one product with H
// (the unit of CG's work): see docs/algorithm.md, "Choosing the preconditioner".
bool Affordable(const FactorCost& cost, double product_work, const TrustRegionOptions& options);
// nnz(W) + 2 nnz(J) + n: the flops of one product with H, up to a factor 2.
double ProductWork(const AssembledPenalty& q, const SparseMatrix& jacobian_pattern);

// The Cholesky factorization of W + beta J_z^T J_z where J_z^T J_z is sparse
// and the factor fits the memory budget of options (Affordable by its
// nonzeros alone), else null.
std::unique_ptr<CholeskyPreconditioner> MakeFactorization(const TrustRegionOptions& options,
                                                          AssembledPenalty q);

// The preconditioner options.preconditioner names, for q's patterns; null
// for kNone. kAuto and a penalty preconditioner whose S would be dense are
// resolved here, once per solve.
std::unique_ptr<Preconditioner> MakePreconditioner(const TrustRegionOptions& options,
                                                   PenaltyFunction* q);

}  // namespace qpm

#endif  // QPM_CORE_INNER_PRECONDITIONER_HPP_
