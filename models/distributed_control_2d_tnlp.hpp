// Mittelmann's 2D distributed control of a semilinear elliptic equation with
// state and control bounds (H. Maurer, H. D. Mittelmann, "Optimization
// techniques for solving elliptic control problems with control and state
// constraints. Part 2: Distributed control", Example 1), the instance Ipopt's
// ScalableProblems call MDistCntrl1, written here from its mathematics
// (bench/ipopt_scalable).
//
// Unit square, N interior points per dimension, h = 1 / (N + 1); the state y
// on the (N + 2)^2 grid (its boundary fixed at 0) and the control u on the
// N^2 interior points:
//
//   min  h^2/2 sum_inside (y - y_d)^2 + alpha h^2/2 sum u^2
//   s.t. 4 y_ij - (its four neighbours) + h^2 (y_ij^3 - y_ij - u_ij) = 0,
//        y <= 0.185,  1.5 <= u <= 4.5,
//
// alpha = 0.001, y_d(x1, x2) = 1 + 2 (x1 (x1 - 1) + x2 (x2 - 1)). Start:
// y = y_d (its boundary values outside their fixed 0, as in the original),
// u = 3. n = (N + 2)^2 + N^2, m = N^2; W is diagonal.
#ifndef QPM_MODELS_DISTRIBUTED_CONTROL_2D_TNLP_HPP_
#define QPM_MODELS_DISTRIBUTED_CONTROL_2D_TNLP_HPP_

#include "distributed_control_base.hpp"

class DistributedControl2dTnlp : public DistributedControl2dBase {
 public:
  explicit DistributedControl2dTnlp(int points)
      : DistributedControl2dBase(points, kLowerU, kUpperU) {}
  int rows() const { return n1_ * n1_; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = variables(), m = rows();
    nnz_jac = 6 * m;
    nnz_h = 2 * m;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    const int s = n1_ + 2;
    for (int i = 0; i < s; ++i) {
      for (int j = 0; j < s; ++j) {
        const bool boundary = i == 0 || j == 0 || i == s - 1 || j == s - 1;
        xl[Y(i, j)] = boundary ? 0.0 : -1e20;
        xu[Y(i, j)] = boundary ? 0.0 : kUpperY;
      }
    }
    for (int p = s * s; p < n; ++p) xl[p] = kLowerU, xu[p] = kUpperU;
    for (int r = 0; r < m; ++r) gl[r] = gu[r] = 0.0;
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    int r = 0;
    ForEachInside([&](int i, int j) {
      const double y = x[Y(i, j)];
      g[r++] = 4.0 * y - x[Y(i - 1, j)] - x[Y(i + 1, j)] - x[Y(i, j - 1)] - x[Y(i, j + 1)] +
               h_ * h_ * (y * y * y - y - x[U(i, j)]);
    });
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* rows, Index* cols,
                  Number* values) override {
    int e = 0, r = 0;
    ForEachInside([&](int i, int j) {
      const int entries[6] = {Y(i, j), Y(i - 1, j), Y(i + 1, j), Y(i, j - 1), Y(i, j + 1), U(i, j)};
      if (values) {
        const double y = x[Y(i, j)];
        values[e++] = 4.0 + h_ * h_ * (3.0 * y * y - 1.0);
        for (int t = 0; t < 4; ++t) values[e++] = -1.0;
        values[e++] = -h_ * h_;
      } else {
        for (const int c : entries) rows[e] = r, cols[e++] = c;
      }
      ++r;
    });
    return true;
  }
  // Entries: y's diagonal at 2r, u's at 2r + 1, r the row of (i, j).
  bool eval_h(Index, const Number* x, bool, Number sigma, Index, const Number* lambda, bool, Index,
              Index* rows, Index* cols, Number* values) override {
    int r = 0;
    ForEachInside([&](int i, int j) {
      if (values) {
        values[2 * r] = sigma * h_ * h_ + lambda[r] * h_ * h_ * 6.0 * x[Y(i, j)];
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
  static constexpr double kUpperY = 0.185, kLowerU = 1.5, kUpperU = 4.5;

  double Target(int i, int j) const override {
    const double x1 = i * h_, x2 = j * h_;
    return 1.0 + 2.0 * (x1 * (x1 - 1.0) + x2 * (x2 - 1.0));
  }
};

#endif  // QPM_MODELS_DISTRIBUTED_CONTROL_2D_TNLP_HPP_
