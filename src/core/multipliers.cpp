#include "core/multipliers.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/IterativeLinearSolvers>

namespace qpm {

namespace {

using ColumnMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

bool OnBound(const PenaltyFunction& q, const Iterate& it, int i) {
  return q.has_bounds() && (it.x[i] <= q.lower()[i] || it.x[i] >= q.upper()[i]);
}

// A = [J^T; -E_I^T] restricted to the rows of the free entries of z, and
// b = -[grad f; 0] likewise: min ||A lambda - b|| is the estimate.
void LeastSquaresSystem(const PenaltyFunction& q, const Iterate& it, ColumnMatrix* a, Vector* b) {
  const int n = q.num_x();
  std::vector<int> row_of(q.n(), -1);
  int rows = 0;
  for (int i = 0; i < q.n(); ++i) {
    if (!OnBound(q, it, i)) row_of[i] = rows++;
  }
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(it.jacobian.nonZeros() + q.num_slacks());
  for (int j = 0; j < it.jacobian.outerSize(); ++j) {  // row j of J = column j of A
    for (SparseMatrix::InnerIterator e(it.jacobian, j); e; ++e) {
      if (row_of[e.col()] >= 0) entries.emplace_back(row_of[e.col()], j, e.value());
    }
  }
  for (int s = 0; s < q.num_slacks(); ++s) {
    if (row_of[n + s] >= 0) entries.emplace_back(row_of[n + s], q.slack_row(s), -1.0);
  }
  a->resize(rows, q.m());
  a->setFromTriplets(entries.begin(), entries.end());
  b->setZero(rows);
  for (int i = 0; i < n; ++i) {
    if (row_of[i] >= 0) (*b)[row_of[i]] = -it.grad_f[i];
  }
}

// min ||A lambda - b|| by CG on the normal equations from `guess`; `guess`
// itself when no entry of z is free.
Vector SolveLeastSquares(const PenaltyFunction& q, const Iterate& it, int max_iterations,
                         double tolerance, const Vector& guess) {
  ColumnMatrix a;
  Vector b;
  LeastSquaresSystem(q, it, &a, &b);
  if (a.rows() == 0) return guess;
  Eigen::LeastSquaresConjugateGradient<ColumnMatrix> solver;
  solver.setMaxIterations(max_iterations);
  solver.setTolerance(tolerance);
  solver.compute(a);
  return solver.solveWithGuess(b, guess);
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
  return SolveLeastSquares(q, it, std::max(50, std::min(2 * q.m(), 1000)), 1e-15, guess);
}

void UpdateMultipliers(double beta, const Vector& c, double max_abs, Vector* lambda) {
  for (int j = 0; j < lambda->size(); ++j) {
    (*lambda)[j] = std::min(std::max((*lambda)[j] + beta * c[j], -max_abs), max_abs);
  }
}

}  // namespace qpm
