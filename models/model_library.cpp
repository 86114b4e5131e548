// Hock-Schittkowski test problems for qpm's tests, written from the problem
// statements in W. Hock and K. Schittkowski, "Test Examples for Nonlinear
// Programming Codes", Lecture Notes in Economics and Mathematical Systems 187,
// Springer, 1981 (cited below as "HS81 #k"). Constraints "c(x) >= 0" of the
// book are written here as rows g_l <= g(x) <= g_u. Indices in the comments
// are 1-based as in the book; the code is 0-based.
//
// x_star is left empty when the minimizer is not unique, and also when the
// Hessian of the Lagrangian is singular on the tangent space at x* (quartic or
// sextic terms that vanish there), since then no solver pins x* down to the
// precision of its stopping test. Where the book prints x* and f* to only 7-9
// digits, the values below were refined by solving the problem to 1e-14 and
// agree with the book to its printed digits (except hs063, whose printed x* is
// off by about 3e-6 along the constraint manifold; f* agrees).
//
// Left out on purpose: HS81 #13 (no LICQ at x*), #44 (from the standard start
// an interior-point solver ends in the local minimizer (3, 0, 4, 0), f = -13,
// not at f* = -15) and #47 (the published x* = (1, ..., 1), f* = 0, is a
// degenerate stationary point, not a minimizer: f < 0 at feasible points
// arbitrarily close to it, and the local minimizer nearby has f = -0.0267142).
#include "model_library.hpp"

#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <utility>

