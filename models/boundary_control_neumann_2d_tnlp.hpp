// Mittelmann's 2D boundary control with a nonlinear Neumann condition (H.
// Maurer, H. D. Mittelmann, "Optimization techniques for solving elliptic
// control problems with control and state constraints. Part 1: Boundary
// control", Example 5), the instance Ipopt's ScalableProblems call
// MBndryCntrl5, written here from its mathematics (bench/ipopt_scalable).
//
// Unit square, N interior points per dimension, h = 1 / (N + 1); the state y
// on the (N + 2)^2 grid and one control u per boundary point but the corners
// (4N of them):
//
//   min  h^2/2 sum_inside (y - y_d)^2 + alpha h/2 sum u^2
//   s.t. 4 y_ij - (its four neighbours) = 0              (inside),
//        y_b - y_(b's inner neighbour) - h (u_b - y_b^2) = 0  (each side point b),
//        y <= 2.071,  3.7 <= u <= 4.5,  the four corners fixed at 0,
//
// alpha = 0.01, y_d(x1, x2) = 2 - 2 (x1 (x1 - 1) + x2 (x2 - 1)). Start: y =
// y_d on the whole grid (the corners outside their fixed value, as in the
// original), u = 4.1 (the middle of its box). n = (N + 2)^2 + 4N, m = N^2 +
// 4N; W is diagonal (the tracking term inside, the rows' -h y_b^2 on the
// sides, alpha h on u).
#ifndef QPM_MODELS_BOUNDARY_CONTROL_NEUMANN_2D_TNLP_HPP_
#define QPM_MODELS_BOUNDARY_CONTROL_NEUMANN_2D_TNLP_HPP_

#include "recording_tnlp.hpp"

class BoundaryControlNeumann2dTnlp : public RecordingTnlp {
 public:
  explicit BoundaryControlNeumann2dTnlp(int points) : n1_(points), h_(1.0 / (points + 1)) {}
  int variables() const { return (n1_ + 2) * (n1_ + 2) + 4 * n1_; }
  int rows() const { return n1_ * n1_ + 4 * n1_; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = variables(), m = rows();
    nnz_jac = 5 * n1_ * n1_ + 3 * 4 * n1_;
    nnz_h = n1_ * n1_ + 2 * 4 * n1_;  // inside, the side states, the controls
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    for (int k = 0; k < Grid(); ++k) xl[k] = -1e20, xu[k] = kUpperY;
    for (int k = Grid(); k < n; ++k) xl[k] = kLowerU, xu[k] = kUpperU;
    const int last = n1_ + 1;
    for (int corner : {Y(0, 0), Y(0, last), Y(last, 0), Y(last, last)}) xl[corner] = xu[corner] = 0.0;
    for (int r = 0; r < m; ++r) gl[r] = gu[r] = 0.0;
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    for (int i = 0; i <= n1_ + 1; ++i) {
      for (int j = 0; j <= n1_ + 1; ++j) x[Y(i, j)] = Target(i, j);
    }
    for (int k = Grid(); k < n; ++k) x[k] = 0.5 * (kLowerU + kUpperU);
    return true;
  }
  bool eval_f(Index n, const Number* x, bool, Number& f) override {
    double track = 0.0, control = 0.0;
    ForEachInside([&](int i, int j) { track += Square(x[Y(i, j)] - Target(i, j)); });
    for (int k = Grid(); k < n; ++k) control += x[k] * x[k];
    f = 0.5 * h_ * h_ * track + 0.5 * kAlpha * h_ * control;
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    for (int k = 0; k < Grid(); ++k) g[k] = 0.0;
    ForEachInside([&](int i, int j) { g[Y(i, j)] = h_ * h_ * (x[Y(i, j)] - Target(i, j)); });
    for (int k = Grid(); k < n; ++k) g[k] = kAlpha * h_ * x[k];
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    int r = 0;
    ForEachInside([&](int i, int j) {
      g[r++] = 4.0 * x[Y(i, j)] - x[Y(i - 1, j)] - x[Y(i + 1, j)] - x[Y(i, j - 1)] - x[Y(i, j + 1)];
    });
    ForEachSide([&](int b, int inner, int u) {
      g[r++] = x[b] - x[inner] - h_ * (x[u] - x[b] * x[b]);
    });
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* rows, Index* cols,
                  Number* values) override {
    int e = 0, r = 0;
    ForEachInside([&](int i, int j) {
      const int entries[5] = {Y(i, j), Y(i - 1, j), Y(i + 1, j), Y(i, j - 1), Y(i, j + 1)};
      for (int t = 0; t < 5; ++t, ++e) {
        if (values) values[e] = t == 0 ? 4.0 : -1.0;
        else rows[e] = r, cols[e] = entries[t];
      }
      ++r;
    });
    ForEachSide([&](int b, int inner, int u) {
      const int entries[3] = {b, inner, u};
      for (int t = 0; t < 3; ++t, ++e) {
        if (values) values[e] = t == 0 ? 1.0 + 2.0 * h_ * x[b] : t == 1 ? -1.0 : -h_;
        else rows[e] = r, cols[e] = entries[t];
      }
      ++r;
    });
    return true;
  }
  bool eval_h(Index, const Number*, bool, Number sigma, Index, const Number* lambda, bool, Index,
              Index* rows, Index* cols, Number* values) override {
    int e = 0, r = n1_ * n1_;
    ForEachInside([&](int i, int j) {
      if (values) values[e] = sigma * h_ * h_;
      else rows[e] = cols[e] = Y(i, j);
      ++e;
    });
    ForEachSide([&](int b, int, int u) {
      // The row's -h (u - y_b^2) has second derivative 2h in y_b.
      if (values) values[e] = 2.0 * h_ * lambda[r], values[e + 1] = sigma * kAlpha * h_;
      else rows[e] = cols[e] = b, rows[e + 1] = cols[e + 1] = u;
      e += 2, ++r;
    });
    return true;
  }

 private:
  static constexpr double kAlpha = 0.01, kUpperY = 2.071, kLowerU = 3.7, kUpperU = 4.5;

  static double Square(double v) { return v * v; }
  int Grid() const { return (n1_ + 2) * (n1_ + 2); }
  int Y(int i, int j) const { return j + (n1_ + 2) * i; }
  double Target(int i, int j) const {
    const double x1 = i * h_, x2 = j * h_;
    return 2.0 - 2.0 * (x1 * (x1 - 1.0) + x2 * (x2 - 1.0));
  }
  template <class F>
  void ForEachInside(F f) const {
    for (int i = 1; i <= n1_; ++i) {
      for (int j = 1; j <= n1_; ++j) f(i, j);
    }
  }
  // f(boundary point, its inner neighbour, its control) for the sides x1 = 0,
  // x1 = 1, x2 = 0, x2 = 1 in turn, N points each, the controls in that order.
  template <class F>
  void ForEachSide(F f) const {
    const int last = n1_ + 1;
    int u = Grid();
    for (int k = 1; k <= n1_; ++k) f(Y(0, k), Y(1, k), u++);
    for (int k = 1; k <= n1_; ++k) f(Y(last, k), Y(n1_, k), u++);
    for (int k = 1; k <= n1_; ++k) f(Y(k, 0), Y(k, 1), u++);
    for (int k = 1; k <= n1_; ++k) f(Y(k, last), Y(k, n1_), u++);
  }

  int n1_;
  double h_;
};

#endif  // QPM_MODELS_BOUNDARY_CONTROL_NEUMANN_2D_TNLP_HPP_
