#include "petsc/state_design.hpp"

#include <petsc/private/taoimpl.h>

namespace qpm {
namespace petsc {

StateDesignSplit::StateDesignSplit(Tao tao) {
  error_ = Make(tao->solution, tao->state_is, &state_, &to_state_);
  if (!error_) error_ = Make(tao->solution, tao->design_is, &design_, &to_design_);
}

StateDesignSplit::~StateDesignSplit() {
  VecScatterDestroy(&to_state_);
  VecScatterDestroy(&to_design_);
  VecDestroy(&state_);
  VecDestroy(&design_);
}

// `to` holds this process's entries of `part` in its order.
PetscErrorCode StateDesignSplit::Make(Vec x, IS part, Vec* to, VecScatter* scatter) {
  PetscInt local, start;
  IS owned;
  PetscFunctionBeginUser;
  PetscCall(ISGetLocalSize(part, &local));
  PetscCall(VecCreate(PetscObjectComm(reinterpret_cast<PetscObject>(x)), to));
  PetscCall(VecSetSizes(*to, local, PETSC_DETERMINE));
  PetscCall(VecSetFromOptions(*to));
  PetscCall(VecGetOwnershipRange(*to, &start, nullptr));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, local, start, 1, &owned));
  PetscCall(VecScatterCreate(x, part, *to, owned, scatter));
  PetscCall(ISDestroy(&owned));
  PetscFunctionReturn(0);
}

PetscErrorCode StateDesignSplit::Forward(VecScatter s, Vec x, Vec to) {
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(s, x, to, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(s, x, to, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(0);
}

PetscErrorCode StateDesignSplit::Reverse(VecScatter s, Vec from, Vec x, InsertMode mode) {
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(s, from, x, mode, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(s, from, x, mode, SCATTER_REVERSE));
  PetscFunctionReturn(0);
}

}  // namespace petsc
}  // namespace qpm
