// Mittelmann's parabolic boundary controls (H. D. Mittelmann, "Sufficient
// optimality for discretized parabolic and elliptic control problems",
// problem (P), Examples 5.1 and 5.2), the instances Ipopt's ScalableProblems
// call MPara5_1, MPara5_2_1, MPara5_2_2 and MPara5_2_3, written here from
// their mathematics (bench/ipopt_scalable).
//
// The heat equation on (0, l) x (0, T), N steps in x and in t (dx = l/N,
// dt = T/N), the state y_(j,i) at x_j = j dx, t_i = i dt and one control u_i
// per time step i = 1..N:
//
//   min  dx/2 trap_j (y_(j,N) - y_T(x_j))^2 + alpha dt/2 trap_i u_i^2
//        + dt trap_i (a_y(t_i) y_(N,i) + a_u u_i)
//   s.t. (y_(j,i) - y_(j,i+1)) / dt + (L y_i + L y_(i+1))_j / 2 = 0
//            (Crank-Nicolson, j = 1..N-1, i = 0..N-1; L the 3-point y_xx),
//        y_(2,i) - 4 y_(1,i) + 3 y_(0,i) = 0   (y_x = 0 at x = 0, i = 1..N),
//        (y_(N-2,i) - 4 y_(N-1,i) + 3 y_(N,i)) / (2 dx) + beta y_(N,i)
//            + phi(y_(N,i)) - u_i = b(t_i)      (the control at x = l, i = 1..N),
//        u_min <= u <= u_max,  y_min <= y_(j,i) <= y_max (i >= 1),
//        y_(j,0) = a(x_j) fixed,
//
// where trap is the trapezoid sum (weight 1/2 at its ends; over i = 1..N,
// so weight 1/2 at i = N only). Example 5.1: l = pi/4, T = 1, beta = 1,
// phi(y) = y |y|^3, alpha = (e^(2/3) - e^(1/3)) / sqrt(2), y_T(x) = (e +
// 1/e) cos(x), a(x) = cos(x), a_y(t) = -e^(-2t), a_u = e^(1/3) / sqrt(2),
// b(t) = e^(-4t)/4 - min(1, max(0, (e^t - e^(1/3)) / (e^(2/3) - e^(1/3)))),
// 0 <= u <= 1, y free. Example 5.2 (three instances): l = 1, T = 1.58,
// alpha = 0.001, y_T(x) = (1 - x^2) / 2, a = a_y = a_u = b = 0, -1 <= u <=
// 1; 5.2.1 beta = 1, phi = 0, y free; 5.2.2 beta = 0, phi(y) = y^2, y free;
// 5.2.3 as 5.2.2 with 0 <= y <= 0.675. Start: y = 0 (the fixed ones outside
// their value, as in the original), u in the middle of its box. n = (N +
// 1)^2 + N, m = N (N - 1) + 2N. W is diagonal: the final-time states, the
// controls and phi'' at x = l (for 5.1 12 y |y|: the original's eval_h has
// 12 y^2, which differs for y < 0).
#ifndef QPM_MODELS_PARABOLIC_CONTROL_TNLP_HPP_
#define QPM_MODELS_PARABOLIC_CONTROL_TNLP_HPP_

#include <algorithm>
#include <cmath>

#include "recording_tnlp.hpp"

class ParabolicControlTnlp : public RecordingTnlp {
 public:
  enum class Example { k5_1, k5_2_1, k5_2_2, k5_2_3 };
  explicit ParabolicControlTnlp(int steps, Example example = Example::k5_1)
      : n1_(steps), spec_(Spec(example)), dx_(spec_.l / steps), dt_(spec_.T / steps) {}
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
    for (int k = 0; k < n; ++k) xl[k] = spec_.lower_y, xu[k] = spec_.upper_y;
    for (int j = 0; j <= n1_; ++j) xl[Y(j, 0)] = xu[Y(j, 0)] = spec_.cosine_start * std::cos(j * dx_);
    for (int i = 1; i <= n1_; ++i) xl[U(i)] = spec_.lower_u, xu[U(i)] = spec_.upper_u;
    for (int r = 0; r < m; ++r) gl[r] = gu[r] = 0.0;
    for (int i = 1; i <= n1_; ++i) gl[RobinRow(i)] = gu[RobinRow(i)] = B(i * dt_);
    return true;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    std::fill(x, x + n, 0.0);
    for (int i = 1; i <= n1_; ++i) x[U(i)] = 0.5 * (spec_.lower_u + spec_.upper_u);
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
    f = 0.5 * dx_ * track + 0.5 * spec_.alpha * dt_ * control + dt_ * linear;
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    std::fill(g, g + n, 0.0);
    for (int j = 0; j <= n1_; ++j) g[Y(j, n1_)] = dx_ * EndWeight(j) * (x[Y(j, n1_)] - TargetY(j));
    for (int i = 1; i <= n1_; ++i) {
      const double w = EndWeight(i);
      g[Y(n1_, i)] += dt_ * w * Ay(i * dt_);
      g[U(i)] = dt_ * w * (spec_.alpha * x[U(i)] + Au());
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
      g[r++] = (x[Y(n1_ - 2, i)] - 4.0 * x[Y(n1_ - 1, i)] + 3.0 * y) / (2.0 * dx_) + spec_.beta * y + Phi(y) -
               x[U(i)];
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
      put(Y(n1_, i), 3.0 * d + spec_.beta + PhiPrime(y)), put(U(i), -1.0);
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
    for (int i = 1; i <= n1_; ++i) put(U(i), sigma * spec_.alpha * dt_ * EndWeight(i));
    return true;
  }

