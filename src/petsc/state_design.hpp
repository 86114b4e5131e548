// x's state and design entries (TaoSetStateDesignIS) as Vecs of their own,
// laid out as TAOLCL lays them out: each process holds as many entries as
// its part of each index set lists (the sets may be on PETSC_COMM_SELF, as
// in PETSc's own PDE programs). Scatters between x and them.
#ifndef QPM_PETSC_STATE_DESIGN_HPP_
#define QPM_PETSC_STATE_DESIGN_HPP_

#include <petsctao.h>

namespace qpm {
namespace petsc {

class StateDesignSplit {
 public:
  explicit StateDesignSplit(Tao tao);
  ~StateDesignSplit();
  StateDesignSplit(const StateDesignSplit&) = delete;
  StateDesignSplit& operator=(const StateDesignSplit&) = delete;

  PetscErrorCode error() const { return error_; }
  // Work vectors of each layout, for the callers' products.
  Vec state() const { return state_; }
  Vec design() const { return design_; }
  // x's state (design) entries into `to`, of state()'s (design()'s) layout.
  PetscErrorCode GetState(Vec x, Vec to) const { return Forward(to_state_, x, to); }
  PetscErrorCode GetDesign(Vec x, Vec to) const { return Forward(to_design_, x, to); }
  // `from` into (ADD_VALUES: added to) x's state (design) entries; x's
  // other entries unchanged.
  PetscErrorCode SetState(Vec from, Vec x, InsertMode mode = INSERT_VALUES) const {
    return Reverse(to_state_, from, x, mode);
  }
  PetscErrorCode SetDesign(Vec from, Vec x, InsertMode mode = INSERT_VALUES) const {
    return Reverse(to_design_, from, x, mode);
  }

 private:
  static PetscErrorCode Make(Vec x, IS part, Vec* to, VecScatter* scatter);
  static PetscErrorCode Forward(VecScatter s, Vec x, Vec to);
  static PetscErrorCode Reverse(VecScatter s, Vec from, Vec x, InsertMode mode);

  PetscErrorCode error_ = 0;
  Vec state_ = nullptr, design_ = nullptr;
  VecScatter to_state_ = nullptr, to_design_ = nullptr;
};

}  // namespace petsc
}  // namespace qpm

#endif  // QPM_PETSC_STATE_DESIGN_HPP_
