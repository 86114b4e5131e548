// Mittelmann's parabolic boundary control (H. D. Mittelmann, "Sufficient
// optimality for discretized parabolic and elliptic control problems",
// problem (P), Example 5.1), the instance Ipopt's ScalableProblems call
// MPara5_1, written here from its mathematics (bench/ipopt_scalable).
//
// The heat equation on (0, l) x (0, T), l = pi/4, T = 1, N steps in x and in
// t (dx = l/N, dt = T/N), the state y_(j,i) at x_j = j dx, t_i = i dt and one
// control u_i per time step i = 1..N:
//
//   min  dx/2 trap_j (y_(j,N) - y_T(x_j))^2 + alpha dt/2 trap_i u_i^2
//        + dt trap_i (a_y(t_i) y_(N,i) + a_u u_i)
//   s.t. (y_(j,i) - y_(j,i+1)) / dt + (L y_i + L y_(i+1))_j / 2 = 0
//            (Crank-Nicolson, j = 1..N-1, i = 0..N-1; L the 3-point y_xx),
//        y_(2,i) - 4 y_(1,i) + 3 y_(0,i) = 0   (y_x = 0 at x = 0, i = 1..N),
//        (y_(N-2,i) - 4 y_(N-1,i) + 3 y_(N,i)) / (2 dx) + y_(N,i) + phi(y_(N,i))
//            - u_i = b(t_i)                     (the control at x = l, i = 1..N),
//        0 <= u <= 1,  y_(j,0) = cos(x_j) fixed,
//
// where trap is the trapezoid sum (weight 1/2 at its ends; over i = 1..N,
// so weight 1/2 at i = N only), phi(y) = y |y|^3, alpha = (e^(2/3) -
// e^(1/3)) / sqrt(2), y_T(x) = (e + 1/e) cos(x), a_y(t) = -e^(-2t), a_u =
// e^(1/3) / sqrt(2), b(t) = e^(-4t)/4 - min(1, max(0, (e^t - e^(1/3)) /
// (e^(2/3) - e^(1/3)))). Start: y = 0 (the fixed ones outside their value,
// as in the original), u = 1/2. n = (N + 1)^2 + N, m = N (N - 1) + 2N. W is
// diagonal: the final-time states, the controls and phi'' = 12 y |y| at x = l
// (the original's eval_h has 12 y^2, which differs for y < 0).
#ifndef QPM_MODELS_PARABOLIC_CONTROL_TNLP_HPP_
#define QPM_MODELS_PARABOLIC_CONTROL_TNLP_HPP_

#include <algorithm>
#include <cmath>

#include "recording_tnlp.hpp"