namespace qpm_test {
namespace {

using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;

const double kPi = std::acos(-1.0);
const double kSqrt2 = std::sqrt(2.0);
const double kSqrt3 = std::sqrt(3.0);

Vec V(std::initializer_list<double> values) {
  Vec v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double value : values) v[i++] = value;
  return v;
}

// Adds v to h(i, j) and, off the diagonal, to h(j, i).
void AddSym(Mat& h, int i, int j, double v) {
  h(i, j) += v;
  if (i != j) h(j, i) += v;
}

// A model with free variables, m equality rows g(x) = 0 and, when m == 0,
// the empty constraint functions already set.
Model Make(const std::string& name, int n, int m, Vec x0) {
  Model p;
  p.name = name;
  p.n = n, p.m = m;
  p.x0 = std::move(x0);
  p.x_l = Vec::Constant(n, -kInf);
  p.x_u = Vec::Constant(n, kInf);
  p.g_l = Vec::Zero(m);
  p.g_u = Vec::Zero(m);
  if (m == 0) {
    p.g = [](const Vec&) { return Vec(0); };
    p.jac = [n](const Vec&) { return Mat(0, n); };
  }
  return p;
}

// HS81 #4: min (x1 + 1)^3 / 3 + x2  s.t.  x1 >= 1, x2 >= 0.
// x* = (1, 0), f* = 8/3.
Model Hs004() {
  Model p = Make("hs004", 2, 0, V({1.125, 0.125}));
  p.x_l = V({1.0, 0.0});
  p.f = [](const Vec& x) { return std::pow(x[0] + 1.0, 3) / 3.0 + x[1]; };
  p.grad = [](const Vec& x) { return V({(x[0] + 1.0) * (x[0] + 1.0), 1.0}); };
  p.hess = [](const Vec& x, double s, const Vec&) {
    Mat h = Mat::Zero(2, 2);
    h(0, 0) = s * 2.0 * (x[0] + 1.0);
    return h;
  };
  p.f_star = 8.0 / 3.0;
  p.x_star = V({1.0, 0.0});
  return p;
}

// HS81 #5: min sin(x1 + x2) + (x1 - x2)^2 - 1.5 x1 + 2.5 x2 + 1
//   s.t.  -1.5 <= x1 <= 4, -3 <= x2 <= 3.
// x* = (1/2 - pi/3, -1/2 - pi/3), f* = -sqrt(3)/2 - pi/3 (bounds inactive).
Model Hs005() {
  Model p = Make("hs005", 2, 0, V({0.0, 0.0}));
  p.x_l = V({-1.5, -3.0});
  p.x_u = V({4.0, 3.0});
  p.f = [](const Vec& x) {
    const double d = x[0] - x[1];
    return std::sin(x[0] + x[1]) + d * d - 1.5 * x[0] + 2.5 * x[1] + 1.0;
  };
  p.grad = [](const Vec& x) {
    const double c = std::cos(x[0] + x[1]), d = x[0] - x[1];
    return V({c + 2.0 * d - 1.5, c - 2.0 * d + 2.5});
  };
  p.hess = [](const Vec& x, double s, const Vec&) {
    const double sn = std::sin(x[0] + x[1]);
    Mat h(2, 2);
    h << 2.0 - sn, -2.0 - sn, -2.0 - sn, 2.0 - sn;
    return Mat(s * h);
  };
  p.f_star = -kSqrt3 / 2.0 - kPi / 3.0;
  p.x_star = V({0.5 - kPi / 3.0, -0.5 - kPi / 3.0});
  return p;
}

// HS81 #6: min (1 - x1)^2  s.t.  10 (x2 - x1^2) = 0.  x* = (1, 1), f* = 0.
Model Hs006() {
  Model p = Make("hs006", 2, 1, V({-1.2, 1.0}));
  p.f = [](const Vec& x) { return (1.0 - x[0]) * (1.0 - x[0]); };
  p.grad = [](const Vec& x) { return V({-2.0 * (1.0 - x[0]), 0.0}); };
  p.g = [](const Vec& x) { return V({10.0 * (x[1] - x[0] * x[0])}); };
  p.jac = [](const Vec& x) {
    Mat j(1, 2);
    j << -20.0 * x[0], 10.0;
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    Mat h = Mat::Zero(2, 2);
    h(0, 0) = 2.0 * s - 20.0 * l[0];
    return h;
  };
  p.f_star = 0.0;
  p.x_star = V({1.0, 1.0});
  return p;
}

// HS81 #7: min ln(1 + x1^2) - x2  s.t.  (1 + x1^2)^2 + x2^2 - 4 = 0.
// x* = (0, sqrt(3)), f* = -sqrt(3).
Model Hs007() {
  Model p = Make("hs007", 2, 1, V({2.0, 2.0}));
  p.f = [](const Vec& x) { return std::log(1.0 + x[0] * x[0]) - x[1]; };
  p.grad = [](const Vec& x) { return V({2.0 * x[0] / (1.0 + x[0] * x[0]), -1.0}); };
  p.g = [](const Vec& x) {
    const double a = 1.0 + x[0] * x[0];
    return V({a * a + x[1] * x[1] - 4.0});
  };
  p.jac = [](const Vec& x) {
    Mat j(1, 2);
    j << 4.0 * x[0] * (1.0 + x[0] * x[0]), 2.0 * x[1];
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    const double a = 1.0 + x[0] * x[0];
    Mat h = Mat::Zero(2, 2);
    h(0, 0) = s * 2.0 * (1.0 - x[0] * x[0]) / (a * a) + l[0] * (4.0 + 12.0 * x[0] * x[0]);
    h(1, 1) = 2.0 * l[0];
    return h;
  };
  p.f_star = -kSqrt3;
  p.x_star = V({0.0, kSqrt3});
  return p;
}

// HS81 #8: min -1  s.t.  x1^2 + x2^2 - 25 = 0, x1 x2 - 9 = 0.
// f* = -1 at four points (+-4.6016, +-1.9558), (+-1.9558, +-4.6016): x* not unique.
Model Hs008() {
  Model p = Make("hs008", 2, 2, V({2.0, 1.0}));
  p.f = [](const Vec&) { return -1.0; };
  p.grad = [](const Vec&) { return Vec(Vec::Zero(2)); };
  p.g = [](const Vec& x) {
    return V({x[0] * x[0] + x[1] * x[1] - 25.0, x[0] * x[1] - 9.0});
  };
  p.jac = [](const Vec& x) {
    Mat j(2, 2);
    j << 2.0 * x[0], 2.0 * x[1], x[1], x[0];
    return j;
  };
  p.hess = [](const Vec&, double, const Vec& l) {
    Mat h(2, 2);
    h << 2.0 * l[0], l[1], l[1], 2.0 * l[0];
    return h;
  };
  p.f_star = -1.0;
  return p;
}

// HS81 #9: min sin(pi x1 / 12) cos(pi x2 / 16)  s.t.  4 x1 - 3 x2 = 0.
// f* = -1/2 at x* = (12k - 3, 16k - 4) for every integer k: x* not unique.
Model Hs009() {
  Model p = Make("hs009", 2, 1, V({0.0, 0.0}));
  const double a = kPi / 12.0, b = kPi / 16.0;
  p.f = [a, b](const Vec& x) { return std::sin(a * x[0]) * std::cos(b * x[1]); };
  p.grad = [a, b](const Vec& x) {
    return V({a * std::cos(a * x[0]) * std::cos(b * x[1]),
              -b * std::sin(a * x[0]) * std::sin(b * x[1])});
  };
  p.g = [](const Vec& x) { return V({4.0 * x[0] - 3.0 * x[1]}); };
  p.jac = [](const Vec&) {
    Mat j(1, 2);
    j << 4.0, -3.0;
    return j;
  };
  p.hess = [a, b](const Vec& x, double s, const Vec&) {
    const double s1 = std::sin(a * x[0]), c1 = std::cos(a * x[0]);
    const double s2 = std::sin(b * x[1]), c2 = std::cos(b * x[1]);
    Mat h(2, 2);
    h << -a * a * s1 * c2, -a * b * c1 * s2, -a * b * c1 * s2, -b * b * s1 * c2;
    return Mat(s * h);
  };
  p.f_star = -0.5;
  return p;
}

// HS81 #10: min x1 - x2  s.t.  -3 x1^2 + 2 x1 x2 - x2^2 + 1 >= 0.
// x* = (0, 1), f* = -1.
Model Hs010() {
  Model p = Make("hs010", 2, 1, V({-10.0, 10.0}));
  p.g_u = V({kInf});
  p.f = [](const Vec& x) { return x[0] - x[1]; };
  p.grad = [](const Vec&) { return V({1.0, -1.0}); };
  p.g = [](const Vec& x) {
    return V({-3.0 * x[0] * x[0] + 2.0 * x[0] * x[1] - x[1] * x[1] + 1.0});
  };
  p.jac = [](const Vec& x) {
    Mat j(1, 2);
    j << -6.0 * x[0] + 2.0 * x[1], 2.0 * x[0] - 2.0 * x[1];
    return j;
  };
  p.hess = [](const Vec&, double, const Vec& l) {
    Mat h(2, 2);
    h << -6.0 * l[0], 2.0 * l[0], 2.0 * l[0], -2.0 * l[0];
    return h;
  };
  p.f_star = -1.0;
  p.x_star = V({0.0, 1.0});
  return p;
}

// HS81 #12: min x1^2 / 2 + x2^2 - x1 x2 - 7 x1 - 7 x2  s.t.  25 - 4 x1^2 - x2^2 >= 0
// (written 4 x1^2 + x2^2 <= 25).  x* = (2, 3), f* = -30.
Model Hs012() {
  Model p = Make("hs012", 2, 1, V({0.0, 0.0}));
  p.g_l = V({-kInf});
  p.g_u = V({25.0});
  p.f = [](const Vec& x) {
    return 0.5 * x[0] * x[0] + x[1] * x[1] - x[0] * x[1] - 7.0 * x[0] - 7.0 * x[1];
  };
  p.grad = [](const Vec& x) {
    return V({x[0] - x[1] - 7.0, 2.0 * x[1] - x[0] - 7.0});
  };
  p.g = [](const Vec& x) { return V({4.0 * x[0] * x[0] + x[1] * x[1]}); };
  p.jac = [](const Vec& x) {
    Mat j(1, 2);
    j << 8.0 * x[0], 2.0 * x[1];
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    Mat h(2, 2);
    h << s + 8.0 * l[0], -s, -s, 2.0 * s + 2.0 * l[0];
    return h;
  };
  p.f_star = -30.0;
  p.x_star = V({2.0, 3.0});
  return p;
}

// HS81 #14: min (x1 - 2)^2 + (x2 - 1)^2
//   s.t.  x1 - 2 x2 + 1 = 0,  -x1^2 / 4 - x2^2 + 1 >= 0.
// x* = ((sqrt(7) - 1) / 2, (sqrt(7) + 1) / 4), f* = 9 - 23 sqrt(7) / 8.
Model Hs014() {
  Model p = Make("hs014", 2, 2, V({2.0, 2.0}));
  p.g_u = V({0.0, kInf});
  p.f = [](const Vec& x) {
    return (x[0] - 2.0) * (x[0] - 2.0) + (x[1] - 1.0) * (x[1] - 1.0);
  };
  p.grad = [](const Vec& x) { return V({2.0 * (x[0] - 2.0), 2.0 * (x[1] - 1.0)}); };
  p.g = [](const Vec& x) {
    return V({x[0] - 2.0 * x[1] + 1.0, -0.25 * x[0] * x[0] - x[1] * x[1] + 1.0});
  };
  p.jac = [](const Vec& x) {
    Mat j(2, 2);
    j << 1.0, -2.0, -0.5 * x[0], -2.0 * x[1];
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    Mat h = Mat::Zero(2, 2);
    h(0, 0) = 2.0 * s - 0.5 * l[1];
    h(1, 1) = 2.0 * s - 2.0 * l[1];
    return h;
  };
  const double r7 = std::sqrt(7.0);
  p.f_star = 9.0 - 23.0 * r7 / 8.0;
  p.x_star = V({0.5 * (r7 - 1.0), 0.25 * (r7 + 1.0)});
  return p;
}

// HS81 #21: min x1^2 / 100 + x2^2 - 100
//   s.t.  10 x1 - x2 - 10 >= 0,  2 <= x1 <= 50,  -50 <= x2 <= 50.
// x* = (2, 0), f* = -99.96.
Model Hs021() {
  Model p = Make("hs021", 2, 1, V({-1.0, -1.0}));
  p.x_l = V({2.0, -50.0});
  p.x_u = V({50.0, 50.0});
  p.g_l = V({10.0});
  p.g_u = V({kInf});
  p.f = [](const Vec& x) { return 0.01 * x[0] * x[0] + x[1] * x[1] - 100.0; };
  p.grad = [](const Vec& x) { return V({0.02 * x[0], 2.0 * x[1]}); };
  p.g = [](const Vec& x) { return V({10.0 * x[0] - x[1]}); };
  p.jac = [](const Vec&) {
    Mat j(1, 2);
    j << 10.0, -1.0;
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec&) {
    Mat h = Mat::Zero(2, 2);
    h(0, 0) = 0.02 * s;
    h(1, 1) = 2.0 * s;
    return h;
  };
  p.f_star = -99.96;
  p.x_star = V({2.0, 0.0});
  return p;
}

// HS81 #22: min (x1 - 2)^2 + (x2 - 1)^2
//   s.t.  -x1 - x2 + 2 >= 0 (written x1 + x2 <= 2),  -x1^2 + x2 >= 0.
// x* = (1, 1), f* = 1.
Model Hs022() {
  Model p = Make("hs022", 2, 2, V({2.0, 2.0}));
  p.g_l = V({-kInf, 0.0});
  p.g_u = V({2.0, kInf});
  p.f = [](const Vec& x) {
    return (x[0] - 2.0) * (x[0] - 2.0) + (x[1] - 1.0) * (x[1] - 1.0);
  };
  p.grad = [](const Vec& x) { return V({2.0 * (x[0] - 2.0), 2.0 * (x[1] - 1.0)}); };
  p.g = [](const Vec& x) { return V({x[0] + x[1], -x[0] * x[0] + x[1]}); };
  p.jac = [](const Vec& x) {
    Mat j(2, 2);
    j << 1.0, 1.0, -2.0 * x[0], 1.0;
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    Mat h = Mat::Zero(2, 2);
    h(0, 0) = 2.0 * s - 2.0 * l[1];
    h(1, 1) = 2.0 * s;
    return h;
  };
  p.f_star = 1.0;
  p.x_star = V({1.0, 1.0});
  return p;
}

// HS81 #23: min x1^2 + x2^2
//   s.t.  x1 + x2 - 1 >= 0,  x1^2 + x2^2 - 1 >= 0,  9 x1^2 + x2^2 - 9 >= 0,
//         x1^2 - x2 >= 0,  x2^2 - x1 >= 0,  -50 <= x1, x2 <= 50.
// x* = (1, 1), f* = 2.
Model Hs023() {
  Model p = Make("hs023", 2, 5, V({3.0, 1.0}));
  p.x_l = Vec::Constant(2, -50.0);
  p.x_u = Vec::Constant(2, 50.0);
  p.g_l = V({1.0, 1.0, 9.0, 0.0, 0.0});
  p.g_u = Vec::Constant(5, kInf);
  p.f = [](const Vec& x) { return x[0] * x[0] + x[1] * x[1]; };
  p.grad = [](const Vec& x) { return Vec(2.0 * x); };
  p.g = [](const Vec& x) {
    const double a = x[0] * x[0], b = x[1] * x[1];
    return V({x[0] + x[1], a + b, 9.0 * a + b, a - x[1], b - x[0]});
  };
  p.jac = [](const Vec& x) {
    Mat j(5, 2);
    j << 1.0, 1.0,
         2.0 * x[0], 2.0 * x[1],
         18.0 * x[0], 2.0 * x[1],
         2.0 * x[0], -1.0,
         -1.0, 2.0 * x[1];
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    Mat h = Mat::Zero(2, 2);
    h(0, 0) = 2.0 * s + 2.0 * l[1] + 18.0 * l[2] + 2.0 * l[3];
    h(1, 1) = 2.0 * s + 2.0 * l[1] + 2.0 * l[2] + 2.0 * l[4];
    return h;
  };
  p.f_star = 2.0;
  p.x_star = V({1.0, 1.0});
  return p;
}

// HS81 #24: min ((x1 - 3)^2 - 9) x2^3 / (27 sqrt(3))
//   s.t.  x1 / sqrt(3) - x2 >= 0,  x1 + sqrt(3) x2 >= 0,  6 - x1 - sqrt(3) x2 >= 0,
//         x1, x2 >= 0.  The second and third constraints share one two-sided row
//         0 <= x1 + sqrt(3) x2 <= 6.  x* = (3, sqrt(3)), f* = -1.
Model Hs024() {
  Model p = Make("hs024", 2, 2, V({1.0, 0.5}));
  p.x_l = V({0.0, 0.0});
  p.g_l = V({0.0, 0.0});
  p.g_u = V({kInf, 6.0});
  const double c = 1.0 / (27.0 * kSqrt3);
  p.f = [c](const Vec& x) {
    return c * ((x[0] - 3.0) * (x[0] - 3.0) - 9.0) * std::pow(x[1], 3);
  };
  p.grad = [c](const Vec& x) {
    const double q = (x[0] - 3.0) * (x[0] - 3.0) - 9.0;
    return V({2.0 * c * (x[0] - 3.0) * std::pow(x[1], 3), 3.0 * c * q * x[1] * x[1]});
  };
  p.g = [](const Vec& x) { return V({x[0] / kSqrt3 - x[1], x[0] + kSqrt3 * x[1]}); };
  p.jac = [](const Vec&) {
    Mat j(2, 2);
    j << 1.0 / kSqrt3, -1.0, 1.0, kSqrt3;
    return j;
  };
  p.hess = [c](const Vec& x, double s, const Vec&) {
    const double q = (x[0] - 3.0) * (x[0] - 3.0) - 9.0;
    Mat h(2, 2);
    h(0, 0) = 2.0 * c * std::pow(x[1], 3);
    h(0, 1) = h(1, 0) = 6.0 * c * (x[0] - 3.0) * x[1] * x[1];
    h(1, 1) = 6.0 * c * q * x[1];
    return Mat(s * h);
  };
  p.f_star = -1.0;
  p.x_star = V({3.0, kSqrt3});
  return p;
}

// HS81 #26: min (x1 - x2)^2 + (x2 - x3)^4  s.t.  (1 + x2^2) x1 + x3^4 - 3 = 0.
// f* = 0 at (1, 1, 1) and at (t, t, t) with t^3 + 2 t^2 + 2 t + 3 = 0: not unique.
Model Hs026() {
  Model p = Make("hs026", 3, 1, V({-2.6, 2.0, 2.0}));
  p.f = [](const Vec& x) { return std::pow(x[0] - x[1], 2) + std::pow(x[1] - x[2], 4); };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]), b = 4.0 * std::pow(x[1] - x[2], 3);
    return V({a, -a + b, -b});
  };
  p.g = [](const Vec& x) {
    return V({(1.0 + x[1] * x[1]) * x[0] + std::pow(x[2], 4) - 3.0});
  };
  p.jac = [](const Vec& x) {
    Mat j(1, 3);
    j << 1.0 + x[1] * x[1], 2.0 * x[0] * x[1], 4.0 * std::pow(x[2], 3);
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    const double q = 12.0 * std::pow(x[1] - x[2], 2);
    Mat h = Mat::Zero(3, 3);
    AddSym(h, 0, 0, 2.0 * s);
    AddSym(h, 0, 1, -2.0 * s + 2.0 * l[0] * x[1]);
    AddSym(h, 1, 1, s * (2.0 + q) + 2.0 * l[0] * x[0]);
    AddSym(h, 1, 2, -s * q);
    AddSym(h, 2, 2, s * q + 12.0 * l[0] * x[2] * x[2]);
    return h;
  };
  p.f_star = 0.0;
  return p;
}

