// Chains of overlapping rows: n variables, m = n - 2 rows, no bounds,
//
//   f(x) = sum_i (x_i - a_i)^2 + 0.1 x_i^4,                 x_0 = 0.1
//   g_j(x) = sum_{d=0..2} w_d x_{j+d}^2   (or w_d x_{j+d}: linear rows)
//   g_j <= r_j (inequality) or g_j = r_j (equality),  j = 0 .. n - 3.
//
// kSine, kSineLinear (bench/inequality_chain): a_i = 1 + sin(i) / 2,
// w = (1, 1, 1), r_j = 1.5; quadratic or linear rows.
//
// kManufactured, kBand (bench/scalable, families chain and band): data made
// so that every row is active at a known solution:
//
//   x*_i = sqrt(0.3, 0.5, 0.7 for i mod 3 = 0, 1, 2), w = (1, 1, 1)   (kManufactured)
//   x*_i = 0.6 + 0.2 sin(0.7 i), w = (1, 0.5, 0.25)                  (kBand)
//   lambda*_j = 1 + 0.5 sin(j) > 0,   r_j = g_j(x*),
//   a_i = x*_i + 0.2 x*_i^3 + x*_i sum_{rows j containing i} w_{i-j} lambda*_j
//
// so that grad f(x*) + J(x*)' lambda* = 0. f and every g_j are convex, so x*
// is the unique solution of the inequality form, and a KKT point (with the
// same multipliers) of the equality form; Error() is ||x - x*||_inf.
//
// The sine chains evaluate (x_i - a_i)^2 and x_i^3 with std::pow, the
// manufactured ones with products: each as its committed results in
// bench/ were made (the two forms can differ in the last bit).
#ifndef QPM_MODELS_CHAIN_TNLP_HPP_
#define QPM_MODELS_CHAIN_TNLP_HPP_

#include <algorithm>
#include <cmath>
#include <vector>

#include <IpTNLP.hpp>

#include "recording_tnlp.hpp"

class ChainTnlp : public RecordingTnlp {
 public:
  enum class Kind { kSine, kSineLinear, kManufactured, kBand };

