// TAO example: an equality and a nonlinear inequality constraint, both active.
//
//   minimize    f(x) = 1/2 ||x - a||^2                  x in R^n, n >= 2 (-n, default 4)
//   subject to  c_e(x) = sum_k x_k = 0                          (1 row)
//               c_i(x) = [ r^2 - ||x||^2             ] >= 0     (row 0: a ball)
//                        [ x_k - x_{k-1}, k = 1..n-1 ] >= 0     (rows 1..n-1: ordering)
//
// xi_k = (2k - n + 1)/(n - 1) (n points from -1 to 1, sum 0), a = 2 xi - 1,
// r^2 = ||xi||^2 = n(n+1)/(3(n-1)). Convex. Known solution: x* = xi (a on the
// hyperplane is 2 xi, the ball halves it), f* = (n + r^2)/2; c_e and the ball
// are active, the ordering rows are not. Known multipliers in the convention of
// TAOPDIPM and TAOALMM (PHR): L = f + lambda_e c_e - lambda_i^T c_i, lambda_i >= 0,
//   lambda_e = -1, lambda_i = (1/2, 0, ..., 0)
// (grad f + lambda_e 1 - lambda_i,0 (-2 xi) = (1 - xi) - 1 + xi = 0);
// in the convention L = f - y c_e - z^T c_i: y = +1, z = (1/2, 0, ..., 0).
//
// Hessian: as in TAO's src/tao/constrained/tutorials/ex1.c, the Hessian of L
// above, multipliers from TaoGetDualVariables: (1 + 2 lambda_i,0) I (I without
// dual vectors). TAOPDIPM needs it; TAOALMM never calls it.
//
//   mpirun -n 2 ./eq_ineq -n 8 -tao_type almm
//   mpirun -n 2 ./eq_ineq -n 8 -tao_type pdipm -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type mumps
#include <petscdmda.h>
#include <vector>
#include "tao_report.hpp"

struct AppCtx {
  DM        da; // layout of x; stencil width 1 gives x_{k-1} to the ordering rows
  Vec       a;  // the point projected
  PetscReal r2; // squared radius of the ball
};