class ParabolicControlTnlp : public RecordingTnlp {
 public:
  explicit ParabolicControlTnlp(int steps)
      : n1_(steps), dx_(0.25 * kPi / steps), dt_(1.0 / steps) {}
  int variables() const { return (n1_ + 1) * (n1_ + 1) + n1_; }
  int rows() const { return n1_ * (n1_ - 1) + 2 * n1_; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = variables(), m = rows();
    nnz_jac = 6 * n1_ * (n1_ - 1) + 3 * n1_ + 4 * n1_;
    nnz_h = (n1_ + 1) + (n1_ - 1) + n1_;  // final states, the x = l states before, controls
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    for (int k = 0; k < n; ++k) xl[k] = -1e20, xu[k] = 1e20;
    for (int j = 0; j <= n1_; ++j) xl[Y(j, 0)] = xu[Y(j, 0)] = std::cos(j * dx_);
    for (int i = 1; i <= n1_; ++i) xl[U(i)] = 0.0, xu[U(i)] = 1.0;
    for (int r = 0; r < m; ++r) gl[r] = gu[r] = 0.0;
    for (int i = 1; i <= n1_; ++i) gl[RobinRow(i)] = gu[RobinRow(i)] = B(i * dt_);
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    std::fill(x, x + n, 0.0);
    for (int i = 1; i <= n1_; ++i) x[U(i)] = 0.5;
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    double track = 0.0, control = 0.0, linear = 0.0;
    for (int j = 0; j <= n1_; ++j) track += EndWeight(j) * Square(x[Y(j, n1_)] - TargetY(j));
    for (int i = 1; i <= n1_; ++i) {
      const double w = EndWeight(i);
      control += w * x[U(i)] * x[U(i)];
      linear += w * (Ay(i * dt_) * x[Y(n1_, i)] + Au() * x[U(i)]);
    }
    f = 0.5 * dx_ * track + 0.5 * Alpha() * dt_ * control + dt_ * linear;
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    std::fill(g, g + n, 0.0);
    for (int j = 0; j <= n1_; ++j) g[Y(j, n1_)] = dx_ * EndWeight(j) * (x[Y(j, n1_)] - TargetY(j));
    for (int i = 1; i <= n1_; ++i) {
      const double w = EndWeight(i);
      g[Y(n1_, i)] += dt_ * w * Ay(i * dt_);
      g[U(i)] = dt_ * w * (Alpha() * x[U(i)] + Au());
    }
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    int r = 0;
    const double c = 1.0 / (2.0 * dx_ * dx_);
    for (int j = 1; j < n1_; ++j) {
      for (int i = 0; i < n1_; ++i) {
        const double now = x[Y(j - 1, i)] - 2.0 * x[Y(j, i)] + x[Y(j + 1, i)];
        const double next = x[Y(j - 1, i + 1)] - 2.0 * x[Y(j, i + 1)] + x[Y(j + 1, i + 1)];
        g[r++] = (x[Y(j, i)] - x[Y(j, i + 1)]) / dt_ + c * (now + next);
      }
    }
    for (int i = 1; i <= n1_; ++i) g[r++] = x[Y(2, i)] - 4.0 * x[Y(1, i)] + 3.0 * x[Y(0, i)];
    for (int i = 1; i <= n1_; ++i) {
      const double y = x[Y(n1_, i)];
      g[r++] = (x[Y(n1_ - 2, i)] - 4.0 * x[Y(n1_ - 1, i)] + 3.0 * y) / (2.0 * dx_) + y + Phi(y) - x[U(i)];
    }
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* rows, Index* cols,
                  Number* values) override {
    int e = 0, r = 0;
    auto put = [&](int col, double value) {
      if (values) values[e] = value;
      else rows[e] = r, cols[e] = col;
      ++e;
    };
    const double c = 1.0 / (2.0 * dx_ * dx_);
    for (int j = 1; j < n1_; ++j) {
      for (int i = 0; i < n1_; ++i, ++r) {
        put(Y(j - 1, i), c), put(Y(j, i), 1.0 / dt_ - 2.0 * c), put(Y(j + 1, i), c);
        put(Y(j - 1, i + 1), c), put(Y(j, i + 1), -1.0 / dt_ - 2.0 * c), put(Y(j + 1, i + 1), c);
      }
    }
    for (int i = 1; i <= n1_; ++i, ++r) put(Y(0, i), 3.0), put(Y(1, i), -4.0), put(Y(2, i), 1.0);
    const double d = 1.0 / (2.0 * dx_);
    for (int i = 1; i <= n1_; ++i, ++r) {
      const double y = values ? x[Y(n1_, i)] : 0.0;
      put(Y(n1_ - 2, i), d), put(Y(n1_ - 1, i), -4.0 * d);
      put(Y(n1_, i), 3.0 * d + 1.0 + PhiPrime(y)), put(U(i), -1.0);
    }
    return true;
  }
  bool eval_h(Index, const Number* x, bool, Number sigma, Index, const Number* lambda, bool,
              Index, Index* rows, Index* cols, Number* values) override {
    int e = 0;
    auto put = [&](int k, double value) {
      if (values) values[e] = value;
      else rows[e] = cols[e] = k;
      ++e;
    };
    for (int j = 0; j < n1_; ++j) put(Y(j, n1_), sigma * dx_ * EndWeight(j));
    for (int i = 1; i <= n1_; ++i) {  // y_(N,i): the Robin row, and at i = N the tracking term
      const double y = values ? x[Y(n1_, i)] : 0.0;
      const double row = values ? lambda[RobinRow(i)] * PhiSecond(y) : 0.0;
      put(Y(n1_, i), row + (i == n1_ ? sigma * dx_ * 0.5 : 0.0));
    }
    for (int i = 1; i <= n1_; ++i) put(U(i), sigma * Alpha() * dt_ * EndWeight(i));
    return true;
  }

 private:
  static constexpr double kPi = 3.14159265358979323846;

  static double Square(double v) { return v * v; }
  static double Phi(double y) { return y * std::pow(std::abs(y), 3); }
  static double PhiPrime(double y) { return 4.0 * std::pow(std::abs(y), 3); }
  static double PhiSecond(double y) { return 12.0 * y * std::abs(y); }
  static double Alpha() { return (std::exp(2.0 / 3.0) - std::exp(1.0 / 3.0)) / std::sqrt(2.0); }
  static double Au() { return std::exp(1.0 / 3.0) / std::sqrt(2.0); }
  static double Ay(double t) { return -std::exp(-2.0 * t); }
  static double B(double t) {
    const double e13 = std::exp(1.0 / 3.0), e23 = std::exp(2.0 / 3.0);
    return std::exp(-4.0 * t) / 4.0 - std::min(1.0, std::max(0.0, (std::exp(t) - e13) / (e23 - e13)));
  }
  double TargetY(int j) const { return (std::exp(1.0) + std::exp(-1.0)) * std::cos(j * dx_); }
  // The trapezoid weight of index k in 0..N (the sum over i = 1..N has its
  // left end outside).
  double EndWeight(int k) const { return k == 0 || k == n1_ ? 0.5 : 1.0; }
  int Y(int j, int i) const { return j + (n1_ + 1) * i; }
  int U(int i) const { return (n1_ + 1) * (n1_ + 1) + i - 1; }
  int RobinRow(int i) const { return n1_ * (n1_ - 1) + n1_ + i - 1; }

  int n1_;
  double dx_, dt_;
};

#endif  // QPM_MODELS_PARABOLIC_CONTROL_TNLP_HPP_
