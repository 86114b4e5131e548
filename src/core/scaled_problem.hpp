// Ipopt's gradient-based NLP scaling (nlp_scaling_method gradient-based,
// IPOPT-NOTES.md "Scaling") as a Problem wrapping another one.
//
// Factors are fixed once at the start point x0 (Compute):
//   s_f  = max(min_value, min(1, max_gradient / ||grad f(x0)||_inf)),
//   df   = obj_scaling * s_f,
//   dc_j = max(min_value, min(1, max_gradient / ||row j of J(x0)||_inf)),
// a zero gradient or row giving 1. Like Ipopt, obj_scaling multiplies after
// the floor, so it may be negative (maximize) or large; it must not be 0.
// The wrapper then presents
//   f~ = df f,  grad f~ = df grad f,  g~ = dc .* g,  J~ = diag(dc) J,
//   g~_l = dc .* g_l,  g~_u = dc .* g_u  (dc > 0: infinite stays infinite,
//   the row's sense is kept),  x bounds unchanged,
//   W~(x, sigma, lambda~) = W(x, sigma df, dc .* lambda~).
// Variables are not scaled (Ipopt's gradient-based method leaves dx = 1).
//
// Results map back through the Lagrangians: df f + lambda~' (dc .* g)
// = df (f + lambda' g) with lambda = dc .* lambda~ / df, and z = z~ / df for
// the bound multipliers; with df < 0 their signs flip, as Ipopt's do.
//
// Before Compute (or with gradient_based = false) the factors are the
// unscaled ones: df = obj_scaling, dc = 1. The wrapped problem is not owned
// and must outlive the wrapper; an evaluation failure of the wrapped problem
// is returned as is (outputs then unspecified).
#ifndef QPM_CORE_SCALED_PROBLEM_HPP_
#define QPM_CORE_SCALED_PROBLEM_HPP_

#include "qpm/core/options.hpp"
#include "qpm/core/problem.hpp"

namespace qpm {


class ScaledProblem : public Problem {
 public:
  // Allocates the work vectors; evaluates nothing.
  explicit ScaledProblem(Problem* problem, const ScalingOptions& options = ScalingOptions());

  // Sets the factors from grad f(x0) and J(x0): one gradient and one Jacobian
  // evaluation of the wrapped problem (none when !gradient_based; no Jacobian
  // when m = 0). Returns false when either fails or has a non-finite entry;
  // what could not be computed then stays unscaled (s_f = 1, or dc_j = 1 for
  // the rows concerned, as Ipopt does after a failed evaluation at x0).
  bool Compute(const ConstVectorRef& x0);

  double objective_factor() const { return df_; }
  const Vector& constraint_factors() const { return dc_; }
  const ScalingOptions& options() const { return options_; }
  Problem* wrapped() const { return problem_; }

  int num_variables() const override { return n_; }
  int num_constraints() const override { return m_; }
  void GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const override;
  bool AnyVariableBound() const override { return problem_->AnyVariableBound(); }
  // From J(x0)'s matrix while it is held, so that the wrapped problem is
  // asked for J's pattern once (TnlpProblem hands it over on the first call).
  void InitJacobian(SparseMatrix* jacobian) const override;
  bool EvalObjective(const ConstVectorRef& x, double* f) override;
  bool EvalConstraints(const ConstVectorRef& x, VectorRef g) override;
  bool EvalGradient(const ConstVectorRef& x, VectorRef grad_f) override;
  bool EvalJacobian(const ConstVectorRef& x, SparseMatrixView* jacobian) override;
  // Kept, and handed on only to the next call that reaches the wrapped
  // problem: one served from the start's copies leaves no promise pending there.
  void SamePointNext() override { same_point_next_ = true; }
  bool has_hessian() const override { return problem_->has_hessian(); }
  void InitHessian(SparseMatrix* hessian) const override { problem_->InitHessian(hessian); }
  bool EvalHessian(const ConstVectorRef& x, double sigma, const ConstVectorRef& lambda,
                   SparseMatrix* hessian) override;

  // Scaled -> unscaled results (sizes m, m, n). Output may alias input.
  double UnscaleObjective(double f_scaled) const { return f_scaled / df_; }
  void UnscaleConstraints(const ConstVectorRef& g_scaled, VectorRef g) const;      // g~ ./ dc
  void UnscaleMultipliers(const ConstVectorRef& lambda_scaled, VectorRef lambda) const;  // dc .* lambda~ / df
  void UnscaleBoundMultipliers(const ConstVectorRef& z_scaled, VectorRef z) const;  // z~ / df
  // Unscaled -> scaled multipliers (a warm start): lambda~ = df lambda ./ dc.
  void ScaleMultipliers(const ConstVectorRef& lambda, VectorRef lambda_scaled) const;

 private:
  bool ComputeObjectiveFactor(const ConstVectorRef& x0);
  bool ComputeConstraintFactors(const ConstVectorRef& x0);
  double Factor(double amax) const;

  Problem* problem_;
  ScalingOptions options_;
  int n_, m_;
  double df_;
  Vector dc_;
  Vector lambda_work_;    // dc .* lambda~ for the wrapped Hessian (size m)
  // grad f(x0) and J(x0) from Compute serve the solver's first EvalGradient
  // and EvalJacobian at x0 (the start's evaluation), then are released: one
  // callback pair fewer, and no copy of J kept for the solve.
  bool AtStart(const ConstVectorRef& x, bool held) const;
  void ReleaseIfUsed();
  void ReleaseStart();

  Vector x0_;             // where grad_work_ and jacobian_work_ were evaluated
  Vector grad_work_;      // grad f(x0), unscaled, while gradient_held_
  SparseMatrix jacobian_work_;  // J(x0), unscaled, while jacobian_held_
  bool gradient_held_ = false, jacobian_held_ = false;
  bool same_point_next_ = false;
  // The wrapped problem, told SamePointNext first when the caller promised it.
  Problem* Wrapped();
};

}  // namespace qpm

#endif  // QPM_CORE_SCALED_PROBLEM_HPP_
