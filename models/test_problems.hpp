// Small equality-constrained problems with known solutions, exposed both as
// qpm::Problem (Eigen) and as an Ipopt TNLP with a dense Jacobian, for the
// adapter, outer-loop and application tests.
#ifndef QPM_MODELS_TEST_PROBLEMS_HPP_
#define QPM_MODELS_TEST_PROBLEMS_HPP_

#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <thread>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <IpTNLP.hpp>

#include "model_library.hpp"
#include "qpm/core/problem.hpp"

namespace qpm_test {

using qpm::Vector;

struct TestProblem {
  std::string name;
  int n = 0;
  int m = 0;
  Vector x0;
  std::function<double(const Vector&)> f;
  std::function<Vector(const Vector&)> grad;
  std::function<Vector(const Vector&)> c;        // c(x) = g(x) - rhs
  std::function<Eigen::MatrixXd(const Vector&)> jac;  // dense m x n
  // Dense Hessian of the Lagrangian sigma f + lambda . c.
  std::function<Eigen::MatrixXd(const Vector&, double, const Vector&)> hess;
  Vector x_star;
  double f_star = 0.0;
};

// A library model whose rows are all equalities g(x) = 0 and whose variables
// are free, as a TestProblem (c = g); throws for any other model.
inline TestProblem EqualityProblem(const Model& model) {
  const bool zero_rows = model.g_l.isZero(0.0) && model.g_u.isZero(0.0);
  if (!zero_rows || model.has_bounds_or_inequalities()) {
    throw std::invalid_argument(model.name + " is not of the form g(x) = 0 with free variables");
  }
  TestProblem p;
  p.name = model.name;
  p.n = model.n, p.m = model.m;
  p.x0 = model.x0;
  p.f = model.f;
  p.grad = model.grad;
  p.c = model.g;
  p.jac = model.jac;
  p.hess = model.hess;
  p.x_star = model.x_star;
  p.f_star = model.f_star;
  return p;
}

// min x1 + x2  s.t.  x1^2 + x2^2 = 2;  x* = (-1, -1), f* = -2, lambda* = 1/2.
inline TestProblem CircleLinear() {
  TestProblem p;
  p.name = "circle_linear";
  p.n = 2, p.m = 1;
  p.x0 = Vector::Constant(2, -0.5);
  p.x0[1] = -1.5;
  p.f = [](const Vector& x) { return x[0] + x[1]; };
  p.grad = [](const Vector&) { return Vector::Ones(2); };
  p.c = [](const Vector& x) { return Vector::Constant(1, x.squaredNorm() - 2.0); };
  p.jac = [](const Vector& x) { return Eigen::MatrixXd(2.0 * x.transpose()); };
  p.hess = [](const Vector&, double, const Vector& l) {
    return Eigen::MatrixXd(2.0 * l[0] * Eigen::MatrixXd::Identity(2, 2));
  };
  p.x_star = Vector::Constant(2, -1.0);
  p.f_star = -2.0;
  return p;
}

// Hock-Schittkowski 6: min (1 - x1)^2  s.t.  10 (x2 - x1^2) = 0;  x* = (1, 1), f* = 0.
// The model library's hs006 (its one row has right-hand side 0, so c = g).
inline TestProblem Hs6() { return EqualityProblem(LibraryModel("hs006")); }

// Hock-Schittkowski 7: min log(1 + x1^2) - x2  s.t.  (1 + x1^2)^2 + x2^2 = 4;
// x* = (0, sqrt 3), f* = -sqrt 3.
inline TestProblem Hs7() {
  TestProblem p;
  p.name = "hs7";
  p.n = 2, p.m = 1;
  p.x0 = Vector::Constant(2, 2.0);
  p.f = [](const Vector& x) { return std::log(1 + x[0] * x[0]) - x[1]; };
  p.grad = [](const Vector& x) {
    return (Vector(2) << 2 * x[0] / (1 + x[0] * x[0]), -1.0).finished();
  };
  p.c = [](const Vector& x) {
    const double a = 1 + x[0] * x[0];
    return Vector::Constant(1, a * a + x[1] * x[1] - 4);
  };
  p.jac = [](const Vector& x) {
    Eigen::MatrixXd j(1, 2);
    j << 4 * x[0] * (1 + x[0] * x[0]), 2 * x[1];
    return j;
  };
  p.hess = [](const Vector& x, double sigma, const Vector& l) {
    const double s = x[0] * x[0];
    Eigen::MatrixXd h = Eigen::MatrixXd::Zero(2, 2);
    h(0, 0) = sigma * 2 * (1 - s) / ((1 + s) * (1 + s)) + l[0] * (4 + 12 * s);
    h(1, 1) = 2 * l[0];
    return h;
  };
  p.x_star = (Vector(2) << 0.0, std::sqrt(3.0)).finished();
  p.f_star = -std::sqrt(3.0);
  return p;
}

// Least-norm point on two hyperplanes: min 1/2 ||x||^2 s.t. A x = b with
// A = [1 1 1 1; 1 -1 2 0], b = (2, 1); x* = A^T (A A^T)^{-1} b.
inline TestProblem LeastNorm() {
  TestProblem p;
  p.name = "least_norm";
  p.n = 4, p.m = 2;
  Eigen::MatrixXd a(2, 4);
  a << 1, 1, 1, 1, 1, -1, 2, 0;
  const Vector b = (Vector(2) << 2.0, 1.0).finished();
  p.x0 = Vector::Constant(4, 3.0);
  p.f = [](const Vector& x) { return 0.5 * x.squaredNorm(); };
  p.grad = [](const Vector& x) { return x; };
  p.c = [a, b](const Vector& x) { return Vector(a * x - b); };
  p.jac = [a](const Vector&) { return a; };
  p.hess = [](const Vector&, double sigma, const Vector&) {
    return Eigen::MatrixXd(sigma * Eigen::MatrixXd::Identity(4, 4));
  };
  p.x_star = a.transpose() * (a * a.transpose()).ldlt().solve(b);
  p.f_star = 0.5 * p.x_star.squaredNorm();
  return p;
}

inline std::vector<TestProblem> AllProblems() { return {CircleLinear(), Hs6(), Hs7(), LeastNorm()}; }

// TestProblem as a qpm::Problem.
class EigenProblem : public qpm::Problem {
 public:
  explicit EigenProblem(TestProblem p) : p_(std::move(p)) {}
  int num_variables() const override { return p_.n; }
  int num_constraints() const override { return p_.m; }
  void InitJacobian(qpm::SparseMatrix* j) const override {
    j->resize(p_.m, p_.n);
    std::vector<Eigen::Triplet<double>> t;
    for (int r = 0; r < p_.m; ++r)
      for (int c = 0; c < p_.n; ++c) t.emplace_back(r, c, 1.0);
    j->setFromTriplets(t.begin(), t.end());
  }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override { *f = p_.f(x); return true; }
  bool EvalConstraints(const qpm::ConstVectorRef& x, qpm::VectorRef c) override { c = p_.c(x); return true; }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override { g = p_.grad(x); return true; }
  bool EvalJacobian(const qpm::ConstVectorRef& x, qpm::SparseMatrixView* j) override {
    const Eigen::MatrixXd d = p_.jac(x);
    for (int r = 0; r < p_.m; ++r)
      for (qpm::SparseMatrixView::InnerIterator it(*j, r); it; ++it) it.valueRef() = d(r, it.col());
    return true;
  }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* h) const override {
    h->resize(p_.n, p_.n);
    std::vector<Eigen::Triplet<double>> t;
    for (int r = 0; r < p_.n; ++r)
      for (int c = 0; c <= r; ++c) t.emplace_back(r, c, 1.0);
    h->setFromTriplets(t.begin(), t.end());
  }
  bool EvalHessian(const qpm::ConstVectorRef& x, double sigma, const qpm::ConstVectorRef& lambda,
                   qpm::SparseMatrix* h) override {
    const Eigen::MatrixXd d = p_.hess(x, sigma, lambda);
    for (int r = 0; r < p_.n; ++r)
      for (qpm::SparseMatrix::InnerIterator it(*h, r); it; ++it) it.valueRef() = d(r, it.col());
    return true;
  }
  const TestProblem& problem() const { return p_; }

