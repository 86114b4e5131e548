// The two-obstacle membrane problem and one implicit time step of it, on an
// s x s grid: bound constraints only (m = 0), n = s^2 (bench/scalable).
//
// Family "obstacle": P1 finite elements on a uniform triangulation of the
// unit square, s x s interior nodes, h = 1 / (s + 1):
//
//   f(u) = 1/2 u' K u - h^2 F' u,    K = 5-point stencil (4 on the diagonal,
//                                    -1 per neighbour; u = 0 on the boundary)
//   F(x, y) = 50 sin(2 pi x) sin(2 pi y) + 20 (x - y)
//   -0.2 - 0.2 x  <=  u(x, y)  <=  0.2 + 0.2 y
//
// The unconstrained membrane reaches about +-0.63, so both obstacles are hit
// in two lobes each. K's condition number grows like n (about 0.4 n), and its
// diagonal is constant (Jacobi does nothing), so CG needs O(sqrt(n)) products
// per accurate solve.
//
// Family "obstacle-step" (step = true): the same grid, obstacles and F, one
// implicit Euler step of length dt = h^2 of the parabolic two-obstacle problem
// u_t - Laplace u = F from the state U = 0.8 sin(pi x) sin(2 pi y), with a
// lumped mass matrix, divided by h^2:
//
//   f(u) = 1/2 u' (I + K) u - (U + h^2 F)' u
//
// whose Hessian I + K has condition number below 9 at every n: the control
// case where CG's cost per solve is independent of n.
//
// Forms: kBounds, the model above; kFixed, the variables of a contact set
// fixed (x_l = x_u = their value), all others free; kFree, no bounds at all.
// Start u = 0.
#ifndef QPM_MODELS_OBSTACLE_TNLP_HPP_
#define QPM_MODELS_OBSTACLE_TNLP_HPP_

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <IpTNLP.hpp>

#include "recording_tnlp.hpp"

