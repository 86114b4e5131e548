#include "qpm/penalty.hpp"

#include <algorithm>

namespace qpm {

void CopyIterate(const Iterate& from, Iterate* to) {
  to->x = from.x;
  to->f = from.f;
  to->c = from.c;
  to->c_squared = from.c_squared;
  to->grad_f = from.grad_f;
  // Same pattern: copy the values only, keeping `to`'s storage.
  std::copy_n(from.jacobian.valuePtr(), from.jacobian.nonZeros(),
              to->jacobian.valuePtr());
  to->grad_q = from.grad_q;
  to->grad_q_norm = from.grad_q_norm;
}

PenaltyFunction::PenaltyFunction(Problem* problem)
    : problem_(problem),
      n_(problem->num_variables()),
      m_(problem->num_constraints()) {
  if (problem_->has_hessian()) {
    problem_->InitHessian(&hessian_);
    hessian_.makeCompressed();
    hessian_diag_.setZero(n_);
  }
  lambda_.setZero(m_);
  jv_.setZero(m_);
}

void PenaltyFunction::Allocate(Iterate* it) const {
  it->x.setZero(n_);
  it->c.setZero(m_);
  it->grad_f.setZero(n_);
  it->grad_q.setZero(n_);
  problem_->InitJacobian(&it->jacobian);
  it->jacobian.makeCompressed();
}

bool PenaltyFunction::EvaluateValues(Iterate* it) {
  ++counts_.q_evals;
  if (!problem_->EvalObjective(it->x, &it->f)) return false;
  if (!problem_->EvalConstraints(it->x, it->c)) return false;
  it->c_squared = it->c.squaredNorm();
  return std::isfinite(it->f) && std::isfinite(it->c_squared);
}

bool PenaltyFunction::EvaluateDerivatives(Iterate* it) {
  ++counts_.grad_evals;
  if (!problem_->EvalGradient(it->x, it->grad_f)) return false;
  if (!problem_->EvalJacobian(it->x, &it->jacobian)) return false;
  FormGradient(it);
  return std::isfinite(it->grad_q_norm);
}

void PenaltyFunction::FormGradient(Iterate* it) const {
  it->grad_q = it->grad_f;
  it->grad_q.noalias() += beta_ * (it->jacobian.transpose() * it->c);
  it->grad_q_norm = it->grad_q.norm();
}

bool PenaltyFunction::EvaluateHessian(const Iterate& it) {
  ++counts_.hess_evals;
  lambda_ = beta_ * it.c;
  if (!problem_->EvalHessian(it.x, 1.0, lambda_, &hessian_)) return false;
  hessian_diag_ = hessian_.diagonal();
  return std::isfinite(hessian_diag_.sum()) &&
         std::isfinite(Eigen::Map<const Vector>(hessian_.valuePtr(), hessian_.nonZeros()).sum());
}

void PenaltyFunction::HessianProduct(const Iterate& it, const Vector& v, Vector* out) {
  out->noalias() = hessian_ * v;                 // L v
  out->noalias() += hessian_.transpose() * v;    // + L^T v
  *out -= hessian_diag_.cwiseProduct(v);         // diagonal counted once
  jv_.noalias() = it.jacobian * v;
  out->noalias() += beta_ * (it.jacobian.transpose() * jv_);
}

}  // namespace qpm