 private:
  TestProblem p_;
};

// TestProblem as an Ipopt TNLP with a dense Jacobian, in either index style;
// with `split` every Jacobian entry is given as two triplets of half value.
// Records finalize_solution and the new_x flags it was called with.
class DenseTnlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  DenseTnlp(TestProblem p, IndexStyleEnum style = C_STYLE, bool split = false)
      : p_(std::move(p)), style_(style), split_(split) {}

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = p_.n, m = p_.m, nnz_jac = p_.n * p_.m * (split_ ? 2 : 1) + nnz_jac_offset;
    nnz_h = p_.n * (p_.n + 1) / 2 * (split_ ? 2 : 1) + nnz_h_offset;
    style = style_;
    return true;
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l, Number* g_u) override {
    for (Index i = 0; i < n; ++i) x_l[i] = x_lower, x_u[i] = x_upper;
    for (Index j = 0; j < m; ++j) g_l[j] = 0.0, g_u[j] = inequality ? 1.0 : 0.0;
    if (crossed_row >= 0) g_l[crossed_row] = 1.0, g_u[crossed_row] = -1.0;
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool, Number*) override {
    for (Index i = 0; i < n; ++i) x[i] = p_.x0[i];
    return true;
  }
  bool eval_f(Index n, const Number* x, bool new_x, Number& f) override {
    if (sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
    if (throw_at_eval_f > 0 && ++eval_f_calls == throw_at_eval_f) {
      throw std::runtime_error("model broke at call " + std::to_string(eval_f_calls));
    }
    SeeX(n, x, new_x);
    f = p_.f(Eigen::Map<const Vector>(x, n)) + (nan_at_start && ++f_calls == 1 ? NAN : 0.0);
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool new_x, Number* grad) override {
    SeeX(n, x, new_x);
    Eigen::Map<Vector>(grad, n) = p_.grad(Eigen::Map<const Vector>(x, n));
    grad[n - 1] += grad_error;
    return true;
  }
  bool eval_g(Index n, const Number* x, bool new_x, Index m, Number* g) override {
    SeeX(n, x, new_x);
    Eigen::Map<Vector>(g, m) = p_.c(Eigen::Map<const Vector>(x, n));
    return true;
  }
  bool eval_jac_g(Index n, const Number* x, bool new_x, Index m, Index, Index* row, Index* col,
                  Number* values) override {
    if (values == nullptr) return ++jacobian_structure_calls, JacobianStructure(n, m, row, col);
    SeeX(n, x, new_x);
    const Vector point = Eigen::Map<const Vector>(x, n);
    const Eigen::MatrixXd d = p_.jac(point);
    const int copies = split_ ? 2 : 1;
    for (Index r = 0, k = 0; r < m; ++r)
      for (Index c = 0; c < n; ++c)
        for (int s = 0; s < copies; ++s, ++k) values[k] = d(r, c) / copies;
    values[0] += jac_error;
    return true;
  }
  bool JacobianStructure(Index n, Index m, Index* row, Index* col) const {
    const int copies = split_ ? 2 : 1;
    const Index offset = style_ == FORTRAN_STYLE ? 1 : 0;
    for (Index r = 0, k = 0; r < m; ++r)
      for (Index c = 0; c < n; ++c)
        for (int s = 0; s < copies; ++s, ++k) {
          row[k] = r + offset + bad_index;
          col[k] = c + offset;
        }
    return true;
  }
  // One triangle (upper_hessian picks which), every entry split in two
  // halves when `split`; counts every call, structure calls included.
  bool eval_h(Index n, const Number* x, bool new_x, Number sigma, Index m, const Number* lambda,
              bool, Index, Index* row, Index* col, Number* values) override {
    ++eval_h_calls;
    if (values) CheckNewX(n, x, new_x);
    const int copies = split_ ? 2 : 1;
    const Index offset = style_ == FORTRAN_STYLE ? 1 : 0;
    Eigen::MatrixXd d;
    if (values) d = p_.hess(Eigen::Map<const Vector>(x, n), sigma, Eigen::Map<const Vector>(lambda, m));
    for (Index r = 0, k = 0; r < n; ++r)
      for (Index c = 0; c <= r; ++c)
        for (int s = 0; s < copies; ++s, ++k) {
          if (values) {
            values[k] = d(r, c) / copies + (k == 0 ? hess_error : 0.0);
          } else {
            row[k] = (upper_hessian ? c : r) + offset;
            col[k] = (upper_hessian ? r : c) + offset;
          }
        }
    return true;
  }
  bool intermediate_callback(Ipopt::AlgorithmMode, Index iter, Number, Number, Number, Number,
                             Number, Number, Number, Number, Index, const Ipopt::IpoptData*,
                             Ipopt::IpoptCalculatedQuantities*) override {
    ++callbacks;
    last_iter = iter;
    return stop_after < 0 || iter < stop_after;
  }
  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* z_L,
                         const Number* z_U, Index m, const Number* g, const Number* lambda,
                         Number obj, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    ++finalize_calls;
    final_status = status;
    x_final = Eigen::Map<const Vector>(x, n);
    z_L_final = Eigen::Map<const Vector>(z_L, n);
    z_U_final = Eigen::Map<const Vector>(z_U, n);
    g_final = Eigen::Map<const Vector>(g, m);
    lambda_final = Eigen::Map<const Vector>(lambda, m);
    f_final = obj;
  }

  const TestProblem& problem() const { return p_; }

  // Knobs for failure tests.
  double x_lower = -1e19, x_upper = 1e19;
  bool inequality = false;
  int crossed_row = -1;       // this row gets g_l > g_u
  int sleep_us = 0;           // eval_f sleeps this long (a slow model)
  int throw_at_eval_f = 0;    // eval_f throws std::runtime_error at this call
  int eval_f_calls = 0;
  Index bad_index = 0;        // added to structure rows (out of range when > 0)
  bool nan_at_start = false;  // first eval_f returns NaN
  int stop_after = -1;        // intermediate_callback returns false at this iter
  bool upper_hessian = false; // give the Hessian's upper triangle
  Index nnz_jac_offset = 0;   // added to nnz_jac_g in get_nlp_info (a wrong count)
  Index nnz_h_offset = 0;     // added to nnz_h_lag in get_nlp_info
  double grad_error = 0.0;    // added to the last gradient entry (a derivative bug)
  double jac_error = 0.0;     // added to the first Jacobian value
  double hess_error = 0.0;    // added to the first Hessian value

  // What the solver did.
  std::vector<bool> new_x_flags;  // of eval_f, eval_g, eval_grad_f, eval_jac_g
  int new_x_lies = 0;  // new_x = false at an x other than the last one seen
  int f_calls = 0;
  int callbacks = 0;
  int eval_h_calls = 0;
  int jacobian_structure_calls = 0;  // eval_jac_g with values == nullptr
  Index last_iter = -1;
  int finalize_calls = 0;
  Ipopt::SolverReturn final_status = Ipopt::UNASSIGNED;
  Vector x_final, z_L_final, z_U_final, g_final, lambda_final;
  double f_final = 0.0;

 private:
  // Ipopt's contract: new_x = false only at the x of the previous call.
  void CheckNewX(Index n, const Number* x, bool new_x) {
    const Eigen::Map<const Vector> point(x, n);
    if (!new_x && !(last_x_.size() == n && last_x_ == point)) ++new_x_lies;
    last_x_ = point;
  }
  void SeeX(Index n, const Number* x, bool new_x) {
    new_x_flags.push_back(new_x);
    CheckNewX(n, x, new_x);
  }

  TestProblem p_;
  IndexStyleEnum style_;
  bool split_;
  Vector last_x_;
};

}  // namespace qpm_test

#endif  // QPM_MODELS_TEST_PROBLEMS_HPP_
