// TAO example: 2D elliptic optimal control with bounds on the control, in
// TAOLCL's form (TaoSetConstraintsRoutine, shell state and design
// Jacobians over TaoSetStateDesignIS, no Hessian routine), matrix-free.
//
//   minimize    f(y, u) = h^2/2 sum (y - y_d)^2 + alpha h^2/2 sum u^2
//   subject to  c(y, u) = A y - u = 0         (-Laplace(y) = u, y = 0 on the boundary)
//               u_a <= u <= u_b               (TaoSetVariableBounds, on the design only)
//
// on the unit square's N x N interior grid points (-N, default 32), h =
// 1/(N + 1), A the 5-point Laplacian (a DMDA stencil, applied by a shell),
// y_d = sin(pi x1) sin(pi x2), alpha = 1e-3 (-alpha), u_a = 0, u_b = 10
// (-u_upper): the control wants about 2 pi^2 y_d near the centre, where the
// upper bound is active. Each process owns (y, u) of its DMDA patch: x's
// local part is [y_local, u_local]. J_state = A (symmetric), J_design = -I,
// both shells; the state Jacobian's inverse (Jinv, a shell too) solves with
// A by CG preconditioned by algebraic multigrid on an assembled copy of the
// stencil (options prefix -state_), as PDE programs written for TAOLCL do.
//
//   mpirun -n 2 ./elliptic_control -tao_type qpm -dll_append .../libqpm_petsc.so
//
// Prints the reason, iterations, f, ||c||_inf, the control's range and the
// share of the control on its upper bound (rank 0). TAOLCL of PETSc 3.18
// does not read variable bounds (its control leaves [u_a, u_b]).
#include <petscdmda.h>
#include <petsctao.h>

#include <cmath>

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

struct AppCtx {
  DM       da;
  PetscInt n, xs, ys, xm, ym; // grid size and this process's patch
  PetscReal h, alpha;
  Vec      yd;       // target, DMDA layout
  Vec      yg, yl;   // state in DMDA global and local (ghosted) layout
  Vec      ay;       // A y, DMDA layout
  IS       state, design;
  KSP      ksp;      // solves with A (Jinv)
};

