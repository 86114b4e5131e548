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

StatePreconditioner::StatePreconditioner(Tao tao, const StateDesignSplit* split)
    : tao_(tao), split_(*split) {
  PetscErrorCode code = VecDuplicate(tao->constraints, &s_);
  if (!code) code = VecDuplicate(tao->constraints, &w_);
  if (!code) code = VecDuplicate(split->design(), &t_);
  if (!code) code = VecDuplicate(split->design(), &e_);
  if (!code) code = VecDuplicate(split->design(), &yd_);
  if (!code) code = VecDuplicate(split->state(), &ys_);
  if (!code) code = VecDuplicate(tao->solution, &x_);
  if (!code) code = VecDuplicate(tao->solution, &wx_);
  error_ = code;
}

StatePreconditioner::~StatePreconditioner() {
  for (Vec* v : {&s_, &w_, &t_, &e_, &ys_, &yd_, &x_, &wx_}) VecDestroy(v);
}

// s = A^{-T} x_y, t = x_u - B^T s.
PetscErrorCode StatePreconditioner::Transform(Vec x, Vec s, Vec t) {
  PetscFunctionBeginUser;
  PetscCall(split_.GetState(x, ys_));
  PetscCall(MatMultTranspose(tao_->jacobian_state_inv, ys_, s));
  PetscCall(MatMultTranspose(tao_->jacobian_design, s, t));
  PetscCall(split_.GetDesign(x, yd_));
  PetscCall(VecAYPX(t, -1.0, yd_));
  PetscFunctionReturn(0);
}

// x_y = A^{-1} (s - B t), x_u = t; x's other entries are left as they are.
PetscErrorCode StatePreconditioner::Back(Vec s, Vec t, Vec x) {
  PetscFunctionBeginUser;
  PetscCall(MatMult(tao_->jacobian_design, t, w_));
  PetscCall(VecAYPX(w_, -1.0, s));
  PetscCall(MatMult(tao_->jacobian_state_inv, w_, ys_));
  PetscCall(split_.SetState(ys_, x));
  PetscCall(split_.SetDesign(t, x));
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
