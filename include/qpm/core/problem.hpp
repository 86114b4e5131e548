// The core's view of a nonlinear program, in Eigen types only.
//
//   minimize f(x)  subject to  g_l <= g(x) <= g_u,  x_l <= x <= x_u,
//
// x in R^n, g: R^n -> R^m, infinite bounds as +-infinity, g_l == g_u for an
// equality row and x_l == x_u for a fixed variable. The sparse Jacobian J(x)
// of g has a pattern fixed once (values refreshed in place); optionally the
// Hessian of the Lagrangian
//   W(x, sigma, lambda) = sigma * Hess f(x) + sum_i lambda_i Hess g_i(x),
// stored as its lower triangle (row >= col).
//
// Users may implement Problem directly; TnlpProblem adapts an Ipopt TNLP.
// Every Eval* returns false when the model cannot evaluate at x; the caller
// treats that as an evaluation failure (never an abort).
#ifndef QPM_CORE_PROBLEM_HPP_
#define QPM_CORE_PROBLEM_HPP_

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace qpm {

// Row-major so that J v and J^T c are both single passes over the values.
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
using Vector = Eigen::VectorXd;
using ConstVectorRef = Eigen::Ref<const Eigen::VectorXd>;
using VectorRef = Eigen::Ref<Eigen::VectorXd>;
// J's values over a pattern held elsewhere: the solver keeps one copy of J's
// pattern for all its points (docs/algorithm.md, "Memory budget"). Reads and
// writes as a SparseMatrix does (valuePtr, InnerIterator, products).
using SparseMatrixView = Eigen::Map<SparseMatrix>;
using ConstSparseMatrixView = Eigen::Map<const SparseMatrix>;

// A view of a compressed matrix's own storage.
inline SparseMatrixView ViewOf(SparseMatrix& matrix) {
  return SparseMatrixView(matrix.rows(), matrix.cols(), matrix.nonZeros(), matrix.outerIndexPtr(),
                          matrix.innerIndexPtr(), matrix.valuePtr());
}

class DistributedModel;  // qpm/core/distributed.hpp

class Problem {
 public:
  virtual ~Problem() = default;

  virtual int num_variables() const = 0;
  virtual int num_constraints() const = 0;

  // Bounds (sizes n, n, m, m). The default: free variables and equality rows
  // g(x) = 0.
  virtual void GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const;
  // False when every variable is free (both bounds infinite), so that the
  // solver's set-up need not read n-vectors of infinite bounds. The default
  // reads GetBounds; override it when the answer is known.
  virtual bool AnyVariableBound() const;

  // Sets `jacobian` to the m x n pattern of J (values arbitrary). Called
  // once by the solver (a wrapper's set-up may ask again).
  virtual void InitJacobian(SparseMatrix* jacobian) const = 0;

  virtual bool EvalObjective(const ConstVectorRef& x, double* f) = 0;
  virtual bool EvalConstraints(const ConstVectorRef& x, VectorRef g) = 0;
  virtual bool EvalGradient(const ConstVectorRef& x, VectorRef grad_f) = 0;
  // Overwrites the values of `jacobian`, whose pattern came from InitJacobian.
  virtual bool EvalJacobian(const ConstVectorRef& x, SparseMatrixView* jacobian) = 0;

  // A promise from the solver: the next Eval* call passes the same x as the
  // previous one, unchanged (the values, then the derivatives, of one
  // point). An adapter may skip its own check of x (TnlpProblem tells the
  // TNLP new_x = false without reading x); ignoring it is always correct.
  virtual void SamePointNext() {}

  // Second derivatives are optional (the L-BFGS inner solver needs none).
  virtual bool has_hessian() const { return false; }
  // Sets `hessian` to the n x n lower-triangle pattern of W. Called once.
  virtual void InitHessian(SparseMatrix* hessian) const { hessian->resize(0, 0); }
  virtual bool EvalHessian(const ConstVectorRef& /*x*/, double /*sigma*/,
                           const ConstVectorRef& /*lambda*/,
                           SparseMatrix* /*hessian*/) {
    return false;
  }

  // A model split over processes returns its collective operations
  // (qpm/core/distributed.hpp); then the sizes, bounds and Eval* above are
  // this process's blocks. Null (the default): the whole model is here.
  virtual DistributedModel* distributed() { return nullptr; }
};

}  // namespace qpm

#endif  // QPM_CORE_PROBLEM_HPP_
