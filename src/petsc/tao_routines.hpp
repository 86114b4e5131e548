// What a Tao holds and qpm does not read (docs/petsc.md, "What qpm reads
// from TAO"): TaoSetUp_QPM refuses such a problem with an error naming the
// routine, never a solve that leaves out part of the problem.
#ifndef QPM_PETSC_TAO_ROUTINES_HPP_
#define QPM_PETSC_TAO_ROUTINES_HPP_

#include <petsctao.h>

#include <string>

namespace qpm {
namespace petsc {

// Empty when qpm reads every part of the problem `tao` holds; otherwise a
// message that names the first routine it cannot serve and why.
std::string UnreadRoutine(Tao tao);

// The Tao gives its equality rows through TaoSetConstraintsRoutine with
// the Jacobian as state and design blocks (TAOLCL's form).
bool HasStateDesignConstraints(Tao tao);

}  // namespace petsc
}  // namespace qpm

#endif  // QPM_PETSC_TAO_ROUTINES_HPP_
