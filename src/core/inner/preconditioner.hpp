// Preconditioners for the truncated CG of QPM-TR, whose matrix is
//   H = W + beta J_z^T J_z,   J_z = [J, -E] (E: slack columns of rows),
// and whose conditioning worsens as beta grows. Both are rebuilt after each
// Hessian evaluation (once per accepted iterate), never inside CG:
//
//   jacobi:  M = diag(H) = |diag W| + beta sum_i J_ij^2 (+ beta on slacks)
//   penalty: M = D + beta J_z^T J_z with D = |diag W| (floored), applied
//            exactly by the Sherman-Morrison-Woodbury identity
//              M^{-1} = D^{-1} - D^{-1} J_z^T (I/beta + J_z D^{-1} J_z^T)^{-1} J_z D^{-1},
//            with the m x m matrix S = I/beta + J_z D^{-1} J_z^T factored densely
//            (m <= dense_limit) or by a sparse LDL^T. M captures the
//            beta-dependent part of H exactly, so the CG iterations per step
//            stay flat as beta grows (only W's off-diagonal part is left).
//            Where S would be too dense for the sparse LDL^T (a variable in
//            many rows: sum over columns of (rows in the column)^2 above
//            kDenseProductFactor (nnz(J) + m)), it is not formed: M is the
//            jacobi one instead, decided once from J's pattern.
#ifndef QPM_CORE_INNER_PRECONDITIONER_HPP_
#define QPM_CORE_INNER_PRECONDITIONER_HPP_

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>

#include "qpm/core/options.hpp"
#include "core/penalty.hpp"

namespace qpm {

using PreconditionerType = PreconditionerKind;

const char* ToString(PreconditionerType type);

class Preconditioner {
 public:
  Preconditioner(PreconditionerType type, PenaltyFunction* q, int dense_limit);

  static constexpr double kDenseProductFactor = 20.0;

  // The kind in use: penalty becomes jacobi at the first Update where S
  // would be too dense (above).
  PreconditionerType type() const { return type_; }
  // Rebuilds M from diag(W) (loaded by q->EvaluateHessian(it)) and J at it.
  bool Update(const Iterate& it);
  // z = M^{-1} r.
  void Apply(const Vector& r, Vector* z);

 private:
  void UpdateJacobi(const Iterate& it);
  bool ProductTooDense(const SparseMatrix& j) const;
  bool UpdatePenalty(const Iterate& it);

  PreconditionerType type_;
  PenaltyFunction* q_;
  int dense_limit_;
  const Iterate* at_ = nullptr;
  Vector diag_;      // jacobi: diag(H); penalty: D
  Vector t_, y_;     // m-vectors
  Eigen::LLT<Eigen::MatrixXd> dense_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> sparse_;
  bool use_dense_ = true;
  bool pattern_checked_ = false;
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_PRECONDITIONER_HPP_
