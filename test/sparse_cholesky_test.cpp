#define BOOST_TEST_MODULE sparse_cholesky
#include <boost/test/unit_test.hpp>

#include <vector>

#include <omp.h>

#include "core/linalg/serial_regions.hpp"
#include "core/linalg/sparse_cholesky.hpp"

namespace {

using qpm::LowerMatrix;
using qpm::Vector;

// The lower triangle of the 7-point Laplacian on a k x k x k grid plus
// `diagonal` I, with the off-diagonal entries of node i scaled by
// (1 + i / n) / 2 (no symmetry of the grid for an ordering to hide behind;
// still diagonally dominant, so positive definite for diagonal >= 0).
LowerMatrix Laplacian3d(int k, double diagonal) {
  const int n = k * k * k;
  std::vector<Eigen::Triplet<double>> entries;
  auto id = [k](int a, int b, int c) { return (a * k + b) * k + c; };
  for (int a = 0; a < k; ++a) {
    for (int b = 0; b < k; ++b) {
      for (int c = 0; c < k; ++c) {
        const int i = id(a, b, c);
        const double weight = 0.5 * (1.0 + static_cast<double>(i) / n);
        entries.emplace_back(i, i, 6.0 + diagonal);
        if (a + 1 < k) entries.emplace_back(id(a + 1, b, c), i, -weight);
        if (b + 1 < k) entries.emplace_back(id(a, b + 1, c), i, -weight);
        if (c + 1 < k) entries.emplace_back(id(a, b, c + 1), i, -weight);
      }
    }
  }
  LowerMatrix lower(n, n);
  lower.setFromTriplets(entries.begin(), entries.end());
  lower.makeCompressed();
  return lower;
}

// (lower + shift I) x, from the lower triangle.
Vector Times(const LowerMatrix& lower, double shift, const Vector& x) {
  return lower.selfadjointView<Eigen::Lower>() * x + shift * x;
}

// ||(A + shift I) x - b|| / ||b|| for x the factor's solve of b.
double SolveResidual(qpm::SparseCholesky* cholesky, const LowerMatrix& a, double shift) {
  const Vector b = Vector::LinSpaced(a.rows(), -1.0, 2.0).array().sin();
  Vector x;
  cholesky->Solve(b, &x);
  return (Times(a, shift, x) - b).norm() / b.norm();
}

}  // namespace

// The small grid takes the simplicial kernel, the large one CHOLMOD's
// supernodal one (CHOLMOD's rule: flops / nnz(L) >= 40): the
// permuted copy each factors must be the matrix it was given, in either
// triangle, with or without a shift, and with new values on the same pattern.
BOOST_AUTO_TEST_CASE(FactorSolvesTheGivenMatrixWithEitherKernel) {
  for (const int k : {6, 34}) {
    BOOST_TEST_CONTEXT("grid " << k << "^3") {
      LowerMatrix a = Laplacian3d(k, 0.0);
      const auto cholesky = qpm::MakeSparseCholesky();
      const qpm::FactorCost cost = cholesky->Analyze(a);
      BOOST_TEST((k == 34) == (cost.flops / cost.factor_nonzeros >= 40.0));
      BOOST_REQUIRE(cholesky->Factorize(a, 0.0));
      BOOST_TEST(SolveResidual(cholesky.get(), a, 0.0) <= 1e-12);
      BOOST_REQUIRE(cholesky->Factorize(a, 0.25));
      BOOST_TEST(SolveResidual(cholesky.get(), a, 0.25) <= 1e-12);
      a.coeffs() *= 2.0;  // new values, same pattern
      BOOST_REQUIRE(cholesky->Factorize(a, 0.0));
      BOOST_TEST(SolveResidual(cholesky.get(), a, 0.0) <= 1e-12);
    }
  }
}

// An indefinite matrix is refused (a normal outcome: the preconditioner then
// shifts), and the shift that makes it definite is accepted.
BOOST_AUTO_TEST_CASE(FactorRefusesAnIndefiniteMatrixAndTakesTheShiftThatFixesIt) {
  const LowerMatrix a = Laplacian3d(5, -7.0);  // 6 - 7 on the diagonal: indefinite
  const auto cholesky = qpm::MakeSparseCholesky();
  cholesky->Analyze(a);
  BOOST_TEST(!cholesky->Factorize(a, 0.0));
  BOOST_REQUIRE(cholesky->Factorize(a, 20.0));
  BOOST_TEST(SolveResidual(cholesky.get(), a, 20.0) <= 1e-12);
}

// The factorization runs CHOLMOD's OpenMP regions on the calling thread
// alone (serial_regions.hpp, SerialRegions) and hands the caller's own
// OpenMP setting back as it found it, on both kernels.
BOOST_AUTO_TEST_CASE(FactorLeavesTheCallersOpenMpSettingAsItFoundIt) {
  for (const int k : {6, 34}) {
    BOOST_TEST_CONTEXT("grid " << k << "^3") {
      omp_set_max_active_levels(2);
      const LowerMatrix a = Laplacian3d(k, 0.0);
      const auto cholesky = qpm::MakeSparseCholesky();
      cholesky->Analyze(a);
      BOOST_REQUIRE(cholesky->Factorize(a, 0.0));
      BOOST_TEST(SolveResidual(cholesky.get(), a, 0.0) <= 1e-12);
      BOOST_TEST(omp_get_max_active_levels() == 2);
    }
  }
}

// Inside SerialRegions a region runs inline on the calling thread (no team:
// nesting level 0); outside, the runtime runs it on the team asked for, and
// the caller's settings are back.
BOOST_AUTO_TEST_CASE(RegionsRunInlineInsideSerialRegionsAndOnTheirTeamOutside) {
  omp_set_max_active_levels(1);
  int level_inside = -1;
  int threads_inside = 0;
  {
    const qpm::SerialRegions serial;
#pragma omp parallel num_threads(2)
    {
      level_inside = omp_get_level();
      threads_inside = omp_get_num_threads();
    }
  }
  int level_outside = -1;
  int threads_outside = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
      level_outside = omp_get_level();
      threads_outside = omp_get_num_threads();
    }
  }
  BOOST_TEST(level_inside == 0);
  BOOST_TEST(threads_inside == 1);
  BOOST_TEST(level_outside == 1);
  BOOST_TEST(threads_outside == 2);
  BOOST_TEST(omp_get_max_active_levels() == 1);
}
