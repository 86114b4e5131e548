// A point z = (x, s) of the penalty with the model values it needs, cached
// (penalty.hpp), and the one pattern of J that every iterate's values share.
#ifndef QPM_CORE_ITERATE_HPP_
#define QPM_CORE_ITERATE_HPP_

#include <cmath>
#include <vector>

#include "qpm/core/problem.hpp"

namespace qpm {

// J's compressed row-major pattern, one copy for every Iterate of a
// PenaltyFunction (docs/algorithm.md, "Memory budget").
struct JacobianPattern {
  int rows = 0, cols = 0;
  std::vector<int> outer, inner;
};

// A point z = (x, s) with the model values the penalty needs, cached.
struct Iterate {
  Vector x;                // z = (x, s), size n + number of slacks
  double f = 0.0;
  Vector g;                // g(x)
  Vector c;                // c(z)
  double c_squared = 0.0;  // ||c(z)||_2^2
  double lambda_c = 0.0;   // lambda' c(z) for the penalty's multipliers (0 without)
  Vector grad_f;
  Vector jacobian_values;  // J(x) = dg/dx over *jacobian_pattern
  JacobianPattern* jacobian_pattern = nullptr;
  int jacobian_slot = -1;  // J(x) held by a distributed model instead (DistributedModel)
  Vector grad_q;           // grad Q_beta(z) for the beta it was formed with
  double grad_q_norm = 0.0;  // stationarity ||P_T(-grad Q)||_2 (= ||grad Q|| unbounded)

  // The merit the inner solvers minimize: Q_beta, or L_A with multipliers.
  double Q(double beta) const { return f + lambda_c + 0.5 * beta * c_squared; }
  double c_norm() const { return std::sqrt(c_squared); }
  SparseMatrixView jacobian() {
    JacobianPattern& p = *jacobian_pattern;
    return SparseMatrixView(p.rows, p.cols, jacobian_values.size(), p.outer.data(),
                            p.inner.data(), jacobian_values.data());
  }
  ConstSparseMatrixView jacobian() const {
    const JacobianPattern& p = *jacobian_pattern;
    return ConstSparseMatrixView(p.rows, p.cols, jacobian_values.size(), p.outer.data(),
                                 p.inner.data(), jacobian_values.data());
  }
};

}  // namespace qpm

#endif  // QPM_CORE_ITERATE_HPP_
