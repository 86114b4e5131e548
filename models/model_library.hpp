// A library of small nonlinear programs with known solutions (Hock &
// Schittkowski style), written for qpm's tests and benches, and a generic Ipopt TNLP
// that serves any of them with dense derivatives.
//
//   minimize f(x)  s.t.  g_l <= g(x) <= g_u,  x_l <= x <= x_u
//
// Infinite bounds are +-kInf (= 1e20, beyond Ipopt's 1e19 threshold).
#ifndef QPM_MODELS_MODEL_LIBRARY_HPP_
#define QPM_MODELS_MODEL_LIBRARY_HPP_

#include <functional>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <IpTNLP.hpp>

namespace qpm_test {

constexpr double kInf = 1e20;

struct Model {
  std::string name;                 // e.g. "hs071"
  int n = 0;
  int m = 0;
  Eigen::VectorXd x0;
  Eigen::VectorXd x_l, x_u;         // size n, +-kInf when absent
  Eigen::VectorXd g_l, g_u;         // size m; g_l == g_u for equalities
  std::function<double(const Eigen::VectorXd&)> f;
  std::function<Eigen::VectorXd(const Eigen::VectorXd&)> grad;   // size n
  std::function<Eigen::VectorXd(const Eigen::VectorXd&)> g;      // size m
  std::function<Eigen::MatrixXd(const Eigen::VectorXd&)> jac;    // m x n
  // Hessian of sigma f + sum lambda_i g_i, dense symmetric n x n.
  std::function<Eigen::MatrixXd(const Eigen::VectorXd&, double, const Eigen::VectorXd&)> hess;
  double f_star = 0.0;              // known optimal value
  Eigen::VectorXd x_star;           // known minimizer (may be empty when not unique)
  // True when LICQ and strict complementarity hold at x*, so that the
  // multipliers are unique and can be compared across solvers.
  bool nondegenerate = true;
  bool has_bounds_or_inequalities() const;
};

// All models of the library (at least 25, at least 10 with bounds or inequalities).
std::vector<Model> AllModels();

// The model of AllModels() named `name` (e.g. "hs006"); throws
// std::invalid_argument for an unknown name.
Model LibraryModel(const std::string& name);

// Any Model as an Ipopt TNLP: dense Jacobian (all m x n entries), dense
// lower-triangle Hessian, C index style. Records what finalize_solution got.
class ModelTnlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  explicit ModelTnlp(Model model) : m_(std::move(model)) {}

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = m_.n, m = m_.m, nnz_jac = m_.n * m_.m, nnz_h = m_.n * (m_.n + 1) / 2, style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l, Number* g_u) override {
    for (Index i = 0; i < n; ++i) x_l[i] = m_.x_l[i], x_u[i] = m_.x_u[i];
    for (Index j = 0; j < m; ++j) g_l[j] = m_.g_l[j], g_u[j] = m_.g_u[j];
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool, Number*) override {
    for (Index i = 0; i < n; ++i) x[i] = m_.x0[i];
    return true;
  }
  bool eval_f(Index n, const Number* x, bool, Number& f) override {
    f = m_.f(Eigen::Map<const Eigen::VectorXd>(x, n));
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* grad) override {
    Eigen::Map<Eigen::VectorXd>(grad, n) = m_.grad(Eigen::Map<const Eigen::VectorXd>(x, n));
    return true;
  }
  bool eval_g(Index n, const Number* x, bool, Index m, Number* g) override {
    if (m > 0) Eigen::Map<Eigen::VectorXd>(g, m) = m_.g(Eigen::Map<const Eigen::VectorXd>(x, n));
    return true;
  }
  bool eval_jac_g(Index n, const Number* x, bool, Index m, Index, Index* row, Index* col,
                  Number* values) override {
    if (values == nullptr) return Structure(n, m, row, col);
    const Eigen::VectorXd point = Eigen::Map<const Eigen::VectorXd>(x, n);
    const Eigen::MatrixXd d = m_.jac(point);
    for (Index r = 0, k = 0; r < m; ++r)
      for (Index c = 0; c < n; ++c, ++k) values[k] = d(r, c);
    return true;
  }
  bool eval_h(Index n, const Number* x, bool, Number sigma, Index m, const Number* lambda, bool,
              Index, Index* row, Index* col, Number* values) override {
    if (values == nullptr) {
      for (Index r = 0, k = 0; r < n; ++r)
        for (Index c = 0; c <= r; ++c, ++k) row[k] = r, col[k] = c;
      return true;
    }
    const Eigen::VectorXd point = Eigen::Map<const Eigen::VectorXd>(x, n);
    const Eigen::VectorXd mult = m > 0 ? Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(lambda, m))
                                       : Eigen::VectorXd();
    const Eigen::MatrixXd h = m_.hess(point, sigma, mult);
    for (Index r = 0, k = 0; r < n; ++r)
      for (Index c = 0; c <= r; ++c, ++k) values[k] = h(r, c);
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* z_L,
                         const Number* z_U, Index m, const Number* g, const Number* lambda,
                         Number obj, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    final_status = status;
    x_final = Eigen::Map<const Eigen::VectorXd>(x, n);
    z_L_final = Eigen::Map<const Eigen::VectorXd>(z_L, n);
    z_U_final = Eigen::Map<const Eigen::VectorXd>(z_U, n);
    g_final = Eigen::Map<const Eigen::VectorXd>(g, m);
    lambda_final = Eigen::Map<const Eigen::VectorXd>(lambda, m);
    f_final = obj;
  }

  const Model& model() const { return m_; }

  Ipopt::SolverReturn final_status = Ipopt::UNASSIGNED;
  Eigen::VectorXd x_final, z_L_final, z_U_final, g_final, lambda_final;
  double f_final = 0.0;

 private:
  bool Structure(Index n, Index m, Index* row, Index* col) const {
    for (Index r = 0, k = 0; r < m; ++r)
      for (Index c = 0; c < n; ++c, ++k) row[k] = r, col[k] = c;
    return true;
  }
  Model m_;
};

}  // namespace qpm_test

#endif  // QPM_MODELS_MODEL_LIBRARY_HPP_
