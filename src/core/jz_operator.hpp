// J_z = dc/dz, the Jacobian of the penalty's residual in z = (x, s)
// (docs/algorithm.md, "Bounds and inequalities: slacks"):
//
//   J_z = [J(x), -E],   E = the slack columns: E e_i = e_{slack_row(i)},
//
// so that J_z v = J v_x - E v_s and J_z^T w = (J^T w, -E^T w). Every product
// of the penalty, the multiplier estimates and the preconditioners with J_z
// goes through JzOperator; the slack part is the loop over the slacks here,
// J's part is the penalty's JacobianProducts (the assembled matrix, or a
// distributed model's operators: chosen once, when the penalty is built).
// Nothing here forms J_z^T J_z.
#ifndef QPM_CORE_JZ_OPERATOR_HPP_
#define QPM_CORE_JZ_OPERATOR_HPP_

#include <vector>

#include "core/iterate.hpp"
#include "core/linalg/sparse_cholesky.hpp"
#include "core/slack_layout.hpp"

namespace qpm {

// Products with J(x) at an iterate with derivatives (penalty.cpp).
class JacobianProducts {
 public:
  virtual ~JacobianProducts() = default;
  // out = J v_x (m-sized).
  virtual void Times(const Iterate& it, const ConstVectorRef& v, VectorRef out) = 0;
  // out = J^T w (x-sized).
  virtual void TransposeTimes(const Iterate& it, const ConstVectorRef& w, VectorRef out) = 0;
  // out += alpha J^T w (x-sized).
  virtual void TransposeTimesAdd(const Iterate& it, double alpha, const ConstVectorRef& w,
                                 VectorRef out) = 0;
  // jv += J v_x (m-sized), then out += alpha J^T jv (x-sized): the
  // J_z^T J_z part of a product with H, jv entering with J_z's slack part.
  virtual void AddGramTimes(const Iterate& it, double alpha, const ConstVectorRef& v,
                            VectorRef jv, VectorRef out) = 0;
  // out_i += alpha sum_r J_ri^2 (x-sized).
  virtual void AddColumnSquares(const Iterate& it, double alpha, VectorRef out) = 0;
  // out_r = sum_i J_ri^2 over the columns with free[i] != 0 (null: all; a
  // distributed model sums over all columns).
  virtual void RowSquares(const Iterate& it, const Vector* free, VectorRef out) = 0;
};

class JzOperator {
 public:
  JzOperator(const SlackLayout& layout, JacobianProducts* jacobian)
      : layout_(layout), jacobian_(*jacobian) {}

  // out = J_z v: v z-sized, out m-sized.
  void Times(const Iterate& it, const Vector& v, VectorRef out) const;
  // out = J_z^T w: w m-sized, out z-sized.
  void TransposeTimes(const Iterate& it, const Vector& w, Vector* out) const;
  // out = (out_x, 0) + J_z^T w and out = (out_x, 0) + alpha J_z^T w: J^T w
  // is added to x's block, and the slack entries are set (-w_j, -alpha w_j),
  // not added: the terms this completes, grad f and W v, have no slack part.
  void TransposeTimesAdd(const Iterate& it, const Vector& w, Vector* out) const;
  void TransposeTimesAdd(const Iterate& it, double alpha, const Vector& w, Vector* out) const;

  // jv = J_z v and out = (out_x, 0) + alpha J_z^T jv: v, out z-sized, jv
  // m-sized (HessianProduct's beta J_z^T J_z v; the assembled J is read
  // once for both products).
  void GramTimesAdd(const Iterate& it, double alpha, const Vector& v, VectorRef jv,
                    Vector* out) const;

  // out += alpha diag(J_z^T J_z) (z-sized): J's column squares on x's
  // block, 1 on each slack (its column is -e_j). Jacobi's diagonal.
  void AddColumnSquares(const Iterate& it, double alpha, Vector* out) const;
  // out = diag(J_z F J_z^T) (m-sized), F = diag(free) (z-sized 0/1, null for
  // all): the squared row norms of J_z over the free columns.
  void RowSquares(const Iterate& it, const Vector* free, VectorRef out) const;
  // J_z D J_z^T = J D_x J^T + E D_s E^T for a z-sized diagonal d: returns
  // the lower triangle of the first term and adds the second, diagonal, to
  // `diagonal` (m-sized). Assembled J only (a distributed model has no
  // matrix to form it from).
  LowerMatrix WeightedGram(const Iterate& it, const Vector& d, Vector* diagonal) const;

 private:
  const SlackLayout& layout_;
  JacobianProducts& jacobian_;
};

// An upper bound on nnz(J J^T) from a row-major J's pattern, O(nnz(J)): a
// column in k rows adds at most k^2 entries.
template <class RowMajorMatrix>
double GramBound(const RowMajorMatrix& j) {
  std::vector<int> rows_in_column(j.cols(), 0);
  for (int r = 0; r < j.outerSize(); ++r) {
    for (typename RowMajorMatrix::InnerIterator e(j, r); e; ++e) ++rows_in_column[e.col()];
  }
  double bound = 0.0;
  for (int k : rows_in_column) bound += static_cast<double>(k) * k;
  return bound;
}

}  // namespace qpm

#endif  // QPM_CORE_JZ_OPERATOR_HPP_