  ChainTnlp(int n, Kind kind, bool inequality)
      : n_(n), inequality_(inequality), linear_(kind == Kind::kSineLinear),
        std_pow_(kind == Kind::kSine || kind == Kind::kSineLinear), a_(n), rhs_(n - 2) {
    if (std_pow_) {
      SineData();
    } else {
      ManufacturedData(kind == Kind::kBand);
    }
  }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h,
                    IndexStyleEnum& style) override {
    n = n_, m = n_ - 2, nnz_jac = 3 * m, nnz_h = n_, style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index m, Number* g_l,
                       Number* g_u) override {
    for (int i = 0; i < n_; ++i) x_l[i] = -kInf, x_u[i] = kInf;
    for (int j = 0; j < m; ++j) g_l[j] = inequality_ ? -kInf : rhs_[j], g_u[j] = rhs_[j];
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    std::fill(x, x + n_, 0.1);
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = 0.0;
    for (int i = 0; i < n_; ++i) {
      const double d = x[i] - a_[i];
      f += (std_pow_ ? std::pow(d, 2) : d * d) + 0.1 * std::pow(x[i], 4);
    }
    return true;
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* g) override {
    for (int i = 0; i < n_; ++i) {
      const double cube = std_pow_ ? 0.4 * std::pow(x[i], 3) : 0.4 * x[i] * x[i] * x[i];
      g[i] = 2.0 * (x[i] - a_[i]) + cube;
    }
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index m, Number* g) override {
    for (int j = 0; j < m; ++j) {
      double sum = 0.0;
      for (int d = 0; d < 3; ++d) {
        sum += linear_ ? w_[d] * x[j + d] : w_[d] * x[j + d] * x[j + d];
      }
      g[j] = sum;
    }
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index m, Index, Index* row, Index* col,
                  Number* values) override {
    for (int j = 0, k = 0; j < m; ++j) {
      for (int d = 0; d < 3; ++d, ++k) {
        if (values) values[k] = linear_ ? w_[d] : 2.0 * w_[d] * x[j + d];
        else row[k] = j, col[k] = j + d;
      }
    }
    return true;
  }
  // Diagonal: sigma f'' plus, for quadratic rows, 2 w_d lambda_j.
  bool eval_h(Index, const Number* x, bool, Number sigma, Index m, const Number* lambda, bool,
              Index, Index* row, Index* col, Number* values) override {
    if (!values) {
      for (int i = 0; i < n_; ++i) row[i] = col[i] = i;
      return true;
    }
    for (int i = 0; i < n_; ++i) values[i] = sigma * (2.0 + 1.2 * x[i] * x[i]);
    for (int j = 0; j < m && !linear_; ++j) {
      for (int d = 0; d < 3; ++d) values[j + d] += 2.0 * w_[d] * lambda[j];
    }
    return true;
  }

  // ||x - x*||_inf (the manufactured kinds).
  double Error(const std::vector<double>& x) const {
    double e = 0.0;
    for (int i = 0; i < n_; ++i) e = std::max(e, std::abs(x[i] - x_star_[i]));
    return e;
  }
  // max over rows of the violation: max(0, g - r) or |g - r|.
  double Violation(const std::vector<double>& x) {
    std::vector<double> g(n_ - 2);
    eval_g(n_, x.data(), true, n_ - 2, g.data());
    double v = 0.0;
    for (int j = 0; j < n_ - 2; ++j) {
      v = std::max(v, inequality_ ? g[j] - rhs_[j] : std::abs(g[j] - rhs_[j]));
    }
    return v;
  }
  // ||grad f + J' lambda||_inf (quadratic rows).
  double Kkt(const std::vector<double>& x, const std::vector<double>& lambda) {
    std::vector<double> r(n_);
    eval_grad_f(n_, x.data(), true, r.data());
    for (int j = 0; j < n_ - 2; ++j) {
      for (int d = 0; d < 3; ++d) r[j + d] += 2.0 * w_[d] * x[j + d] * lambda[j];
    }
    double k = 0.0;
    for (double ri : r) k = std::max(k, std::abs(ri));
    return k;
  }
  // Rows with g_j >= r_j - tol.
  int Active(const std::vector<double>& x, double tol) {
    std::vector<double> g(n_ - 2);
    eval_g(n_, x.data(), true, n_ - 2, g.data());
    int count = 0;
    for (int j = 0; j < n_ - 2; ++j) count += g[j] >= rhs_[j] - tol;
    return count;
  }

 private:
  static constexpr double kInf = 1e20;

  void SineData() {
    for (int i = 0; i < n_; ++i) a_[i] = 1.0 + 0.5 * std::sin(i);
    std::fill(rhs_.begin(), rhs_.end(), 1.5);
  }
  void ManufacturedData(bool band) {
    const double squares[3] = {0.3, 0.5, 0.7};
    if (band) w_[0] = 1.0, w_[1] = 0.5, w_[2] = 0.25;
    x_star_.resize(n_);
    for (int i = 0; i < n_; ++i) {
      x_star_[i] = band ? 0.6 + 0.2 * std::sin(0.7 * i) : std::sqrt(squares[i % 3]);
    }
    eval_g(n_, x_star_.data(), true, n_ - 2, rhs_.data());
    for (int i = 0; i < n_; ++i) {
      double rows = 0.0;  // sum of w_{i-j} lambda*_j over the rows j = i-2 .. i that exist
      for (int j = std::max(0, i - 2); j <= std::min(i, n_ - 3); ++j) rows += w_[i - j] * LambdaStar(j);
      const double x = x_star_[i];
      a_[i] = x + 0.2 * x * x * x + x * rows;
    }
  }
  static double LambdaStar(int j) { return 1.0 + 0.5 * std::sin(j); }

  int n_;
  bool inequality_, linear_;
  bool std_pow_;  // (x - a)^2 and x^3 through std::pow (the sine chains)
  double w_[3] = {1.0, 1.0, 1.0};
  std::vector<double> x_star_, a_, rhs_;  // x_star_ empty for the sine chains
};

#endif  // QPM_MODELS_CHAIN_TNLP_HPP_
