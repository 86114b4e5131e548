// Models at the edge of boundedness, for the unboundedness tests and
// bench/unbounded/unbounded.cpp: n = 2, one row x0 - x1 that is free (both bounds
// infinite) or no row at all.
#ifndef QPM_MODELS_UNBOUNDED_MODELS_HPP_
#define QPM_MODELS_UNBOUNDED_MODELS_HPP_

#include <cmath>
#include <string>

#include "model_library.hpp"

namespace qpm_test {

// The frame of the models below: x0 = (1, 2), no bounds, the row if asked.
inline Model TwoVariables(const std::string& name, bool free_row) {
  Model p;
  p.name = name;
  p.n = 2, p.m = free_row ? 1 : 0;
  p.x0 = (Eigen::VectorXd(2) << 1.0, 2.0).finished();
  p.x_l = Eigen::VectorXd::Constant(2, -kInf), p.x_u = Eigen::VectorXd::Constant(2, kInf);
  p.g_l = Eigen::VectorXd::Constant(p.m, -kInf), p.g_u = Eigen::VectorXd::Constant(p.m, kInf);
  p.g = [m = p.m](const Eigen::VectorXd& x) { return Eigen::VectorXd::Constant(m, x[0] - x[1]); };
  p.jac = [m = p.m](const Eigen::VectorXd&) {
    return Eigen::MatrixXd((Eigen::MatrixXd(m, 2) << Eigen::MatrixXd::Constant(m, 1, 1.0),
                            Eigen::MatrixXd::Constant(m, 1, -1.0)).finished());
  };
  return p;
}

// min x0 + x1: unbounded below whatever the (absent or free) row says.
inline Model LinearObjective(bool free_row) {
  Model p = TwoVariables("linear", free_row);
  p.f = [](const Eigen::VectorXd& x) { return x[0] + x[1]; };
  p.grad = [](const Eigen::VectorXd&) { return Eigen::VectorXd::Ones(2); };
  p.hess = [](const Eigen::VectorXd&, double, const Eigen::VectorXd&) {
    return Eigen::MatrixXd::Zero(2, 2).eval();
  };
  return p;
}

// min -x0^2 + 1e-12 x0^4 + x1^2: f falls like a concave quadratic for
// |x0| << 7e5, yet is bounded below: f* = -2.5e11 at x0 = +-707,107.
inline Model FarNonconvexMinimum(bool free_row) {
  Model p = TwoVariables("far nonconvex", free_row);
  p.f = [](const Eigen::VectorXd& x) { return -x[0] * x[0] + 1e-12 * std::pow(x[0], 4) + x[1] * x[1]; };
  p.grad = [](const Eigen::VectorXd& x) {
    return (Eigen::VectorXd(2) << -2 * x[0] + 4e-12 * std::pow(x[0], 3), 2 * x[1]).finished();
  };
  p.hess = [](const Eigen::VectorXd& x, double s, const Eigen::VectorXd&) {
    return (Eigen::MatrixXd(2, 2) << s * (-2 + 12e-12 * x[0] * x[0]), 0, 0, 2 * s).finished();
  };
  p.f_star = -2.5e11;
  return p;
}

// min 1e-7 ||x - (1e7, 1e7)||^2: convex, its minimizer 1.4e7 from x0.
inline Model FarConvexMinimum(bool free_row) {
  Model p = TwoVariables("far convex", free_row);
  p.f = [](const Eigen::VectorXd& x) { return 1e-7 * (x.array() - 1e7).square().sum(); };
  p.grad = [](const Eigen::VectorXd& x) { return (2e-7 * (x.array() - 1e7)).matrix().eval(); };
  p.hess = [](const Eigen::VectorXd&, double s, const Eigen::VectorXd&) {
    return (2e-7 * s * Eigen::MatrixXd::Identity(2, 2)).eval();
  };
  p.f_star = 0.0;
  return p;
}

// min x0 + x1 s.t. x0^2 + x1^2 >= 1: unbounded along a curved feasible set
// whose row multiplier ~ 1 / (2 |x|) makes ||grad Q|| fall like 1 / |x|
// (docs/algorithm.md, "Runaway subproblems": not detected).
inline Model LinearOutsideACircle() {
  Model p;
  p.name = "linear outside a circle";
  p.n = 2, p.m = 1;
  p.x0 = (Eigen::VectorXd(2) << 1.0, 2.0).finished();
  p.x_l = Eigen::VectorXd::Constant(2, -kInf), p.x_u = Eigen::VectorXd::Constant(2, kInf);
  p.g_l = Eigen::VectorXd::Constant(1, 1.0), p.g_u = Eigen::VectorXd::Constant(1, kInf);
  p.f = [](const Eigen::VectorXd& x) { return x[0] + x[1]; };
  p.grad = [](const Eigen::VectorXd&) { return Eigen::VectorXd::Ones(2); };
  p.g = [](const Eigen::VectorXd& x) { return Eigen::VectorXd::Constant(1, x.squaredNorm()); };
  p.jac = [](const Eigen::VectorXd& x) { return Eigen::MatrixXd(2 * x.transpose()); };
  p.hess = [](const Eigen::VectorXd&, double, const Eigen::VectorXd& l) {
    return (2 * l[0] * Eigen::MatrixXd::Identity(2, 2)).eval();
  };
  return p;
}

}  // namespace qpm_test

#endif  // QPM_MODELS_UNBOUNDED_MODELS_HPP_