class ObstacleTnlp : public RecordingTnlp {
 public:
  enum class Form { kBounds, kFixed, kFree };
  // `contact` (size s^2, only for kFixed): the value each fixed variable
  // takes, NaN for a free one.
  // step: the time-step model (diagonal 1 + 4, load U + h^2 F; see the top).
  ObstacleTnlp(int s, Form form, bool step, std::vector<double> contact = {})
      : s_(s), n_(s * s), h_(1.0 / (s + 1)), form_(form), step_(step),
        contact_(std::move(contact)) {
    load_.resize(n_), lower_.resize(n_), upper_.resize(n_);
    for (int j = 0; j < s_; ++j) {
      for (int i = 0; i < s_; ++i) {
        const double x = (i + 1) * h_, y = (j + 1) * h_;
        load_[Node(i, j)] = h_ * h_ * Load(x, y) + (step_ ? State(x, y) : 0.0);
        lower_[Node(i, j)] = -0.2 - 0.2 * x;
        upper_[Node(i, j)] = 0.2 + 0.2 * y;
      }
    }
  }
  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h,
                    IndexStyleEnum& style) override {
    n = n_, m = 0, nnz_jac = 0, nnz_h = n_ + 2 * s_ * (s_ - 1), style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index, Number*, Number*) override {
    for (int k = 0; k < n_; ++k) {
      x_l[k] = -kInf, x_u[k] = kInf;
      if (form_ == Form::kBounds) x_l[k] = lower_[k], x_u[k] = upper_[k];
      if (form_ == Form::kFixed && !std::isnan(contact_[k])) x_l[k] = x_u[k] = contact_[k];
    }
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    std::fill(x, x + n_, 0.0);
    return true;
  }
  bool eval_f(Index, const Number* u, bool, Number& f) override {
    std::vector<double> ku(n_);
    Apply(u, ku.data());
    f = 0.0;
    for (int k = 0; k < n_; ++k) f += 0.5 * u[k] * ku[k] - load_[k] * u[k];
    return true;
  }
  bool eval_grad_f(Index, const Number* u, bool, Number* grad) override {
    Apply(u, grad);
    for (int k = 0; k < n_; ++k) grad[k] -= load_[k];
    return true;
  }
  bool eval_g(Index, const Number*, bool, Index, Number*) override { return true; }
  bool eval_jac_g(Index, const Number*, bool, Index, Index, Index*, Index*, Number*) override {
    return true;
  }
  // Lower triangle: the diagonal, then each node's right and upper neighbour.
  bool eval_h(Index, const Number*, bool, Number sigma, Index, const Number*, bool, Index,
              Index* row, Index* col, Number* values) override {
    int e = 0;
    for (int j = 0; j < s_; ++j) {
      for (int i = 0; i < s_; ++i) {
        const int k = Node(i, j);
        if (values) {
          values[e++] = (step_ ? 5.0 : 4.0) * sigma;
          if (i + 1 < s_) values[e++] = -sigma;
          if (j + 1 < s_) values[e++] = -sigma;
          continue;
        }
        row[e] = col[e] = k, ++e;
        if (i + 1 < s_) row[e] = Node(i + 1, j), col[e] = k, ++e;
        if (j + 1 < s_) row[e] = Node(i, j + 1), col[e] = k, ++e;
      }
    }
    return true;
  }

  // ||u - P(u - grad f(u))||_inf over the model's own bounds (form bounds),
  // the free entries only (fixed), or all (free).
  double ProjectedGradient(const std::vector<double>& u) {
    std::vector<double> grad(n_), x_l(n_), x_u(n_);
    eval_grad_f(n_, u.data(), true, grad.data());
    get_bounds_info(n_, x_l.data(), x_u.data(), 0, nullptr, nullptr);
    double r = 0.0;
    for (int k = 0; k < n_; ++k) {
      const double p = std::min(x_u[k], std::max(x_l[k], u[k] - grad[k]));
      r = std::max(r, std::abs(u[k] - p));
    }
    return r;
  }
  // max(0, lower - u, u - upper) over the obstacles (every form).
  double ObstacleViolation(const std::vector<double>& u) const {
    double v = 0.0;
    for (int k = 0; k < n_; ++k) v = std::max({v, lower_[k] - u[k], u[k] - upper_[k]});
    return v;
  }
  // u where u touches an obstacle (|u - obstacle| <= tol), NaN elsewhere.
  std::vector<double> ContactSet(const std::vector<double>& u, double tol, int* count) const {
    std::vector<double> contact(n_, NAN);
    *count = 0;
    for (int k = 0; k < n_; ++k) {
      if (u[k] - lower_[k] <= tol) contact[k] = lower_[k], ++*count;
      else if (upper_[k] - u[k] <= tol) contact[k] = upper_[k], ++*count;
    }
    return contact;
  }

 private:
  static constexpr double kInf = 1e20;
  static constexpr double kPi = 3.14159265358979323846;

  // Not an eigenfunction of the Laplacian (CG would converge in one step).
  static double Load(double x, double y) {
    return 50.0 * std::sin(2 * kPi * x) * std::sin(2 * kPi * y) + 20.0 * (x - y);
  }
  int Node(int i, int j) const { return i + s_ * j; }
  // U of the time-step model: a state that crosses both obstacles.
  static double State(double x, double y) { return 0.8 * std::sin(kPi * x) * std::sin(2 * kPi * y); }
  void Apply(const Number* u, Number* out) const {  // out = K u, or (I + K) u
    for (int j = 0; j < s_; ++j) {
      for (int i = 0; i < s_; ++i) {
        const int k = Node(i, j);
        double v = (step_ ? 5.0 : 4.0) * u[k];
        if (i > 0) v -= u[k - 1];
        if (i + 1 < s_) v -= u[k + 1];
        if (j > 0) v -= u[k - s_];
        if (j + 1 < s_) v -= u[k + s_];
        out[k] = v;
      }
    }
  }
  int s_, n_;
  double h_;
  Form form_;
  bool step_;
  std::vector<double> contact_, load_, lower_, upper_;
};

#endif  // QPM_MODELS_OBSTACLE_TNLP_HPP_
