// TAO example for scaling runs: the chained Rosenbrock function on a sphere.
//
//   minimize    f(x) = sum_{i=0}^{n-2} [ 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2 ]   (-n, default 1000)
//   subject to  c_e(x) = ||x||^2 - n = 0                   (1 row, owned by rank 0)
//               evaluated as sum (x_i - 1)(x_i + 1) (FormEquality)
//
// started at x_i = 0.5 (-x0 to change it). Known solution: x* = (1, ..., 1),
// f* = 0: x* is feasible and the unique global minimizer of f >= 0, so
// grad f(x*) = 0 and the multiplier is lambda_e = 0 in any sign convention.
//
// Hessian: as in TAO's src/tao/constrained/tutorials/ex1.c, the Hessian routine
// returns the Hessian of the Lagrangian L = f + lambda_e c_e (the convention of
// TAOPDIPM and TAOALMM), lambda_e from TaoGetDualVariables: the tridiagonal
// Hessian of f plus 2 lambda_e I (only that of f without dual vectors). TAOALMM
// never calls it. x_{i+1} of the next rank comes from a 1D DMDA, stencil width 1.
// The result block ends with "time <TaoSolve seconds, max over ranks>",
// "memory_mb <max resident set size over ranks>" and "memory_solve_mb <max
// over ranks of what the resident set grew by from just before TaoSolve to
// its peak>": the solver's share, beside the program's own vectors and
// matrices. So that the program's own work space (its scatters' buffers,
// the DMDA's local vector) is not counted in that share, the program
// evaluates f, grad f and J once at x_0 before it measures.
//
// The constraint's Jacobian 2 x^T is a dense 1 x n matrix (MATDENSE) on the
// row's owner by default; with -jacobian shell it is an operator over every
// rank's part of x (MATSHELL: J v = 2 x'v, one reduction; J^T w = 2 w x),
// which gathers nothing onto the row's owner.
//
//   mpirun -n 2 ./rosenbrock_sphere -n 100000 -tao_type almm
//   mpirun -n 2 ./rosenbrock_sphere -tao_type pdipm -tao_pdipm_kkt_shift_pd -ksp_type preonly
//          -pc_type cholesky -pc_factor_mat_solver_type mumps
#include <petscdmda.h>
#include <sys/resource.h>
#include "tao_report.hpp"

struct AppCtx {
  DM         da;
  PetscInt   n;
  VecScatter to_zero = NULL; // x onto rank 0, which owns the constraint row (dense J)
  Vec        x_all   = NULL; // x on rank 0 (length 0 elsewhere) (dense J)
  Vec        x_at    = NULL; // the point of the shell J (-jacobian shell)
};

