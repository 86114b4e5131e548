// Luksan & Vlcek's problem 5.4 (L. Luksan, J. Vlcek, "Sparse and partially
// separable test problems for unconstrained and equality constrained
// optimization", Tech. Rep. 767, ICS Prague, 1999): the chained Cragg-Levy
// function with chained cubic equality rows, the instance Ipopt's
// ScalableProblems call LukVlE4, written here from its mathematics
// (bench/ipopt_scalable). N + 2 variables (N + 2 a multiple of 4), N - 2 rows:
//
//   f(x) = sum_{i < N/2} (e^{x_2i} - x_2i+1)^4 + 100 (x_2i+1 - x_2i+2)^6
//                        + tan^4(x_2i+2 - x_2i+3) + x_2i^8 + (x_2i+3 - 1)^2
//   c_k(x) = 8 x_k+1 (x_k+1^2 - x_k) - 2 (1 - x_k+1) + 4 (x_k+1 - x_k+2^2) = 0,
//            k = 0 .. N - 3,
//
// start x = (1, 2, 2, 2) repeated. The Hessian is tridiagonal. With
// `inequality` the rows are -1 <= c_k(x) <= 0 instead (LukVlI4).
#ifndef QPM_MODELS_LUKSAN_VLCEK4_TNLP_HPP_
#define QPM_MODELS_LUKSAN_VLCEK4_TNLP_HPP_

#include <cmath>
#include <vector>

#include "recording_tnlp.hpp"

class LuksanVlcek4Tnlp : public RecordingTnlp {
 public:
  // n_base: N, with N + 2 a multiple of 4 (rounded up to one).
  explicit LuksanVlcek4Tnlp(int n_base, bool inequality = false)
      : n_(((n_base + 2 + 3) / 4) * 4), row_lower_(inequality ? -1.0 : 0.0) {}
  int variables() const { return n_; }
  int rows() const { return n_ - 4; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = n_, m = rows();
    nnz_jac = 3 * m;
    nnz_h = 2 * n_ - 1;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    for (int i = 0; i < n; ++i) xl[i] = -1e20, xu[i] = 1e20;
    for (int k = 0; k < m; ++k) gl[k] = row_lower_, gu[k] = 0.0;
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    for (int i = 0; i < n; ++i) x[i] = i % 4 == 0 ? 1.0 : 2.0;
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = 0.0;
    for (int i = 0; i < Blocks(); ++i) {
      const double* y = x + 2 * i;
      const double u = std::exp(y[0]) - y[1], v = y[1] - y[2], t = std::tan(y[2] - y[3]);
      f += std::pow(u, 4) + 100.0 * std::pow(v, 6) + std::pow(t, 4) + std::pow(y[0], 8) +
           (y[3] - 1.0) * (y[3] - 1.0);
    }
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    for (int i = 0; i < n; ++i) g[i] = 0.0;
    for (int i = 0; i < Blocks(); ++i) {
      const double* y = x + 2 * i;
      double* d = g + 2 * i;
      const double e = std::exp(y[0]), u = e - y[1], v = y[1] - y[2];
      const double t = std::tan(y[2] - y[3]), sec2 = 1.0 + t * t;
      const double dt = 4.0 * t * t * t * sec2;
      d[0] += 4.0 * u * u * u * e + 8.0 * std::pow(y[0], 7);
      d[1] += -4.0 * u * u * u + 600.0 * std::pow(v, 5);
      d[2] += -600.0 * std::pow(v, 5) + dt;
      d[3] += -dt + 2.0 * (y[3] - 1.0);
    }
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index m, Number* g) override {
    for (int k = 0; k < m; ++k) {
      const double p = x[k], q = x[k + 1], r = x[k + 2];
      g[k] = 8.0 * q * (q * q - p) - 2.0 * (1.0 - q) + 4.0 * (q - r * r);
    }
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index m, Index, Index* rows, Index* cols,
                  Number* values) override {
    for (int k = 0; k < m; ++k) {
      if (values) {
        values[3 * k] = -8.0 * x[k + 1];
        values[3 * k + 1] = 24.0 * x[k + 1] * x[k + 1] - 8.0 * x[k] + 6.0;
        values[3 * k + 2] = -8.0 * x[k + 2];
      } else {
        for (int t = 0; t < 3; ++t) rows[3 * k + t] = k, cols[3 * k + t] = k + t;
      }
    }
    return true;
  }
  // Entries: the diagonal (i, i) at 2i, the subdiagonal (i + 1, i) at 2i + 1.
  bool eval_h(Index n, const Number* x, bool, Number sigma, Index m, const Number* lambda, bool,
              Index, Index* rows, Index* cols, Number* values) override {
    if (!values) {
      for (int i = 0; i < n; ++i) {
        rows[2 * i] = cols[2 * i] = i;
        if (i + 1 < n) rows[2 * i + 1] = i + 1, cols[2 * i + 1] = i;
      }
      return true;
    }
    for (int e = 0; e < 2 * n - 1; ++e) values[e] = 0.0;
    auto diag = [&](int i) -> double& { return values[2 * i]; };
    auto sub = [&](int i) -> double& { return values[2 * i + 1]; };  // (i + 1, i)
    for (int i = 0; i < Blocks(); ++i) {
      const int a = 2 * i;
      const double* y = x + a;
      const double e = std::exp(y[0]), u = e - y[1], v4 = std::pow(y[1] - y[2], 4);
      const double t = std::tan(y[2] - y[3]), sec2 = 1.0 + t * t;
      const double tt = 12.0 * t * t * sec2 * sec2 + 8.0 * t * t * t * t * sec2;
      diag(a) += sigma * (12.0 * u * u * e * e + 4.0 * u * u * u * e + 56.0 * std::pow(y[0], 6));
      sub(a) += sigma * (-12.0 * u * u * e);
      diag(a + 1) += sigma * (12.0 * u * u + 3000.0 * v4);
      sub(a + 1) += sigma * (-3000.0 * v4);
      diag(a + 2) += sigma * (3000.0 * v4 + tt);
      sub(a + 2) += sigma * (-tt);
      diag(a + 3) += sigma * (tt + 2.0);
    }
    for (int k = 0; k < m; ++k) {
      diag(k + 1) += lambda[k] * 48.0 * x[k + 1];
      sub(k) += lambda[k] * -8.0;
      diag(k + 2) += lambda[k] * -8.0;
    }
    return true;
  }

 private:
  int Blocks() const { return (n_ - 2) / 2; }
  int n_;  // N + 2
  double row_lower_;  // the rows' g_l (g_u = 0)
};

#endif  // QPM_MODELS_LUKSAN_VLCEK4_TNLP_HPP_
