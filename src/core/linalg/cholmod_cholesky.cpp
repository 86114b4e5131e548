// SparseCholesky by CHOLMOD (Chen, Davis, Hager & Rajamanickam, ACM TOMS
// 35(3), 2008): AMD/METIS ordering; its messages are silenced (a matrix that
// is not positive definite is a normal outcome here, reported by Factorize).
// Simplicial or supernodal by CHOLMOD's own rule (supernodal where flops /
// nnz(L) >= 40), its OpenMP regions run inline on the calling thread
// (SerialRegions; docs/algorithm.md, "The Newton path: a sparse Cholesky of
// W + beta J_z^T J_z", Backend settings, has the measurements).
//
// P A P' is built once after the analysis and factored with the natural
// ordering, instead of CHOLMOD's transposes at every call (same section of
// docs/algorithm.md, which has why and the measurements).
#include <cholmod.h>

#include <algorithm>
#include <vector>

#include "core/linalg/serial_regions.hpp"
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
    const SerialRegions serial;
    common_.supernodal = CHOLMOD_AUTO;
    const FactorCost cost = AnalyzeOnce(lower);
    permuted_.resize(0, 0);
    if (factor_ && factor_->n > 0) PrePermute(lower);
    return cost;
  }

  bool Factorize(const LowerMatrix& lower, double shift) override {
    if (!factor_) return false;
    cholmod_sparse a;
    if (permuted_.nonZeros() > 0) {
      double* values = permuted_.valuePtr();
      const double* from = lower.valuePtr();
      for (size_t k = 0; k < slot_.size(); ++k) values[slot_[k]] = from[k];
      a = View(permuted_, stype_);
    } else {
      a = View(lower, -1);
    }
    double beta[2] = {shift, 0.0};
    const SerialRegions serial;
    const int ok = cholmod_factorize_p(&a, beta, nullptr, 0, factor_, &common_);
    factored_ = ok && common_.status == CHOLMOD_OK && factor_->minor == factor_->n;
    return factored_;
  }

  void Solve(const Vector& b, Vector* x) override {
    const bool permuted = permuted_.nonZeros() > 0;
    if (permuted) {
      for (Eigen::Index k = 0; k < b.size(); ++k) pb_[k] = b[perm_[k]];
    }
    cholmod_dense rhs;
    rhs.nrow = rhs.d = static_cast<size_t>(b.size());
    rhs.ncol = 1;
    rhs.nzmax = rhs.nrow;
    rhs.x = const_cast<double*>(permuted ? pb_.data() : b.data());
    rhs.z = nullptr;
    rhs.xtype = CHOLMOD_REAL;
    rhs.dtype = CHOLMOD_DOUBLE;
    const SerialRegions serial;
    cholmod_solve2(CHOLMOD_A, factor_, &rhs, nullptr, &x_, nullptr, &y_, &e_, &common_);
    const double* y = static_cast<const double*>(x_->x);
    if (!permuted) {
      *x = Eigen::Map<const Vector>(y, b.size());
      return;
    }
    x->resize(b.size());
    for (Eigen::Index k = 0; k < b.size(); ++k) (*x)[perm_[k]] = y[k];
  }

 private:
  // B = P A P' (B_kl = A_{perm[k], perm[l]}) in the triangle the chosen
  // kernel reads without a transpose, the slot of each of A's entries in
  // it, and the natural-ordering analysis of B, which has the same symbolic
  // factor (perm already holds CHOLMOD's postordering). Left empty, and the
  // analysis of A kept, if that analysis picks the other kernel.
  void PrePermute(const LowerMatrix& lower) {
    const int n = static_cast<int>(factor_->n);
    const int* perm = static_cast<const int*>(factor_->Perm);
    perm_.assign(perm, perm + n);
    std::vector<int> inverse(n);
    for (int k = 0; k < n; ++k) inverse[perm_[k]] = k;
    const bool super = factor_->is_super;
    stype_ = super ? -1 : 1;
    BuildPermuted(lower, inverse, super);
    cholmod_factor* natural = AnalyzeNatural();
    if (!natural || natural->is_super != super) {  // keep CHOLMOD's own permuting
      if (natural) cholmod_free_factor(&natural, &common_);
      permuted_.resize(0, 0);
      return;
    }
    cholmod_free_factor(&factor_, &common_);
    factor_ = natural;
    pb_.resize(n);
  }

  // permuted_'s pattern, sorted, by counting sorts (rows, then a stable pass
  // by column), and slot_.
  void BuildPermuted(const LowerMatrix& lower, const std::vector<int>& inverse, bool lower_half) {
    const int n = static_cast<int>(inverse.size());
    const int nnz = static_cast<int>(lower.nonZeros());
    std::vector<int> row(nnz), col(nnz);
    for (int c = 0; c < n; ++c) {
      for (int k = lower.outerIndexPtr()[c]; k < lower.outerIndexPtr()[c + 1]; ++k) {
        const int i = inverse[lower.innerIndexPtr()[k]], j = inverse[c];
        row[k] = lower_half ? std::max(i, j) : std::min(i, j);
        col[k] = lower_half ? std::min(i, j) : std::max(i, j);
      }
    }
    const std::vector<int> by_row = CountingOrder(row, std::vector<int>(), n);
    const std::vector<int> order = CountingOrder(col, by_row, n);
    permuted_.resize(n, n);
    permuted_.resizeNonZeros(nnz);
    int* outer = permuted_.outerIndexPtr();
    std::fill(outer, outer + n + 1, 0);
    slot_.assign(nnz, 0);
    for (int s = 0; s < nnz; ++s) {
      const int k = order[s];
      ++outer[col[k] + 1];
      permuted_.innerIndexPtr()[s] = row[k];
      permuted_.valuePtr()[s] = 0.0;
      slot_[k] = s;
    }
    for (int c = 0; c < n; ++c) outer[c + 1] += outer[c];
  }

  // The entries in `within` order (all, ascending, if empty), stably sorted by key.
  static std::vector<int> CountingOrder(const std::vector<int>& key, const std::vector<int>& within,
                                        int buckets) {
    const int nnz = static_cast<int>(key.size());
    std::vector<int> start(buckets + 1, 0), order(nnz);
    for (int k = 0; k < nnz; ++k) ++start[key[k] + 1];
    for (int b = 0; b < buckets; ++b) start[b + 1] += start[b];
    for (int s = 0; s < nnz; ++s) {
      const int k = within.empty() ? s : within[s];
      order[start[key[k]]++] = k;
    }
    return order;
  }

  // CHOLMOD's analysis of permuted_ with the natural ordering, unpostordered.
  cholmod_factor* AnalyzeNatural() {
    const int nmethods = common_.nmethods, ordering = common_.method[0].ordering;
    const int postorder = common_.postorder;
    common_.nmethods = 1;
    common_.method[0].ordering = CHOLMOD_NATURAL;
    common_.postorder = 0;
    cholmod_sparse b = View(permuted_, stype_);
    cholmod_factor* natural = cholmod_analyze(&b, &common_);
    common_.nmethods = nmethods;
    common_.method[0].ordering = ordering;
    common_.postorder = postorder;
    return natural;
  }

  FactorCost AnalyzeOnce(const LowerMatrix& lower) {
    if (factor_) cholmod_free_factor(&factor_, &common_);
    cholmod_sparse a = View(lower, -1);
    factor_ = cholmod_analyze(&a, &common_);
    if (!factor_) return {1e300, 1e300};  // out of memory: unaffordable
    return {common_.lnz, common_.fl};
  }

  // A cholmod_sparse header over Eigen's arrays (no copy); stype -1: the
  // lower triangle of a symmetric matrix, 1: the upper one.
  static cholmod_sparse View(const LowerMatrix& lower, int stype) {
    cholmod_sparse a;
    a.nrow = static_cast<size_t>(lower.rows());
    a.ncol = static_cast<size_t>(lower.cols());
    a.nzmax = static_cast<size_t>(lower.nonZeros());
    a.p = const_cast<int*>(lower.outerIndexPtr());
    a.i = const_cast<int*>(lower.innerIndexPtr());
    a.nz = nullptr;
    a.x = const_cast<double*>(lower.valuePtr());
    a.z = nullptr;
    a.stype = stype;
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
  LowerMatrix permuted_;    // P A P' in one triangle (empty: CHOLMOD permutes A)
  int stype_ = -1;          // permuted_'s triangle
  std::vector<int> slot_;   // A's k-th value goes to permuted_'s slot_[k]-th
  std::vector<int> perm_;   // CHOLMOD's fill-reducing permutation
  Vector pb_;               // P b
};

}  // namespace

std::unique_ptr<SparseCholesky> MakeSparseCholesky() { return std::make_unique<CholmodCholesky>(); }

}  // namespace qpm