static PetscErrorCode FormObjectiveGradient(Tao, Vec X, PetscReal *f, Vec G, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscInt     n    = user->n;
  Vec                xl;
  const PetscScalar *x;
  PetscScalar       *g;
  PetscReal          mine = 0.0;
  PetscInt           xs, xm;

  PetscFunctionBeginUser;
  PetscCall(DMGetLocalVector(user->da, &xl));
  PetscCall(DMGlobalToLocalBegin(user->da, X, INSERT_VALUES, xl));
  PetscCall(DMGlobalToLocalEnd(user->da, X, INSERT_VALUES, xl));
  PetscCall(DMDAVecGetArrayRead(user->da, xl, &x)); // x[i], i from xs - 1 to xs + xm
  PetscCall(DMDAVecGetArray(user->da, G, &g));
  PetscCall(DMDAGetCorners(user->da, &xs, NULL, NULL, &xm, NULL, NULL));
  for (PetscInt i = xs; i < xs + xm; ++i) {
    g[i] = 0.0;
    if (i < n - 1) {
      const PetscScalar r = x[i + 1] - x[i] * x[i];
      mine += PetscRealPart(100.0 * r * r + (1.0 - x[i]) * (1.0 - x[i]));
      g[i] += -400.0 * x[i] * r - 2.0 * (1.0 - x[i]);
    }
    if (i > 0) g[i] += 200.0 * (x[i] - x[i - 1] * x[i - 1]);
  }
  PetscCall(DMDAVecRestoreArray(user->da, G, &g));
  PetscCall(DMDAVecRestoreArrayRead(user->da, xl, &x));
  PetscCall(DMRestoreLocalVector(user->da, &xl));
  PetscCallMPI(MPI_Allreduce(&mine, f, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// f, grad f and J at x, so that the program's routines have made their
// own work space.
static PetscErrorCode EvaluateOnce(Tao tao, Vec x, Mat Je)
{
  Vec       g;
  PetscReal f;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &g));
  PetscCall(TaoComputeObjectiveAndGradient(tao, x, &f, g));
  PetscCall(TaoComputeJacobianEquality(tao, x, Je, Je));
  PetscCall(VecDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormHessian(Tao tao, Vec X, Mat H, Mat, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscInt     n    = user->n;
  Vec                xl, de;
  const PetscScalar *x;
  PetscScalar        lambda = 0.0;
  PetscInt           xs, xm;

  PetscFunctionBeginUser;
  PetscCall(TaoGetDualVariables(tao, &de, NULL));
  if (de) PetscCall(VecSum(de, &lambda)); // the single multiplier, on every rank
  PetscCall(DMGetLocalVector(user->da, &xl));
  PetscCall(DMGlobalToLocalBegin(user->da, X, INSERT_VALUES, xl));
  PetscCall(DMGlobalToLocalEnd(user->da, X, INSERT_VALUES, xl));
  PetscCall(DMDAVecGetArrayRead(user->da, xl, &x));
  PetscCall(DMDAGetCorners(user->da, &xs, NULL, NULL, &xm, NULL, NULL));
  for (PetscInt i = xs; i < xs + xm; ++i) { // one row (sorted columns) per call
    PetscInt    cols[3], k = 0;
    PetscScalar vals[3], diag = 2.0 * lambda;
    if (i > 0) {
      diag += 200.0;
      cols[k] = i - 1, vals[k++] = -400.0 * x[i - 1];
    }
    if (i < n - 1) diag += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
    cols[k] = i, vals[k++] = diag;
    if (i < n - 1) cols[k] = i + 1, vals[k++] = -400.0 * x[i];
    PetscCall(MatSetValues(H, 1, &i, k, cols, vals, INSERT_VALUES));
  }
  PetscCall(DMDAVecRestoreArrayRead(user->da, xl, &x));
  PetscCall(DMRestoreLocalVector(user->da, &xl));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// c_e = sum (x_i - 1)(x_i + 1): near x* the terms are small and so is their
// sum's rounding. Written as ||x||^2 - n (VecNorm), c_e carries rounding of
// about 5e-4 at n = 1e7 (5e-11 of ||x||^2), far above -tao_catol 1e-8, and no
// solver can make it smaller (bench/petsc/README.md, "Scaling").
static PetscErrorCode FormEquality(Tao, Vec X, Vec CE, void *ctx)
{
  const PetscScalar *x;
  PetscInt           nlocal;
  PetscReal          local = 0.0, sum;

  PetscFunctionBeginUser;
  (void)ctx;
  PetscCall(VecGetLocalSize(X, &nlocal));
  PetscCall(VecGetArrayRead(X, &x));
  for (PetscInt i = 0; i < nlocal; ++i) local += (x[i] - 1.0) * (x[i] + 1.0);
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCallMPI(MPIU_Allreduce(&local, &sum, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)X)));
  PetscCall(VecSet(CE, sum)); // the single entry, on its owner
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The row's owner (rank 0) writes all n entries of its dense row from its copy
// of x: no entries travel through the matrix stash, and no MatSetValues per
// entry, both slow for a row this long.
static PetscErrorCode FormEqualityJacobian(Tao, Vec X, Mat J, Mat, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *x;
  PetscScalar       *a;
  PetscInt           me, lda;

  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(user->to_zero, X, user->x_all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(user->to_zero, X, user->x_all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(MatGetLocalSize(J, &me, NULL));
  PetscCall(MatDenseGetLDA(J, &lda));
  PetscCall(VecGetArrayRead(user->x_all, &x));
  PetscCall(MatDenseGetArrayWrite(J, &a)); // local me x n block, column-major
  for (PetscInt j = 0; me > 0 && j < user->n; ++j) a[j * lda] = 2.0 * x[j];
  PetscCall(MatDenseRestoreArrayWrite(J, &a));
  PetscCall(VecRestoreArrayRead(user->x_all, &x));
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -jacobian shell: J v = 2 x'v, on the row's owner.
static PetscErrorCode ShellRowMult(Mat J, Vec v, Vec y)
{
  AppCtx     *user;
  PetscScalar dot;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &user));
  PetscCall(VecDot(user->x_at, v, &dot));
  PetscCall(VecSet(y, 2.0 * dot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// J^T w = 2 w x, w's single entry summed onto every rank.
static PetscErrorCode ShellRowMultTranspose(Mat J, Vec w, Vec y)
{
  AppCtx     *user;
  PetscScalar w0;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &user));
  PetscCall(VecSum(w, &w0));
  PetscCall(VecAXPBY(y, 2.0 * w0, 0.0, user->x_at));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormShellJacobian(Tao, Vec X, Mat, Mat, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(VecCopy(X, ((AppCtx *)ctx)->x_at));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  AppCtx        user;
  Tao           tao;
  Vec           x, x_star, ce, lambda_e;
  Mat           H, Je;
  PetscInt      nloc, me;
  PetscMPIInt   rank;
  PetscReal     x0 = 0.5;
  char          jacobian[16] = "dense";
  double        t0, t, t_max, rss_max, solve_max;
  PetscLogDouble before;
  struct rusage usage;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "Chained Rosenbrock on the sphere ||x||^2 = n, for TAO scaling runs.\n"));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  user.n = 1000;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &user.n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-x0", &x0, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-jacobian", jacobian, sizeof jacobian, NULL));
  const PetscBool shell = (PetscBool)(strcmp(jacobian, "shell") == 0);
  PetscCheck(shell || strcmp(jacobian, "dense") == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-jacobian is dense or shell");
  PetscCheck(user.n >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n must be at least 2");
  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, user.n, 1, 1, NULL, &user.da));
  PetscCall(DMSetUp(user.da));
  PetscCall(DMCreateGlobalVector(user.da, &x));
  PetscCall(VecGetLocalSize(x, &nloc));
  PetscCall(VecSet(x, x0));
  PetscCall(VecDuplicate(x, &x_star));
  PetscCall(VecSet(x_star, 1.0));
  PetscCall(DMCreateMatrix(user.da, &H)); // tridiagonal AIJ
  PetscCall(MatSetOption(H, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE)); // each rank sets its own rows
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 1, &ce));
  PetscCall(VecDuplicate(ce, &lambda_e));
  PetscCall(VecSet(lambda_e, 0.0));
  PetscCall(VecGetLocalSize(ce, &me)); // dense 1 x n: the row's owner stores all n entries
  PetscCheck(me == 0 || rank == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the constraint row is not on rank 0");
  if (shell) {
    PetscCall(MatCreateShell(PETSC_COMM_WORLD, me, nloc, 1, user.n, &user, &Je));
    PetscCall(MatShellSetOperation(Je, MATOP_MULT, (void (*)(void))ShellRowMult));
    PetscCall(MatShellSetOperation(Je, MATOP_MULT_TRANSPOSE, (void (*)(void))ShellRowMultTranspose));
    PetscCall(VecDuplicate(x, &user.x_at));
  } else {
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, me, nloc, 1, user.n, NULL, &Je));
    PetscCall(VecScatterCreateToZero(x, &user.to_zero, &user.x_all));
  }

  PetscCall(TaoCreate(PETSC_COMM_WORLD, &tao));
  PetscCall(TaoSetType(tao, TAOALMM)); // default; -tao_type overrides
  PetscCall(TaoSetSolution(tao, x));
  PetscCall(SetInfiniteBounds(tao, x)); // x is free (explicit bounds for TAOPDIPM)
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, FormObjectiveGradient, &user));
  PetscCall(TaoSetHessian(tao, H, H, FormHessian, &user));
  PetscCall(TaoSetEqualityConstraintsRoutine(tao, ce, FormEquality, &user));
  PetscCall(TaoSetJacobianEqualityRoutine(tao, Je, Je, shell ? FormShellJacobian : FormEqualityJacobian, &user));
  PetscCall(TaoSetFromOptions(tao));
  PetscCall(EvaluateOnce(tao, x, Je));
  PetscCall(PetscMemoryGetCurrentUsage(&before));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t0 = MPI_Wtime();
  PetscCall(TaoSolve(tao));
  t = MPI_Wtime() - t0;
  PetscCall(Report(tao, x_star, lambda_e, NULL));
  getrusage(RUSAGE_SELF, &usage);
  const double rss_mb = usage.ru_maxrss / 1024.0; // ru_maxrss is in kB on Linux
  const double solve_mb = rss_mb - before / (1024.0 * 1024.0);
  PetscCallMPI(MPI_Allreduce(&t, &t_max, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(&rss_mb, &rss_max, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(&solve_mb, &solve_max, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "time %.3f\nmemory_mb %.1f\nmemory_solve_mb %.1f\n", t_max,
                        rss_max, solve_max));

  PetscCall(TaoDestroy(&tao));
  for (Mat *m : {&H, &Je}) PetscCall(MatDestroy(m));
  for (Vec *v : {&x, &x_star, &ce, &lambda_e, &user.x_all, &user.x_at}) PetscCall(VecDestroy(v));
  PetscCall(VecScatterDestroy(&user.to_zero));
  PetscCall(DMDestroy(&user.da));
  PetscCall(PetscFinalize());
  return 0;
}