// f and its gradient over this process's (y, u).
static PetscErrorCode FormObjectiveGradient(Tao, Vec X, PetscReal *f, Vec G, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *x, *yd;
  PetscScalar       *g;
  PetscInt           nl = user->xm * user->ym;
  PetscReal          mine = 0.0, h2 = user->h * user->h;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayRead(user->yd, &yd));
  PetscCall(VecGetArray(G, &g));
  for (PetscInt k = 0; k < nl; ++k) {
    const PetscReal dy = x[k] - yd[k], u = x[nl + k];
    mine += 0.5 * h2 * (dy * dy + user->alpha * u * u);
    g[k]      = h2 * dy;
    g[nl + k] = h2 * user->alpha * u;
  }
  PetscCall(VecRestoreArray(G, &g));
  PetscCall(VecRestoreArrayRead(user->yd, &yd));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCallMPI(MPI_Allreduce(&mine, f, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// out = A in: in and out laid out like the DMDA's global vector.
static PetscErrorCode Laplacian(AppCtx *user, Vec in, Vec out)
{
  const PetscScalar **y;
  PetscScalar       **a;
  PetscReal           s = 1.0 / (user->h * user->h);

  PetscFunctionBeginUser;
  PetscCall(VecCopy(in, user->yg));
  PetscCall(DMGlobalToLocalBegin(user->da, user->yg, INSERT_VALUES, user->yl));
  PetscCall(DMGlobalToLocalEnd(user->da, user->yg, INSERT_VALUES, user->yl));
  PetscCall(DMDAVecGetArrayRead(user->da, user->yl, &y));
  PetscCall(DMDAVecGetArray(user->da, user->ay, &a));
  for (PetscInt j = user->ys; j < user->ys + user->ym; ++j) {
    for (PetscInt i = user->xs; i < user->xs + user->xm; ++i) {
      const PetscReal w = i > 0 ? y[j][i - 1] : 0.0, e = i < user->n - 1 ? y[j][i + 1] : 0.0;
      const PetscReal so = j > 0 ? y[j - 1][i] : 0.0, no = j < user->n - 1 ? y[j + 1][i] : 0.0;
      a[j][i] = s * (4.0 * y[j][i] - w - e - so - no);
    }
  }
  PetscCall(DMDAVecRestoreArray(user->da, user->ay, &a));
  PetscCall(DMDAVecRestoreArrayRead(user->da, user->yl, &y));
  PetscCall(VecCopy(user->ay, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FormConstraints(Tao, Vec X, Vec C, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;
  Vec     y, u;

  PetscFunctionBeginUser;
  PetscCall(VecGetSubVector(X, user->state, &y));
  PetscCall(Laplacian(user, y, C));
  PetscCall(VecRestoreSubVector(X, user->state, &y));
  PetscCall(VecGetSubVector(X, user->design, &u));
  PetscCall(VecAXPY(C, -1.0, u));
  PetscCall(VecRestoreSubVector(X, user->design, &u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The constraints are linear: the Jacobian routines have nothing to do.
static PetscErrorCode FormJacobianState(Tao, Vec, Mat, Mat, Mat, void *) { return PETSC_SUCCESS; }
static PetscErrorCode FormJacobianDesign(Tao, Vec, Mat, void *) { return PETSC_SUCCESS; }

static PetscErrorCode StateMult(Mat J, Vec in, Vec out)
{
  AppCtx *user;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &user));
  PetscCall(Laplacian(user, in, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StateSolve(Mat J, Vec in, Vec out)
{
  AppCtx *user;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &user));
  PetscCall(KSPSolve(user->ksp, in, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The 5-point stencil of A, assembled: the preconditioner of the solves with A.
static PetscErrorCode AssembleLaplacian(AppCtx *user, Mat *a)
{
  PetscReal s = 1.0 / (user->h * user->h);

  PetscFunctionBeginUser;
  PetscCall(DMCreateMatrix(user->da, a));
  for (PetscInt j = user->ys; j < user->ys + user->ym; ++j) {
    for (PetscInt i = user->xs; i < user->xs + user->xm; ++i) {
      MatStencil  row = {0, j, i, 0}, cols[5];
      PetscScalar v[5];
      PetscInt    k = 0;
      cols[k] = row, v[k++] = 4.0 * s;
      if (i > 0) cols[k] = {0, j, i - 1, 0}, v[k++] = -s;
      if (i < user->n - 1) cols[k] = {0, j, i + 1, 0}, v[k++] = -s;
      if (j > 0) cols[k] = {0, j - 1, i, 0}, v[k++] = -s;
      if (j < user->n - 1) cols[k] = {0, j + 1, i, 0}, v[k++] = -s;
      PetscCall(MatSetValuesStencil(*a, 1, &row, k, cols, v, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*a, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*a, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DesignMult(Mat, Vec in, Vec out)
{
  PetscFunctionBeginUser;
  PetscCall(VecCopy(in, out));
  PetscCall(VecScale(out, -1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  AppCtx             user;
  Tao                tao;
  Vec                x, c, xl, xu, part;
  Mat                js, jd, jinv, apre;
  PC                 pc;
  PetscInt           rstart, nl;
  PetscReal          upper = 10.0;
  TaoConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  user.n     = 32;
  user.alpha = 1e-3;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-N", &user.n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-alpha", &user.alpha, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-u_upper", &upper, NULL));
  user.h = 1.0 / (user.n + 1);
  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, user.n,
                         user.n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &user.da));
  PetscCall(DMSetUp(user.da));
  PetscCall(DMDAGetCorners(user.da, &user.xs, &user.ys, NULL, &user.xm, &user.ym, NULL));
  PetscCall(DMCreateGlobalVector(user.da, &user.yg));
  PetscCall(DMCreateLocalVector(user.da, &user.yl));
  PetscCall(VecDuplicate(user.yg, &user.ay));
  PetscCall(VecDuplicate(user.yg, &user.yd));
  {
    PetscScalar **yd;
    PetscCall(DMDAVecGetArray(user.da, user.yd, &yd));
    for (PetscInt j = user.ys; j < user.ys + user.ym; ++j)
      for (PetscInt i = user.xs; i < user.xs + user.xm; ++i)
        yd[j][i] = PetscSinReal(PETSC_PI * (i + 1) * user.h) * PetscSinReal(PETSC_PI * (j + 1) * user.h);
    PetscCall(DMDAVecRestoreArray(user.da, user.yd, &yd));
  }
  nl = user.xm * user.ym;
  PetscCall(VecGetOwnershipRange(user.yg, &rstart, NULL));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * nl, PETSC_DETERMINE, &x));
  PetscCall(VecSet(x, 0.0));
  PetscCall(VecDuplicate(user.yg, &c));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, nl, 2 * rstart, 1, &user.state));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, nl, 2 * rstart + nl, 1, &user.design));
  PetscCall(MatCreateShell(PETSC_COMM_WORLD, nl, nl, PETSC_DETERMINE, PETSC_DETERMINE, &user, &js));
  PetscCall(MatShellSetOperation(js, MATOP_MULT, (void (*)(void))StateMult));
  PetscCall(MatShellSetOperation(js, MATOP_MULT_TRANSPOSE, (void (*)(void))StateMult));
  PetscCall(MatCreateShell(PETSC_COMM_WORLD, nl, nl, PETSC_DETERMINE, PETSC_DETERMINE, &user, &jd));
  PetscCall(MatShellSetOperation(jd, MATOP_MULT, (void (*)(void))DesignMult));
  PetscCall(MatShellSetOperation(jd, MATOP_MULT_TRANSPOSE, (void (*)(void))DesignMult));
  PetscCall(MatCreateShell(PETSC_COMM_WORLD, nl, nl, PETSC_DETERMINE, PETSC_DETERMINE, &user, &jinv));
  PetscCall(MatShellSetOperation(jinv, MATOP_MULT, (void (*)(void))StateSolve));
  PetscCall(MatShellSetOperation(jinv, MATOP_MULT_TRANSPOSE, (void (*)(void))StateSolve));
  PetscCall(AssembleLaplacian(&user, &apre));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &user.ksp));
  PetscCall(KSPSetOptionsPrefix(user.ksp, "state_"));
  PetscCall(KSPSetOperators(user.ksp, apre, apre));
  PetscCall(KSPSetType(user.ksp, KSPCG));
  PetscCall(KSPGetPC(user.ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(KSPSetTolerances(user.ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(user.ksp));
  PetscCall(VecDuplicate(x, &xl));
  PetscCall(VecDuplicate(x, &xu));
  PetscCall(VecSet(xl, PETSC_NINFINITY));
  PetscCall(VecSet(xu, PETSC_INFINITY));
  PetscCall(VecGetSubVector(xl, user.design, &part));
  PetscCall(VecSet(part, 0.0));
  PetscCall(VecRestoreSubVector(xl, user.design, &part));
  PetscCall(VecGetSubVector(xu, user.design, &part));
  PetscCall(VecSet(part, upper));
  PetscCall(VecRestoreSubVector(xu, user.design, &part));

  PetscCall(TaoCreate(PETSC_COMM_WORLD, &tao));
  PetscCall(TaoSetType(tao, TAOLCL));
  PetscCall(TaoSetSolution(tao, x));
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, FormObjectiveGradient, &user));
  PetscCall(TaoSetConstraintsRoutine(tao, c, FormConstraints, &user));
  PetscCall(TaoSetJacobianStateRoutine(tao, js, js, jinv, FormJacobianState, &user));
  PetscCall(TaoSetJacobianDesignRoutine(tao, jd, FormJacobianDesign, &user));
  PetscCall(TaoSetStateDesignIS(tao, user.state, user.design));
  PetscCall(TaoSetVariableBounds(tao, xl, xu));
  PetscCall(TaoSetFromOptions(tao));
  PetscCall(TaoSolve(tao));

  {
    PetscReal f, cmax, on_upper = 0.0, total = 0.0;
    PetscInt  iterations;
    const PetscScalar *a;
    PetscCall(TaoGetConvergedReason(tao, &reason));
    PetscCall(TaoGetIterationNumber(tao, &iterations));
    PetscCall(TaoComputeObjective(tao, x, &f));
    PetscCall(FormConstraints(tao, x, c, &user));
    PetscCall(VecNorm(c, NORM_INFINITY, &cmax));
    PetscCall(VecGetArrayRead(x, &a));
    for (PetscInt k = 0; k < nl; ++k) on_upper += a[nl + k] >= upper - 1e-6 ? 1.0 : 0.0;
    PetscCall(VecRestoreArrayRead(x, &a));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &on_upper, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
    PetscReal u_min, u_max;
    PetscCall(VecGetSubVector(x, user.design, &part));
    PetscCall(VecMin(part, NULL, &u_min));
    PetscCall(VecMax(part, NULL, &u_max));
    PetscCall(VecRestoreSubVector(x, user.design, &part));
    total = (PetscReal)user.n * user.n;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reason %s\niterations %" PetscInt_FMT "\nf %.10g\nc_max %.3e\nu_range %.6g %.6g\non_upper %.3f\n",
                          TaoConvergedReasons[reason], iterations, (double)f, (double)cmax, (double)u_min, (double)u_max,
                          (double)(on_upper / total)));
  }
  PetscCall(TaoDestroy(&tao));
  PetscCall(MatDestroy(&js));
  PetscCall(MatDestroy(&jd));
  PetscCall(MatDestroy(&jinv));
  PetscCall(MatDestroy(&apre));
  PetscCall(KSPDestroy(&user.ksp));
  PetscCall(ISDestroy(&user.state));
  PetscCall(ISDestroy(&user.design));
  for (Vec *v : {&x, &c, &xl, &xu, &user.yg, &user.yl, &user.ay, &user.yd}) PetscCall(VecDestroy(v));
  PetscCall(DMDestroy(&user.da));
  PetscCall(PetscFinalize());
  return reason > 0 ? 0 : 1;
}
