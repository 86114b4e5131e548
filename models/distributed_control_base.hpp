// What Mittelmann's 2D distributed control problems share (H. Maurer,
// H. D. Mittelmann, "Optimization techniques for solving elliptic control
// problems with control and state constraints. Part 2: Distributed
// control"): on the unit square with N interior points per dimension and
// h = 1 / (N + 1), the state y on the (N + 2)^2 grid and the control u on
// the N^2 interior points (variables in that order), the tracking objective
//
//   h^2/2 sum_inside (y - y_d)^2 + alpha h^2/2 sum u^2,  alpha = 0.001,
//
// and the start y = y_d on the whole grid, u = the middle of its box. Each
// problem adds its y_d (Target), its bounds and its rows.
#ifndef QPM_MODELS_DISTRIBUTED_CONTROL_BASE_HPP_
#define QPM_MODELS_DISTRIBUTED_CONTROL_BASE_HPP_

#include "recording_tnlp.hpp"

class DistributedControl2dBase : public RecordingTnlp {
 public:
  int variables() const { return (n1_ + 2) * (n1_ + 2) + n1_ * n1_; }

  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    const int s = n1_ + 2;
    for (int i = 0; i < s; ++i) {
      for (int j = 0; j < s; ++j) x[Y(i, j)] = Target(i, j);
    }
    for (int p = s * s; p < n; ++p) x[p] = 0.5 * (lower_u_ + upper_u_);
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    double track = 0.0, control = 0.0;
    ForEachInside([&](int i, int j) {
      const double t = x[Y(i, j)] - Target(i, j);
      track += t * t;
      control += x[U(i, j)] * x[U(i, j)];
    });
    f = 0.5 * h_ * h_ * (track + kAlpha * control);
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    for (int p = 0; p < n; ++p) g[p] = 0.0;
    ForEachInside([&](int i, int j) {
      g[Y(i, j)] = h_ * h_ * (x[Y(i, j)] - Target(i, j));
      g[U(i, j)] = h_ * h_ * kAlpha * x[U(i, j)];
    });
    return true;
  }

 protected:
  static constexpr double kAlpha = 0.001;

  DistributedControl2dBase(int points, double lower_u, double upper_u)
      : n1_(points), h_(1.0 / (points + 1)), lower_u_(lower_u), upper_u_(upper_u) {}
  // y_d at grid point (i, j), i.e. at (i h, j h).
  virtual double Target(int i, int j) const = 0;

  int Y(int i, int j) const { return j + (n1_ + 2) * i; }
  int U(int i, int j) const { return (n1_ + 2) * (n1_ + 2) + (j - 1) + n1_ * (i - 1); }
  template <class F>
  void ForEachInside(F f) const {
    for (int i = 1; i <= n1_; ++i) {
      for (int j = 1; j <= n1_; ++j) f(i, j);
    }
  }

  const int n1_;
  const double h_;
  const double lower_u_, upper_u_;
};

#endif  // QPM_MODELS_DISTRIBUTED_CONTROL_BASE_HPP_
