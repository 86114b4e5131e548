// The paper's test problem (Section 7, eq. (7.3)) as an Ipopt TNLP:
//
//   minimize   sum_{i=1}^{n/2} 100 (x_{2i} - x_{2i-1}^2)^2 + (1 - x_{2i-1})^2
//   subject to ||x||^2 = 1,
//
// started at x0 = sqrt((1 + eps0/sqrt(2)) / n) * 1, so ||c(x0)|| = eps0/sqrt(2)
// (assumption A3). The global minimum is f = 456.3138 at n = 1000.
#ifndef QPM_MODELS_ROSENBROCK_SPHERE_TNLP_HPP_
#define QPM_MODELS_ROSENBROCK_SPHERE_TNLP_HPP_

#include <cassert>
#include <cmath>

#include <IpTNLP.hpp>

// Neumaier's compensated summation: error O(eps) instead of O(n eps).
class CompensatedSum {
 public:
  void Add(double v) {
    const double t = sum_ + v;
    carry_ += std::abs(sum_) >= std::abs(v) ? (sum_ - t) + v : (v - t) + sum_;
    sum_ = t;
  }
  double Value() const { return sum_ + carry_; }

 private:
  double sum_ = 0.0;
  double carry_ = 0.0;
};

class RosenbrockSphereTnlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  // plain_sums: eval_f and eval_g add their n terms in a plain loop, as users
  // write them (bench/rosenbrock_plain), instead of the compensated sums.
  RosenbrockSphereTnlp(Index n, Number eps0, bool plain_sums = false)
      : n_(n), eps0_(eps0), plain_sums_(plain_sums) {
    assert(n % 2 == 0);
  }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    IndexStyleEnum& index_style) override {
    n = n_;
    m = 1;
    nnz_jac_g = n_;
    nnz_h_lag = 3 * n_ / 2;
    index_style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index, Number* g_l,
                       Number* g_u) override {
    for (Index i = 0; i < n; ++i) x_l[i] = -1e19, x_u[i] = 1e19;
    g_l[0] = g_u[0] = 1.0;
    return true;
  }

  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    const Number value = std::sqrt((1.0 + eps0_ / std::sqrt(2.0)) / n);
    for (Index i = 0; i < n; ++i) x[i] = value;
    return true;
  }

  // Sums are compensated (Neumaier): a penalty method multiplies c by
  // beta ~ |lambda| / eps0 (~1e8 at n = 1e4, eps = 1e-6), so the rounding of
  // a plain n-term sum would dominate grad Q at large n.
  bool eval_f(Index n, const Number* x, bool, Number& f) override {
    if (plain_sums_) return PlainObjective(n, x, &f);
    CompensatedSum sum;
    for (Index a = 0; a < n; a += 2) {
      const Number r = x[a + 1] - x[a] * x[a];
      sum.Add(100.0 * r * r + (1.0 - x[a]) * (1.0 - x[a]));
    }
    f = sum.Value();
    return true;
  }

  bool eval_grad_f(Index n, const Number* x, bool, Number* grad) override {
    for (Index a = 0; a < n; a += 2) {
      const Number r = x[a + 1] - x[a] * x[a];
      grad[a] = -400.0 * x[a] * r - 2.0 * (1.0 - x[a]);
      grad[a + 1] = 200.0 * r;
    }
    return true;
  }

  bool eval_g(Index n, const Number* x, bool, Index, Number* g) override {
    if (plain_sums_) return PlainConstraint(n, x, g);
    CompensatedSum sum;
    for (Index i = 0; i < n; ++i) sum.Add(x[i] * x[i]);
    g[0] = sum.Value();
    return true;
  }

  bool eval_jac_g(Index n, const Number* x, bool, Index, Index, Index* row, Index* col,
                  Number* values) override {
    for (Index i = 0; i < n; ++i) {
      if (values) {
        values[i] = 2.0 * x[i];
      } else {
        row[i] = 0;
        col[i] = i;
      }
    }
    return true;
  }

  // Lower triangle, three entries per pair (a, b = a + 1): (a,a), (b,a), (b,b).
  bool eval_h(Index n, const Number* x, bool, Number sigma, Index, const Number* lambda, bool,
              Index, Index* row, Index* col, Number* values) override {
    for (Index a = 0, k = 0; a < n; a += 2, k += 3) {
      if (!values) {
        row[k] = a, col[k] = a;
        row[k + 1] = a + 1, col[k + 1] = a;
        row[k + 2] = a + 1, col[k + 2] = a + 1;
        continue;
      }
      values[k] = sigma * (1200.0 * x[a] * x[a] - 400.0 * x[a + 1] + 2.0) + 2.0 * lambda[0];
      values[k + 1] = sigma * (-400.0 * x[a]);
      values[k + 2] = sigma * 200.0 + 2.0 * lambda[0];
    }
    return true;
  }

  void finalize_solution(Ipopt::SolverReturn, Index, const Number*, const Number*, const Number*,
                         Index, const Number*, const Number*, Number,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {}

 private:
  bool PlainObjective(Index n, const Number* x, Number* f) const {
    *f = 0.0;
    for (Index a = 0; a < n; a += 2) {
      const Number r = x[a + 1] - x[a] * x[a];
      *f += 100.0 * r * r + (1.0 - x[a]) * (1.0 - x[a]);
    }
    return true;
  }
  bool PlainConstraint(Index n, const Number* x, Number* g) const {
    g[0] = 0.0;
    for (Index i = 0; i < n; ++i) g[0] += x[i] * x[i];
    return true;
  }

  Index n_;
  Number eps0_;
  bool plain_sums_;
};

#endif  // QPM_MODELS_ROSENBROCK_SPHERE_TNLP_HPP_