// HS81 #27: min (x1 - 1)^2 / 100 + (x2 - x1^2)^2  s.t.  x1 + x3^2 + 1 = 0.
// x* = (-1, 1, 0), f* = 0.04.
Model Hs027() {
  Model p = Make("hs027", 3, 1, V({2.0, 2.0, 2.0}));
  p.f = [](const Vec& x) {
    return 0.01 * std::pow(x[0] - 1.0, 2) + std::pow(x[1] - x[0] * x[0], 2);
  };
  p.grad = [](const Vec& x) {
    const double r = x[1] - x[0] * x[0];
    return V({0.02 * (x[0] - 1.0) - 4.0 * x[0] * r, 2.0 * r, 0.0});
  };
  p.g = [](const Vec& x) { return V({x[0] + x[2] * x[2] + 1.0}); };
  p.jac = [](const Vec& x) {
    Mat j(1, 3);
    j << 1.0, 0.0, 2.0 * x[2];
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    Mat h = Mat::Zero(3, 3);
    AddSym(h, 0, 0, s * (0.02 - 4.0 * x[1] + 12.0 * x[0] * x[0]));
    AddSym(h, 0, 1, -4.0 * s * x[0]);
    AddSym(h, 1, 1, 2.0 * s);
    AddSym(h, 2, 2, 2.0 * l[0]);
    return h;
  };
  p.f_star = 0.04;
  p.x_star = V({-1.0, 1.0, 0.0});
  return p;
}

// HS81 #28: min (x1 + x2)^2 + (x2 + x3)^2  s.t.  x1 + 2 x2 + 3 x3 - 1 = 0.
// x* = (1/2, -1/2, 1/2), f* = 0.
Model Hs028() {
  Model p = Make("hs028", 3, 1, V({-4.0, 1.0, 1.0}));
  p.g_l = p.g_u = V({1.0});
  p.f = [](const Vec& x) { return std::pow(x[0] + x[1], 2) + std::pow(x[1] + x[2], 2); };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] + x[1]), b = 2.0 * (x[1] + x[2]);
    return V({a, a + b, b});
  };
  p.g = [](const Vec& x) { return V({x[0] + 2.0 * x[1] + 3.0 * x[2]}); };
  p.jac = [](const Vec&) {
    Mat j(1, 3);
    j << 1.0, 2.0, 3.0;
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec&) {
    Mat h(3, 3);
    h << 2.0, 2.0, 0.0, 2.0, 4.0, 2.0, 0.0, 2.0, 2.0;
    return Mat(s * h);
  };
  p.f_star = 0.0;
  p.x_star = V({0.5, -0.5, 0.5});
  return p;
}

// HS81 #34: min -x1  s.t.  x2 - exp(x1) >= 0,  x3 - exp(x2) >= 0,
//   0 <= x1 <= 100,  0 <= x2 <= 100,  0 <= x3 <= 10.
// x* = (ln(ln 10), ln 10, 10), f* = -ln(ln 10).
Model Hs034() {
  Model p = Make("hs034", 3, 2, V({0.0, 1.05, 2.9}));
  p.x_l = V({0.0, 0.0, 0.0});
  p.x_u = V({100.0, 100.0, 10.0});
  p.g_u = V({kInf, kInf});
  p.f = [](const Vec& x) { return -x[0]; };
  p.grad = [](const Vec&) { return V({-1.0, 0.0, 0.0}); };
  p.g = [](const Vec& x) { return V({x[1] - std::exp(x[0]), x[2] - std::exp(x[1])}); };
  p.jac = [](const Vec& x) {
    Mat j(2, 3);
    j << -std::exp(x[0]), 1.0, 0.0, 0.0, -std::exp(x[1]), 1.0;
    return j;
  };
  p.hess = [](const Vec& x, double, const Vec& l) {
    Mat h = Mat::Zero(3, 3);
    h(0, 0) = -l[0] * std::exp(x[0]);
    h(1, 1) = -l[1] * std::exp(x[1]);
    return h;
  };
  const double ln10 = std::log(10.0);
  p.f_star = -std::log(ln10);
  p.x_star = V({std::log(ln10), ln10, 10.0});
  return p;
}

// HS81 #35: min 9 - 8 x1 - 6 x2 - 4 x3 + 2 x1^2 + 2 x2^2 + x3^2 + 2 x1 x2 + 2 x1 x3
//   s.t.  3 - x1 - x2 - 2 x3 >= 0 (written x1 + x2 + 2 x3 <= 3),  x >= 0.
// x* = (4/3, 7/9, 4/9), f* = 1/9.
Model Hs035() {
  Model p = Make("hs035", 3, 1, V({0.5, 0.5, 0.5}));
  p.x_l = Vec::Zero(3);
  p.g_l = V({-kInf});
  p.g_u = V({3.0});
  p.f = [](const Vec& x) {
    return 9.0 - 8.0 * x[0] - 6.0 * x[1] - 4.0 * x[2] + 2.0 * x[0] * x[0] +
           2.0 * x[1] * x[1] + x[2] * x[2] + 2.0 * x[0] * x[1] + 2.0 * x[0] * x[2];
  };
  p.grad = [](const Vec& x) {
    return V({-8.0 + 4.0 * x[0] + 2.0 * x[1] + 2.0 * x[2], -6.0 + 4.0 * x[1] + 2.0 * x[0],
              -4.0 + 2.0 * x[2] + 2.0 * x[0]});
  };
  p.g = [](const Vec& x) { return V({x[0] + x[1] + 2.0 * x[2]}); };
  p.jac = [](const Vec&) {
    Mat j(1, 3);
    j << 1.0, 1.0, 2.0;
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec&) {
    Mat h(3, 3);
    h << 4.0, 2.0, 2.0, 2.0, 4.0, 0.0, 2.0, 0.0, 2.0;
    return Mat(s * h);
  };
  p.f_star = 1.0 / 9.0;
  p.x_star = V({4.0 / 3.0, 7.0 / 9.0, 4.0 / 9.0});
  return p;
}

// HS81 #37: min -x1 x2 x3  s.t.  0 <= x1 + 2 x2 + 2 x3 <= 72 (one two-sided row),
//   0 <= x1, x2, x3 <= 42.  x* = (24, 12, 12), f* = -3456.
Model Hs037() {
  Model p = Make("hs037", 3, 1, V({10.0, 10.0, 10.0}));
  p.x_l = Vec::Zero(3);
  p.x_u = Vec::Constant(3, 42.0);
  p.g_l = V({0.0});
  p.g_u = V({72.0});
  p.f = [](const Vec& x) { return -x[0] * x[1] * x[2]; };
  p.grad = [](const Vec& x) { return V({-x[1] * x[2], -x[0] * x[2], -x[0] * x[1]}); };
  p.g = [](const Vec& x) { return V({x[0] + 2.0 * x[1] + 2.0 * x[2]}); };
  p.jac = [](const Vec&) {
    Mat j(1, 3);
    j << 1.0, 2.0, 2.0;
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec&) {
    Mat h = Mat::Zero(3, 3);
    AddSym(h, 0, 1, -s * x[2]);
    AddSym(h, 0, 2, -s * x[1]);
    AddSym(h, 1, 2, -s * x[0]);
    return h;
  };
  p.f_star = -3456.0;
  p.x_star = V({24.0, 12.0, 12.0});
  return p;
}

// HS81 #38 (Colville 4 / Wood): min 100 (x2 - x1^2)^2 + (1 - x1)^2 + 90 (x4 - x3^2)^2
//   + (1 - x3)^2 + 10.1 ((x2 - 1)^2 + (x4 - 1)^2) + 19.8 (x2 - 1)(x4 - 1)
//   s.t.  -10 <= x <= 10.  x* = (1, 1, 1, 1), f* = 0 (bounds inactive).
Model Hs038() {
  Model p = Make("hs038", 4, 0, V({-3.0, -1.0, -3.0, -1.0}));
  p.x_l = Vec::Constant(4, -10.0);
  p.x_u = Vec::Constant(4, 10.0);
  p.f = [](const Vec& x) {
    const double a = x[1] - x[0] * x[0], b = x[3] - x[2] * x[2];
    return 100.0 * a * a + std::pow(1.0 - x[0], 2) + 90.0 * b * b + std::pow(1.0 - x[2], 2) +
           10.1 * (std::pow(x[1] - 1.0, 2) + std::pow(x[3] - 1.0, 2)) +
           19.8 * (x[1] - 1.0) * (x[3] - 1.0);
  };
  p.grad = [](const Vec& x) {
    const double a = x[1] - x[0] * x[0], b = x[3] - x[2] * x[2];
    return V({-400.0 * x[0] * a - 2.0 * (1.0 - x[0]),
              200.0 * a + 20.2 * (x[1] - 1.0) + 19.8 * (x[3] - 1.0),
              -360.0 * x[2] * b - 2.0 * (1.0 - x[2]),
              180.0 * b + 20.2 * (x[3] - 1.0) + 19.8 * (x[1] - 1.0)});
  };
  p.hess = [](const Vec& x, double s, const Vec&) {
    Mat h = Mat::Zero(4, 4);
    AddSym(h, 0, 0, 1200.0 * x[0] * x[0] - 400.0 * x[1] + 2.0);
    AddSym(h, 0, 1, -400.0 * x[0]);
    AddSym(h, 1, 1, 220.2);
    AddSym(h, 1, 3, 19.8);
    AddSym(h, 2, 2, 1080.0 * x[2] * x[2] - 360.0 * x[3] + 2.0);
    AddSym(h, 2, 3, -360.0 * x[2]);
    AddSym(h, 3, 3, 200.2);
    return Mat(s * h);
  };
  p.f_star = 0.0;
  p.x_star = Vec::Ones(4);
  return p;
}

