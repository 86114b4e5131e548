// Mittelmann's 2D boundary controls with Neumann conditions (H. Maurer, H. D.
// Mittelmann, "Optimization techniques for solving elliptic control problems
// with control and state constraints. Part 1: Boundary control", Examples 5
// to 8), the instances Ipopt's ScalableProblems call MBndryCntrl5 to
// MBndryCntrl8, written here from their mathematics (bench/ipopt_scalable).
//
// Unit square, N interior points per dimension, h = 1 / (N + 1); the state y
// on the (N + 2)^2 grid and one control u per boundary point but the corners
// (4N of them):
//
//   min  h^2/2 sum_inside (y - y_d)^2 + alpha h/2 sum u^2
//   s.t. 4 y_ij - (its four neighbours) + h^2 d(y_ij) = 0   (inside),
//        y_b - y_(b's inner neighbour) - h b(y_b, u_b) = 0  (each side point b),
//        y <= y_max,  u_min <= u <= u_max,  the four corners fixed at 0,
//
// y_d(x1, x2) = 2 - 2 (x1 (x1 - 1) + x2 (x2 - 1)) and, by example,
//
//   5: alpha 0.01, d = 0,         b = u - y^2, y_max 2.071, u in [3.7, 4.5]
//   6: alpha 0,    d = 0,         b = u - y^2, y_max 2.835, u in [6, 9]
//   7: alpha 0.01, d = y^3 - y,   b = u,       y_max 2.7,   u in [1.8, 2.5]
//   8: alpha 0,    d = y^3 - y,   b = u,       y_max 2.7,   u in [1.8, 2.5].
//
// Start: y = y_d on the whole grid (the corners outside their fixed value,
// as in the original), u in the middle of its box. n = (N + 2)^2 + 4N, m =
// N^2 + 4N; W is diagonal (inside the tracking term and h^2 d'', on the
// sides -h b_yy, alpha h on u).
#ifndef QPM_MODELS_BOUNDARY_CONTROL_NEUMANN_2D_TNLP_HPP_
#define QPM_MODELS_BOUNDARY_CONTROL_NEUMANN_2D_TNLP_HPP_

#include "recording_tnlp.hpp"

class BoundaryControlNeumann2dTnlp : public RecordingTnlp {
 public:
  // example: 5 to 8 (MBndryCntrl5 to MBndryCntrl8).
  BoundaryControlNeumann2dTnlp(int points, int example)
      : n1_(points), h_(1.0 / (points + 1)), spec_(Spec(example)) {}
  static bool ValidExample(int example) { return example >= 5 && example <= 8; }
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
    for (int k = 0; k < Grid(); ++k) xl[k] = -1e20, xu[k] = spec_.upper_y;
    for (int k = Grid(); k < n; ++k) xl[k] = spec_.lower_u, xu[k] = spec_.upper_u;
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
    for (int k = Grid(); k < n; ++k) x[k] = 0.5 * (spec_.lower_u + spec_.upper_u);
    return true;
  }
  bool eval_f(Index n, const Number* x, bool, Number& f) override {
    double track = 0.0, control = 0.0;
    ForEachInside([&](int i, int j) { track += Square(x[Y(i, j)] - Target(i, j)); });
    for (int k = Grid(); k < n; ++k) control += x[k] * x[k];
    f = 0.5 * h_ * h_ * track + 0.5 * spec_.alpha * h_ * control;
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    for (int k = 0; k < Grid(); ++k) g[k] = 0.0;
    ForEachInside([&](int i, int j) { g[Y(i, j)] = h_ * h_ * (x[Y(i, j)] - Target(i, j)); });
    for (int k = Grid(); k < n; ++k) g[k] = spec_.alpha * h_ * x[k];
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    int r = 0;
    ForEachInside([&](int i, int j) {
      const double y = x[Y(i, j)];
      g[r++] = 4.0 * y - x[Y(i - 1, j)] - x[Y(i + 1, j)] - x[Y(i, j - 1)] - x[Y(i, j + 1)] +
               h_ * h_ * D(y);
    });
    ForEachSide([&](int b, int inner, int u) {
      g[r++] = x[b] - x[inner] - h_ * (x[u] - spec_.quadratic_b * x[b] * x[b]);
    });
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* rows, Index* cols,
                  Number* values) override {
    int e = 0, r = 0;
    ForEachInside([&](int i, int j) {
      const int entries[5] = {Y(i, j), Y(i - 1, j), Y(i + 1, j), Y(i, j - 1), Y(i, j + 1)};
      for (int t = 0; t < 5; ++t, ++e) {
        if (values) values[e] = t == 0 ? 4.0 + h_ * h_ * DPrime(x[Y(i, j)]) : -1.0;
        else rows[e] = r, cols[e] = entries[t];
      }
      ++r;
    });
    ForEachSide([&](int b, int inner, int u) {
      const int entries[3] = {b, inner, u};
      for (int t = 0; t < 3; ++t, ++e) {
        if (values) values[e] = t == 0 ? 1.0 + 2.0 * h_ * spec_.quadratic_b * x[b] : t == 1 ? -1.0 : -h_;
        else rows[e] = r, cols[e] = entries[t];
      }
      ++r;
    });
    return true;
  }
  bool eval_h(Index, const Number* x, bool, Number sigma, Index, const Number* lambda, bool,
              Index, Index* rows, Index* cols, Number* values) override {
    int e = 0, r = 0;
    ForEachInside([&](int i, int j) {
      if (values) values[e] = h_ * h_ * (sigma + lambda[r] * DSecond(x[Y(i, j)]));
      else rows[e] = cols[e] = Y(i, j);
      ++e, ++r;
    });
    ForEachSide([&](int b, int, int u) {
      // The row's -h (u - y_b^2) has second derivative 2h in y_b.
      if (values) {
        values[e] = 2.0 * h_ * spec_.quadratic_b * lambda[r], values[e + 1] = sigma * spec_.alpha * h_;
      }
      else {
        rows[e] = cols[e] = b, rows[e + 1] = cols[e + 1] = u;
      }
      e += 2, ++r;
    });
    return true;
  }

 private:
  struct Example {
    double alpha, upper_y, lower_u, upper_u;
    double quadratic_b;  // 1: b = u - y^2; 0: b = u
    double cubic_d;      // 1: d = y^3 - y; 0: d = 0
  };
  static Example Spec(int example) {
    switch (example) {
      case 6: return {0.0, 2.835, 6.0, 9.0, 1.0, 0.0};
      case 7: return {0.01, 2.7, 1.8, 2.5, 0.0, 1.0};
      case 8: return {0.0, 2.7, 1.8, 2.5, 0.0, 1.0};
      default: return {0.01, 2.071, 3.7, 4.5, 1.0, 0.0};
    }
  }
  double D(double y) const { return spec_.cubic_d * (y * y * y - y); }
  double DPrime(double y) const { return spec_.cubic_d * (3.0 * y * y - 1.0); }
  double DSecond(double y) const { return spec_.cubic_d * 6.0 * y; }

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
  Example spec_;
};

#endif  // QPM_MODELS_BOUNDARY_CONTROL_NEUMANN_2D_TNLP_HPP_
