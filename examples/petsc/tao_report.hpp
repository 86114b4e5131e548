// Code shared by the TAO examples in this folder.
//
// Report(), called after TaoSolve, prints on rank 0, one item per line:
//   reason <TaoConvergedReasons string>
//   iterations <N>
//   f <objective at the returned x, %.10g>
//   x <x_0 ... x_{n-1}>                          (only when n <= 10)
//   x_error <max_i |x_i - x*_i|, %.3e>
//   lambda_eq <...>  lambda_ineq <...>           (when the solver returns them, <= 10 entries)
//   lambda_error <max-norm error of all multipliers, %.3e>   or   lambda_error n/a
//
// The multipliers are those of TaoGetDualVariables. The known ones are written
// in the convention of TAOPDIPM and of TAOALMM's default (PHR) formulation:
//   L(x, lambda_e, lambda_i) = f(x) + lambda_e^T c_e(x) - lambda_i^T c_i(x),
//   c_i(x) >= 0, lambda_i >= 0,
// so grad f + J_e^T lambda_e - J_i^T lambda_i = 0 at the solution (TAOALMM's
// classic formulation has lambda_i <= 0 instead: L = f + lambda_e^T c_e + lambda_i^T c_i).
// lambda_error is n/a when the solver returns no dual vector for a constraint
// kind the problem has: TAOALMM of PETSc 3.18 never sets them (its multipliers
// are in TaoALMMGetMultipliers), bound-constrained solvers have none. A dual
// vector of the wrong length gives lambda_error = PETSC_INFINITY (4.494e+307).
#ifndef EXAMPLES_PETSC_TAO_REPORT_HPP_
#define EXAMPLES_PETSC_TAO_REPORT_HPP_

#include <petsctao.h>

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

// Declares every component of x free with infinite bounds. TAOPDIPM of PETSc
// 3.18 reads the bound vectors unconditionally and crashes when none are set.
inline PetscErrorCode SetInfiniteBounds(Tao tao, Vec x)
{
  Vec xl, xu;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &xl));
  PetscCall(VecDuplicate(x, &xu));
  PetscCall(VecSet(xl, PETSC_NINFINITY));
  PetscCall(VecSet(xu, PETSC_INFINITY));
  PetscCall(TaoSetVariableBounds(tao, xl, xu)); // Tao keeps its own references
  PetscCall(VecDestroy(&xl));
  PetscCall(VecDestroy(&xu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Copies v onto rank 0 (*seq has length 0 on the other ranks).
inline PetscErrorCode GatherToZero(Vec v, Vec *seq)
{
  VecScatter scatter;

  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToZero(v, &scatter, seq));
  PetscCall(VecScatterBegin(scatter, v, *seq, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(scatter, v, *seq, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterDestroy(&scatter));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// *err = max_i |v_i - ref_i| on every rank (infinite if the sizes differ);
// prints "<name> v_0 ... v_{n-1}" when n <= 10. v and ref may be laid out
// differently over the ranks.
inline PetscErrorCode CompareAndPrint(const char *name, Vec v, Vec ref, PetscReal *err)
{
  Vec                vs, rs;
  PetscInt           n, nref;
  const PetscScalar *a, *b;
  PetscMPIInt        rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(VecGetSize(v, &n));
  PetscCall(VecGetSize(ref, &nref));
  PetscCall(GatherToZero(v, &vs));
  PetscCall(GatherToZero(ref, &rs));
  *err = 0.0;
  if (rank == 0) {
    PetscCall(VecGetArrayRead(vs, &a));
    PetscCall(VecGetArrayRead(rs, &b));
    if (n != nref) *err = PETSC_INFINITY;
    for (PetscInt i = 0; i < n && i < nref; ++i) *err = PetscMax(*err, PetscAbsScalar(a[i] - b[i]));
    if (n <= 10) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s", name));
      for (PetscInt i = 0; i < n; ++i) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %.10g", (double)PetscRealPart(a[i])));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
    }
    PetscCall(VecRestoreArrayRead(vs, &a));
    PetscCall(VecRestoreArrayRead(rs, &b));
  }
  PetscCallMPI(MPI_Bcast(err, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCall(VecDestroy(&vs));
  PetscCall(VecDestroy(&rs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Prints the result block. x_star: the known solution; lambda_e_star,
// lambda_i_star: the known multipliers, NULL when the problem has no such
// constraints.
inline PetscErrorCode Report(Tao tao, Vec x_star, Vec lambda_e_star, Vec lambda_i_star)
{
  TaoConvergedReason reason;
  PetscInt           its;
  PetscReal          f, x_err, e_err = 0.0, i_err = 0.0;
  Vec                x, de = NULL, di = NULL;
  PetscBool          have = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(TaoGetConvergedReason(tao, &reason));
  PetscCall(TaoGetIterationNumber(tao, &its));
  PetscCall(TaoGetSolution(tao, &x));
  PetscCall(TaoComputeObjective(tao, x, &f));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reason %s\niterations %" PetscInt_FMT "\nf %.10g\n", TaoConvergedReasons[reason], its, (double)f));
  PetscCall(CompareAndPrint("x", x, x_star, &x_err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "x_error %.3e\n", (double)x_err));
  PetscCall(TaoGetDualVariables(tao, &de, &di));
  if (lambda_e_star) {
    if (de) PetscCall(CompareAndPrint("lambda_eq", de, lambda_e_star, &e_err));
    else have = PETSC_FALSE;
  }
  if (lambda_i_star) {
    if (di) PetscCall(CompareAndPrint("lambda_ineq", di, lambda_i_star, &i_err));
    else have = PETSC_FALSE;
  }
  if (have && (lambda_e_star || lambda_i_star)) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "lambda_error %.3e\n", (double)PetscMax(e_err, i_err)));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "lambda_error n/a\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif // EXAMPLES_PETSC_TAO_REPORT_HPP_