// HS81 #39: min -x1  s.t.  x2 - x1^3 - x3^2 = 0,  x1^2 - x2 - x4^2 = 0.
// x* = (1, 1, 0, 0), f* = -1.
Model Hs039() {
  Model p = Make("hs039", 4, 2, V({2.0, 2.0, 2.0, 2.0}));
  p.f = [](const Vec& x) { return -x[0]; };
  p.grad = [](const Vec&) { return V({-1.0, 0.0, 0.0, 0.0}); };
  p.g = [](const Vec& x) {
    return V({x[1] - std::pow(x[0], 3) - x[2] * x[2], x[0] * x[0] - x[1] - x[3] * x[3]});
  };
  p.jac = [](const Vec& x) {
    Mat j(2, 4);
    j << -3.0 * x[0] * x[0], 1.0, -2.0 * x[2], 0.0,
         2.0 * x[0], -1.0, 0.0, -2.0 * x[3];
    return j;
  };
  p.hess = [](const Vec& x, double, const Vec& l) {
    Mat h = Mat::Zero(4, 4);
    h(0, 0) = -6.0 * x[0] * l[0] + 2.0 * l[1];
    h(2, 2) = -2.0 * l[0];
    h(3, 3) = -2.0 * l[1];
    return h;
  };
  p.f_star = -1.0;
  p.x_star = V({1.0, 1.0, 0.0, 0.0});
  return p;
}

// HS81 #40: min -x1 x2 x3 x4
//   s.t.  x1^3 + x2^2 - 1 = 0,  x1^2 x4 - x3 = 0,  x4^2 - x2 = 0.
// f* = -1/4 at (2^(-1/3), 2^(-1/2), +-2^(-11/12), +-2^(-1/4)): x* not unique.
Model Hs040() {
  Model p = Make("hs040", 4, 3, Vec::Constant(4, 0.8));
  p.f = [](const Vec& x) { return -x[0] * x[1] * x[2] * x[3]; };
  p.grad = [](const Vec& x) {
    return V({-x[1] * x[2] * x[3], -x[0] * x[2] * x[3], -x[0] * x[1] * x[3],
              -x[0] * x[1] * x[2]});
  };
  p.g = [](const Vec& x) {
    return V({std::pow(x[0], 3) + x[1] * x[1] - 1.0, x[0] * x[0] * x[3] - x[2],
              x[3] * x[3] - x[1]});
  };
  p.jac = [](const Vec& x) {
    Mat j(3, 4);
    j << 3.0 * x[0] * x[0], 2.0 * x[1], 0.0, 0.0,
         2.0 * x[0] * x[3], 0.0, -1.0, x[0] * x[0],
         0.0, -1.0, 0.0, 2.0 * x[3];
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    Mat h = Mat::Zero(4, 4);
    AddSym(h, 0, 1, -s * x[2] * x[3]);
    AddSym(h, 0, 2, -s * x[1] * x[3]);
    AddSym(h, 0, 3, -s * x[1] * x[2] + 2.0 * l[1] * x[0]);
    AddSym(h, 1, 2, -s * x[0] * x[3]);
    AddSym(h, 1, 3, -s * x[0] * x[2]);
    AddSym(h, 2, 3, -s * x[0] * x[1]);
    AddSym(h, 0, 0, 6.0 * l[0] * x[0] + 2.0 * l[1] * x[3]);
    AddSym(h, 1, 1, 2.0 * l[0]);
    AddSym(h, 3, 3, 2.0 * l[2]);
    return h;
  };
  p.f_star = -0.25;
  return p;
}

// HS81 #42: min (x1 - 1)^2 + (x2 - 2)^2 + (x3 - 3)^2 + (x4 - 4)^2
//   s.t.  x1 - 2 = 0,  x3^2 + x4^2 - 2 = 0.
// x* = (2, 2, 0.6 sqrt(2), 0.8 sqrt(2)), f* = 28 - 10 sqrt(2).
Model Hs042() {
  Model p = Make("hs042", 4, 2, V({1.0, 1.0, 1.0, 1.0}));
  p.g_l = p.g_u = V({2.0, 2.0});
  p.f = [](const Vec& x) { return (x - V({1.0, 2.0, 3.0, 4.0})).squaredNorm(); };
  p.grad = [](const Vec& x) { return Vec(2.0 * (x - V({1.0, 2.0, 3.0, 4.0}))); };
  p.g = [](const Vec& x) { return V({x[0], x[2] * x[2] + x[3] * x[3]}); };
  p.jac = [](const Vec& x) {
    Mat j(2, 4);
    j << 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0 * x[2], 2.0 * x[3];
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    return Mat(Vec(V({2.0 * s, 2.0 * s, 2.0 * s + 2.0 * l[1], 2.0 * s + 2.0 * l[1]}))
                   .asDiagonal());
  };
  p.f_star = 28.0 - 10.0 * kSqrt2;
  p.x_star = V({2.0, 2.0, 0.6 * kSqrt2, 0.8 * kSqrt2});
  return p;
}

// HS81 #43 (Rosen-Suzuki): min x1^2 + x2^2 + 2 x3^2 + x4^2 - 5 x1 - 5 x2 - 21 x3 + 7 x4
//   s.t.  8 - x1^2 - x2^2 - x3^2 - x4^2 - x1 + x2 - x3 + x4 >= 0,
//         10 - x1^2 - 2 x2^2 - x3^2 - 2 x4^2 + x1 + x4 >= 0,
//         5 - 2 x1^2 - x2^2 - x3^2 - 2 x1 + x2 + x4 >= 0   (all written as "<=").
// x* = (0, 1, 2, -1), f* = -44.
Model Hs043() {
  Model p = Make("hs043", 4, 3, Vec::Zero(4));
  p.g_l = Vec::Constant(3, -kInf);
  p.g_u = V({8.0, 10.0, 5.0});
  p.f = [](const Vec& x) {
    return x[0] * x[0] + x[1] * x[1] + 2.0 * x[2] * x[2] + x[3] * x[3] - 5.0 * x[0] -
           5.0 * x[1] - 21.0 * x[2] + 7.0 * x[3];
  };
  p.grad = [](const Vec& x) {
    return V({2.0 * x[0] - 5.0, 2.0 * x[1] - 5.0, 4.0 * x[2] - 21.0, 2.0 * x[3] + 7.0});
  };
  p.g = [](const Vec& x) {
    const double a = x[0] * x[0], b = x[1] * x[1], c = x[2] * x[2], d = x[3] * x[3];
    return V({a + b + c + d + x[0] - x[1] + x[2] - x[3],
              a + 2.0 * b + c + 2.0 * d - x[0] - x[3],
              2.0 * a + b + c + 2.0 * x[0] - x[1] - x[3]});
  };
  p.jac = [](const Vec& x) {
    Mat j(3, 4);
    j << 2.0 * x[0] + 1.0, 2.0 * x[1] - 1.0, 2.0 * x[2] + 1.0, 2.0 * x[3] - 1.0,
         2.0 * x[0] - 1.0, 4.0 * x[1], 2.0 * x[2], 4.0 * x[3] - 1.0,
         4.0 * x[0] + 2.0, 2.0 * x[1] - 1.0, 2.0 * x[2], -1.0;
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    const Vec d = s * V({2.0, 2.0, 4.0, 2.0}) + l[0] * V({2.0, 2.0, 2.0, 2.0}) +
                  l[1] * V({2.0, 4.0, 2.0, 4.0}) + l[2] * V({4.0, 2.0, 2.0, 0.0});
    return Mat(d.asDiagonal());
  };
  p.f_star = -44.0;
  p.x_star = V({0.0, 1.0, 2.0, -1.0});
  return p;
}

// The rows that HS81 #46 and #77 share (their right-hand sides differ),
//   g(x) = (x1^2 x4 + sin(x4 - x5),  x2 + x3^4 x4^2),
// their Jacobian, and the Hessian of the Lagrangian, whose f part differs
// between the two only in d^2 f / dx1^2 = `f11` (2 for #46, 4 for #77).
void SetRowsOf46And77(Model* p, double f11) {
  p->g = [](const Vec& x) {
    return V({x[0] * x[0] * x[3] + std::sin(x[3] - x[4]),
              x[1] + std::pow(x[2], 4) * x[3] * x[3]});
  };
  p->jac = [](const Vec& x) {
    const double c = std::cos(x[3] - x[4]);
    Mat j(2, 5);
    j << 2.0 * x[0] * x[3], 0.0, 0.0, x[0] * x[0] + c, -c,
         0.0, 1.0, 4.0 * std::pow(x[2], 3) * x[3] * x[3], 2.0 * std::pow(x[2], 4) * x[3], 0.0;
    return j;
  };
  p->hess = [f11](const Vec& x, double s, const Vec& l) {
    const double sn = std::sin(x[3] - x[4]);
    Mat h = Mat::Zero(5, 5);
    AddSym(h, 0, 0, f11 * s + 2.0 * l[0] * x[3]);
    AddSym(h, 0, 1, -2.0 * s);
    AddSym(h, 1, 1, 2.0 * s);
    AddSym(h, 0, 3, 2.0 * l[0] * x[0]);
    AddSym(h, 2, 2, 2.0 * s + 12.0 * l[1] * x[2] * x[2] * x[3] * x[3]);
    AddSym(h, 2, 3, 8.0 * l[1] * std::pow(x[2], 3) * x[3]);
    AddSym(h, 3, 3, 12.0 * s * std::pow(x[3] - 1.0, 2) - l[0] * sn +
                        2.0 * l[1] * std::pow(x[2], 4));
    AddSym(h, 3, 4, l[0] * sn);
    AddSym(h, 4, 4, 30.0 * s * std::pow(x[4] - 1.0, 4) - l[0] * sn);
    return h;
  };
}

