// The merit the inner solvers minimize over the box of z = (x, s)
// (penalty.hpp; docs/algorithm.md, "The default mode"):
//
//   Q_beta(z) = f(x) + beta/2 ||c(z)||^2                     (the paper's mode)
//   L_A(z)    = f(x) + lambda' c(z) + beta/2 ||c(z)||^2      (with multipliers)
//   grad L_A  = (grad f + J^T y, -y_I),  y = lambda + beta c,
//
// i.e. J_z^T (beta c) or J_z^T y added to (grad f, 0). Without multipliers
// none of the lambda terms is computed and Q is the paper's, to the last bit.
// The values are Iterate::Q(beta()); this type forms c, lambda' c and
// grad Q of an iterate and holds beta and lambda.
#ifndef QPM_CORE_MERIT_HPP_
#define QPM_CORE_MERIT_HPP_

#include "core/iterate.hpp"
#include "core/jz_operator.hpp"
#include "core/slack_layout.hpp"

namespace qpm {

class MeritFunction {
 public:
  MeritFunction(const SlackLayout& layout, const JzOperator& jz) : layout_(layout), jz_(jz) {}

  double beta() const { return beta_; }
  void set_beta(double beta) { beta_ = beta; }
  // The norm of Iterate::grad_q_norm, the stationarity the inner solvers test:
  // the paper's 2-norm, or (default mode) the max-norm of Ipopt's test, so
  // that a subproblem does not chase a 2-norm that sums the rounding noise of
  // n entries (docs/algorithm.md, "The default mode").
  void set_max_norm_stationarity(bool max_norm) { max_norm_ = max_norm; }

  // Multiplier estimates lambda (size m, Ipopt's sign): the merit becomes the
  // augmented Lagrangian. Cached iterates need Refresh() afterwards.
  void SetMultipliers(const Vector& lambda);
  bool has_multipliers() const { return has_multipliers_; }
  const Vector& multipliers() const { return multipliers_; }
  // y = lambda + beta c(z): the Lagrange multipliers the merit's gradient uses.
  void FirstOrderMultipliers(const Iterate& it, Vector* y) const;

  // c, ||c||^2 and lambda' c from the cached g and slacks.
  void UpdateResidual(Iterate* it) const;
  // Sets each slack to g_j(x) projected on [g_l,j, g_u,j] (c_I = 0 when
  // possible) and refreshes c; used at the start point.
  void FitSlacks(Iterate* it) const;
  // grad Q and the stationarity for the current beta from the cached values.
  void FormGradient(Iterate* it);
  // Recomputes lambda' c and grad Q of a cached iterate for new lambda or beta.
  void Refresh(Iterate* it);

 private:
  const SlackLayout& layout_;
  const JzOperator& jz_;
  double beta_ = 1.0;
  Vector multipliers_;  // lambda of the augmented Lagrangian (empty without)
  bool has_multipliers_ = false;
  bool max_norm_ = false;
  Vector shifted_;  // y = lambda + beta c: FormGradient's own m-vector
};

}  // namespace qpm

#endif  // QPM_CORE_MERIT_HPP_