static PetscErrorCode FormObjectiveGradient(Tao, Vec X, PetscReal *f, Vec G, void *ctx)
{
  AppCtx   *user = (AppCtx *)ctx;
  PetscReal nrm;

  PetscFunctionBeginUser;
  PetscCall(VecWAXPY(G, -1.0, user->a, X)); // G = x - a
  PetscCall(VecNorm(G, NORM_2, &nrm));
  *f = 0.5 * nrm * nrm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormHessian(Tao tao, Vec, Mat H, Mat, void *)
{
  Vec                di;
  PetscScalar        mine = 0.0, lambda0;
  const PetscScalar *d;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(TaoGetDualVariables(tao, NULL, &di));
  if (di) {
    PetscCall(VecGetOwnershipRange(di, &lo, &hi));
    PetscCall(VecGetArrayRead(di, &d));
    if (lo == 0 && hi > 0) mine = d[0]; // multiplier of the ball, on its owner
    PetscCall(VecRestoreArrayRead(di, &d));
  }
  PetscCallMPI(MPI_Allreduce(&mine, &lambda0, 1, MPIU_SCALAR, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCall(MatGetOwnershipRange(H, &lo, &hi));
  for (PetscInt k = lo; k < hi; ++k) PetscCall(MatSetValue(H, k, k, 1.0 + 2.0 * lambda0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormEquality(Tao, Vec X, Vec CE, void *)
{
  PetscScalar sum;

  PetscFunctionBeginUser;
  PetscCall(VecSum(X, &sum));
  PetscCall(VecSet(CE, sum)); // the single entry, on its owner
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormEqualityJacobian(Tao, Vec X, Mat J, Mat, void *)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(X, &lo, &hi)); // each rank sets its own columns of row 0
  for (PetscInt j = lo; j < hi; ++j) PetscCall(MatSetValue(J, 0, j, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormInequality(Tao, Vec X, Vec CI, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  Vec                xl;
  const PetscScalar *x;
  PetscScalar       *c;
  PetscReal          nrm;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecNorm(X, NORM_2, &nrm));
  PetscCall(DMGetLocalVector(user->da, &xl));
  PetscCall(DMGlobalToLocalBegin(user->da, X, INSERT_VALUES, xl));
  PetscCall(DMGlobalToLocalEnd(user->da, X, INSERT_VALUES, xl));
  PetscCall(DMDAVecGetArrayRead(user->da, xl, &x)); // x[k], k from lo - 1 to hi
  PetscCall(VecGetOwnershipRange(CI, &lo, &hi));    // same rows as x (checked in main)
  PetscCall(VecGetArray(CI, &c));
  for (PetscInt k = lo; k < hi; ++k) c[k - lo] = (k == 0) ? user->r2 - nrm * nrm : x[k] - x[k - 1];
  PetscCall(VecRestoreArray(CI, &c));
  PetscCall(DMDAVecRestoreArrayRead(user->da, xl, &x));
  PetscCall(DMRestoreLocalVector(user->da, &xl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormInequalityJacobian(Tao, Vec X, Mat J, Mat, void *)
{
  const PetscScalar *x;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(X, &lo, &hi));
  PetscCall(VecGetArrayRead(X, &x));
  for (PetscInt j = lo; j < hi; ++j) PetscCall(MatSetValue(J, 0, j, -2.0 * x[j - lo], INSERT_VALUES)); // ball row
  PetscCall(VecRestoreArrayRead(X, &x));
  for (PetscInt k = PetscMax(lo, 1); k < hi; ++k) { // ordering rows, owned like x
    PetscCall(MatSetValue(J, k, k - 1, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(J, k, k, 1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  AppCtx       user;
  Tao          tao;
  Vec          x, x_star, ce, ci, lambda_e, lambda_i;
  Mat          H, Je, Ji;
  PetscInt     n = 4, lo, hi, clo, chi, me;
  PetscScalar *xs;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "Equality- and inequality-constrained TAO example with known solution.\n"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCheck(n >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n must be at least 2");
  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, n, 1, 1, NULL, &user.da));
  PetscCall(DMSetUp(user.da));
  PetscCall(DMCreateGlobalVector(user.da, &x));
  PetscCall(VecDuplicate(x, &x_star));
  PetscCall(VecDuplicate(x, &user.a));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArray(x_star, &xs));
  for (PetscInt k = lo; k < hi; ++k) xs[k - lo] = (2.0 * k - n + 1) / (n - 1);
  PetscCall(VecRestoreArray(x_star, &xs));
  user.r2 = (PetscReal)n * (n + 1) / (3.0 * (n - 1)); // ||xi||^2
  PetscCall(VecAXPBY(user.a, 2.0, 0.0, x_star)); // a = 2 xi - 1
  PetscCall(VecShift(user.a, -1.0));
  PetscCall(VecCopy(user.a, x)); // start at the unconstrained minimizer
  // Constraints and known multipliers: PETSC_DECIDE layout
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 1, &ce));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, n, &ci));
  PetscCall(VecGetOwnershipRange(ci, &clo, &chi));
  PetscCheck(clo == lo && chi == hi, PETSC_COMM_SELF, PETSC_ERR_PLIB, "inequality rows are not laid out like x");
  PetscCall(VecDuplicate(ce, &lambda_e));
  PetscCall(VecSet(lambda_e, -1.0));
  PetscCall(VecDuplicate(ci, &lambda_i));
  PetscCall(VecZeroEntries(lambda_i));
  if (clo == 0 && chi > 0) PetscCall(VecSetValue(lambda_i, 0, 0.5, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(lambda_i));
  PetscCall(VecAssemblyEnd(lambda_i));
  // Jacobians: dense row 0 on rank 0 (columns of all ranks), ordering rows bidiagonal
  PetscCall(VecGetLocalSize(ce, &me));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, me, hi - lo, 1, n, hi - lo, NULL, n - (hi - lo), NULL, &Je));
  std::vector<PetscInt> d_nnz(hi - lo, 2), o_nnz(hi - lo, 0); // row k: x_{k-1}, x_k
  if (lo == 0) d_nnz[0] = hi - lo, o_nnz[0] = n - (hi - lo);   // the ball row is dense
  else if (hi > lo) d_nnz[0] = 1, o_nnz[0] = 1;                 // x_{lo-1} is off-rank
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, hi - lo, hi - lo, n, n, 0, d_nnz.data(), 0, o_nnz.data(), &Ji));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, hi - lo, hi - lo, n, n, 1, NULL, 0, NULL, &H));

  PetscCall(TaoCreate(PETSC_COMM_WORLD, &tao));
  PetscCall(TaoSetType(tao, TAOALMM)); // default; -tao_type overrides
  PetscCall(TaoSetSolution(tao, x));
  PetscCall(SetInfiniteBounds(tao, x)); // x is free (explicit bounds for TAOPDIPM)
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, FormObjectiveGradient, &user));
  PetscCall(TaoSetHessian(tao, H, H, FormHessian, &user));
  PetscCall(TaoSetEqualityConstraintsRoutine(tao, ce, FormEquality, &user));
  PetscCall(TaoSetJacobianEqualityRoutine(tao, Je, Je, FormEqualityJacobian, &user));
  PetscCall(TaoSetInequalityConstraintsRoutine(tao, ci, FormInequality, &user));
  PetscCall(TaoSetJacobianInequalityRoutine(tao, Ji, Ji, FormInequalityJacobian, &user));
  PetscCall(TaoSetFromOptions(tao));
  PetscCall(TaoSolve(tao));
  PetscCall(Report(tao, x_star, lambda_e, lambda_i));

  PetscCall(TaoDestroy(&tao));
  for (Mat *m : {&H, &Je, &Ji}) PetscCall(MatDestroy(m));
  for (Vec *v : {&x, &x_star, &user.a, &ce, &ci, &lambda_e, &lambda_i}) PetscCall(VecDestroy(v));
  PetscCall(DMDestroy(&user.da));
  PetscCall(PetscFinalize());
  return 0;
}
