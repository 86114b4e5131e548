// The "sin" variant of Mittelmann's 3D Dirichlet boundary control, the
// instance Ipopt's ScalableProblems call MBndryCntrl_3Dsin (after H. Maurer,
// H. D. Mittelmann, "Optimization techniques for solving elliptic control
// problems with control and state constraints. Part 1: Boundary control",
// extended to the cube), written here from its mathematics
// (bench/ipopt_scalable).
//
// Unit cube, N interior points per dimension, h = 1 / (N + 1); one variable
// per point of the (N + 2)^3 grid: the state y inside, the control u = y on
// the boundary (faces, edges and corners):
//
//   min  h^2/2 sum_inside (y - y_d)^2 + alpha h/2 sum_faces (sin(D) - 1/2)^2
//   s.t. 6 y_ijk - (its six neighbours) = -d h^2   (7-point Laplacian)
//        y <= 3.5 inside, 0 <= u <= 10 on the boundary,
//
// D = (4 u - its four neighbours in the face) / h^2 at each of a face's N^2
// inner points (the 5-point Laplacian of the control along the face; the
// neighbours may be edge points), alpha = 0.1, d = -20,
// y_d(x1, x2, x3) = 3 + 5 x1 (x1 - 1) x2 (x2 - 1) x3 (x3 - 1). The control
// term oscillates with D, which is of order 1/h^2: the problem has many
// local solutions. The corners appear in no term. Start: y = y_d inside,
// u = 5 on the boundary. W is the diagonal inside and, on each face, the sum
// of the stencil's outer products (entries repeat: the TNLP convention sums
// them).
#ifndef QPM_MODELS_BOUNDARY_CONTROL_3D_SIN_TNLP_HPP_
#define QPM_MODELS_BOUNDARY_CONTROL_3D_SIN_TNLP_HPP_

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "boundary_control_3d_base.hpp"

class BoundaryControl3dSinTnlp : public BoundaryControl3dBase {
 public:
  explicit BoundaryControl3dSinTnlp(int points) : BoundaryControl3dBase(points) {
    const int s = n1_ + 2;
    target_.resize(static_cast<size_t>(s) * s * s);
    for (int i = 0; i < s; ++i) {
      for (int j = 0; j < s; ++j) {
        for (int k = 0; k < s; ++k) {
          const double x1 = i * h_, x2 = j * h_, x3 = k * h_;
          target_[Point(i, j, k)] = 3.0 + 5.0 * x1 * (x1 - 1.0) * x2 * (x2 - 1.0) * x3 * (x3 - 1.0);
        }
      }
    }
  }
  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = variables(), m = rows();
    nnz_jac = kJacobianPerRow * m;
    nnz_h = m + 6 * n1_ * n1_ * kStencilPairs;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    for (int p = 0; p < n; ++p) xl[p] = 0.0, xu[p] = 10.0;
    ForEachRow([&](int i, int j, int k) { xl[Point(i, j, k)] = -1e20, xu[Point(i, j, k)] = 3.5; });
    RowBounds(m, gl, gu);
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    for (int p = 0; p < n; ++p) x[p] = 5.0;
    ForEachRow([&](int i, int j, int k) { x[Point(i, j, k)] = target_[Point(i, j, k)]; });
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    double inside = 0.0, faces = 0.0;
    ForEachRow([&](int i, int j, int k) {
      const int p = Point(i, j, k);
      inside += (x[p] - target_[p]) * (x[p] - target_[p]);
    });
    ForEachFacePoint([&](const Stencil& st) {
      const double t = std::sin(Laplacian(st, x)) - 0.5;
      faces += t * t;
    });
    f = 0.5 * h_ * h_ * inside + 0.5 * kAlpha * h_ * faces;
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    for (int p = 0; p < n; ++p) g[p] = 0.0;
    ForEachRow([&](int i, int j, int k) {
      const int p = Point(i, j, k);
      g[p] = h_ * h_ * (x[p] - target_[p]);
    });
    ForEachFacePoint([&](const Stencil& st) {
      const double d = Laplacian(st, x);
      const double slope = 0.5 * kAlpha * h_ * 2.0 * std::cos(d) * (std::sin(d) - 0.5) / (h_ * h_);
      for (int a = 0; a < 5; ++a) g[st[a]] += slope * Weight(a);
    });
    return true;
  }
  bool eval_h(Index, const Number* x, bool, Number sigma, Index, const Number*, bool, Index,
              Index* rows, Index* cols, Number* values) override {
    int e = 0;
    ForEachRow([&](int i, int j, int k) {
      if (values) {
        values[e++] = sigma * h_ * h_;
      } else {
        rows[e] = cols[e] = Point(i, j, k), ++e;
      }
    });
    ForEachFacePoint([&](const Stencil& st) {
      double c = 0.0;
      if (values) {
        const double d = Laplacian(st, x), sn = std::sin(d), cs = std::cos(d);
        c = sigma * 0.5 * kAlpha * h_ * 2.0 * (cs * cs - sn * (sn - 0.5)) / std::pow(h_, 4);
      }
      for (int a = 0; a < 5; ++a) {
        for (int b = 0; b <= a; ++b) {
          if (values) {
            values[e++] = c * Weight(a) * Weight(b);
          } else {
            rows[e] = std::max(st[a], st[b]), cols[e] = std::min(st[a], st[b]), ++e;
          }
        }
      }
    });
    return true;
  }

 private:
  static constexpr double kAlpha = 0.1;
  static constexpr int kStencilPairs = 15;  // the 5-point stencil's lower triangle
  // A face point and its four neighbours in the face, centre first.
  using Stencil = std::array<int, 5>;

  static double Weight(int a) { return a == 0 ? 4.0 : -1.0; }
  double Laplacian(const Stencil& st, const Number* x) const {
    double v = 0.0;
    for (int a = 0; a < 5; ++a) v += Weight(a) * x[st[a]];
    return v / (h_ * h_);
  }
  // The N^2 inner points of each of the six faces, each with its stencil.
  template <class F>
  void ForEachFacePoint(F f) const {
    const int last = n1_ + 1;
    for (const int side : {0, last}) {
      for (int a = 1; a <= n1_; ++a) {
        for (int b = 1; b <= n1_; ++b) {
          f(Stencil{Point(a, b, side), Point(a - 1, b, side), Point(a + 1, b, side),
                    Point(a, b - 1, side), Point(a, b + 1, side)});
          f(Stencil{Point(side, a, b), Point(side, a - 1, b), Point(side, a + 1, b),
                    Point(side, a, b - 1), Point(side, a, b + 1)});
          f(Stencil{Point(a, side, b), Point(a - 1, side, b), Point(a + 1, side, b),
                    Point(a, side, b - 1), Point(a, side, b + 1)});
        }
      }
    }
  }
  std::vector<double> target_;
};

#endif  // QPM_MODELS_BOUNDARY_CONTROL_3D_SIN_TNLP_HPP_
