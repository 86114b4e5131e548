// The quadratic penalty of the paper, eq. (1.1), extended to bounds and
// inequality rows through slacks (docs/algorithm.md):
//
//   z = (x, s),  s one slack per inequality row  g_l,i < g_u,i,
//   c(z)_j = g_j(x) - g_l,j   (equality row j)
//   c(z)_j = g_j(x) - s_j     (inequality row j, g_l,j <= s_j <= g_u,j)
//   Q_beta(z)      = f(x) + beta/2 ||c(z)||^2   over the box  l <= z <= u,
//   grad_x Q       = grad f(x) + beta J(x)^T c,   grad_s Q = -beta c_I,
//
// Without bounds and inequalities z = x and this is the paper's Q exactly.
// Slacks keep Q twice differentiable (the slack-free form
// beta/2 dist(g, [g_l, g_u])^2 has a jump in its Hessian at the bounds,
// which would break the trust-region model); minimizing over s gives the
// same value.
//
// Stationarity over the box is measured by the norm of the projected
// gradient of Calamai & More (Math. Prog. 39, 1987): grad Q projected on the
// tangent cone of the box, i.e. grad Q with the entries removed that sit on
// a bound and point out of the box. It equals ||grad Q|| (paper eq. (2.4))
// when no bound binds, vanishes exactly at the box's KKT points, and bounds
// the other common measure: ||P(z - grad Q) - z|| <= ||P_T(-grad Q)||
// (their Lemma 3.1), so a point passing our test passes that one too. We do
// not use ||P(z - grad Q) - z|| itself: it is capped by the distance to the
// bounds, so with the feasibility-aware tolerance tau = eps1/eps0 ||c|| an
// infeasible corner can pass it for every beta (docs/algorithm.md,
// "Projected inner solvers and the stationarity measure").
//
// Multiplier estimates (the default mode, docs/algorithm.md): with lambda
// set (MeritFunction::SetMultipliers), the merit is the augmented Lagrangian
//   L_A(z) = f(x) + lambda' c(z) + beta/2 ||c(z)||^2,
//   grad_x L_A = grad f + J^T y,  grad_s L_A = -y_I,  y = lambda + beta c,
//   Hess L_A v = W(y) v_x + beta J_z^T J_z v,
// i.e. the penalty with beta c replaced by y everywhere but the curvature
// term. Without multipliers (the paper's mode) none of this is computed and
// Q is the paper's, to the last bit.
//
// An Iterate caches f, g, c, grad f and J at its point, so that Q and grad Q
// for a new beta cost no model callbacks (Algorithm 1, line 4 compares Q at
// x_k and x_0). Counting: one Q evaluation is one (f, g) pair, one grad Q
// evaluation one (grad f, J) pair, one Hessian evaluation one W.
//
// The parts, each in its own header: the layout of z (SlackLayout), the one
// operator for products with J_z = [J, -E] (JzOperator), the merit (beta,
// lambda, c and grad Q of an iterate: MeritFunction), and the work vector
// the penalty owns for its borrowers (Workspace). The measures the outer
// loop tests (dual infeasibility, the violation's stationarity) are in
// stationarity.hpp.
#ifndef QPM_CORE_PENALTY_HPP_
#define QPM_CORE_PENALTY_HPP_

#include <memory>
#include <optional>

#include "core/iterate.hpp"
#include "core/jz_operator.hpp"
#include "core/merit.hpp"
#include "core/slack_layout.hpp"
#include "core/workspace.hpp"

namespace qpm {

struct PenaltyCounts {
  long q_evals = 0;       // (f, g) pairs
  long grad_evals = 0;    // (grad f, J) pairs
  long hess_evals = 0;    // Lagrangian Hessians
  long hess_products = 0; // Hessian-of-Q times vector (CG iterations and checks)
};

class PenaltyFunction;

// A penalty whose model is held whole by this process (not distributed,
// qpm/core/distributed.hpp): W and J are assembled matrices and every vector
// is whole, so a local dot product is the true one. The components written
// for that case only (the factorizing preconditioners and the Newton
// multiplier step on their factor, gradient descent and its line search,
// L-BFGS) take an AssembledPenalty instead of a PenaltyFunction, so that the
// compiler refuses them a penalty that may be distributed;
// PenaltyFunction::assembled() makes one only where the model is not.
class AssembledPenalty {
 public:
  PenaltyFunction& penalty() const { return *q_; }
  PenaltyFunction* operator->() const { return q_; }
  // W's lower triangle (pattern from construction, values of the last
  // EvaluateHessian).
  const SparseMatrix& hessian() const;
  // J's pattern as a matrix with zero values (a copy: for set-up only).
  void JacobianPatternMatrix(SparseMatrix* jacobian) const;

