#include "core/multipliers.hpp"

#include <algorithm>
#include <cmath>

namespace qpm {

namespace {

bool OnBound(const PenaltyFunction& q, const Iterate& it, int i) {
  return q.has_bounds() && (it.x[i] <= q.lower()[i] || it.x[i] >= q.upper()[i]);
}

// A = [J^T; -E_I^T] restricted to the rows of the free entries of z, and
// b = -[grad f; 0] likewise, applied without forming A: rows of z on a bound
// are zero in every product. A y goes to the penalty's scratch vector.
class LeastSquaresOperator {
 public:
  LeastSquaresOperator(const PenaltyFunction& q, const Iterate& it)
      : q_(q), it_(it), ay_(q.scratch()) {}

  // ay_ = A y.
  const Vector& Apply(const Vector& y) {
    const int n = q_.num_x();
    ay_.head(n).setZero();
    const ConstSparseMatrixView jacobian = it_.jacobian();
    for (int j = 0; j < jacobian.outerSize(); ++j) {
      for (ConstSparseMatrixView::InnerIterator e(jacobian, j); e; ++e) ay_[e.col()] += e.value() * y[j];
    }
    for (int s = 0; s < q_.num_slacks(); ++s) ay_[n + s] = -y[q_.slack_row(s)];
    Mask(&ay_);
    return ay_;
  }
  // A^T (b - A y): the normal-equation residual at y (ay_ overwritten).
  Vector NormalResidual(const Vector& y) {
    Apply(y);
    const int n = q_.num_x();
    for (int i = 0; i < n; ++i) ay_[i] = Free(i) ? -it_.grad_f[i] - ay_[i] : 0.0;
    ay_.tail(q_.num_slacks()) *= -1.0;
    return Transposed(ay_);
  }
  // A^T r for r zero on the rows of z at a bound.
  Vector Transposed(const Vector& r) const {
    Vector out = it_.jacobian() * r.head(q_.num_x());
    for (int s = 0; s < q_.num_slacks(); ++s) out[q_.slack_row(s)] -= r[q_.num_x() + s];
    return out;
  }
  // The squared column norms of A (1 for an empty column): Jacobi on A^T A.
  Vector InverseColumnNorms() const {
    Vector d = Vector::Zero(q_.m());
    const ConstSparseMatrixView jacobian = it_.jacobian();
    for (int j = 0; j < jacobian.outerSize(); ++j) {
      for (ConstSparseMatrixView::InnerIterator e(jacobian, j); e; ++e) {
        if (Free(e.col())) d[j] += e.value() * e.value();
      }
    }
    for (int s = 0; s < q_.num_slacks(); ++s) {
      if (Free(q_.num_x() + s)) d[q_.slack_row(s)] += 1.0;
    }
    for (int j = 0; j < d.size(); ++j) d[j] = d[j] > 0.0 ? 1.0 / d[j] : 1.0;
    return d;
  }
  bool AnyFree() const {
    for (int i = 0; i < q_.n(); ++i) {
      if (Free(i)) return true;
    }
    return false;
  }

 private:
  bool Free(int i) const { return !OnBound(q_, it_, i); }
  void Mask(Vector* v) const {
    if (!q_.has_bounds()) return;
    for (int i = 0; i < v->size(); ++i) {
      if (!Free(i)) (*v)[i] = 0.0;
    }
  }

  const PenaltyFunction& q_;
  const Iterate& it_;
  Vector& ay_;
};

// min ||A lambda - b|| by Jacobi-preconditioned CG on the normal equations
// (CGLS) from `guess`, the residual recomputed from lambda each iteration;
// stops when ||A^T r|| <= tolerance ||A^T b||. `guess` itself when no entry
// of z is free.
Vector SolveLeastSquares(const PenaltyFunction& q, const Iterate& it, int max_iterations,
                         double tolerance, const Vector& guess) {
  LeastSquaresOperator a(q, it);
  if (!a.AnyFree()) return guess;
  const Vector d = a.InverseColumnNorms();
  const double threshold = tolerance * tolerance * a.NormalResidual(Vector::Zero(q.m())).squaredNorm();
  Vector y = guess;
  Vector s = a.NormalResidual(y);
  if (threshold == 0.0) return Vector::Zero(q.m());
  if (s.squaredNorm() < threshold) return y;
  Vector p = d.cwiseProduct(s);
  double rz = s.dot(p);
  for (int i = 0; i < max_iterations; ++i) {
    const double ap = a.Apply(p).squaredNorm();
    if (!(ap > 0.0)) break;
    y += (rz / ap) * p;
    s = a.NormalResidual(y);
    if (s.squaredNorm() < threshold) break;
    const double rz_next = s.dot(d.cwiseProduct(s));
    p = d.cwiseProduct(s) + (rz_next / rz) * p;
    rz = rz_next;
  }
  return y;
}

}  // namespace

Vector LeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it, double max_abs) {
  const Vector zero = Vector::Zero(q.m());
  if (q.m() == 0) return zero;
  const Vector estimate = SolveLeastSquares(q, it, std::max(20, std::min(q.m(), 200)), 1e-10, zero);
  const double size = estimate.lpNorm<Eigen::Infinity>();
  return std::isfinite(size) && size <= max_abs ? estimate : zero;
}

Vector AccurateLeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it,
                                       const Vector& guess) {
  if (q.m() == 0) return Vector::Zero(0);
  // CG ends in m iterations in exact arithmetic; past 2m + 10 it only stirs rounding.
  const int iterations = std::min(std::max(50, std::min(2 * q.m(), 1000)), 2 * q.m() + 10);
  return SolveLeastSquares(q, it, iterations, 1e-15, guess);
}

void UpdateMultipliers(double beta, const Vector& c, double max_abs, Vector* lambda) {
  for (int j = 0; j < lambda->size(); ++j) {
    (*lambda)[j] = std::min(std::max((*lambda)[j] + beta * c[j], -max_abs), max_abs);
  }
}

}  // namespace qpm
