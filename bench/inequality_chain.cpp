// The same chain model with n - 2 inequality rows and with n - 2 equality
// rows, solved by QPM at its defaults (tol = 1e-8): the inner iterations and
// Hessian-vector products that the rows' kind costs (bench/results/active_set/).
//
//   f(x) = sum_i (x_i - a_i)^2 + 0.1 x_i^4,   a_i = 1 + sin(i) / 2,   x0 = 0.1
//   g_j(x) = x_j^2 + x_{j+1}^2 + x_{j+2}^2   (or x_j + x_{j+1} + x_{j+2}, linear)
//   g_j <= 1.5 (inequality) or g_j = 1.5 (equality),  j = 0 .. n - 3
//
//   inequality_chain [--n N] [--limited-memory]
//
// --limited-memory: hessian_approximation limited-memory (the L-BFGS inner
// solver; the last column is then 0).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>
#include <qpm/qpm.hpp>

namespace {

using Ipopt::Index;
using Ipopt::Number;

class Chain : public Ipopt::TNLP {
 public:
  Chain(int n, bool inequality, bool linear) : n_(n), inequality_(inequality), linear_(linear) {}
  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = n_, m = n_ - 2, nnz_jac = 3 * m, nnz_h = n_, style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index m, Number* g_l, Number* g_u) override {
    for (int i = 0; i < n_; ++i) x_l[i] = -1e20, x_u[i] = 1e20;
    for (int j = 0; j < m; ++j) g_l[j] = inequality_ ? -1e20 : 1.5, g_u[j] = 1.5;
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool, Number*) override {
    for (int i = 0; i < n_; ++i) x[i] = 0.1;
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = 0.0;
    for (int i = 0; i < n_; ++i) f += std::pow(x[i] - A(i), 2) + 0.1 * std::pow(x[i], 4);
    return true;
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* g) override {
    for (int i = 0; i < n_; ++i) g[i] = 2.0 * (x[i] - A(i)) + 0.4 * std::pow(x[i], 3);
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index m, Number* g) override {
    for (int j = 0; j < m; ++j) {
      g[j] = 0.0;
      for (int d = 0; d < 3; ++d) g[j] += linear_ ? x[j + d] : x[j + d] * x[j + d];
    }
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index m, Index, Index* row, Index* col,
                  Number* values) override {
    for (int j = 0, k = 0; j < m; ++j) {
      for (int d = 0; d < 3; ++d, ++k) {
        if (values) values[k] = linear_ ? 1.0 : 2.0 * x[j + d];
        else row[k] = j, col[k] = j + d;
      }
    }
    return true;
  }
  bool eval_h(Index, const Number* x, bool, Number sigma, Index m, const Number* lambda, bool,
              Index, Index* row, Index* col, Number* values) override {
    if (!values) {
      for (int i = 0; i < n_; ++i) row[i] = col[i] = i;
      return true;
    }
    for (int i = 0; i < n_; ++i) values[i] = sigma * (2.0 + 1.2 * x[i] * x[i]);
    for (int j = 0; j < m && !linear_; ++j) {
      for (int d = 0; d < 3; ++d) values[j + d] += 2.0 * lambda[j];
    }
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn, Index, const Number*, const Number*, const Number*,
                         Index, const Number*, const Number*, Number obj, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    f = obj;
  }
  double f = 0.0;

 private:
  static double A(int i) { return 1.0 + 0.5 * std::sin(i); }
  int n_;
  bool inequality_, linear_;
};

}  // namespace

int main(int argc, char** argv) {
  int n = 100;
  bool limited_memory = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--n" && i + 1 < argc) n = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--limited-memory") limited_memory = true;
  }
  std::printf("| rows | n | m | status | f | outer | inner iterations | Hessian-vector products |\n"
              "|---|---|---|---|---|---|---|---|\n");
  for (const bool linear : {false, true}) {
    for (const bool inequality : {true, false}) {
      Ipopt::SmartPtr<Chain> chain = new Chain(n, inequality, linear);
      Ipopt::SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication();
      app->Options()->SetNumericValue("tol", 1e-8);
      app->Options()->SetIntegerValue("print_level", 0);
      app->Options()->SetStringValue("sb", "yes");
      if (limited_memory) app->Options()->SetStringValue("hessian_approximation", "limited-memory");
      app->Initialize("");
      const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(Ipopt::GetRawPtr(chain));
      const qpm::Summary& s = app->LastSummary();
      std::printf("| %s %s | %d | %d | %s | %.10g | %d | %ld | %ld |\n",
                  linear ? "linear" : "quadratic", inequality ? "g <= 1.5" : "g = 1.5", n, n - 2,
                  qpm::StatusName(status), chain->f, s.outer_iterations, s.inner_iterations,
                  s.hess_products);
    }
  }
  return 0;
}
