// TAO example: bound constraints with a known solution, some bounds active.
//
//   minimize    f(x) = sum_i [ (x_i - t_i)^2 + 0.1 (x_i - t_i)^4 ]   x in R^n (-n, default 100)
//   subject to  0 <= x_i <= 1                                       (TaoSetVariableBounds)
//
// with t_i = 0.5 + 0.75 sin(i + 1), spread over [-0.25, 1.25]. f is separable
// and strictly convex, so the solution is the projection of t onto the box:
//   x*_i = min(max(t_i, 0), 1),
// about 27% of the components on the lower bound and 27% on the upper one.
// The bound multipliers (df/dx_i at x*: > 0 on a lower bound, < 0 on an upper
// one) are not returned by TaoGetDualVariables: lambda_error is n/a.
//
// TAOALMM and TAOPDIPM of PETSc 3.18 refuse problems with bounds only
// ("Equality and/or inequality constraints must be defined before solver
// setup" / "...are not set"). -redundant_ineq adds the inequality constraints
// c_i(x) = x_i + 1 >= 0 (n rows, never active in the box, so their multipliers
// are 0 in any sign convention) to let them run; lambda_error is then max |lambda_i|.
// The constraints are linear: the Hessian of the Lagrangian is that of f.
//
//   mpirun -n 2 ./bounds -tao_type bnls
//   mpirun -n 2 ./bounds -tao_type almm -redundant_ineq
//   mpirun -n 2 ./bounds -tao_type pdipm -redundant_ineq -ksp_type preonly -pc_type cholesky
//          -pc_factor_mat_solver_type mumps
#include <petsctao.h>
#include <cmath>
#include "tao_report.hpp"

struct AppCtx {
  Vec t; // the point projected onto the box
};

static PetscErrorCode FormObjectiveGradient(Tao, Vec X, PetscReal *f, Vec G, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *x, *t;
  PetscScalar       *g;
  PetscReal          mine = 0.0;
  PetscInt           nloc;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(X, &nloc));
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayRead(user->t, &t));
  PetscCall(VecGetArray(G, &g));
  for (PetscInt i = 0; i < nloc; ++i) {
    const PetscReal d = PetscRealPart(x[i] - t[i]);
    mine += d * d + 0.1 * d * d * d * d;
    g[i] = 2.0 * d + 0.4 * d * d * d;
  }
  PetscCall(VecRestoreArray(G, &g));
  PetscCall(VecRestoreArrayRead(user->t, &t));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCallMPI(MPI_Allreduce(&mine, f, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormHessian(Tao, Vec X, Mat H, Mat, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *x, *t;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(X, &lo, &hi));
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayRead(user->t, &t));
  for (PetscInt i = lo; i < hi; ++i) {
    const PetscScalar d = x[i - lo] - t[i - lo];
    PetscCall(MatSetValue(H, i, i, 2.0 + 1.2 * d * d, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(user->t, &t));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormInequality(Tao, Vec X, Vec CI, void *)
{
  PetscFunctionBeginUser;
  PetscCall(VecCopy(X, CI)); // CI is laid out like X (checked in main)
  PetscCall(VecShift(CI, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormInequalityJacobian(Tao, Vec, Mat J, Mat, void *)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(J, &lo, &hi));
  for (PetscInt i = lo; i < hi; ++i) PetscCall(MatSetValue(J, i, i, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  AppCtx       user;
  Tao          tao;
  Vec          x, x_star, xl, xu, ci = NULL, lambda_i = NULL;
  Mat          H, Ji = NULL;
  PetscInt     n = 100, lo, hi;
  PetscBool    redundant = PETSC_FALSE;
  PetscScalar *t, *xs;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "Bound-constrained TAO example with known solution.\n"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-redundant_ineq", &redundant, NULL));
  PetscCheck(n >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n must be positive");
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, n, &x));
  PetscCall(VecDuplicate(x, &x_star));
  PetscCall(VecDuplicate(x, &user.t));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArray(user.t, &t));
  PetscCall(VecGetArray(x_star, &xs));
  for (PetscInt i = lo; i < hi; ++i) {
    t[i - lo]  = 0.5 + 0.75 * std::sin((double)(i + 1));
    xs[i - lo] = PetscMin(PetscMax(PetscRealPart(t[i - lo]), 0.0), 1.0);
  }
  PetscCall(VecRestoreArray(x_star, &xs));
  PetscCall(VecRestoreArray(user.t, &t));
  PetscCall(VecSet(x, 0.5)); // start in the middle of the box
  PetscCall(VecDuplicate(x, &xl));
  PetscCall(VecDuplicate(x, &xu));
  PetscCall(VecSet(xl, 0.0));
  PetscCall(VecSet(xu, 1.0));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, hi - lo, hi - lo, n, n, 1, NULL, 0, NULL, &H));

  PetscCall(TaoCreate(PETSC_COMM_WORLD, &tao));
  PetscCall(TaoSetType(tao, TAOBNLS)); // default; -tao_type overrides
  PetscCall(TaoSetSolution(tao, x));
  PetscCall(TaoSetVariableBounds(tao, xl, xu));
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, FormObjectiveGradient, &user));
  PetscCall(TaoSetHessian(tao, H, H, FormHessian, &user));
  if (redundant) {
    PetscInt clo, chi;
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, n, &ci));
    PetscCall(VecGetOwnershipRange(ci, &clo, &chi));
    PetscCheck(clo == lo && chi == hi, PETSC_COMM_SELF, PETSC_ERR_PLIB, "inequality rows are not laid out like x");
    PetscCall(VecDuplicate(ci, &lambda_i));
    PetscCall(VecSet(lambda_i, 0.0));
    PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, hi - lo, hi - lo, n, n, 1, NULL, 0, NULL, &Ji));
    PetscCall(TaoSetInequalityConstraintsRoutine(tao, ci, FormInequality, &user));
    PetscCall(TaoSetJacobianInequalityRoutine(tao, Ji, Ji, FormInequalityJacobian, &user));
  }
  PetscCall(TaoSetFromOptions(tao));
  PetscCall(TaoSolve(tao));
  PetscCall(Report(tao, x_star, NULL, lambda_i));

  PetscCall(TaoDestroy(&tao));
  PetscCall(MatDestroy(&H));
  PetscCall(MatDestroy(&Ji));
  PetscCall(VecDestroy(&ci));
  PetscCall(VecDestroy(&lambda_i));
  PetscCall(VecDestroy(&xl));
  PetscCall(VecDestroy(&xu));
  PetscCall(VecDestroy(&user.t));
  PetscCall(VecDestroy(&x_star));
  PetscCall(VecDestroy(&x));
  PetscCall(PetscFinalize());
  return 0;
}
