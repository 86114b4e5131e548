// The Brockett cost on the Stiefel manifold as an Ipopt TNLP:
//
//   minimize   tr(X^T A X N)   subject to   X^T X = I_p,    X in R^{n x p},
//
// with A = diag(1, 2, ..., n)
// (A's eigenvalues are 1..n and f* = sum_j N_jj lambda_j(A),
// the j-th smallest eigenvalue paired with the j-th largest weight of
// N = diag(p, p - 1, ..., 1)). (With the 1-D Laplacian instead, whose
// eigenvalue gaps are ~1/n^2, both QPM-TR and Ipopt exceeded 120 s at n = 1000,
// p = 20.) Variables x[i + n j] = X_ij;
// constraints c_jk = X_:j . X_:k - delta_jk for j <= k (p (p + 1) / 2 rows).
#ifndef QPM_MODELS_STIEFEL_TNLP_HPP_
#define QPM_MODELS_STIEFEL_TNLP_HPP_

#include <cmath>
#include <cstdint>
#include <vector>

#include <IpTNLP.hpp>

class StiefelBrockettTnlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  StiefelBrockettTnlp(Index n, Index p) : n_(n), p_(p) {
    for (Index j = 0; j < p; ++j)
      for (Index k = j; k < p; ++k) rows_.push_back({j, k});
  }

  double OptimalValue() const {
    double f = 0.0;
    for (Index j = 0; j < p_; ++j) f += Weight(j) * (j + 1);
    return f;
  }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = n_ * p_;
    m = static_cast<Index>(rows_.size());
    nnz_jac = 0;
    for (const auto& r : rows_) nnz_jac += r.j == r.k ? n_ : 2 * n_;
    nnz_h = p_ * n_ + n_ * p_ * (p_ - 1) / 2;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l, Number* g_u) override {
    for (Index i = 0; i < n; ++i) x_l[i] = -1e19, x_u[i] = 1e19;
    for (Index r = 0; r < m; ++r) g_l[r] = g_u[r] = rows_[r].j == rows_[r].k ? 1.0 : 0.0;
    return true;
  }
  // A deterministic, nearly orthonormal, generic start: entries of a
  // linear congruential sequence scaled by 1/sqrt(n).
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    std::uint64_t state = 12345;
    const double scale = std::sqrt(3.0 / n_);
    for (Index i = 0; i < n; ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      x[i] = scale * (2.0 * static_cast<double>(state >> 11) / 9007199254740992.0 - 1.0);
    }
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = 0.0;
    for (Index j = 0; j < p_; ++j) f += Weight(j) * Quadratic(x + n_ * j);
    return true;
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* grad) override {
    for (Index j = 0; j < p_; ++j) {
      const Number* c = x + n_ * j;
      for (Index i = 0; i < n_; ++i) grad[n_ * j + i] = 2.0 * Weight(j) * ApplyA(c, i);
    }
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index m, Number* g) override {
    for (Index r = 0; r < m; ++r) {
      const Number* a = x + n_ * rows_[r].j;
      const Number* b = x + n_ * rows_[r].k;
      double sum = 0.0;
      for (Index i = 0; i < n_; ++i) sum += a[i] * b[i];
      g[r] = sum;
    }
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index m, Index, Index* row, Index* col,
                  Number* v) override {
    Index k = 0;
    for (Index r = 0; r < m; ++r) {
      const Index j = rows_[r].j, l = rows_[r].k;
      for (Index i = 0; i < n_; ++i) {  // d/dX_ij
        if (v) v[k] = (j == l ? 2.0 : 1.0) * x[n_ * l + i];
        else row[k] = r, col[k] = n_ * j + i;
        ++k;
      }
      if (j == l) continue;
      for (Index i = 0; i < n_; ++i) {  // d/dX_il
        if (v) v[k] = x[n_ * j + i];
        else row[k] = r, col[k] = n_ * l + i;
        ++k;
      }
    }
    return true;
  }
  // Lower triangle: per column block j the diagonal 2 N_jj A + 2 lambda_jj I,
  // then for j < l the identity coupling lambda_jl at (i + n l, i + n j).
  bool eval_h(Index, const Number*, bool, Number sigma, Index, const Number* lambda, bool, Index,
              Index* row, Index* col, Number* v) override {
    Index k = 0;
    std::vector<Index> diag_row(p_);
    for (Index r = 0; r < static_cast<Index>(rows_.size()); ++r)
      if (rows_[r].j == rows_[r].k) diag_row[rows_[r].j] = r;
    for (Index j = 0; j < p_; ++j) {
      const double w = 2.0 * sigma * Weight(j);
      const double lj = v ? 2.0 * lambda[diag_row[j]] : 0.0;
      for (Index i = 0; i < n_; ++i) {
        if (v) v[k] = w * (i + 1.0) + lj;
        else row[k] = n_ * j + i, col[k] = n_ * j + i;
        ++k;
      }
    }
    for (Index r = 0; r < static_cast<Index>(rows_.size()); ++r) {
      const Index j = rows_[r].j, l = rows_[r].k;
      if (j == l) continue;
      for (Index i = 0; i < n_; ++i) {
        if (v) v[k] = lambda[r];
        else row[k] = n_ * l + i, col[k] = n_ * j + i;
        ++k;
      }
    }
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn, Index, const Number*, const Number*, const Number*,
                         Index, const Number*, const Number*, Number, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {}

 private:
  struct Row {
    Index j, k;
  };
  double Weight(Index j) const { return static_cast<double>(p_ - j); }
  // (A c)_i for A = diag(1, ..., n).
  double ApplyA(const Number* c, Index i) const { return (i + 1.0) * c[i]; }
  double Quadratic(const Number* c) const {
    double s = 0.0;
    for (Index i = 0; i < n_; ++i) s += c[i] * ApplyA(c, i);
    return s;
  }

  Index n_, p_;
  std::vector<Row> rows_;
};

#endif  // QPM_MODELS_STIEFEL_TNLP_HPP_
