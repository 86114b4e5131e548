// Mittelmann's 2D Dirichlet boundary control (H. Maurer, H. D. Mittelmann,
// "Optimization techniques for solving elliptic control problems with
// control and state constraints. Part 1: Boundary control", Example 1), the
// instance Ipopt's ScalableProblems call MBndryCntrl1, written here from its
// mathematics (bench/ipopt_scalable). A convex QP.
//
// Unit square, N interior points per dimension, h = 1 / (N + 1); one variable
// per point of the (N + 2)^2 grid: the state y inside, the control u = y on
// the four sides, and the four corners fixed at 0 (no stencil reads them).
//
//   min  h^2/2 sum_inside (y - y_d)^2 + alpha h/2 sum_sides u^2
//   s.t. 4 y_ij - (its four neighbours) = -d h^2   (5-point Laplacian)
//        y <= 3.5 inside, 0 <= u <= 10 on the sides,
//
// alpha = 0.01, d = -20, y_d(x1, x2) = 3 + 5 x1 (x1 - 1) x2 (x2 - 1).
// Start: y = y_d inside, u = 5 on the sides (the corners start at y_d,
// outside their fixed value, as in the original).
#ifndef QPM_MODELS_BOUNDARY_CONTROL_2D_TNLP_HPP_
#define QPM_MODELS_BOUNDARY_CONTROL_2D_TNLP_HPP_

#include "recording_tnlp.hpp"

class BoundaryControl2dTnlp : public RecordingTnlp {
 public:
  explicit BoundaryControl2dTnlp(int points) : n1_(points), h_(1.0 / (points + 1)) {}
  int variables() const { return (n1_ + 2) * (n1_ + 2); }
  int rows() const { return n1_ * n1_; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = variables(), m = rows();
    nnz_jac = 5 * m;
    nnz_h = m + 4 * n1_;  // diagonal: inside and sides
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    ForEachPoint([&](int i, int j, int kind) {
      xl[Y(i, j)] = kind == kInside ? -1e20 : 0.0;
      xu[Y(i, j)] = kind == kInside ? 3.5 : kind == kSide ? 10.0 : 0.0;
    });
    for (int r = 0; r < m; ++r) gl[r] = gu[r] = -kD * h_ * h_;
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    ForEachPoint([&](int i, int j, int kind) { x[Y(i, j)] = kind == kSide ? 5.0 : Target(i, j); });
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    double track = 0.0, control = 0.0;
    ForEachPoint([&](int i, int j, int kind) {
      const double v = x[Y(i, j)];
      if (kind == kInside) track += (v - Target(i, j)) * (v - Target(i, j));
      if (kind == kSide) control += v * v;
    });
    f = 0.5 * h_ * h_ * track + 0.5 * kAlpha * h_ * control;
    return true;
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* g) override {
    ForEachPoint([&](int i, int j, int kind) {
      const double v = x[Y(i, j)];
      g[Y(i, j)] = kind == kInside ? h_ * h_ * (v - Target(i, j)) : kind == kSide ? kAlpha * h_ * v : 0.0;
    });
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    int r = 0;
    ForEachInside([&](int i, int j) {
      g[r++] = 4.0 * x[Y(i, j)] - x[Y(i - 1, j)] - x[Y(i + 1, j)] - x[Y(i, j - 1)] - x[Y(i, j + 1)];
    });
    return true;
  }
  bool eval_jac_g(Index, const Number*, bool, Index, Index, Index* rows, Index* cols,
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
    return true;
  }
  bool eval_h(Index, const Number*, bool, Number sigma, Index, const Number*, bool, Index,
              Index* rows, Index* cols, Number* values) override {
    int e = 0;
    ForEachPoint([&](int i, int j, int kind) {
      if (kind == kCorner) return;
      if (values) values[e] = sigma * (kind == kInside ? h_ * h_ : kAlpha * h_);
      else rows[e] = cols[e] = Y(i, j);
      ++e;
    });
    return true;
  }

 private:
  static constexpr double kAlpha = 0.01, kD = -20.0;
  enum { kInside, kSide, kCorner };

  int Y(int i, int j) const { return j + (n1_ + 2) * i; }
  double Target(int i, int j) const {
    const double x1 = i * h_, x2 = j * h_;
    return 3.0 + 5.0 * x1 * (x1 - 1.0) * x2 * (x2 - 1.0);
  }
  template <class F>
  void ForEachPoint(F f) const {
    const int last = n1_ + 1;
    for (int i = 0; i <= last; ++i) {
      for (int j = 0; j <= last; ++j) {
        const int on = (i == 0 || i == last) + (j == 0 || j == last);
        f(i, j, on == 0 ? kInside : on == 1 ? kSide : kCorner);
      }
    }
  }
  template <class F>
  void ForEachInside(F f) const {
    for (int i = 1; i <= n1_; ++i) {
      for (int j = 1; j <= n1_; ++j) f(i, j);
    }
  }

  int n1_;
  double h_;
};

#endif  // QPM_MODELS_BOUNDARY_CONTROL_2D_TNLP_HPP_