// HS81 #46: min (x1 - x2)^2 + (x3 - 1)^2 + (x4 - 1)^4 + (x5 - 1)^6
//   s.t.  x1^2 x4 + sin(x4 - x5) - 1 = 0,  x2 + x3^4 x4^2 - 2 = 0.
// f* = 0 at x* = (1, 1, 1, 1, 1); x_star left empty (singular curvature there).
Model Hs046() {
  Model p = Make("hs046", 5, 2, V({0.5 * kSqrt2, 1.75, 0.5, 2.0, 2.0}));
  p.g_l = p.g_u = V({1.0, 2.0});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - x[1], 2) + std::pow(x[2] - 1.0, 2) + std::pow(x[3] - 1.0, 4) +
           std::pow(x[4] - 1.0, 6);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]);
    return V({a, -a, 2.0 * (x[2] - 1.0), 4.0 * std::pow(x[3] - 1.0, 3),
              6.0 * std::pow(x[4] - 1.0, 5)});
  };
  SetRowsOf46And77(&p, 2.0);
  p.f_star = 0.0;
  return p;
}

// HS81 #48: min (x1 - 1)^2 + (x2 - x3)^2 + (x4 - x5)^2
//   s.t.  x1 + x2 + x3 + x4 + x5 - 5 = 0,  x3 - 2 (x4 + x5) + 3 = 0.
// x* = (1, 1, 1, 1, 1), f* = 0.
Model Hs048() {
  Model p = Make("hs048", 5, 2, V({3.0, 5.0, -3.0, 2.0, -2.0}));
  p.g_l = p.g_u = V({5.0, -3.0});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - 1.0, 2) + std::pow(x[1] - x[2], 2) + std::pow(x[3] - x[4], 2);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[1] - x[2]), b = 2.0 * (x[3] - x[4]);
    return V({2.0 * (x[0] - 1.0), a, -a, b, -b});
  };
  Mat a(2, 5);
  a << 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, -2.0, -2.0;
  p.g = [a](const Vec& x) { return Vec(a * x); };
  p.jac = [a](const Vec&) { return a; };
  p.hess = [](const Vec&, double s, const Vec&) {
    Mat h = Mat::Zero(5, 5);
    AddSym(h, 0, 0, 2.0 * s);
    AddSym(h, 1, 1, 2.0 * s);
    AddSym(h, 1, 2, -2.0 * s);
    AddSym(h, 2, 2, 2.0 * s);
    AddSym(h, 3, 3, 2.0 * s);
    AddSym(h, 3, 4, -2.0 * s);
    AddSym(h, 4, 4, 2.0 * s);
    return h;
  };
  p.f_star = 0.0;
  p.x_star = Vec::Ones(5);
  return p;
}

// HS81 #49: min (x1 - x2)^2 + (x3 - 1)^2 + (x4 - 1)^4 + (x5 - 1)^6
//   s.t.  x1 + x2 + x3 + 4 x4 - 7 = 0,  x3 + 5 x5 - 6 = 0.
// f* = 0 at x* = (1, 1, 1, 1, 1); x_star left empty (singular curvature there).
Model Hs049() {
  Model p = Make("hs049", 5, 2, V({10.0, 7.0, 2.0, -3.0, 0.8}));
  p.g_l = p.g_u = V({7.0, 6.0});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - x[1], 2) + std::pow(x[2] - 1.0, 2) + std::pow(x[3] - 1.0, 4) +
           std::pow(x[4] - 1.0, 6);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]);
    return V({a, -a, 2.0 * (x[2] - 1.0), 4.0 * std::pow(x[3] - 1.0, 3),
              6.0 * std::pow(x[4] - 1.0, 5)});
  };
  Mat a(2, 5);
  a << 1.0, 1.0, 1.0, 4.0, 0.0, 0.0, 0.0, 1.0, 0.0, 5.0;
  p.g = [a](const Vec& x) { return Vec(a * x); };
  p.jac = [a](const Vec&) { return a; };
  p.hess = [](const Vec& x, double s, const Vec&) {
    Mat h = Mat::Zero(5, 5);
    AddSym(h, 0, 0, 2.0);
    AddSym(h, 0, 1, -2.0);
    AddSym(h, 1, 1, 2.0);
    AddSym(h, 2, 2, 2.0);
    AddSym(h, 3, 3, 12.0 * std::pow(x[3] - 1.0, 2));
    AddSym(h, 4, 4, 30.0 * std::pow(x[4] - 1.0, 4));
    return Mat(s * h);
  };
  p.f_star = 0.0;
  return p;
}

// HS81 #50: min (x1 - x2)^2 + (x2 - x3)^2 + (x3 - x4)^4 + (x4 - x5)^2
//   s.t.  x1 + 2 x2 + 3 x3 - 6 = 0,  x2 + 2 x3 + 3 x4 - 6 = 0,  x3 + 2 x4 + 3 x5 - 6 = 0.
// x* = (1, 1, 1, 1, 1), f* = 0.
Model Hs050() {
  Model p = Make("hs050", 5, 3, V({35.0, -31.0, 11.0, 5.0, -5.0}));
  p.g_l = p.g_u = V({6.0, 6.0, 6.0});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - x[1], 2) + std::pow(x[1] - x[2], 2) + std::pow(x[2] - x[3], 4) +
           std::pow(x[3] - x[4], 2);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]), b = 2.0 * (x[1] - x[2]);
    const double c = 4.0 * std::pow(x[2] - x[3], 3), d = 2.0 * (x[3] - x[4]);
    return V({a, -a + b, -b + c, -c + d, -d});
  };
  Mat a(3, 5);
  a << 1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0;
  p.g = [a](const Vec& x) { return Vec(a * x); };
  p.jac = [a](const Vec&) { return a; };
  p.hess = [](const Vec& x, double s, const Vec&) {
    const double c = 12.0 * std::pow(x[2] - x[3], 2);
    Mat h = Mat::Zero(5, 5);
    AddSym(h, 0, 0, 2.0);
    AddSym(h, 0, 1, -2.0);
    AddSym(h, 1, 1, 4.0);
    AddSym(h, 1, 2, -2.0);
    AddSym(h, 2, 2, 2.0 + c);
    AddSym(h, 2, 3, -c);
    AddSym(h, 3, 3, c + 2.0);
    AddSym(h, 3, 4, -2.0);
    AddSym(h, 4, 4, 2.0);
    return Mat(s * h);
  };
  p.f_star = 0.0;
  p.x_star = Vec::Ones(5);
  return p;
}

// HS81 #51: min (x1 - x2)^2 + (x2 + x3 - 2)^2 + (x4 - 1)^2 + (x5 - 1)^2
//   s.t.  x1 + 3 x2 - 4 = 0,  x3 + x4 - 2 x5 = 0,  x2 - x5 = 0.
// x* = (1, 1, 1, 1, 1), f* = 0.
Model Hs051() {
  Model p = Make("hs051", 5, 3, V({2.5, 0.5, 2.0, -1.0, 0.5}));
  p.g_l = p.g_u = V({4.0, 0.0, 0.0});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - x[1], 2) + std::pow(x[1] + x[2] - 2.0, 2) +
           std::pow(x[3] - 1.0, 2) + std::pow(x[4] - 1.0, 2);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]), b = 2.0 * (x[1] + x[2] - 2.0);
    return V({a, -a + b, b, 2.0 * (x[3] - 1.0), 2.0 * (x[4] - 1.0)});
  };
  Mat a(3, 5);
  a << 1.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, -2.0, 0.0, 1.0, 0.0, 0.0, -1.0;
  p.g = [a](const Vec& x) { return Vec(a * x); };
  p.jac = [a](const Vec&) { return a; };
  p.hess = [](const Vec&, double s, const Vec&) {
    Mat h = Mat::Zero(5, 5);
    AddSym(h, 0, 0, 2.0);
    AddSym(h, 0, 1, -2.0);
    AddSym(h, 1, 1, 4.0);
    AddSym(h, 1, 2, 2.0);
    AddSym(h, 2, 2, 2.0);
    AddSym(h, 3, 3, 2.0);
    AddSym(h, 4, 4, 2.0);
    return Mat(s * h);
  };
  p.f_star = 0.0;
  p.x_star = Vec::Ones(5);
  return p;
}

// HS81 #52: min (4 x1 - x2)^2 + (x2 + x3 - 2)^2 + (x4 - 1)^2 + (x5 - 1)^2
//   s.t.  x1 + 3 x2 = 0,  x3 + x4 - 2 x5 = 0,  x2 - x5 = 0.
// x* = (-33, 11, 180, -158, 11) / 349, f* = 1859 / 349.
Model Hs052() {
  Model p = Make("hs052", 5, 3, Vec::Constant(5, 2.0));
  p.f = [](const Vec& x) {
    return std::pow(4.0 * x[0] - x[1], 2) + std::pow(x[1] + x[2] - 2.0, 2) +
           std::pow(x[3] - 1.0, 2) + std::pow(x[4] - 1.0, 2);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (4.0 * x[0] - x[1]), b = 2.0 * (x[1] + x[2] - 2.0);
    return V({4.0 * a, -a + b, b, 2.0 * (x[3] - 1.0), 2.0 * (x[4] - 1.0)});
  };
  Mat a(3, 5);
  a << 1.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, -2.0, 0.0, 1.0, 0.0, 0.0, -1.0;
  p.g = [a](const Vec& x) { return Vec(a * x); };
  p.jac = [a](const Vec&) { return a; };
  p.hess = [](const Vec&, double s, const Vec&) {
    Mat h = Mat::Zero(5, 5);
    AddSym(h, 0, 0, 32.0);
    AddSym(h, 0, 1, -8.0);
    AddSym(h, 1, 1, 4.0);
    AddSym(h, 1, 2, 2.0);
    AddSym(h, 2, 2, 2.0);
    AddSym(h, 3, 3, 2.0);
    AddSym(h, 4, 4, 2.0);
    return Mat(s * h);
  };
  p.f_star = 1859.0 / 349.0;
  p.x_star = V({-33.0, 11.0, 180.0, -158.0, 11.0}) / 349.0;
  return p;
}

