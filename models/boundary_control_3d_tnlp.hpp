// Mittelmann's 3D Dirichlet boundary control with a nonconvex tracking term
// (after H. Maurer, H. D. Mittelmann, "Optimization techniques for solving
// elliptic control problems with control and state constraints. Part 1:
// Boundary control", extended to the cube), the instance Ipopt's ScalableProblems call
// MBndryCntrl_3D, written here from its mathematics (bench/ipopt_scalable).
//
// Unit cube, N interior points per dimension, h = 1 / (N + 1); one variable
// per point of the (N + 2)^3 grid: the state y inside, the control u = y on
// the six faces, and the cube's edges fixed at 0 (no stencil reads them).
//
//   min  h^3 sum_inside P(y - y_d) + alpha/2 h^2 sum_faces u^2
//   s.t. 6 y_ijk - (its six neighbours) = -d h^2   (7-point Laplacian)
//        y <= 3.5 inside, 0 <= u <= 10 on the faces,
//
// alpha = 0.01, d = -20, y_d(x1, x2, x3) = 3 + 5 x1 (x1 - 1) x2 (x2 - 1).
// P is a smoothed Huber term with B = 0.5, C = 0.01: the even polynomial
// a t^2 + b t^4 + c t^6 for |t| <= B, joined with value and slope C to the
// line B^2/2 + C (|t| - B) outside (its second derivative changes sign
// inside [-B, B]: the problem is nonconvex, so local solutions can differ).
// Start: y = y_d everywhere, then u = 5 on the face x3 = 0 (edges included:
// they start outside their fixed value, as in the original).
#ifndef QPM_MODELS_BOUNDARY_CONTROL_3D_TNLP_HPP_
#define QPM_MODELS_BOUNDARY_CONTROL_3D_TNLP_HPP_

#include <cmath>
#include <vector>

#include "boundary_control_3d_base.hpp"

class BoundaryControl3dTnlp : public BoundaryControl3dBase {
 public:
  explicit BoundaryControl3dTnlp(int points) : BoundaryControl3dBase(points) {
    const double b = kB, c = kC;
    a_ = 1.5 - 1.125 * c / b;
    b4_ = 1.75 * c / (b * b * b) - 1.5 / (b * b);
    c6_ = 0.5 / std::pow(b, 4) - 0.625 * c / std::pow(b, 5);
    const int s = n1_ + 2;
    target_.resize(static_cast<size_t>(s) * s * s);
    for (int i = 0; i < s; ++i) {
      for (int j = 0; j < s; ++j) {
        for (int k = 0; k < s; ++k) {
          const double x1 = i * h_, x2 = j * h_;
          target_[Point(i, j, k)] = 3.0 + 5.0 * x1 * (x1 - 1.0) * x2 * (x2 - 1.0);
        }
      }
    }
  }
  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = variables(), m = rows();
    nnz_jac = kJacobianPerRow * m;
    nnz_h = m + 6 * n1_ * n1_;  // diagonal: inside and faces
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    const int s = n1_ + 2;
    for (int i = 0; i < s; ++i) {
      for (int j = 0; j < s; ++j) {
        for (int k = 0; k < s; ++k) {
          const int p = Point(i, j, k), kind = Kind(i, j, k);
          xl[p] = kind == kInside ? -1e20 : 0.0;
          xu[p] = kind == kInside ? 3.5 : kind == kFace ? 10.0 : 0.0;
        }
      }
    }
    RowBounds(m, gl, gu);
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    for (int p = 0; p < n; ++p) x[p] = target_[p];
    for (int i = 0; i < n1_ + 2; ++i) {
      for (int j = 0; j < n1_ + 2; ++j) x[Point(i, j, 0)] = 5.0;
    }
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    double inside = 0.0, faces = 0.0;
    ForEachPoint([&](int p, int kind) {
      if (kind == kInside) inside += Huber(x[p] - target_[p]);
      if (kind == kFace) faces += x[p] * x[p];
    });
    f = h_ * h_ * h_ * inside + 0.5 * kAlpha * h_ * h_ * faces;
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    for (int p = 0; p < n; ++p) g[p] = 0.0;
    ForEachPoint([&](int p, int kind) {
      if (kind == kInside) g[p] = h_ * h_ * h_ * HuberSlope(x[p] - target_[p]);
      if (kind == kFace) g[p] = kAlpha * h_ * h_ * x[p];
    });
    return true;
  }
  bool eval_h(Index, const Number* x, bool, Number sigma, Index, const Number*, bool, Index,
              Index* rows, Index* cols, Number* values) override {
    int e = 0;
    ForEachPoint([&](int p, int kind) {
      if (kind == kEdge) return;
      if (values) {
        values[e++] = sigma * (kind == kInside ? h_ * h_ * h_ * HuberCurvature(x[p] - target_[p])
                                               : kAlpha * h_ * h_);
      } else {
        rows[e] = cols[e] = p, ++e;
      }
    });
    return true;
  }

 private:
  static constexpr double kAlpha = 0.01, kB = 0.5, kC = 0.01;
  enum { kInside, kFace, kEdge };

  // A grid point is inside, on one face (a control) or on an edge or corner.
  int Kind(int i, int j, int k) const {
    const int last = n1_ + 1;
    const int on = (i == 0 || i == last) + (j == 0 || j == last) + (k == 0 || k == last);
    return on == 0 ? kInside : on == 1 ? kFace : kEdge;
  }
  template <class F>
  void ForEachPoint(F f) const {
    const int s = n1_ + 2;
    for (int i = 0; i < s; ++i) {
      for (int j = 0; j < s; ++j) {
        for (int k = 0; k < s; ++k) f(Point(i, j, k), Kind(i, j, k));
      }
    }
  }
  double Huber(double t) const {
    if (std::abs(t) > kB) return 0.5 * kB * kB + kC * (std::abs(t) - kB);
    const double t2 = t * t;
    return t2 * (a_ + t2 * (b4_ + t2 * c6_));
  }
  double HuberSlope(double t) const {
    if (std::abs(t) > kB) return t > 0 ? kC : -kC;
    const double t2 = t * t;
    return t * (2.0 * a_ + t2 * (4.0 * b4_ + 6.0 * c6_ * t2));
  }
  double HuberCurvature(double t) const {
    if (std::abs(t) > kB) return 0.0;
    const double t2 = t * t;
    return 2.0 * a_ + t2 * (12.0 * b4_ + 30.0 * c6_ * t2);
  }

  double a_ = 0.0, b4_ = 0.0, c6_ = 0.0;
  std::vector<double> target_;
};

#endif  // QPM_MODELS_BOUNDARY_CONTROL_3D_TNLP_HPP_
