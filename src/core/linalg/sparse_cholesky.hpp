// A sparse Cholesky factorization A + shift I = L L^T of a symmetric matrix
// given by its lower triangle, behind one small interface: the
// preconditioners (core/inner/preconditioner.hpp) do not know which backend
// runs. The pattern is analysed once (fill-reducing ordering, symbolic
// factor); Factorize may then be called with new values on that pattern as
// often as needed. The backend is CHOLMOD (SuiteSparse; cholmod_cholesky.cpp).
#ifndef QPM_CORE_LINALG_SPARSE_CHOLESKY_HPP_
#define QPM_CORE_LINALG_SPARSE_CHOLESKY_HPP_

#include <memory>

#include <Eigen/SparseCore>

#include "qpm/core/problem.hpp"

namespace qpm {

// Column-major, lower triangle, sorted and compressed.
using LowerMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

// The symbolic analysis' prediction of the numeric factorization's cost.
struct FactorCost {
  double factor_nonzeros = 0.0;  // nnz(L)
  double flops = 0.0;            // of one numeric factorization
};

class SparseCholesky {
 public:
  virtual ~SparseCholesky() = default;
  // Orders and analyses the pattern of `lower` (its values are not read).
  virtual FactorCost Analyze(const LowerMatrix& lower) = 0;
  // Factors lower + shift I, on the analysed pattern. False when that matrix
  // is not (numerically) positive definite.
  virtual bool Factorize(const LowerMatrix& lower, double shift) = 0;
  // x = (A + shift I)^{-1} b with the last successful factorization. Work
  // space is kept between calls: no allocation after the first.
  virtual void Solve(const Vector& b, Vector* x) = 0;
};

std::unique_ptr<SparseCholesky> MakeSparseCholesky();

}  // namespace qpm

#endif  // QPM_CORE_LINALG_SPARSE_CHOLESKY_HPP_
