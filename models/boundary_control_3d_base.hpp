// What Mittelmann's 3D Dirichlet boundary controls share (after H. Maurer,
// H. D. Mittelmann, "Optimization techniques for solving elliptic control
// problems with control and state constraints. Part 1: Boundary control",
// extended to the cube): the unit cube with N interior points per dimension
// and h = 1 / (N + 1), one variable per point of the (N + 2)^3 grid (the
// state y inside, the control u = y on the boundary), and the rows
//
//   6 y_ijk - (its six neighbours) = -d h^2,  d = -20   (7-point Laplacian)
//
// at the N^3 interior points. Each model adds its objective, bounds, start
// and Hessian.
#ifndef QPM_MODELS_BOUNDARY_CONTROL_3D_BASE_HPP_
#define QPM_MODELS_BOUNDARY_CONTROL_3D_BASE_HPP_

#include <array>

#include "recording_tnlp.hpp"

class BoundaryControl3dBase : public RecordingTnlp {
 public:
  int variables() const { return (n1_ + 2) * (n1_ + 2) * (n1_ + 2); }
  int rows() const { return n1_ * n1_ * n1_; }

  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    int r = 0;
    ForEachRow([&](int i, int j, int k) {
      double v = 6.0 * x[Point(i, j, k)];
      for (const int q : Neighbours(i, j, k)) v -= x[q];
      g[r++] = v;
    });
    return true;
  }
  bool eval_jac_g(Index, const Number*, bool, Index, Index, Index* rows, Index* cols,
                  Number* values) override {
    int e = 0, r = 0;
    ForEachRow([&](int i, int j, int k) {
      if (values) {
        values[e++] = 6.0;
        for (int t = 0; t < 6; ++t) values[e++] = -1.0;
      } else {
        rows[e] = r, cols[e++] = Point(i, j, k);
        for (const int q : Neighbours(i, j, k)) rows[e] = r, cols[e++] = q;
      }
      ++r;
    });
    return true;
  }

 protected:
  explicit BoundaryControl3dBase(int points) : n1_(points), h_(1.0 / (points + 1)) {}

  static constexpr double kD = -20.0;
  static constexpr int kJacobianPerRow = 7;

  // Both sides of every row: -d h^2.
  void RowBounds(Index m, Number* gl, Number* gu) const {
    for (int r = 0; r < m; ++r) gl[r] = gu[r] = -kD * h_ * h_;
  }
  int Point(int i, int j, int k) const { return k + (n1_ + 2) * (j + (n1_ + 2) * i); }
  template <class F>
  void ForEachRow(F f) const {
    for (int i = 1; i <= n1_; ++i) {
      for (int j = 1; j <= n1_; ++j) {
        for (int k = 1; k <= n1_; ++k) f(i, j, k);
      }
    }
  }
  std::array<int, 6> Neighbours(int i, int j, int k) const {
    return {Point(i - 1, j, k), Point(i + 1, j, k), Point(i, j - 1, k),
            Point(i, j + 1, k), Point(i, j, k - 1), Point(i, j, k + 1)};
  }

  int n1_;
  double h_;
};

#endif  // QPM_MODELS_BOUNDARY_CONTROL_3D_BASE_HPP_