// HS81 #60: min (x1 - 1)^2 + (x1 - x2)^2 + (x2 - x3)^4
//   s.t.  x1 (1 + x2^2) + x3^4 - 4 - 3 sqrt(2) = 0,  -10 <= x <= 10.
// f* = 0.0325682003 (bounds inactive).
Model Hs060() {
  Model p = Make("hs060", 3, 1, V({2.0, 2.0, 2.0}));
  p.x_l = Vec::Constant(3, -10.0);
  p.x_u = Vec::Constant(3, 10.0);
  p.g_l = p.g_u = V({4.0 + 3.0 * kSqrt2});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - 1.0, 2) + std::pow(x[0] - x[1], 2) + std::pow(x[1] - x[2], 4);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]), b = 4.0 * std::pow(x[1] - x[2], 3);
    return V({2.0 * (x[0] - 1.0) + a, -a + b, -b});
  };
  p.g = [](const Vec& x) { return V({x[0] * (1.0 + x[1] * x[1]) + std::pow(x[2], 4)}); };
  p.jac = [](const Vec& x) {
    Mat j(1, 3);
    j << 1.0 + x[1] * x[1], 2.0 * x[0] * x[1], 4.0 * std::pow(x[2], 3);
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    const double q = 12.0 * std::pow(x[1] - x[2], 2);
    Mat h = Mat::Zero(3, 3);
    AddSym(h, 0, 0, 4.0 * s);
    AddSym(h, 0, 1, -2.0 * s + 2.0 * l[0] * x[1]);
    AddSym(h, 1, 1, s * (2.0 + q) + 2.0 * l[0] * x[0]);
    AddSym(h, 1, 2, -s * q);
    AddSym(h, 2, 2, s * q + 12.0 * l[0] * x[2] * x[2]);
    return h;
  };
  p.f_star = 0.032568200255070;
  p.x_star = V({1.10485901973, 1.19667418229, 1.53526226033});
  return p;
}

// HS81 #61: min 4 x1^2 + 2 x2^2 + 2 x3^2 - 33 x1 + 16 x2 - 24 x3
//   s.t.  3 x1 - 2 x2^2 - 7 = 0,  4 x1 - x3^2 - 11 = 0.
// f* = -143.646142.
Model Hs061() {
  Model p = Make("hs061", 3, 2, Vec::Zero(3));
  p.g_l = p.g_u = V({7.0, 11.0});
  p.f = [](const Vec& x) {
    return 4.0 * x[0] * x[0] + 2.0 * x[1] * x[1] + 2.0 * x[2] * x[2] - 33.0 * x[0] +
           16.0 * x[1] - 24.0 * x[2];
  };
  p.grad = [](const Vec& x) {
    return V({8.0 * x[0] - 33.0, 4.0 * x[1] + 16.0, 4.0 * x[2] - 24.0});
  };
  p.g = [](const Vec& x) {
    return V({3.0 * x[0] - 2.0 * x[1] * x[1], 4.0 * x[0] - x[2] * x[2]});
  };
  p.jac = [](const Vec& x) {
    Mat j(2, 3);
    j << 3.0, -4.0 * x[1], 0.0, 4.0, 0.0, -2.0 * x[2];
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    return Mat(V({8.0 * s, 4.0 * s - 4.0 * l[0], 4.0 * s - 2.0 * l[1]}).asDiagonal());
  };
  p.f_star = -143.64614219778;
  p.x_star = V({5.32677013556, -2.11899863222, 3.21046422535});
  return p;
}

// HS81 #63: min 1000 - x1^2 - 2 x2^2 - x3^2 - x1 x2 - x1 x3
//   s.t.  8 x1 + 14 x2 + 7 x3 - 56 = 0,  x1^2 + x2^2 + x3^2 - 25 = 0,  x >= 0.
// f* = 961.715172 (bounds inactive).
Model Hs063() {
  Model p = Make("hs063", 3, 2, V({2.0, 2.0, 2.0}));
  p.x_l = Vec::Zero(3);
  p.g_l = p.g_u = V({56.0, 25.0});
  p.f = [](const Vec& x) {
    return 1000.0 - x[0] * x[0] - 2.0 * x[1] * x[1] - x[2] * x[2] - x[0] * x[1] - x[0] * x[2];
  };
  p.grad = [](const Vec& x) {
    return V({-2.0 * x[0] - x[1] - x[2], -4.0 * x[1] - x[0], -2.0 * x[2] - x[0]});
  };
  p.g = [](const Vec& x) {
    return V({8.0 * x[0] + 14.0 * x[1] + 7.0 * x[2], x.squaredNorm()});
  };
  p.jac = [](const Vec& x) {
    Mat j(2, 3);
    j << 8.0, 14.0, 7.0, 2.0 * x[0], 2.0 * x[1], 2.0 * x[2];
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    Mat h(3, 3);
    h << -2.0, -1.0, -1.0, -1.0, -4.0, 0.0, -1.0, 0.0, -2.0;
    return Mat(s * h + 2.0 * l[1] * Mat::Identity(3, 3));
  };
  p.f_star = 961.71517213005;
  p.x_star = V({3.51212134187, 0.216987941515, 3.55217115483});
  return p;
}

// HS81 #65: min (x1 - x2)^2 + (x1 + x2 - 10)^2 / 9 + (x3 - 5)^2
//   s.t.  48 - x1^2 - x2^2 - x3^2 >= 0 (written "<= 48"),
//         -4.5 <= x1, x2 <= 4.5,  -5 <= x3 <= 5.
// f* = 0.9535288567.
Model Hs065() {
  Model p = Make("hs065", 3, 1, V({-5.0, 5.0, 0.0}));
  p.x_l = V({-4.5, -4.5, -5.0});
  p.x_u = V({4.5, 4.5, 5.0});
  p.g_l = V({-kInf});
  p.g_u = V({48.0});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - x[1], 2) + std::pow(x[0] + x[1] - 10.0, 2) / 9.0 +
           std::pow(x[2] - 5.0, 2);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]), b = 2.0 * (x[0] + x[1] - 10.0) / 9.0;
    return V({a + b, -a + b, 2.0 * (x[2] - 5.0)});
  };
  p.g = [](const Vec& x) { return V({x.squaredNorm()}); };
  p.jac = [](const Vec& x) { return Mat(2.0 * x.transpose()); };
  p.hess = [](const Vec&, double s, const Vec& l) {
    const double d = 2.0 + 2.0 / 9.0, o = -2.0 + 2.0 / 9.0;
    Mat h(3, 3);
    h << d, o, 0.0, o, d, 0.0, 0.0, 0.0, 2.0;
    return Mat(s * h + 2.0 * l[0] * Mat::Identity(3, 3));
  };
  p.f_star = 0.95352885680478;
  p.x_star = V({3.65046172521, 3.65046172521, 4.62041755532});
  return p;
}

// HS81 #71: min x1 x4 (x1 + x2 + x3) + x3
//   s.t.  x1 x2 x3 x4 - 25 >= 0,  x1^2 + x2^2 + x3^2 + x4^2 - 40 = 0,  1 <= x <= 5.
// x* = (1, 4.74299963, 3.82114998, 1.37940829), f* = 17.0140173.
Model Hs071() {
  Model p = Make("hs071", 4, 2, V({1.0, 5.0, 5.0, 1.0}));
  p.x_l = Vec::Constant(4, 1.0);
  p.x_u = Vec::Constant(4, 5.0);
  p.g_l = V({25.0, 40.0});
  p.g_u = V({kInf, 40.0});
  p.f = [](const Vec& x) { return x[0] * x[3] * (x[0] + x[1] + x[2]) + x[2]; };
  p.grad = [](const Vec& x) {
    return V({x[3] * (2.0 * x[0] + x[1] + x[2]), x[0] * x[3], x[0] * x[3] + 1.0,
              x[0] * (x[0] + x[1] + x[2])});
  };
  p.g = [](const Vec& x) { return V({x[0] * x[1] * x[2] * x[3], x.squaredNorm()}); };
  p.jac = [](const Vec& x) {
    Mat j(2, 4);
    j << x[1] * x[2] * x[3], x[0] * x[2] * x[3], x[0] * x[1] * x[3], x[0] * x[1] * x[2],
         2.0 * x[0], 2.0 * x[1], 2.0 * x[2], 2.0 * x[3];
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    Mat h = Mat::Zero(4, 4);
    AddSym(h, 0, 0, 2.0 * s * x[3]);
    AddSym(h, 0, 1, s * x[3] + l[0] * x[2] * x[3]);
    AddSym(h, 0, 2, s * x[3] + l[0] * x[1] * x[3]);
    AddSym(h, 0, 3, s * (2.0 * x[0] + x[1] + x[2]) + l[0] * x[1] * x[2]);
    AddSym(h, 1, 2, l[0] * x[0] * x[3]);
    AddSym(h, 1, 3, s * x[0] + l[0] * x[0] * x[2]);
    AddSym(h, 2, 3, s * x[0] + l[0] * x[0] * x[1]);
    h.diagonal().array() += 2.0 * l[1];
    return h;
  };
  p.f_star = 17.014017289156;
  p.x_star = V({1.0, 4.74299963726, 3.82114998418, 1.37940829317});
  return p;
}

// HS81 #71 with x1 fixed (x_l = x_u = 1) at the value it takes at the solution,
// to exercise fixed variables; same x* and f* as hs071. Marked degenerate: the
// two bounds of x1 are both active with dependent gradients, so only
// z_L[0] - z_U[0] is determined (and Ipopt reports no multiplier for it).
Model Hs071Fixed() {
  Model p = Hs071();
  p.name = "hs071_fixed";
  p.x_u[0] = 1.0;
  p.nondegenerate = false;
  return p;
}

