// The work vector of a solve's O(n) computations outside the penalty's own
// products, sized once (docs/algorithm.md, "Memory budget": one z-vector
// serves them all, in turn).
//
// Owner: the PenaltyFunction (PenaltyFunction::workspace()), the one object
// that lives for the whole solve and that every borrower already holds.
// Borrowers, each through an explicit Workspace* (never a hidden member):
//   - the trust region's CG, for H d inside a step (TruncatedCg's lent_hd,
//     given at construction, written only during Solve and SolveOnFace);
//   - ViolationStationarity and DualInfeasibilityAtMultipliers
//     (stationarity.hpp), for J_z^T c during the call;
//   - the least-squares multipliers (multipliers.hpp), for CGLS's A y during
//     the call.
// The last two run between inner steps (outer loop, multiplier update, or a
// strategy's test at an accepted inner iterate), never inside a CG step, and
// none of the borrowers calls another, so no two borrows overlap. The contents
// do not outlive the borrowing call. The penalty's own products
// (HessianProduct, FormGradient) keep their own m-vectors and never use it.
#ifndef QPM_CORE_WORKSPACE_HPP_
#define QPM_CORE_WORKSPACE_HPP_

#include "core/linalg/huge_pages.hpp"
#include "qpm/core/problem.hpp"

namespace qpm {

struct Workspace {
  explicit Workspace(int z_size) { SetZeroLarge(&z, z_size); }
  Vector z;  // size of z = (x, s)
};

}  // namespace qpm

#endif  // QPM_CORE_WORKSPACE_HPP_
