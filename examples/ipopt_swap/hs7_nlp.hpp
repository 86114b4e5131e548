// An ordinary Ipopt model, written against Ipopt's TNLP interface only:
// Hock-Schittkowski problem 7,
//   minimize   log(1 + x1^2) - x2
//   subject to (1 + x1^2)^2 + x2^2 = 4,      x0 = (2, 2),
// with solution x* = (0, sqrt(3)), f* = -sqrt(3), lambda* = sqrt(3)/6 (Ipopt's sign).
#ifndef QPM_EXAMPLES_HS7_NLP_HPP_
#define QPM_EXAMPLES_HS7_NLP_HPP_

#include <cmath>
#include <cstdio>

#include <IpTNLP.hpp>

class Hs7Nlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    IndexStyleEnum& index_style) override {
    n = 2, m = 1, nnz_jac_g = 2, nnz_h_lag = 3, index_style = FORTRAN_STYLE;
    return true;
  }
  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index, Number* g_l, Number* g_u) override {
    x_l[0] = x_l[1] = -2e19;
    x_u[0] = x_u[1] = 2e19;
    g_l[0] = g_u[0] = 4.0;
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    x[0] = x[1] = 2.0;
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = std::log(1.0 + x[0] * x[0]) - x[1];
    return true;
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* g) override {
    g[0] = 2.0 * x[0] / (1.0 + x[0] * x[0]);
    g[1] = -1.0;
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    const Number a = 1.0 + x[0] * x[0];
    g[0] = a * a + x[1] * x[1];
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* row, Index* col,
                  Number* values) override {
    if (!values) {
      row[0] = 1, col[0] = 1;
      row[1] = 1, col[1] = 2;
      return true;
    }
    values[0] = 4.0 * x[0] * (1.0 + x[0] * x[0]);
    values[1] = 2.0 * x[1];
    return true;
  }
  // Upper triangle: (1,1), (1,2), (2,2).
  bool eval_h(Index, const Number* x, bool, Number sigma, Index, const Number* lambda, bool,
              Index, Index* row, Index* col, Number* values) override {
    if (!values) {
      row[0] = 1, col[0] = 1;
      row[1] = 1, col[1] = 2;
      row[2] = 2, col[2] = 2;
      return true;
    }
    const Number s = x[0] * x[0];
    values[0] = sigma * 2.0 * (1.0 - s) / ((1.0 + s) * (1.0 + s)) + lambda[0] * (4.0 + 12.0 * s);
    values[1] = 0.0;
    values[2] = lambda[0] * 2.0;
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn, Index n, const Number* x, const Number*,
                         const Number*, Index, const Number*, const Number* lambda, Number obj,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    std::printf("solution: f = %.8f, x = (", obj);
    for (Index i = 0; i < n; ++i) std::printf("%s%.8f", i ? ", " : "", x[i]);
    std::printf("), lambda = %.8f\n", lambda[0]);
  }
};

#endif  // QPM_EXAMPLES_HS7_NLP_HPP_
