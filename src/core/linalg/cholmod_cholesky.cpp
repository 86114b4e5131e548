// SparseCholesky by CHOLMOD (Chen, Davis, Hager & Rajamanickam, ACM TOMS
// 35(3), 2008): AMD/METIS ordering; its messages are silenced (a matrix that
// is not positive definite is a normal outcome here, reported by Factorize).
// Simplicial LL^T below kSupernodalFlops, else CHOLMOD's own choice
// (supernodal where flops / nnz(L) >= 40): the supernodal kernels run on
// OpenMP threads, whose contention with the rest of the machine costs more
// than their BLAS 3 gains below that size (docs/algorithm.md, "The Newton
// path: a sparse Cholesky of W + beta J_z^T J_z", which has the measurements).
#include <cholmod.h>

#include "core/linalg/sparse_cholesky.hpp"

namespace qpm {
namespace {

class CholmodCholesky : public SparseCholesky {
 public:
  CholmodCholesky() {
    cholmod_start(&common_);
    common_.print = 0;
    common_.error_handler = nullptr;
    common_.final_ll = 1;  // keep L L^T (the solve is the same)
  }
  ~CholmodCholesky() override {
    if (factor_) cholmod_free_factor(&factor_, &common_);
    if (x_) cholmod_free_dense(&x_, &common_);
    if (y_) cholmod_free_dense(&y_, &common_);
    if (e_) cholmod_free_dense(&e_, &common_);
    cholmod_finish(&common_);
  }
  CholmodCholesky(const CholmodCholesky&) = delete;
  CholmodCholesky& operator=(const CholmodCholesky&) = delete;

  FactorCost Analyze(const LowerMatrix& lower) override {
    common_.supernodal = CHOLMOD_AUTO;
    FactorCost cost = AnalyzeOnce(lower);
    if (factor_ && cost.flops < kSupernodalFlops) {
      common_.supernodal = CHOLMOD_SIMPLICIAL;
      cost = AnalyzeOnce(lower);
    }
    return cost;
  }

  bool Factorize(const LowerMatrix& lower, double shift) override {
    if (!factor_) return false;
    cholmod_sparse a = View(lower);
    double beta[2] = {shift, 0.0};
    const int ok = cholmod_factorize_p(&a, beta, nullptr, 0, factor_, &common_);
    factored_ = ok && common_.status == CHOLMOD_OK && factor_->minor == factor_->n;
    return factored_;
  }

  void Solve(const Vector& b, Vector* x) override {
    cholmod_dense rhs;
    rhs.nrow = rhs.d = static_cast<size_t>(b.size());
    rhs.ncol = 1;
    rhs.nzmax = rhs.nrow;
    rhs.x = const_cast<double*>(b.data());
    rhs.z = nullptr;
    rhs.xtype = CHOLMOD_REAL;
    rhs.dtype = CHOLMOD_DOUBLE;
    cholmod_solve2(CHOLMOD_A, factor_, &rhs, nullptr, &x_, nullptr, &y_, &e_, &common_);
    *x = Eigen::Map<const Vector>(static_cast<const double*>(x_->x), b.size());
  }

 private:
  static constexpr double kSupernodalFlops = 1e9;

  FactorCost AnalyzeOnce(const LowerMatrix& lower) {
    if (factor_) cholmod_free_factor(&factor_, &common_);
    cholmod_sparse a = View(lower);
    factor_ = cholmod_analyze(&a, &common_);
    if (!factor_) return {1e300, 1e300};  // out of memory: unaffordable
    return {common_.lnz, common_.fl};
  }

  // A cholmod_sparse header over Eigen's arrays (no copy).
  static cholmod_sparse View(const LowerMatrix& lower) {
    cholmod_sparse a;
    a.nrow = static_cast<size_t>(lower.rows());
    a.ncol = static_cast<size_t>(lower.cols());
    a.nzmax = static_cast<size_t>(lower.nonZeros());
    a.p = const_cast<int*>(lower.outerIndexPtr());
    a.i = const_cast<int*>(lower.innerIndexPtr());
    a.nz = nullptr;
    a.x = const_cast<double*>(lower.valuePtr());
    a.z = nullptr;
    a.stype = -1;  // lower triangle of a symmetric matrix
    a.itype = CHOLMOD_INT;
    a.xtype = CHOLMOD_REAL;
    a.dtype = CHOLMOD_DOUBLE;
    a.sorted = 1;
    a.packed = 1;
    return a;
  }

  cholmod_common common_;
  cholmod_factor* factor_ = nullptr;
  cholmod_dense* x_ = nullptr;  // solve2's reusable work space
  cholmod_dense* y_ = nullptr;
  cholmod_dense* e_ = nullptr;
  bool factored_ = false;
};

}  // namespace

std::unique_ptr<SparseCholesky> MakeSparseCholesky() { return std::make_unique<CholmodCholesky>(); }

}  // namespace qpm
