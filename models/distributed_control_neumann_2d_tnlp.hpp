// Mittelmann's 2D distributed control with a homogeneous Neumann (Robin)
// boundary condition (H. Maurer, H. D. Mittelmann, "Optimization techniques
// for solving elliptic control problems with control and state constraints.
// Part 2: Distributed control", Example 4), the instance Ipopt's
// ScalableProblems call MDistCntrl4, written here from its mathematics
// (bench/ipopt_scalable).
//
// Unit square, N interior points per dimension, h = 1 / (N + 1); the state y
// on the (N + 2)^2 grid and the control u on the N^2 interior points:
//
//   min  h^2/2 sum_inside (y - y_d)^2 + alpha h^2/2 sum u^2
//   s.t. 4 y_ij - (its four neighbours) - h^2 (exp(y_ij) + u_ij) = 0  (inside),
//        (1 + h) y_b - y_(b's inner neighbour) = 0  (each boundary point b
//        but the corners, which are fixed at 0 and enter no row),
//        y <= 0.371,  -8 <= u <= 9,
//
// alpha = 0.001, y_d(x1, x2) = sin(2 pi x1) sin(2 pi x2). Start: y = y_d,
// u = 0.5 (the middle of its box). n = (N + 2)^2 + N^2, m = N^2 + 4N; W is
// diagonal.
#ifndef QPM_MODELS_DISTRIBUTED_CONTROL_NEUMANN_2D_TNLP_HPP_
#define QPM_MODELS_DISTRIBUTED_CONTROL_NEUMANN_2D_TNLP_HPP_

#include <cmath>

#include "distributed_control_base.hpp"

class DistributedControlNeumann2dTnlp : public DistributedControl2dBase {
 public:
  explicit DistributedControlNeumann2dTnlp(int points)
      : DistributedControl2dBase(points, kLowerU, kUpperU) {}
  int rows() const { return n1_ * n1_ + 4 * n1_; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = variables(), m = rows();
    nnz_jac = 6 * n1_ * n1_ + 8 * n1_;
    nnz_h = 2 * n1_ * n1_;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    const int s = n1_ + 2;
    for (int p = 0; p < s * s; ++p) xl[p] = -1e20, xu[p] = kUpperY;
    for (const int corner : {Y(0, 0), Y(0, s - 1), Y(s - 1, 0), Y(s - 1, s - 1)}) {
      xl[corner] = xu[corner] = 0.0;
    }
    for (int p = s * s; p < n; ++p) xl[p] = kLowerU, xu[p] = kUpperU;
    for (int r = 0; r < m; ++r) gl[r] = gu[r] = 0.0;
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    int r = 0;
    ForEachInside([&](int i, int j) {
      const double y = x[Y(i, j)];
      g[r++] = 4.0 * y - x[Y(i - 1, j)] - x[Y(i + 1, j)] - x[Y(i, j - 1)] - x[Y(i, j + 1)] -
               h_ * h_ * (std::exp(y) + x[U(i, j)]);
    });
    ForEachBoundary([&](int outer, int inner) { g[r++] = (1.0 + h_) * x[outer] - x[inner]; });
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* rows, Index* cols,
                  Number* values) override {
    int e = 0, r = 0;
    ForEachInside([&](int i, int j) {
      const int entries[6] = {Y(i, j), Y(i - 1, j), Y(i + 1, j), Y(i, j - 1), Y(i, j + 1), U(i, j)};
      if (values) {
        values[e++] = 4.0 - h_ * h_ * std::exp(x[Y(i, j)]);
        for (int t = 0; t < 4; ++t) values[e++] = -1.0;
        values[e++] = -h_ * h_;
      } else {
        for (const int c : entries) rows[e] = r, cols[e++] = c;
      }
      ++r;
    });
    ForEachBoundary([&](int outer, int inner) {
      if (values) {
        values[e++] = 1.0 + h_;
        values[e++] = -1.0;
      } else {
        rows[e] = r, cols[e++] = outer;
        rows[e] = r, cols[e++] = inner;
      }
      ++r;
    });
    return true;
  }
  // Entries: y's diagonal at 2r, u's at 2r + 1, r the PDE row of (i, j).
  bool eval_h(Index, const Number* x, bool, Number sigma, Index, const Number* lambda, bool, Index,
              Index* rows, Index* cols, Number* values) override {
    int r = 0;
    ForEachInside([&](int i, int j) {
      if (values) {
        values[2 * r] = h_ * h_ * (sigma - lambda[r] * std::exp(x[Y(i, j)]));
        values[2 * r + 1] = sigma * h_ * h_ * kAlpha;
      } else {
        rows[2 * r] = cols[2 * r] = Y(i, j);
        rows[2 * r + 1] = cols[2 * r + 1] = U(i, j);
      }
      ++r;
    });
    return true;
  }

 private:
  static constexpr double kUpperY = 0.371, kLowerU = -8.0, kUpperU = 9.0;

  double Target(int i, int j) const override {
    const double pi = std::acos(-1.0);
    return std::sin(2.0 * pi * i * h_) * std::sin(2.0 * pi * j * h_);
  }
  // f(boundary point, its inner neighbour): the sides x2 = 0, x2 = 1,
  // x1 = 0, x1 = 1 in turn, corners excluded.
  template <class F>
  void ForEachBoundary(F f) const {
    const int last = n1_ + 1;
    for (int i = 1; i <= n1_; ++i) f(Y(i, 0), Y(i, 1));
    for (int i = 1; i <= n1_; ++i) f(Y(i, last), Y(i, n1_));
    for (int j = 1; j <= n1_; ++j) f(Y(0, j), Y(1, j));
    for (int j = 1; j <= n1_; ++j) f(Y(last, j), Y(n1_, j));
  }
};

#endif  // QPM_MODELS_DISTRIBUTED_CONTROL_NEUMANN_2D_TNLP_HPP_
