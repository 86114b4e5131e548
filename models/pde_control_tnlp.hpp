// Elliptic distributed control with control bounds on the unit square or
// cube, discretized by finite differences on N points per dimension
// (h = 1 / (N + 1), homogeneous Dirichlet boundary):
//
//   min  h^d [ 1/2 sum_i (y_i - yd_i)^2 + alpha/2 sum_i u_i^2 ]
//   s.t. (2d y_i - sum_{j neighbour of i} y_j) - h^2 u_i = 0   (-Lap y = u, times h^2)
//        lower <= u_i <= upper,
//
// yd = sin(2 pi x_1) ... sin(2 pi x_d): the unconstrained control is about
// 4 d pi^2 in size, so the bounds +-kBound bind on a large part of the
// domain. n = 2 N^d variables (y, then u), m = N^d equality rows with at most
// 2d + 2 entries; W is diagonal. Starts at y = u = 0 (feasible).
#ifndef QPM_MODELS_PDE_CONTROL_TNLP_HPP_
#define QPM_MODELS_PDE_CONTROL_TNLP_HPP_

#include <cmath>
#include <vector>

#include <IpTNLP.hpp>

class PdeControlTnlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;
  static constexpr double kAlpha = 1e-4;
  static constexpr double kBound = 20.0;

  PdeControlTnlp(int dimension, int points) : d_(dimension), s_(points) {
    cells_ = 1;
    for (int k = 0; k < d_; ++k) cells_ *= s_;
    h_ = 1.0 / (s_ + 1);
    volume_ = std::pow(h_, d_);
    target_.resize(cells_);
    for (int i = 0; i < cells_; ++i) {
      double t = 1.0;
      int rest = i;
      for (int k = 0; k < d_; ++k, rest /= s_) t *= std::sin(2.0 * M_PI * h_ * (rest % s_ + 1));
      target_[i] = t;
    }
  }
  int variables() const { return 2 * cells_; }
  int rows() const { return cells_; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = 2 * cells_, m = cells_;
    nnz_jac = 0;
    for (int i = 0; i < cells_; ++i) nnz_jac += 2 + Neighbours(i, nullptr);
    nnz_h = 2 * cells_;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l, Number* g_u) override {
    for (Index i = 0; i < n; ++i) {
      const bool control = i >= cells_;
      x_l[i] = control ? -kBound : -1e20;
      x_u[i] = control ? kBound : 1e20;
    }
    for (Index j = 0; j < m; ++j) g_l[j] = g_u[j] = 0.0;
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool, Number*) override {
    for (Index i = 0; i < n; ++i) x[i] = 0.0;
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    double sum = 0.0;
    for (int i = 0; i < cells_; ++i) {
      const double e = x[i] - target_[i];
      sum += 0.5 * e * e + 0.5 * kAlpha * x[cells_ + i] * x[cells_ + i];
    }
    f = volume_ * sum;
    return true;
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* grad) override {
    for (int i = 0; i < cells_; ++i) {
      grad[i] = volume_ * (x[i] - target_[i]);
      grad[cells_ + i] = volume_ * kAlpha * x[cells_ + i];
    }
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    std::vector<int> nb(2 * d_);
    for (int i = 0; i < cells_; ++i) {
      const int k = Neighbours(i, nb.data());
      double sum = 2.0 * d_ * x[i];
      for (int j = 0; j < k; ++j) sum -= x[nb[j]];
      g[i] = sum - h_ * h_ * x[cells_ + i];
    }
    return true;
  }
  bool eval_jac_g(Index, const Number*, bool, Index, Index, Index* row, Index* col, Number* values) override {
    std::vector<int> nb(2 * d_);
    Index e = 0;
    for (int i = 0; i < cells_; ++i) {
      const int k = Neighbours(i, nb.data());
      if (values) {
        values[e++] = 2.0 * d_;
        for (int j = 0; j < k; ++j) values[e++] = -1.0;
        values[e++] = -h_ * h_;
      } else {
        row[e] = i, col[e++] = i;
        for (int j = 0; j < k; ++j) row[e] = i, col[e++] = nb[j];
        row[e] = i, col[e++] = cells_ + i;
      }
    }
    return true;
  }
  bool eval_h(Index, const Number*, bool, Number sigma, Index, const Number*, bool, Index,
              Index* row, Index* col, Number* values) override {
    for (int i = 0; i < 2 * cells_; ++i) {
      if (values) values[i] = sigma * volume_ * (i < cells_ ? 1.0 : kAlpha);
      else row[i] = col[i] = i;
    }
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn, Index, const Number*, const Number*, const Number*,
                         Index, const Number*, const Number*, Number, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {}

 private:
  // The grid neighbours of cell i inside the domain (into nb when given).
  int Neighbours(int i, int* nb) const {
    int count = 0, stride = 1;
    for (int k = 0; k < d_; ++k, stride *= s_) {
      const int coordinate = (i / stride) % s_;
      if (coordinate > 0) { if (nb) nb[count] = i - stride; ++count; }
      if (coordinate + 1 < s_) { if (nb) nb[count] = i + stride; ++count; }
    }
    return count;
  }

  int d_, s_, cells_;
  double h_, volume_;
  std::vector<double> target_;
};

#endif  // QPM_MODELS_PDE_CONTROL_TNLP_HPP_
