// Fixed variables (x_l,i = x_u,i) removed from a Problem once, as Ipopt's
// default fixed_variable_treatment make_parameter (its TNLPAdapter): the
// solver sees only the free variables; the model is always called at the
// full x with each fixed variable at its value; the Jacobian's columns and
// the Hessian's rows and columns of the fixed variables are dropped.
//
// Carried as l = u in the box instead, a fixed variable would be a slack-
// like entry that every projected step, stationarity test and CG face must
// skip, and each product would still pay for its Jacobian column.
//
// Reported as Ipopt reports them: x_i at its value, and bound multipliers
// from the gradient of the Lagrangian at the final x (Ipopt 3.14's
// TNLPAdapter::ResortBoundMultipliers, which evaluates grad f and J again):
//   r_i = (grad f + J^T lambda)_i,  z_L,i = max(0, r_i),  z_U,i = max(0, -r_i),
// so that grad f + J^T lambda - z_L + z_U vanishes on the fixed entries.
#ifndef QPM_CORE_FIXED_VARIABLES_HPP_
#define QPM_CORE_FIXED_VARIABLES_HPP_

#include <vector>

#include "qpm/core/problem.hpp"

namespace qpm {

struct Summary;

class FixedVariables : public Problem {
 public:
  // True when some variable of `problem` has x_l = x_u.
  static bool Any(const Problem& problem);

  explicit FixedVariables(Problem* problem);  // `problem` outlives this

  int num_variables() const override { return static_cast<int>(free_.size()); }
  int num_constraints() const override { return m_; }
  void GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const override;
  void InitJacobian(SparseMatrix* jacobian) const override { *jacobian = jacobian_pattern_; }
  bool EvalObjective(const ConstVectorRef& x, double* f) override;
  bool EvalConstraints(const ConstVectorRef& x, VectorRef g) override;
  bool EvalGradient(const ConstVectorRef& x, VectorRef grad_f) override;
  bool EvalJacobian(const ConstVectorRef& x, SparseMatrixView* jacobian) override;
  void SamePointNext() override { problem_->SamePointNext(); }
  bool has_hessian() const override { return problem_->has_hessian(); }
  void InitHessian(SparseMatrix* hessian) const override { *hessian = hessian_pattern_; }
  bool EvalHessian(const ConstVectorRef& x, double sigma, const ConstVectorRef& lambda,
                   SparseMatrix* hessian) override;

  int num_fixed() const { return static_cast<int>(fixed_.size()); }
  // The free entries of a full x.
  Vector Reduce(const Vector& x) const;
  // A summary of the reduced problem made the full problem's: x with the
  // fixed values, z_L and z_U with the fixed variables' multipliers (one
  // evaluation of grad f and J at x), and start_projected counting the
  // fixed entries x0 did not hold at their value.
  void Expand(const Vector& x0, Summary* summary);

 private:
  void Scatter(const ConstVectorRef& x);  // free entries into full_x_

  Problem* problem_;
  int n_;  // full size
  int m_;
  std::vector<int> free_;   // full index of each free variable
  std::vector<int> fixed_;  // full index of each fixed variable
  Vector full_x_;           // the fixed entries hold their values
  Vector full_grad_;
  Vector x_l_, x_u_;        // full bounds
  SparseMatrix full_jacobian_, jacobian_pattern_;
  SparseMatrix full_hessian_, hessian_pattern_;
  std::vector<int> jacobian_slot_;  // full value index -> reduced index, -1 dropped
  std::vector<int> hessian_slot_;
};

}  // namespace qpm

#endif  // QPM_CORE_FIXED_VARIABLES_HPP_
