#include "petsc/state_preconditioner.hpp"

#include <petsc/private/taoimpl.h>

#include <algorithm>
#include <cmath>

namespace qpm {
namespace petsc {

bool StatePreconditioner::Available(Tao tao) {
  return tao->ops->computeconstraints && tao->jacobian_state_inv && tao->jacobian_design &&
         tao->state_is && tao->design_is;
}

StatePreconditioner::StatePreconditioner(Tao tao) : tao_(tao) {
  PetscErrorCode code = VecDuplicate(tao->constraints, &s_);
  if (!code) code = VecDuplicate(tao->constraints, &w_);
  if (!code) code = MatCreateVecs(tao->jacobian_design, &t_, nullptr);
  if (!code) code = VecDuplicate(t_, &e_);
  if (!code) code = VecDuplicate(tao->solution, &x_);
  if (!code) code = VecDuplicate(tao->solution, &wx_);
  error_ = code;
}

StatePreconditioner::~StatePreconditioner() {
  for (Vec* v : {&s_, &w_, &t_, &e_, &x_, &wx_}) VecDestroy(v);
}

// s = A^{-T} x_y, t = x_u - B^T s.
PetscErrorCode StatePreconditioner::Transform(Vec x, Vec s, Vec t) {
  Vec part;
  PetscFunctionBeginUser;
  PetscCall(VecGetSubVector(x, tao_->state_is, &part));
  PetscCall(MatMultTranspose(tao_->jacobian_state_inv, part, s));
  PetscCall(VecRestoreSubVector(x, tao_->state_is, &part));
  PetscCall(MatMultTranspose(tao_->jacobian_design, s, t));
  PetscCall(VecGetSubVector(x, tao_->design_is, &part));
  PetscCall(VecAYPX(t, -1.0, part));
  PetscCall(VecRestoreSubVector(x, tao_->design_is, &part));
  PetscFunctionReturn(0);
}

// x_y = A^{-1} (s - B t), x_u = t; x's other entries are left as they are.
PetscErrorCode StatePreconditioner::Back(Vec s, Vec t, Vec x) {
  Vec part;
  PetscFunctionBeginUser;
  PetscCall(MatMult(tao_->jacobian_design, t, w_));
  PetscCall(VecAYPX(w_, -1.0, s));
  PetscCall(VecGetSubVector(x, tao_->state_is, &part));
  PetscCall(MatMult(tao_->jacobian_state_inv, w_, part));
  PetscCall(VecRestoreSubVector(x, tao_->state_is, &part));
  PetscCall(VecGetSubVector(x, tao_->design_is, &part));
  PetscCall(VecCopy(t, part));
  PetscCall(VecRestoreSubVector(x, tao_->design_is, &part));
  PetscFunctionReturn(0);
}

// d = e' Z^T W Z e / e' e along e = (1, ..., 1): x_ = Z e = P (0, e).
PetscErrorCode StatePreconditioner::Update(double beta, const HessianProduct& w) {
  PetscFunctionBeginUser;
  beta_ = beta;
  PetscCall(VecSet(e_, 1.0));
  PetscCall(VecSet(s_, 0.0));
  PetscCall(VecSet(x_, 0.0));
  PetscCall(Back(s_, e_, x_));
  PetscCall(w(x_, wx_));
  PetscCall(Transform(wx_, s_, t_));
  PetscReal curvature, size;
  PetscCall(VecDot(t_, e_, &curvature));
  PetscInt n;
  PetscCall(VecGetSize(e_, &n));
  size = static_cast<PetscReal>(n);
  d_ = curvature / size;
  // Where W is indefinite or zero along e: a small positive curvature.
  const double floor = 1e-8 * std::max(1.0, beta);
  if (!(d_ > floor)) d_ = std::isfinite(d_) && std::abs(d_) > floor ? std::abs(d_) : floor;
  PetscFunctionReturn(0);
}

PetscErrorCode StatePreconditioner::Apply(Vec r, Vec z) {
  PetscFunctionBeginUser;
  PetscCall(Transform(r, s_, t_));
  PetscCall(VecScale(s_, 1.0 / beta_));
  PetscCall(VecScale(t_, 1.0 / d_));
  PetscCall(VecCopy(r, z));  // entries in neither index set: unpreconditioned
  PetscCall(Back(s_, t_, z));
  PetscFunctionReturn(0);
}

}  // namespace petsc
}  // namespace qpm
