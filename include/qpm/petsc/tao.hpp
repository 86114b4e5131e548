// qpm as a PETSc/TAO solver type (docs/petsc.md). Linked into a program,
// QpmTaoRegister() after PetscInitialize makes `-tao_type qpm` (or
// TaoSetType(tao, "qpm")) available; loaded at run time into an unchanged
// PETSc program with `-dll_append /path/libqpm_petsc.so`, PETSc registers it
// itself (PetscDLLibraryRegister_qpm_petsc).
#ifndef QPM_PETSC_TAO_HPP_
#define QPM_PETSC_TAO_HPP_

#include <petsctao.h>

// The TAO type name.
#define TAOQPM "qpm"

PETSC_EXTERN PetscErrorCode QpmTaoRegister(void);
// TAO's constructor of the type (what TaoRegister is given).
PETSC_EXTERN PetscErrorCode TaoCreate_QPM(Tao tao);

#endif  // QPM_PETSC_TAO_HPP_