 private:
  static constexpr double kPi = 3.14159265358979323846;
  enum class Power { kNone, kSquare, kFourth };  // phi = 0, y^2, y |y|^3
  struct Constants {
    double l, T, alpha, beta, lower_y, upper_y, lower_u, upper_u;
    Power phi;
    double cosine_start;  // 1: a(x) = cos(x) and 5.1's y_T, a_y, a_u, b; 0: 5.2's zeros
  };
  static Constants Spec(Example e) {
    const double e13 = std::exp(1.0 / 3.0), e23 = std::exp(2.0 / 3.0);
    switch (e) {
      case Example::k5_2_1: return {1.0, 1.58, 0.001, 1.0, -1e20, 1e20, -1.0, 1.0, Power::kNone, 0.0};
      case Example::k5_2_2: return {1.0, 1.58, 0.001, 0.0, -1e20, 1e20, -1.0, 1.0, Power::kSquare, 0.0};
      case Example::k5_2_3: return {1.0, 1.58, 0.001, 0.0, 0.0, 0.675, -1.0, 1.0, Power::kSquare, 0.0};
      default: return {0.25 * kPi, 1.0, (e23 - e13) / std::sqrt(2.0), 1.0, -1e20, 1e20, 0.0, 1.0, Power::kFourth, 1.0};
    }
  }

  static double Square(double v) { return v * v; }
  double Phi(double y) const {
    return spec_.phi == Power::kFourth ? y * std::pow(std::abs(y), 3) : spec_.phi == Power::kSquare ? y * y : 0.0;
  }
  double PhiPrime(double y) const {
    return spec_.phi == Power::kFourth ? 4.0 * std::pow(std::abs(y), 3) : spec_.phi == Power::kSquare ? 2.0 * y : 0.0;
  }
  double PhiSecond(double y) const {
    return spec_.phi == Power::kFourth ? 12.0 * y * std::abs(y) : spec_.phi == Power::kSquare ? 2.0 : 0.0;
  }
  double Au() const { return spec_.cosine_start * std::exp(1.0 / 3.0) / std::sqrt(2.0); }
  double Ay(double t) const { return -spec_.cosine_start * std::exp(-2.0 * t); }
  double B(double t) const {
    if (spec_.cosine_start == 0.0) return 0.0;
    const double e13 = std::exp(1.0 / 3.0), e23 = std::exp(2.0 / 3.0);
    return std::exp(-4.0 * t) / 4.0 - std::min(1.0, std::max(0.0, (std::exp(t) - e13) / (e23 - e13)));
  }
  double TargetY(int j) const {
    const double x = j * dx_;
    return spec_.cosine_start != 0.0 ? (std::exp(1.0) + std::exp(-1.0)) * std::cos(x) : 0.5 * (1.0 - x * x);
  }
  // The trapezoid weight of index k in 0..N (the sum over i = 1..N has its
  // left end outside).
  double EndWeight(int k) const { return k == 0 || k == n1_ ? 0.5 : 1.0; }
  int Y(int j, int i) const { return j + (n1_ + 1) * i; }
  int U(int i) const { return (n1_ + 1) * (n1_ + 1) + i - 1; }
  int RobinRow(int i) const { return n1_ * (n1_ - 1) + n1_ + i - 1; }

  int n1_;
  Constants spec_;
  double dx_, dt_;
};

#endif  // QPM_MODELS_PARABOLIC_CONTROL_TNLP_HPP_