 private:
  friend class PenaltyFunction;
  explicit AssembledPenalty(PenaltyFunction* q) : q_(q) {}
  PenaltyFunction* q_;
};

class PenaltyFunction {
 public:
  explicit PenaltyFunction(Problem* problem);
  ~PenaltyFunction();
  // Iterates point to its JacobianPattern, and the parts to each other: it
  // stays where it was made.
  PenaltyFunction(const PenaltyFunction&) = delete;
  PenaltyFunction& operator=(const PenaltyFunction&) = delete;

  const SlackLayout& layout() const { return layout_; }
  const JzOperator& jz() const { return jz_; }
  const MeritFunction& merit() const { return merit_; }
  MeritFunction& merit() { return merit_; }
  // The solve's shared work vector, owned here (workspace.hpp lists who
  // borrows it and why the borrows never overlap).
  Workspace* workspace() { return &workspace_; }
  const PenaltyCounts& counts() const { return counts_; }
  Problem* problem() const { return problem_; }
  // The model is split over processes (Problem::distributed()): J and W are
  // its operators, and assembled() is empty.
  bool distributed() const { return distributed_; }

  // Sizes all vectors of `it` and gives it the shared Jacobian pattern.
  void Allocate(Iterate* it) const;
  // f, g and c at it->x (one Q evaluation). False on failure or non-finite values.
  bool EvaluateValues(Iterate* it);
  // grad f and J at it->x (one grad Q evaluation), then grad Q for the
  // merit's beta.
  bool EvaluateDerivatives(Iterate* it);
  // The caller's promise that the next evaluation is at the z of the last
  // one, unchanged (Problem::SamePointNext): the derivatives and W of a
  // trial point right after its values.
  void SamePointNext() { problem_->SamePointNext(); }

  // Second order. W = Hessian of the Lagrangian at x with sigma = 1 and
  // lambda = beta c (+ lambda of L_A: MeritFunction::FirstOrderMultipliers;
  // one Hessian evaluation), kept until the next call; then
  //   Hess Q v = W v_x (+ 0 on the slacks) + beta J_z^T J_z v
  // is applied matrix-free in O(nnz(W) + nnz(J)), never forming J_z^T J_z.
  bool has_hessian() const { return problem_->has_hessian(); }
  bool EvaluateHessian(const Iterate& it);
  // W at the merit's lambda alone (0 without multipliers): beta c_i Hess c_i
  // dropped, the Gauss-Newton model of the penalty term (the trust region's
  // after a shifted point; docs/algorithm.md, "The Gauss-Newton model after
  // a shift"). One Hessian evaluation.
  bool EvaluateGaussNewtonHessian(const Iterate& it);
  // The same W at given multipliers y (size m) instead of lambda + beta c:
  // the primal-dual interior steps' own (inner/barrier_newton.hpp).
  bool EvaluateHessianAt(const Iterate& it, const Vector& y);
  void HessianProduct(const Iterate& it, const Vector& v, Vector* out);
  void HessianDiagonal(VectorRef d) const;  // d = diag(W), size n_x
  // This penalty as an AssembledPenalty, for the serial-only components;
  // none for a distributed model.
  std::optional<AssembledPenalty> assembled() {
    if (distributed_) return std::nullopt;
    return AssembledPenalty(this);
  }

  // How J and W are held and applied (penalty.cpp): the assembled matrices
  // here, or a distributed model's operators; chosen once, at construction.
  class Algebra;

 private:
  friend class AssembledPenalty;
  class Assembled;
  class Operators;

  // W's lower triangle and J's pattern (AssembledPenalty).
  const SparseMatrix& hessian() const { return hessian_; }
  void JacobianPatternMatrix(SparseMatrix* jacobian) const;

  void ReadJacobianPattern();
  void ClearFreeRows(SparseMatrixView jacobian) const;
  void SymmetricProduct(const ConstVectorRef& v, VectorRef out) const;

  Problem* problem_;
  bool distributed_;
  SlackLayout layout_;
  std::unique_ptr<Algebra> algebra_;
  JzOperator jz_;          // over layout_ and algebra_
  MeritFunction merit_;    // over layout_ and jz_
  Workspace workspace_;    // z-sized, lent (workspace.hpp)
  PenaltyCounts counts_;
  mutable JacobianPattern jacobian_pattern_;  // Iterate::jacobian_pattern of every iterate
  SparseMatrix hessian_;  // lower triangle of W
  Vector lambda_;         // beta c (or lambda + beta c), the multipliers W was formed with
  Vector jv_;             // J_z v, HessianProduct's own m-vector
};

inline const SparseMatrix& AssembledPenalty::hessian() const { return q_->hessian(); }
inline void AssembledPenalty::JacobianPatternMatrix(SparseMatrix* jacobian) const {
  q_->JacobianPatternMatrix(jacobian);
}

}  // namespace qpm

#endif  // QPM_CORE_PENALTY_HPP_