// HS81 #76: min x1^2 + x2^2 / 2 + x3^2 + x4^2 / 2 - x1 x3 + x3 x4 - x1 - 3 x2 + x3 - x4
//   s.t.  x1 + 2 x2 + x3 + x4 <= 5,  3 x1 + x2 + 2 x3 - x4 <= 4,  x2 + 4 x3 >= 1.5,
//         x >= 0.  x* = (3, 23, 0, 6) / 11, f* = -103 / 22.
Model Hs076() {
  Model p = Make("hs076", 4, 3, Vec::Constant(4, 0.5));
  p.x_l = Vec::Zero(4);
  p.g_l = V({-kInf, -kInf, 1.5});
  p.g_u = V({5.0, 4.0, kInf});
  Mat q(4, 4);
  q << 2.0, 0.0, -1.0, 0.0,
       0.0, 1.0, 0.0, 0.0,
       -1.0, 0.0, 2.0, 1.0,
       0.0, 0.0, 1.0, 1.0;
  const Vec c = V({-1.0, -3.0, 1.0, -1.0});
  p.f = [q, c](const Vec& x) { return 0.5 * x.dot(q * x) + c.dot(x); };
  p.grad = [q, c](const Vec& x) { return Vec(q * x + c); };
  Mat a(3, 4);
  a << 1.0, 2.0, 1.0, 1.0, 3.0, 1.0, 2.0, -1.0, 0.0, 1.0, 4.0, 0.0;
  p.g = [a](const Vec& x) { return Vec(a * x); };
  p.jac = [a](const Vec&) { return a; };
  p.hess = [q](const Vec&, double s, const Vec&) { return Mat(s * q); };
  p.f_star = -103.0 / 22.0;
  p.x_star = V({3.0, 23.0, 0.0, 6.0}) / 11.0;
  return p;
}

// HS81 #77: min (x1 - 1)^2 + (x1 - x2)^2 + (x3 - 1)^2 + (x4 - 1)^4 + (x5 - 1)^6
//   s.t.  x1^2 x4 + sin(x4 - x5) - 2 sqrt(2) = 0,  x2 + x3^4 x4^2 - 8 - sqrt(2) = 0.
// f* = 0.24150513.
Model Hs077() {
  Model p = Make("hs077", 5, 2, Vec::Constant(5, 2.0));
  p.g_l = p.g_u = V({2.0 * kSqrt2, 8.0 + kSqrt2});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - 1.0, 2) + std::pow(x[0] - x[1], 2) + std::pow(x[2] - 1.0, 2) +
           std::pow(x[3] - 1.0, 4) + std::pow(x[4] - 1.0, 6);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]);
    return V({2.0 * (x[0] - 1.0) + a, -a, 2.0 * (x[2] - 1.0), 4.0 * std::pow(x[3] - 1.0, 3),
              6.0 * std::pow(x[4] - 1.0, 5)});
  };
  SetRowsOf46And77(&p, 4.0);
  p.f_star = 0.24150512879018;
  p.x_star =
      V({1.16617218971, 1.1821113888, 1.38025704315, 1.50603627362, 0.610920196043});
  return p;
}

// HS81 #78: min x1 x2 x3 x4 x5
//   s.t.  x1^2 + ... + x5^2 - 10 = 0,  x2 x3 - 5 x4 x5 = 0,  x1^3 + x2^3 + 1 = 0.
// f* = -2.91970041; x* is not unique (changing the signs of x4 and x5 keeps it optimal).
Model Hs078() {
  Model p = Make("hs078", 5, 3, V({-2.0, 1.5, 2.0, -1.0, -1.0}));
  p.g_l = p.g_u = V({10.0, 0.0, -1.0});
  p.f = [](const Vec& x) { return x.prod(); };
  p.grad = [](const Vec& x) {
    Vec d(5);
    for (int i = 0; i < 5; ++i) {
      d[i] = 1.0;
      for (int k = 0; k < 5; ++k)
        if (k != i) d[i] *= x[k];
    }
    return d;
  };
  p.g = [](const Vec& x) {
    return V({x.squaredNorm(), x[1] * x[2] - 5.0 * x[3] * x[4],
              std::pow(x[0], 3) + std::pow(x[1], 3)});
  };
  p.jac = [](const Vec& x) {
    Mat j = Mat::Zero(3, 5);
    j.row(0) = 2.0 * x.transpose();
    j(1, 1) = x[2], j(1, 2) = x[1], j(1, 3) = -5.0 * x[4], j(1, 4) = -5.0 * x[3];
    j(2, 0) = 3.0 * x[0] * x[0], j(2, 1) = 3.0 * x[1] * x[1];
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    Mat h = Mat::Zero(5, 5);
    for (int i = 0; i < 5; ++i)
      for (int j = i + 1; j < 5; ++j) {
        double prod = 1.0;
        for (int k = 0; k < 5; ++k)
          if (k != i && k != j) prod *= x[k];
        AddSym(h, i, j, s * prod);
      }
    h.diagonal().array() += 2.0 * l[0];
    AddSym(h, 1, 2, l[1]);
    AddSym(h, 3, 4, -5.0 * l[1]);
    AddSym(h, 0, 0, 6.0 * l[2] * x[0]);
    AddSym(h, 1, 1, 6.0 * l[2] * x[1]);
    return h;
  };
  p.f_star = -2.9197004089637;
  return p;
}

// HS81 #79: min (x1 - 1)^2 + (x1 - x2)^2 + (x2 - x3)^2 + (x3 - x4)^4 + (x4 - x5)^4
//   s.t.  x1 + x2^2 + x3^3 - 2 - 3 sqrt(2) = 0,  x2 - x3^2 + x4 + 2 - 2 sqrt(2) = 0,
//         x1 x5 - 2 = 0.
// f* = 0.0787768209.
Model Hs079() {
  Model p = Make("hs079", 5, 3, Vec::Constant(5, 2.0));
  p.g_l = p.g_u = V({2.0 + 3.0 * kSqrt2, -2.0 + 2.0 * kSqrt2, 2.0});
  p.f = [](const Vec& x) {
    return std::pow(x[0] - 1.0, 2) + std::pow(x[0] - x[1], 2) + std::pow(x[1] - x[2], 2) +
           std::pow(x[2] - x[3], 4) + std::pow(x[3] - x[4], 4);
  };
  p.grad = [](const Vec& x) {
    const double a = 2.0 * (x[0] - x[1]), b = 2.0 * (x[1] - x[2]);
    const double c = 4.0 * std::pow(x[2] - x[3], 3), d = 4.0 * std::pow(x[3] - x[4], 3);
    return V({2.0 * (x[0] - 1.0) + a, -a + b, -b + c, -c + d, -d});
  };
  p.g = [](const Vec& x) {
    return V({x[0] + x[1] * x[1] + std::pow(x[2], 3), x[1] - x[2] * x[2] + x[3],
              x[0] * x[4]});
  };
  p.jac = [](const Vec& x) {
    Mat j(3, 5);
    j << 1.0, 2.0 * x[1], 3.0 * x[2] * x[2], 0.0, 0.0,
         0.0, 1.0, -2.0 * x[2], 1.0, 0.0,
         x[4], 0.0, 0.0, 0.0, x[0];
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    const double c = 12.0 * std::pow(x[2] - x[3], 2), d = 12.0 * std::pow(x[3] - x[4], 2);
    Mat h = Mat::Zero(5, 5);
    AddSym(h, 0, 0, 4.0 * s);
    AddSym(h, 0, 1, -2.0 * s);
    AddSym(h, 1, 1, 4.0 * s + 2.0 * l[0]);
    AddSym(h, 1, 2, -2.0 * s);
    AddSym(h, 2, 2, s * (2.0 + c) + 6.0 * l[0] * x[2] - 2.0 * l[1]);
    AddSym(h, 2, 3, -s * c);
    AddSym(h, 3, 3, s * (c + d));
    AddSym(h, 3, 4, -s * d);
    AddSym(h, 4, 4, s * d);
    AddSym(h, 0, 4, l[2]);
    return h;
  };
  p.f_star = 0.078776820871057;
  p.x_star =
      V({1.19112745631, 1.36260316496, 1.47281793151, 1.63501661917, 1.67908143617});
  return p;
}

// HS81 #100: min (x1 - 10)^2 + 5 (x2 - 12)^2 + x3^4 + 3 (x4 - 11)^2 + 10 x5^6 + 7 x6^2
//   + x7^4 - 4 x6 x7 - 10 x6 - 8 x7
//   s.t.  127 - 2 x1^2 - 3 x2^4 - x3 - 4 x4^2 - 5 x5 >= 0,
//         282 - 7 x1 - 3 x2 - 10 x3^2 - x4 + x5 >= 0,
//         196 - 23 x1 - x2^2 - 6 x6^2 + 8 x7 >= 0,
//         -4 x1^2 - x2^2 + 3 x1 x2 - 2 x3^2 - 5 x6 + 11 x7 >= 0.
// f* = 680.6300573.
Model Hs100() {
  Model p = Make("hs100", 7, 4, V({1.0, 2.0, 0.0, 4.0, 0.0, 1.0, 1.0}));
  p.g_u = Vec::Constant(4, kInf);
  p.f = [](const Vec& x) {
    return std::pow(x[0] - 10.0, 2) + 5.0 * std::pow(x[1] - 12.0, 2) + std::pow(x[2], 4) +
           3.0 * std::pow(x[3] - 11.0, 2) + 10.0 * std::pow(x[4], 6) + 7.0 * x[5] * x[5] +
           std::pow(x[6], 4) - 4.0 * x[5] * x[6] - 10.0 * x[5] - 8.0 * x[6];
  };
  p.grad = [](const Vec& x) {
    return V({2.0 * (x[0] - 10.0), 10.0 * (x[1] - 12.0), 4.0 * std::pow(x[2], 3),
              6.0 * (x[3] - 11.0), 60.0 * std::pow(x[4], 5), 14.0 * x[5] - 4.0 * x[6] - 10.0,
              4.0 * std::pow(x[6], 3) - 4.0 * x[5] - 8.0});
  };
  p.g = [](const Vec& x) {
    return V({127.0 - 2.0 * x[0] * x[0] - 3.0 * std::pow(x[1], 4) - x[2] -
                  4.0 * x[3] * x[3] - 5.0 * x[4],
              282.0 - 7.0 * x[0] - 3.0 * x[1] - 10.0 * x[2] * x[2] - x[3] + x[4],
              196.0 - 23.0 * x[0] - x[1] * x[1] - 6.0 * x[5] * x[5] + 8.0 * x[6],
              -4.0 * x[0] * x[0] - x[1] * x[1] + 3.0 * x[0] * x[1] - 2.0 * x[2] * x[2] -
                  5.0 * x[5] + 11.0 * x[6]});
  };
  p.jac = [](const Vec& x) {
    Mat j = Mat::Zero(4, 7);
    j.row(0) << -4.0 * x[0], -12.0 * std::pow(x[1], 3), -1.0, -8.0 * x[3], -5.0, 0.0, 0.0;
    j.row(1) << -7.0, -3.0, -20.0 * x[2], -1.0, 1.0, 0.0, 0.0;
    j.row(2) << -23.0, -2.0 * x[1], 0.0, 0.0, 0.0, -12.0 * x[5], 8.0;
    j.row(3) << -8.0 * x[0] + 3.0 * x[1], -2.0 * x[1] + 3.0 * x[0], -4.0 * x[2], 0.0, 0.0,
        -5.0, 11.0;
    return j;
  };
  p.hess = [](const Vec& x, double s, const Vec& l) {
    Mat h = Mat::Zero(7, 7);
    AddSym(h, 0, 0, 2.0 * s - 4.0 * l[0] - 8.0 * l[3]);
    AddSym(h, 0, 1, 3.0 * l[3]);
    AddSym(h, 1, 1, 10.0 * s - 36.0 * l[0] * x[1] * x[1] - 2.0 * l[2] - 2.0 * l[3]);
    AddSym(h, 2, 2, 12.0 * s * x[2] * x[2] - 20.0 * l[1] - 4.0 * l[3]);
    AddSym(h, 3, 3, 6.0 * s - 8.0 * l[0]);
    AddSym(h, 4, 4, 300.0 * s * std::pow(x[4], 4));
    AddSym(h, 5, 5, 14.0 * s - 12.0 * l[2]);
    AddSym(h, 5, 6, -4.0 * s);
    AddSym(h, 6, 6, 12.0 * s * x[6] * x[6]);
    return h;
  };
  p.f_star = 680.63005737440;
  p.x_star = V({2.33049937288, 1.9513723729, -0.477541392389, 4.36572623366,
                -0.624486970527, 1.03813101861, 1.59422671161});
  return p;
}

