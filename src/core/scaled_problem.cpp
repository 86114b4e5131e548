#include "core/scaled_problem.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/linalg/huge_pages.hpp"

namespace qpm {

ScaledProblem::ScaledProblem(Problem* problem, const ScalingOptions& options)
    : problem_(problem),
      options_(options),
      n_(problem->num_variables()),
      m_(problem->num_constraints()),
      df_(options.obj_scaling),
      dc_(Vector::Ones(m_)),
      lambda_work_(m_) {}

bool ScaledProblem::Compute(const ConstVectorRef& x0) {
  df_ = options_.obj_scaling;
  dc_.setOnes();
  if (!options_.gradient_based) return true;
  // Both parts are attempted even if the first fails: Ipopt scales what it
  // could evaluate.
  SetZeroLarge(&x0_, x0.size());
  x0_ = x0;
  const bool objective_ok = ComputeObjectiveFactor(x0);
  const bool constraints_ok = ComputeConstraintFactors(x0);
  gradient_held_ = objective_ok, jacobian_held_ = constraints_ok && m_ > 0;
  ReleaseIfUsed();
  return objective_ok && constraints_ok;
}

bool ScaledProblem::AtStart(const ConstVectorRef& x, bool held) const {
  return held && x.size() == x0_.size() && x == x0_;
}

void ScaledProblem::ReleaseIfUsed() {
  if (!gradient_held_ && !jacobian_held_ && x0_.size() > 0) ReleaseStart();
}

void ScaledProblem::ReleaseStart() {
  gradient_held_ = jacobian_held_ = false;
  x0_ = Vector();
  grad_work_ = Vector();
  SparseMatrix().swap(jacobian_work_);  // assigning keeps the capacity
}

// Ipopt's rule: shrink so that the largest entry is at most max_gradient,
// never enlarge, never below min_value. A zero gradient (amax = 0) gives 1.
double ScaledProblem::Factor(double amax) const {
  const double factor = amax > options_.max_gradient ? options_.max_gradient / amax : 1.0;
  return std::max(options_.min_value, factor);
}

bool ScaledProblem::ComputeObjectiveFactor(const ConstVectorRef& x0) {
  SetZeroLarge(&grad_work_, n_);
  if (!problem_->EvalGradient(x0, grad_work_) || !grad_work_.allFinite()) return false;
  const double amax = n_ > 0 ? grad_work_.lpNorm<Eigen::Infinity>() : 0.0;
  df_ = options_.obj_scaling * Factor(amax);  // obj_scaling on top of the floor
  return true;
}

void ScaledProblem::InitJacobian(SparseMatrix* jacobian) const {
  if (m_ > 0 && jacobian_work_.rows() == m_) {
    CopyLarge(jacobian_work_, jacobian);
  } else {
    problem_->InitJacobian(jacobian);
  }
}

bool ScaledProblem::ComputeConstraintFactors(const ConstVectorRef& x0) {
  if (m_ == 0) return true;  // nothing to scale: skip the Jacobian callback
  if (jacobian_work_.rows() != m_) {
    problem_->InitJacobian(&jacobian_work_);
    jacobian_work_.makeCompressed();
  }
  SparseMatrixView work = ViewOf(jacobian_work_);
  if (!problem_->EvalJacobian(x0, &work)) return false;
  bool finite = true;
  for (int j = 0; j < m_; ++j) {
    double amax = 0.0;
    bool row_finite = true;
    for (SparseMatrix::InnerIterator it(jacobian_work_, j); it; ++it) {
      row_finite = row_finite && std::isfinite(it.value());
      amax = std::max(amax, std::abs(it.value()));
    }
    // A row with inf/NaN entries cannot be measured: left unscaled.
    dc_[j] = row_finite ? Factor(amax) : 1.0;
    finite = finite && row_finite;
  }
  return finite;
}

void ScaledProblem::GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const {
  problem_->GetBounds(x_l, x_u, g_l, g_u);
  // dc > 0, so +-inf * dc stays +-inf and g_l <= g_u is preserved.
  g_l.array() *= dc_.array();
  g_u.array() *= dc_.array();
}

Problem* ScaledProblem::Wrapped() {
  if (std::exchange(same_point_next_, false)) problem_->SamePointNext();
  return problem_;
}

bool ScaledProblem::EvalObjective(const ConstVectorRef& x, double* f) {
  if (!Wrapped()->EvalObjective(x, f)) return false;
  *f *= df_;
  return true;
}

bool ScaledProblem::EvalConstraints(const ConstVectorRef& x, VectorRef g) {
  if (!Wrapped()->EvalConstraints(x, g)) return false;
  g.array() *= dc_.array();
  return true;
}

bool ScaledProblem::EvalGradient(const ConstVectorRef& x, VectorRef grad_f) {
  const bool serve = AtStart(x, gradient_held_);
  gradient_held_ = false;
  if (serve) grad_f = grad_work_, same_point_next_ = false;
  const bool ok = serve || Wrapped()->EvalGradient(x, grad_f);
  ReleaseIfUsed();
  if (!ok) return false;
  grad_f *= df_;
  return true;
}

bool ScaledProblem::EvalJacobian(const ConstVectorRef& x, SparseMatrixView* jacobian) {
  const bool serve =
      AtStart(x, jacobian_held_) && jacobian->nonZeros() == jacobian_work_.nonZeros();
  jacobian_held_ = false;
  if (serve) {
    std::copy_n(jacobian_work_.valuePtr(), jacobian_work_.nonZeros(), jacobian->valuePtr());
    same_point_next_ = false;
  }
  const bool ok = serve || Wrapped()->EvalJacobian(x, jacobian);
  ReleaseIfUsed();
  if (!ok) return false;
  // Row-major: row j's values are contiguous, scaled in place.
  for (int j = 0; j < m_; ++j) {
    for (SparseMatrixView::InnerIterator it(*jacobian, j); it; ++it) it.valueRef() *= dc_[j];
  }
  return true;
}

// sigma Hess f~ + sum lambda~_j Hess g~_j = (sigma df) Hess f + sum (dc_j lambda~_j) Hess g_j.
bool ScaledProblem::EvalHessian(const ConstVectorRef& x, double sigma, const ConstVectorRef& lambda,
                                SparseMatrix* hessian) {
  lambda_work_.array() = dc_.array() * lambda.array();
  return Wrapped()->EvalHessian(x, sigma * df_, lambda_work_, hessian);
}

void ScaledProblem::UnscaleConstraints(const ConstVectorRef& g_scaled, VectorRef g) const {
  g.array() = g_scaled.array() / dc_.array();
}

void ScaledProblem::UnscaleMultipliers(const ConstVectorRef& lambda_scaled, VectorRef lambda) const {
  lambda.array() = dc_.array() * lambda_scaled.array() / df_;
}

void ScaledProblem::UnscaleBoundMultipliers(const ConstVectorRef& z_scaled, VectorRef z) const {
  z = z_scaled / df_;
}

void ScaledProblem::ScaleMultipliers(const ConstVectorRef& lambda, VectorRef lambda_scaled) const {
  lambda_scaled.array() = df_ * lambda.array() / dc_.array();
}

}  // namespace qpm
