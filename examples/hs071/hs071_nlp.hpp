// Ipopt's classic example problem, Hock & Schittkowski no. 71, as a TNLP:
//
//   minimize   x1 x4 (x1 + x2 + x3) + x3
//   subject to x1 x2 x3 x4 >= 25
//              x1^2 + x2^2 + x3^2 + x4^2 = 40
//              1 <= x1, x2, x3, x4 <= 5,        x0 = (1, 5, 5, 1).
//
// Solution f* = 17.0140173 at x* = (1, 4.7430, 3.8211, 1.3794). The inequality
// and the lower bound of x1 are active there. finalize_solution prints the
// primal and dual solution in Ipopt's conventions.
#ifndef QPM_EXAMPLES_HS071_NLP_HPP_
#define QPM_EXAMPLES_HS071_NLP_HPP_

#include <cstdio>

#include <IpTNLP.hpp>

class Hs071Nlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    IndexStyleEnum& index_style) override {
    n = 4, m = 2, nnz_jac_g = 8, nnz_h_lag = 10, index_style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index, Number* g_l,
                       Number* g_u) override {
    for (Index i = 0; i < n; ++i) x_l[i] = 1.0, x_u[i] = 5.0;
    g_l[0] = 25.0, g_u[0] = 2e19;  // >= 25
    g_l[1] = g_u[1] = 40.0;        // == 40
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    x[0] = 1.0, x[1] = 5.0, x[2] = 5.0, x[3] = 1.0;
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = x[0] * x[3] * (x[0] + x[1] + x[2]) + x[2];
    return true;
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* g) override {
    const Number s = x[0] + x[1] + x[2];
    g[0] = x[3] * (s + x[0]);
    g[1] = x[0] * x[3];
    g[2] = x[0] * x[3] + 1.0;
    g[3] = x[0] * s;
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    g[0] = x[0] * x[1] * x[2] * x[3];
    g[1] = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* row, Index* col,
                  Number* v) override {
    if (!v) {
      for (Index k = 0; k < 8; ++k) row[k] = k / 4, col[k] = k % 4;
      return true;
    }
    v[0] = x[1] * x[2] * x[3], v[1] = x[0] * x[2] * x[3];
    v[2] = x[0] * x[1] * x[3], v[3] = x[0] * x[1] * x[2];
    for (Index i = 0; i < 4; ++i) v[4 + i] = 2.0 * x[i];
    return true;
  }
  // Lower triangle, row by row: (0,0) (1,0) (1,1) (2,0) (2,1) (2,2) (3,0) ... (3,3).
  bool eval_h(Index, const Number* x, bool, Number s, Index, const Number* l, bool, Index,
              Index* row, Index* col, Number* v) override {
    if (!v) {
      for (Index r = 0, k = 0; r < 4; ++r)
        for (Index c = 0; c <= r; ++c, ++k) row[k] = r, col[k] = c;
      return true;
    }
    v[0] = s * 2.0 * x[3] + l[1] * 2.0;                   // (0,0)
    v[1] = s * x[3] + l[0] * x[2] * x[3];                 // (1,0)
    v[2] = l[1] * 2.0;                                    // (1,1)
    v[3] = s * x[3] + l[0] * x[1] * x[3];                 // (2,0)
    v[4] = l[0] * x[0] * x[3];                            // (2,1)
    v[5] = l[1] * 2.0;                                    // (2,2)
    v[6] = s * (2.0 * x[0] + x[1] + x[2]) + l[0] * x[1] * x[2];  // (3,0)
    v[7] = s * x[0] + l[0] * x[0] * x[2];                 // (3,1)
    v[8] = s * x[0] + l[0] * x[0] * x[1];                 // (3,2)
    v[9] = l[1] * 2.0;                                    // (3,3)
    return true;
  }
  bool print_solution = true;

  void finalize_solution(Ipopt::SolverReturn, Index n, const Number* x, const Number* z_L,
                         const Number* z_U, Index m, const Number* g, const Number* lambda,
                         Number obj, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    if (!print_solution) return;
    std::printf("f(x*) = %.8f\n", obj);
    for (Index i = 0; i < n; ++i) {
      std::printf("x[%d] = %.8f   z_L[%d] = %.8f   z_U[%d] = %.8f\n", i, x[i], i, z_L[i], i,
                  z_U[i]);
    }
    for (Index j = 0; j < m; ++j) std::printf("g[%d] = %.8f   lambda[%d] = %.8f\n", j, g[j], j, lambda[j]);
  }
};

#endif  // QPM_EXAMPLES_HS071_NLP_HPP_