// HS81 #113 (Wong 2): min x1^2 + x2^2 + x1 x2 - 14 x1 - 16 x2 + (x3 - 10)^2
//   + 4 (x4 - 5)^2 + (x5 - 3)^2 + 2 (x6 - 1)^2 + 5 x7^2 + 7 (x8 - 11)^2
//   + 2 (x9 - 10)^2 + (x10 - 7)^2 + 45
//   s.t.  105 - 4 x1 - 5 x2 + 3 x7 - 9 x8 >= 0,  -10 x1 + 8 x2 + 17 x7 - 2 x8 >= 0,
//         8 x1 - 2 x2 - 5 x9 + 2 x10 + 12 >= 0,
//         -3 (x1 - 2)^2 - 4 (x2 - 3)^2 - 2 x3^2 + 7 x4 + 120 >= 0,
//         -5 x1^2 - 8 x2 - (x3 - 6)^2 + 2 x4 + 40 >= 0,
//         -x1^2 / 2 - 2 (x2 - 4)^2 - 3 x5^2 + x6 + 30 >= 0,
//         -x1^2 - 2 (x2 - 2)^2 + 2 x1 x2 - 14 x5 + 6 x6 >= 0,
//         3 x1 - 6 x2 - 12 (x9 - 8)^2 + 7 x10 >= 0.
// f* = 24.3062091.
Model Hs113() {
  Model p = Make("hs113", 10, 8, V({2.0, 3.0, 5.0, 5.0, 1.0, 2.0, 7.0, 3.0, 6.0, 10.0}));
  p.g_u = Vec::Constant(8, kInf);
  p.f = [](const Vec& x) {
    return x[0] * x[0] + x[1] * x[1] + x[0] * x[1] - 14.0 * x[0] - 16.0 * x[1] +
           std::pow(x[2] - 10.0, 2) + 4.0 * std::pow(x[3] - 5.0, 2) + std::pow(x[4] - 3.0, 2) +
           2.0 * std::pow(x[5] - 1.0, 2) + 5.0 * x[6] * x[6] + 7.0 * std::pow(x[7] - 11.0, 2) +
           2.0 * std::pow(x[8] - 10.0, 2) + std::pow(x[9] - 7.0, 2) + 45.0;
  };
  p.grad = [](const Vec& x) {
    return V({2.0 * x[0] + x[1] - 14.0, 2.0 * x[1] + x[0] - 16.0, 2.0 * (x[2] - 10.0),
              8.0 * (x[3] - 5.0), 2.0 * (x[4] - 3.0), 4.0 * (x[5] - 1.0), 10.0 * x[6],
              14.0 * (x[7] - 11.0), 4.0 * (x[8] - 10.0), 2.0 * (x[9] - 7.0)});
  };
  p.g = [](const Vec& x) {
    return V({105.0 - 4.0 * x[0] - 5.0 * x[1] + 3.0 * x[6] - 9.0 * x[7],
              -10.0 * x[0] + 8.0 * x[1] + 17.0 * x[6] - 2.0 * x[7],
              8.0 * x[0] - 2.0 * x[1] - 5.0 * x[8] + 2.0 * x[9] + 12.0,
              -3.0 * std::pow(x[0] - 2.0, 2) - 4.0 * std::pow(x[1] - 3.0, 2) -
                  2.0 * x[2] * x[2] + 7.0 * x[3] + 120.0,
              -5.0 * x[0] * x[0] - 8.0 * x[1] - std::pow(x[2] - 6.0, 2) + 2.0 * x[3] + 40.0,
              -0.5 * x[0] * x[0] - 2.0 * std::pow(x[1] - 4.0, 2) - 3.0 * x[4] * x[4] + x[5] +
                  30.0,
              -x[0] * x[0] - 2.0 * std::pow(x[1] - 2.0, 2) + 2.0 * x[0] * x[1] -
                  14.0 * x[4] + 6.0 * x[5],
              3.0 * x[0] - 6.0 * x[1] - 12.0 * std::pow(x[8] - 8.0, 2) + 7.0 * x[9]});
  };
  p.jac = [](const Vec& x) {
    Mat j = Mat::Zero(8, 10);
    j(0, 0) = -4.0, j(0, 1) = -5.0, j(0, 6) = 3.0, j(0, 7) = -9.0;
    j(1, 0) = -10.0, j(1, 1) = 8.0, j(1, 6) = 17.0, j(1, 7) = -2.0;
    j(2, 0) = 8.0, j(2, 1) = -2.0, j(2, 8) = -5.0, j(2, 9) = 2.0;
    j(3, 0) = -6.0 * (x[0] - 2.0), j(3, 1) = -8.0 * (x[1] - 3.0), j(3, 2) = -4.0 * x[2];
    j(3, 3) = 7.0;
    j(4, 0) = -10.0 * x[0], j(4, 1) = -8.0, j(4, 2) = -2.0 * (x[2] - 6.0), j(4, 3) = 2.0;
    j(5, 0) = -x[0], j(5, 1) = -4.0 * (x[1] - 4.0), j(5, 4) = -6.0 * x[4], j(5, 5) = 1.0;
    j(6, 0) = -2.0 * x[0] + 2.0 * x[1], j(6, 1) = -4.0 * (x[1] - 2.0) + 2.0 * x[0];
    j(6, 4) = -14.0, j(6, 5) = 6.0;
    j(7, 0) = 3.0, j(7, 1) = -6.0, j(7, 8) = -24.0 * (x[8] - 8.0), j(7, 9) = 7.0;
    return j;
  };
  p.hess = [](const Vec&, double s, const Vec& l) {
    Mat h = Mat::Zero(10, 10);
    AddSym(h, 0, 0, 2.0 * s - 6.0 * l[3] - 10.0 * l[4] - l[5] - 2.0 * l[6]);
    AddSym(h, 0, 1, s + 2.0 * l[6]);
    AddSym(h, 1, 1, 2.0 * s - 8.0 * l[3] - 4.0 * l[5] - 4.0 * l[6]);
    AddSym(h, 2, 2, 2.0 * s - 4.0 * l[3] - 2.0 * l[4]);
    AddSym(h, 3, 3, 8.0 * s);
    AddSym(h, 4, 4, 2.0 * s - 6.0 * l[5]);
    AddSym(h, 5, 5, 4.0 * s);
    AddSym(h, 6, 6, 10.0 * s);
    AddSym(h, 7, 7, 14.0 * s);
    AddSym(h, 8, 8, 4.0 * s - 24.0 * l[7]);
    AddSym(h, 9, 9, 2.0 * s);
    return h;
  };
  p.f_star = 24.306209068180;
  p.x_star = V({2.17199637126, 2.3636829737, 8.77392573848, 5.09598448795, 0.990654764964,
                1.43057397894, 1.32164420816, 9.82872580789, 8.2800916701, 8.37592666392});
  return p;
}

}  // namespace

bool Model::has_bounds_or_inequalities() const {
  for (int i = 0; i < n; ++i)
    if (x_l[i] > -kInf || x_u[i] < kInf) return true;
  for (int j = 0; j < m; ++j)
    if (g_l[j] < g_u[j]) return true;
  return false;
}

std::vector<Model> AllModels() {
  return {Hs004(), Hs005(), Hs006(), Hs007(), Hs008(), Hs009(), Hs010(), Hs012(),
          Hs014(), Hs021(), Hs022(), Hs023(), Hs024(), Hs026(), Hs027(), Hs028(),
          Hs034(), Hs035(), Hs037(), Hs038(), Hs039(), Hs040(), Hs042(), Hs043(),
          Hs046(), Hs048(), Hs049(), Hs050(), Hs051(), Hs052(),
          Hs060(), Hs061(), Hs063(), Hs065(), Hs071(), Hs071Fixed(), Hs076(), Hs077(),
          Hs078(), Hs079(), Hs100(), Hs113()};
}

Model LibraryModel(const std::string& name) {
  for (Model& model : AllModels()) {
    if (model.name == name) return model;
  }
  throw std::invalid_argument("no model " + name + " in the library");
}

}  // namespace qpm_test
