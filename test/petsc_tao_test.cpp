// The TAO solver type "qpm" (libqpm_petsc) on TAO programs as users write
// them. Run on 1 and on 2 MPI processes (test/meson.build): every process
// checks its own block of the solution and the multipliers.
#define BOOST_TEST_MODULE petsc_tao
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <petsctao.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <stdlib.h>  // mkdtemp

#include "petsc/tao_model.hpp"
#include "qpm/petsc/tao.hpp"

namespace {

struct PetscSession {
  PetscSession() {
    BOOST_REQUIRE_EQUAL(PetscInitializeNoArguments(), 0);
    BOOST_REQUIRE_EQUAL(QpmTaoRegister(), 0);
  }
  ~PetscSession() { PetscFinalize(); }
};
BOOST_TEST_GLOBAL_FIXTURE(PetscSession);

constexpr PetscInt kN = 6;

// f = 1/2 ||x - a||^2, a_i = i + 1; optional rows sum(x) = 0 (equality) and
// x_0 + 1 >= 0 (inequality).
PetscErrorCode Objective(Tao, Vec x, PetscReal* f, Vec g, void*) {
  PetscInt start, end;
  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(x, &start, &end));
  const PetscScalar* xa;
  PetscScalar* ga;
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(g, &ga));
  double local = 0.0;
  for (PetscInt i = start; i < end; ++i) {
    ga[i - start] = xa[i - start] - (i + 1.0);
    local += 0.5 * ga[i - start] * ga[i - start];
  }
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArray(g, &ga));
  PetscCallMPI(MPI_Allreduce(&local, f, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

PetscErrorCode NanObjective(Tao tao, Vec x, PetscReal* f, Vec g, void* ctx) {
  PetscFunctionBeginUser;
  PetscCall(Objective(tao, x, f, g, ctx));
  *f = NAN;
  PetscFunctionReturn(0);
}

PetscErrorCode Hessian(Tao, Vec, Mat, Mat, void*) { return 0; }  // I, set once

PetscErrorCode SumRow(Tao, Vec x, Vec c, void*) {
  PetscScalar sum;
  PetscFunctionBeginUser;
  PetscCall(VecSum(x, &sum));
  PetscCall(VecSet(c, sum));
  PetscFunctionReturn(0);
}

PetscErrorCode FirstEntryRow(Tao, Vec x, Vec c, void*) {
  PetscInt zero = 0;
  PetscScalar x0;
  Vec all;
  VecScatter to_zero;
  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToZero(x, &to_zero, &all));
  PetscCall(VecScatterBegin(to_zero, x, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(to_zero, x, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscMPIInt rank;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) {
    PetscCall(VecGetValues(all, 1, &zero, &x0));
    PetscCall(VecSetValue(c, 0, x0 + 1.0, INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(c));
  PetscCall(VecAssemblyEnd(c));
  PetscCall(VecScatterDestroy(&to_zero));
  PetscCall(VecDestroy(&all));
  PetscFunctionReturn(0);
}

// A 1 x n or 2 x n matrix, sparse (AIJ) or dense (MATDENSE: on 2
// processes, MATMPIDENSE, which the model keeps by columns).
Mat Rows(PetscInt rows, bool dense) {
  Mat j;
  if (dense) {
    MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, rows, kN, nullptr, &j);
  } else {
    MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, rows, kN, kN, nullptr, kN, nullptr, &j);
  }
  return j;
}

// A constant 1 x n row: ones (sum) or e_0.
Mat Row(bool ones, bool dense = false) {
  Mat j = Rows(1, dense);
  PetscInt start, end;
  MatGetOwnershipRange(j, &start, &end);
  for (PetscInt r = start; r < end; ++r) {
    for (PetscInt i = 0; i < (ones ? kN : 1); ++i) MatSetValue(j, r, i, 1.0, INSERT_VALUES);
  }
  MatAssemblyBegin(j, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(j, MAT_FINAL_ASSEMBLY);
  return j;
}

PetscErrorCode ConstantJacobian(Tao, Vec, Mat, Mat, void*) { return 0; }

Vec Vector(PetscInt n, double value) {
  Vec v;
  VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, n, &v);
  VecSet(v, value);
  return v;
}

// A Tao of type qpm on the problem above.
struct Problem {
  Tao tao = nullptr;
  Vec x = nullptr, ce = nullptr, ci = nullptr, xl = nullptr, xu = nullptr;
  Mat h = nullptr, je = nullptr, ji = nullptr;

  explicit Problem(bool hessian = true) {
    TaoCreate(PETSC_COMM_WORLD, &tao);
    TaoSetType(tao, TAOQPM);
    x = Vector(kN, 0.0);
    TaoSetSolution(tao, x);
    TaoSetObjectiveAndGradient(tao, nullptr, Objective, nullptr);
    if (hessian) {
      MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, kN, kN, 1, nullptr, 0, nullptr, &h);
      PetscInt start, end;
      MatGetOwnershipRange(h, &start, &end);
      for (PetscInt i = start; i < end; ++i) MatSetValue(h, i, i, 1.0, INSERT_VALUES);
      MatAssemblyBegin(h, MAT_FINAL_ASSEMBLY);
      MatAssemblyEnd(h, MAT_FINAL_ASSEMBLY);
      TaoSetHessian(tao, h, h, Hessian, nullptr);
    }
    TaoSetTolerances(tao, 1e-9, 0.0, 0.0);
    TaoSetConstraintTolerances(tao, 1e-9, 0.0);
  }
  void AddEquality(bool dense = false) {
    ce = Vector(1, 0.0);
    je = Row(true, dense);
    TaoSetEqualityConstraintsRoutine(tao, ce, SumRow, nullptr);
    TaoSetJacobianEqualityRoutine(tao, je, je, ConstantJacobian, nullptr);
  }
  void AddInequality(bool dense = false) {
    ci = Vector(1, 0.0);
    ji = Row(false, dense);
    TaoSetInequalityConstraintsRoutine(tao, ci, FirstEntryRow, nullptr);
    TaoSetJacobianInequalityRoutine(tao, ji, ji, ConstantJacobian, nullptr);
  }
  void AddBounds(double lower, double upper) {
    xl = Vector(kN, lower);
    xu = Vector(kN, upper);
    TaoSetVariableBounds(tao, xl, xu);
  }
  TaoConvergedReason Solve() {
    TaoSetFromOptions(tao);
    BOOST_REQUIRE_EQUAL(TaoSolve(tao), 0);
    TaoConvergedReason reason;
    TaoGetConvergedReason(tao, &reason);
    return reason;
  }
  // Each process's entries of v against expected(i) for global i.
  template <class F>
  static void Check(Vec v, F expected, double tol) {
    PetscInt start, end;
    VecGetOwnershipRange(v, &start, &end);
    const PetscScalar* a;
    VecGetArrayRead(v, &a);
    for (PetscInt i = start; i < end; ++i) BOOST_CHECK_SMALL(a[i - start] - expected(i), tol);
    VecRestoreArrayRead(v, &a);
  }
  ~Problem() {
    TaoDestroy(&tao);
    for (Vec* v : {&x, &ce, &ci, &xl, &xu}) VecDestroy(v);
    for (Mat* m : {&h, &je, &ji}) MatDestroy(m);
  }
};

// -tao_view's text, through a file in a scratch directory that rank 0
// makes and every process reads.
std::string ViewText(Tao tao) {
  PetscMPIInt rank;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  char dir[256] = "";
  if (rank == 0) {
    const std::string pattern = std::filesystem::temp_directory_path() / "qpm_tao_view_XXXXXX";
    std::snprintf(dir, sizeof dir, "%s", pattern.c_str());
    if (!mkdtemp(dir)) dir[0] = '\0';
  }
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, PETSC_COMM_WORLD);
  const std::string path = std::string(dir) + "/view.txt";
  PetscViewer viewer;
  PetscViewerASCIIOpen(PETSC_COMM_WORLD, path.c_str(), &viewer);
  TaoView(tao, viewer);
  PetscViewerDestroy(&viewer);
  MPI_Barrier(PETSC_COMM_WORLD);  // rank 0 has written the file
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  MPI_Barrier(PETSC_COMM_WORLD);
  if (rank == 0) std::filesystem::remove_all(dir);
  return text;
}

}  // namespace

// x_0 = -1 (active), x_i = a_i - 19/5; DE = 19/5 and DI = 9/5 >= 0 in
// TAO's convention L = f + DE c_e - DI c_i.
BOOST_DATA_TEST_CASE(QpmSolvesAnEqualityAndInequalityConstrainedProblemWithTaosMultiplierSigns,
                     boost::unit_test::data::make({false, true}), dense) {
  Problem p;
  p.AddEquality(dense);
  p.AddInequality(dense);
  BOOST_REQUIRE_GT(p.Solve(), 0);
  Problem::Check(p.x, [](PetscInt i) { return i == 0 ? -1.0 : i + 1.0 - 3.8; }, 1e-7);
  Vec de, di;
  TaoGetDualVariables(p.tao, &de, &di);
  BOOST_REQUIRE(de && di);
  Problem::Check(de, [](PetscInt) { return 3.8; }, 1e-6);
  Problem::Check(di, [](PetscInt) { return 1.8; }, 1e-6);
}

// x = a clipped to [0, 3]; z_U = a - x on the upper bounds, z_L = 0.
BOOST_AUTO_TEST_CASE(QpmHonoursVariableBoundsAndGivesTheBoundMultipliers) {
  Problem p;
  p.AddBounds(0.0, 3.0);
  const TaoConvergedReason reason = p.Solve();
  BOOST_REQUIRE_GT(reason, 0);
  Problem::Check(p.x, [](PetscInt i) { return std::min(i + 1.0, 3.0); }, 1e-8);
  Vec dl = Vector(kN, -1.0), du = Vector(kN, -1.0);
  BOOST_REQUIRE_EQUAL(TaoComputeDualVariables(p.tao, dl, du), 0);
  Problem::Check(dl, [](PetscInt) { return 0.0; }, 1e-8);
  Problem::Check(du, [](PetscInt i) { return std::max(i + 1.0 - 3.0, 0.0); }, 1e-7);
  VecDestroy(&dl), VecDestroy(&du);
}

BOOST_AUTO_TEST_CASE(QpmWithoutAHessianRoutineUsesDifferencesOfTheGradient) {
  Problem p(/*hessian=*/false);
  p.AddEquality();
  BOOST_REQUIRE_GT(p.Solve(), 0);
  Problem::Check(p.x, [](PetscInt i) { return i + 1.0 - 3.5; }, 1e-6);
}

BOOST_AUTO_TEST_CASE(QpmStopsAtTaosIterationLimitWithTaosReason) {
  Problem p;
  p.AddEquality();
  p.AddInequality();
  TaoSetMaximumIterations(p.tao, 2);
  BOOST_CHECK_EQUAL(p.Solve(), TAO_DIVERGED_MAXITS);
  PetscInt iterations;
  TaoGetIterationNumber(p.tao, &iterations);
  BOOST_CHECK_EQUAL(iterations, 2);
}

BOOST_AUTO_TEST_CASE(QpmEndsWithDivergedNanOnANonFiniteObjective) {
  Problem p;
  TaoSetObjectiveAndGradient(p.tao, nullptr, NanObjective, nullptr);
  BOOST_CHECK_EQUAL(p.Solve(), TAO_DIVERGED_NAN);
}

// -tao_qpm_pc_type: CG is preconditioned by that PETSc PC on the user's
// Hessian matrix (SPD here), which -tao_view names as the model's.
BOOST_AUTO_TEST_CASE(QpmPreconditionsCgWithThePetscPcTheUserNames) {
  Problem p;
  p.AddEquality();
  p.AddInequality();
  PetscOptionsSetValue(nullptr, "-tao_qpm_pc_type", "bjacobi");
  const TaoConvergedReason reason = p.Solve();
  PetscOptionsClearValue(nullptr, "-tao_qpm_pc_type");
  BOOST_REQUIRE_GT(reason, 0);
  Problem::Check(p.x, [](PetscInt i) { return i == 0 ? -1.0 : i + 1.0 - 3.8; }, 1e-7);
  BOOST_CHECK(ViewText(p.tao).find("preconditioner model") != std::string::npos);
}

// TaoSetInequalityBounds: 0 <= x_0 + 1 <= 1/2 holds x_0 = -1/2 (upper side
// active; unconstrained x_0 = 1), the other entries at a_i.
BOOST_AUTO_TEST_CASE(QpmHonoursTwoSidedInequalityBounds) {
  Problem p;
  p.AddInequality();
  Vec il = Vector(1, 0.0), iu = Vector(1, 0.5);
  TaoSetInequalityBounds(p.tao, il, iu);
  BOOST_REQUIRE_GT(p.Solve(), 0);
  Problem::Check(p.x, [](PetscInt i) { return i == 0 ? -0.5 : i + 1.0; }, 1e-7);
  VecDestroy(&il), VecDestroy(&iu);
}

namespace {

// The first error message PETSc raises while it is pushed (every process
// raises the same one for a set-up error).
struct ErrorCatcher {
  std::string message;
  ErrorCatcher() { PetscPushErrorHandler(Handler, this); }
  ~ErrorCatcher() { PetscPopErrorHandler(); }
  static PetscErrorCode Handler(MPI_Comm, int, const char*, const char*, PetscErrorCode n,
                                PetscErrorType p, const char* mess, void* ctx) {
    auto* self = static_cast<ErrorCatcher*>(ctx);
    if (p == PETSC_ERROR_INITIAL && self->message.empty() && mess) self->message = mess;
    return n;
  }
};

// TaoSolve fails, naming `routine`.
void CheckRefused(Problem* p, const std::string& routine) {
  ErrorCatcher errors;
  TaoSetFromOptions(p->tao);
  BOOST_CHECK_NE(TaoSolve(p->tao), 0);
  BOOST_CHECK_MESSAGE(errors.message.find(routine) != std::string::npos,
                      "the error names " << routine << ": " << errors.message);
}

PetscErrorCode Residual(Tao, Vec x, Vec r, void*) { return VecCopy(x, r); }
PetscErrorCode AnyJacobian(Tao, Vec, Mat, Mat, void*) { return 0; }

}  // namespace

// A routine TAO holds and qpm does not read ends the solve with an error
// naming it: never a solve that leaves out part of the problem.
BOOST_AUTO_TEST_CASE(QpmRefusesAResidualRoutineByName) {
  Problem p;
  Vec r = Vector(kN, 0.0);
  TaoSetResidualRoutine(p.tao, r, Residual, nullptr);
  CheckRefused(&p, "TaoSetResidualRoutine");
  VecDestroy(&r);
}

BOOST_AUTO_TEST_CASE(QpmRefusesAGeneralJacobianRoutineByName) {
  Problem p;
  p.AddEquality();
  TaoSetJacobianRoutine(p.tao, p.je, p.je, AnyJacobian, nullptr);
  CheckRefused(&p, "TaoSetJacobianRoutine");
}

BOOST_AUTO_TEST_CASE(QpmRefusesConstraintsWithoutStateAndDesignJacobiansByName) {
  Problem p;
  Vec c = Vector(1, 0.0);
  TaoSetConstraintsRoutine(p.tao, c, SumRow, nullptr);
  CheckRefused(&p, "TaoSetJacobianStateRoutine");
  VecDestroy(&c);
}

BOOST_AUTO_TEST_CASE(QpmRefusesEqualityConstraintsWithoutTheirJacobianByName) {
  Problem p;
  p.ce = Vector(1, 0.0);
  TaoSetEqualityConstraintsRoutine(p.tao, p.ce, SumRow, nullptr);
  CheckRefused(&p, "TaoSetJacobianEqualityRoutine");
}

BOOST_AUTO_TEST_CASE(QpmRefusesInequalityBoundsWithoutInequalitiesByName) {
  Problem p;
  Vec il = Vector(1, 0.0), iu = Vector(1, 1.0);
  TaoSetInequalityBounds(p.tao, il, iu);
  CheckRefused(&p, "TaoSetInequalityBounds");
  VecDestroy(&il), VecDestroy(&iu);
}

BOOST_AUTO_TEST_CASE(QpmRefusesAGradientNormByName) {
  Problem p;
  TaoSetGradientNorm(p.tao, p.h);
  CheckRefused(&p, "TaoSetGradientNorm");
}

namespace {

// TAOLCL's form: x = (y, u) over TaoSetStateDesignIS, c(y, u) = y - u.^2 = 0,
// f = 1/2 ||y - a||^2 + 1/2 ||u||^2 (a_i = i + 1), the Jacobian blocks as
// shell matrices, J_state = I and J_design = diag(-2 u), no Hessian
// routine. As in PETSc's own PDE programs, every user routine moves the
// point the shells apply at (ctx.u), so a product at a kept point needs its
// Jacobian routine called again. Each process owns (y, u) of its rows.
// Solution: u_i = sqrt(a_i - 1/2), y_i = a_i - 1/2, DE = a - y = 1/2.
struct StateDesign {
  PetscInt start = 0, local = 0;  // this process's rows of y (and of u)
  Vec x = nullptr, c = nullptr, u = nullptr;
  IS state = nullptr, design = nullptr;
  Mat js = nullptr, jd = nullptr;
  Tao tao = nullptr;

  static StateDesign& Of(void* ctx) { return *static_cast<StateDesign*>(ctx); }
  static StateDesign& Of(Mat m) {
    void* ctx;
    MatShellGetContext(m, &ctx);
    return Of(ctx);
  }
  // ctx.u <- x's design part (what every routine below does first).
  PetscErrorCode TakeDesign(Vec x) {
    Vec part;
    PetscFunctionBeginUser;
    PetscCall(VecGetSubVector(x, design, &part));
    PetscCall(VecCopy(part, u));
    PetscCall(VecRestoreSubVector(x, design, &part));
    PetscFunctionReturn(0);
  }
  static PetscErrorCode Objective(Tao, Vec x, PetscReal* f, Vec g, void* ctx) {
    StateDesign& p = Of(ctx);
    PetscFunctionBeginUser;
    PetscCall(p.TakeDesign(x));
    const PetscScalar* xa;
    PetscScalar* ga;
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArray(g, &ga));
    double local = 0.0;
    for (PetscInt k = 0; k < p.local; ++k) {
      const double dy = xa[k] - (p.start + k + 1.0), u = xa[p.local + k];
      ga[k] = dy, ga[p.local + k] = u;
      local += 0.5 * (dy * dy + u * u);
    }
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecRestoreArray(g, &ga));
    PetscCallMPI(MPI_Allreduce(&local, f, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
    PetscFunctionReturn(0);
  }
  static PetscErrorCode Constraints(Tao, Vec x, Vec c, void* ctx) {
    StateDesign& p = Of(ctx);
    PetscFunctionBeginUser;
    PetscCall(p.TakeDesign(x));
    const PetscScalar* xa;
    PetscScalar* ca;
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArray(c, &ca));
    for (PetscInt k = 0; k < p.local; ++k) ca[k] = xa[k] - xa[p.local + k] * xa[p.local + k];
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecRestoreArray(c, &ca));
    PetscFunctionReturn(0);
  }
  static PetscErrorCode StateJacobian(Tao, Vec x, Mat, Mat, Mat, void* ctx) {
    return Of(ctx).TakeDesign(x);
  }
  static PetscErrorCode DesignJacobian(Tao, Vec x, Mat, void* ctx) { return Of(ctx).TakeDesign(x); }
  static PetscErrorCode Identity(Mat, Vec in, Vec out) { return VecCopy(in, out); }
  static PetscErrorCode DesignTimes(Mat m, Vec in, Vec out) {  // diag(-2 u), symmetric
    PetscFunctionBeginUser;
    PetscCall(VecPointwiseMult(out, Of(m).u, in));
    PetscCall(VecScale(out, -2.0));
    PetscFunctionReturn(0);
  }

  StateDesign() {
    PetscMPIInt rank, size;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    MPI_Comm_size(PETSC_COMM_WORLD, &size);
    local = kN / size + (rank < kN % size ? 1 : 0);
    MPI_Exscan(&local, &start, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD);
    if (rank == 0) start = 0;
    VecCreateMPI(PETSC_COMM_WORLD, 2 * local, 2 * kN, &x);
    VecSet(x, 1.0);
    VecCreateMPI(PETSC_COMM_WORLD, local, kN, &c);
    VecDuplicate(c, &u);
    ISCreateStride(PETSC_COMM_WORLD, local, 2 * start, 1, &state);
    ISCreateStride(PETSC_COMM_WORLD, local, 2 * start + local, 1, &design);
    MatCreateShell(PETSC_COMM_WORLD, local, local, kN, kN, this, &js);
    MatShellSetOperation(js, MATOP_MULT, (void (*)(void))Identity);
    MatShellSetOperation(js, MATOP_MULT_TRANSPOSE, (void (*)(void))Identity);
    MatCreateShell(PETSC_COMM_WORLD, local, local, kN, kN, this, &jd);
    MatShellSetOperation(jd, MATOP_MULT, (void (*)(void))DesignTimes);
    MatShellSetOperation(jd, MATOP_MULT_TRANSPOSE, (void (*)(void))DesignTimes);
    TaoCreate(PETSC_COMM_WORLD, &tao);
    TaoSetType(tao, TAOQPM);
    TaoSetSolution(tao, x);
    TaoSetObjectiveAndGradient(tao, nullptr, Objective, this);
    TaoSetConstraintsRoutine(tao, c, Constraints, this);
    TaoSetJacobianStateRoutine(tao, js, js, nullptr, StateJacobian, this);
    TaoSetJacobianDesignRoutine(tao, jd, DesignJacobian, this);
    TaoSetStateDesignIS(tao, state, design);
    TaoSetTolerances(tao, 1e-9, 0.0, 0.0);
    TaoSetConstraintTolerances(tao, 1e-9, 0.0);
  }
  ~StateDesign() {
    TaoDestroy(&tao);
    for (Vec* v : {&x, &c, &u}) VecDestroy(v);
    for (IS* is : {&state, &design}) ISDestroy(is);
    for (Mat* m : {&js, &jd}) MatDestroy(m);
  }
  // x's entries against y(i) and u(i) for the global row i.
  template <class Y, class U>
  void Check(Y y, U u, double tol) const {
    const PetscScalar* a;
    VecGetArrayRead(x, &a);
    for (PetscInt k = 0; k < local; ++k) {
      BOOST_CHECK_SMALL(a[k] - y(start + k), tol);
      BOOST_CHECK_SMALL(a[local + k] - u(start + k), tol);
    }
    VecRestoreArrayRead(x, &a);
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(QpmSolvesTaoLclsStateDesignFormWithShellJacobiansAndNoHessian) {
  StateDesign p;
  TaoSetFromOptions(p.tao);
  BOOST_REQUIRE_EQUAL(TaoSolve(p.tao), 0);
  TaoConvergedReason reason;
  TaoGetConvergedReason(p.tao, &reason);
  BOOST_REQUIRE_GT(reason, 0);
  p.Check([](PetscInt i) { return i + 0.5; }, [](PetscInt i) { return std::sqrt(i + 0.5); }, 1e-6);
  Vec de, di;
  TaoGetDualVariables(p.tao, &de, &di);
  BOOST_REQUIRE(de);
  Problem::Check(de, [](PetscInt) { return 0.5; }, 1e-6);
}

// Bounds on the design: u <= 6/5 holds u_i = 6/5, y_i = 36/25 for
// a_i - 1/2 > 36/25 (i >= 1); u_0 = sqrt(1/2) is free.
BOOST_AUTO_TEST_CASE(QpmHonoursBoundsOnTheDesignInTaoLclsForm) {
  StateDesign p;
  Vec xl, xu;
  VecDuplicate(p.x, &xl);
  VecDuplicate(p.x, &xu);
  VecSet(xl, PETSC_NINFINITY);
  VecSet(xu, PETSC_INFINITY);
  Vec part;
  VecGetSubVector(xu, p.design, &part);
  VecSet(part, 1.2);
  VecRestoreSubVector(xu, p.design, &part);
  TaoSetVariableBounds(p.tao, xl, xu);
  TaoSetFromOptions(p.tao);
  BOOST_REQUIRE_EQUAL(TaoSolve(p.tao), 0);
  TaoConvergedReason reason;
  TaoGetConvergedReason(p.tao, &reason);
  BOOST_REQUIRE_GT(reason, 0);
  p.Check([](PetscInt i) { return i == 0 ? 0.5 : 1.44; },
          [](PetscInt i) { return i == 0 ? std::sqrt(0.5) : 1.2; }, 1e-6);
  VecDestroy(&xl), VecDestroy(&xu);
}

// The model's products with shell Jacobians are at the point the Jacobian
// was kept at, even after another routine moved the shells' point: with
// x1 = (1, 2) and the shells moved to x2 = (1, 5) by the objective,
// J(x1) (1, 1) = 1 - 2 * 2 = -3 per row and J(x1)^T 1 = (1, -4).
BOOST_AUTO_TEST_CASE(ShellJacobianProductsAreAtTheKeptPointAfterOtherRoutinesMovedTheShells) {
  StateDesign p;
  BOOST_REQUIRE_EQUAL(TaoSetUp(p.tao), 0);
  qpm::petsc::TaoModel model(p.tao, "");
  BOOST_REQUIRE_EQUAL(model.error(), 0);
  const int n = model.num_variables(), m = model.num_constraints();
  BOOST_REQUIRE_EQUAL(n, 2 * m);
  qpm::Vector x1(n), x2(n);
  x1 << qpm::Vector::Constant(m, 1.0), qpm::Vector::Constant(m, 2.0);
  x2 << qpm::Vector::Constant(m, 1.0), qpm::Vector::Constant(m, 5.0);
  const int slot = model.NewJacobianSlot();
  BOOST_REQUIRE(model.EvalJacobian(x1, slot));
  double f = 0.0;
  BOOST_REQUIRE(model.EvalObjective(x2, &f));
  qpm::Vector jv(m), jtw(n);
  model.JacobianTimes(slot, qpm::Vector::Ones(n), jv);
  for (int k = 0; k < m; ++k) BOOST_CHECK_CLOSE(jv[k], -3.0, 1e-12);
  BOOST_REQUIRE(model.EvalObjective(x2, &f));
  model.JacobianTransposeTimes(slot, qpm::Vector::Ones(m), jtw);
  for (int k = 0; k < m; ++k) {
    BOOST_CHECK_CLOSE(jtw[k], 1.0, 1e-12);
    BOOST_CHECK_CLOSE(jtw[m + k], -4.0, 1e-12);
  }
  BOOST_CHECK_EQUAL(model.error(), 0);
}

namespace {

// Two rows c_k = ||x||^2 - k, k = 1, 2, whose Jacobian [2 x^T; 2 x^T] is an
// AIJ matrix with 2 n entries: more than any process's block of x, so that
// the model keeps points in its slots and calls this routine again.
PetscErrorCode SphereRows(Tao, Vec x, Vec c, void*) {
  PetscReal norm;
  PetscInt start, end;
  PetscFunctionBeginUser;
  PetscCall(VecNorm(x, NORM_2, &norm));
  PetscCall(VecGetOwnershipRange(c, &start, &end));
  for (PetscInt r = start; r < end; ++r) PetscCall(VecSetValue(c, r, norm * norm - (r + 1.0), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(c));
  PetscCall(VecAssemblyEnd(c));
  PetscFunctionReturn(0);
}

PetscErrorCode SphereJacobian(Tao, Vec x, Mat j, Mat, void*) {
  Vec all;
  VecScatter to_all;
  const PetscScalar* a;
  PetscInt start, end;
  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToAll(x, &to_all, &all));
  PetscCall(VecScatterBegin(to_all, x, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(to_all, x, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(MatGetOwnershipRange(j, &start, &end));
  PetscCall(VecGetArrayRead(all, &a));
  for (PetscInt r = start; r < end; ++r) {
    for (PetscInt i = 0; i < kN; ++i) PetscCall(MatSetValue(j, r, i, 2.0 * a[i], INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(all, &a));
  PetscCall(MatAssemblyBegin(j, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(j, MAT_FINAL_ASSEMBLY));
  PetscCall(VecScatterDestroy(&to_all));
  PetscCall(VecDestroy(&all));
  PetscFunctionReturn(0);
}

}  // namespace

// Products and squared entries of a kept Jacobian are J's at the slot's
// point, after the user's matrix was refilled at another.
BOOST_DATA_TEST_CASE(AssembledJacobiansLargerThanXAreReEvaluatedAtTheKeptPoint,
                     boost::unit_test::data::make({false, true}), dense) {
  Problem p;
  p.ce = Vector(2, 0.0);
  p.je = Rows(2, dense);
  TaoSetEqualityConstraintsRoutine(p.tao, p.ce, SphereRows, nullptr);
  TaoSetJacobianEqualityRoutine(p.tao, p.je, p.je, SphereJacobian, nullptr);
  BOOST_REQUIRE_EQUAL(TaoSetUp(p.tao), 0);
  qpm::petsc::TaoModel model(p.tao, "");
  BOOST_REQUIRE_EQUAL(model.error(), 0);
  const int n = model.num_variables(), m = model.num_constraints();
  const qpm::Vector ones = qpm::Vector::Ones(n);
  const int a = model.NewJacobianSlot(), b = model.NewJacobianSlot();
  BOOST_REQUIRE(model.EvalJacobian(ones, a));
  BOOST_REQUIRE(model.EvalJacobian(2.0 * ones, b));
  qpm::Vector jv(m), jtw(n), columns = qpm::Vector::Ones(n), rows(m);
  model.JacobianTimes(a, ones, jv);  // J(1) 1 = 2 kN per row
  for (int r = 0; r < m; ++r) BOOST_CHECK_CLOSE(jv[r], 2.0 * kN, 1e-12);
  model.JacobianTimes(b, ones, jv);
  for (int r = 0; r < m; ++r) BOOST_CHECK_CLOSE(jv[r], 4.0 * kN, 1e-12);
  model.JacobianTransposeTimes(a, qpm::Vector::Ones(m), jtw);  // 2 rows of 2
  for (int i = 0; i < n; ++i) BOOST_CHECK_CLOSE(jtw[i], 4.0, 1e-12);
  model.AddJacobianColumnSquares(b, 0.5, columns);  // 1 + (2 rows of 4^2) / 2
  for (int i = 0; i < n; ++i) BOOST_CHECK_CLOSE(columns[i], 17.0, 1e-12);
  model.JacobianTransposeTimesAdd(b, 2.0, qpm::Vector::Ones(m), jtw);  // 4 + 2 (2 rows of 4)
  for (int i = 0; i < n; ++i) BOOST_CHECK_CLOSE(jtw[i], 20.0, 1e-12);
  model.JacobianRowSquares(a, rows);  // kN entries of 2^2
  for (int r = 0; r < m; ++r) BOOST_CHECK_CLOSE(rows[r], 4.0 * kN, 1e-12);
  BOOST_CHECK_EQUAL(model.error(), 0);
}

namespace {

PetscErrorCode CountedSphereJacobian(Tao tao, Vec x, Mat j, Mat pre, void* calls) {
  ++*static_cast<int*>(calls);
  return SphereJacobian(tao, x, j, pre, nullptr);
}

}  // namespace

// One dense row holds no more entries per process than x (by columns on 2
// processes): the slots keep copies, and the products at each slot's point
// call the Jacobian routine no more.
BOOST_AUTO_TEST_CASE(DenseRowSlotsKeepCopiesAndCallTheJacobianRoutineOncePerPoint) {
  Problem p;
  int calls = 0;
  p.ce = Vector(1, 0.0);
  p.je = Rows(1, true);
  TaoSetEqualityConstraintsRoutine(p.tao, p.ce, SphereRows, nullptr);
  TaoSetJacobianEqualityRoutine(p.tao, p.je, p.je, CountedSphereJacobian, &calls);
  BOOST_REQUIRE_EQUAL(TaoSetUp(p.tao), 0);
  qpm::petsc::TaoModel model(p.tao, "");
  BOOST_REQUIRE_EQUAL(model.error(), 0);
  const int n = model.num_variables(), m = model.num_constraints();
  const qpm::Vector ones = qpm::Vector::Ones(n);
  const int a = model.NewJacobianSlot(), b = model.NewJacobianSlot();
  BOOST_REQUIRE(model.EvalJacobian(ones, a));
  BOOST_REQUIRE(model.EvalJacobian(2.0 * ones, b));
  qpm::Vector jv(m), jtw(n), columns = qpm::Vector::Ones(n), rows(m);
  for (int round = 0; round < 2; ++round) {
    model.JacobianTimes(a, ones, jv);  // J(1) 1 = 2 kN
    for (int r = 0; r < m; ++r) BOOST_CHECK_CLOSE(jv[r], 2.0 * kN, 1e-12);
    model.JacobianTransposeTimes(b, qpm::Vector::Ones(m), jtw);  // J(2)^T 1 = 4
    for (int i = 0; i < n; ++i) BOOST_CHECK_CLOSE(jtw[i], 4.0, 1e-12);
  }
  model.AddJacobianColumnSquares(a, 0.5, columns);  // 1 + 2^2 / 2
  for (int i = 0; i < n; ++i) BOOST_CHECK_CLOSE(columns[i], 3.0, 1e-12);
  model.JacobianRowSquares(b, rows);  // kN entries of 4^2
  for (int r = 0; r < m; ++r) BOOST_CHECK_CLOSE(rows[r], 16.0 * kN, 1e-12);
  BOOST_CHECK_EQUAL(calls, 2);
  BOOST_CHECK_EQUAL(model.error(), 0);
}

namespace {

// At each monitor call: f recomputed from TaoGetSolution's Vec against the
// f TAO reports for the iterate; the largest difference.
PetscErrorCode CompareSolutionWithReportedObjective(Tao tao, void* ctx) {
  Vec x, g;
  PetscReal f_reported, f_at_solution;
  PetscFunctionBeginUser;
  PetscCall(TaoGetSolution(tao, &x));
  PetscCall(TaoGetSolutionStatus(tao, nullptr, &f_reported, nullptr, nullptr, nullptr, nullptr));
  PetscCall(VecDuplicate(x, &g));
  PetscCall(Objective(tao, x, &f_at_solution, g, nullptr));
  PetscCall(VecDestroy(&g));
  auto* largest = static_cast<double*>(ctx);
  *largest = std::max(*largest, std::abs(f_at_solution - f_reported));
  PetscFunctionReturn(0);
}

}  // namespace

// TAO's monitors read the iterate in the solution Vec during the solve, as
// with TAO's own solvers (-tao_view_solution, a user's monitor).
BOOST_AUTO_TEST_CASE(MonitorsSeeEachIterateInTheSolutionVec) {
  Problem p;
  p.AddEquality();
  p.AddInequality();  // the equality alone is solved by the first (Newton) step
  double largest = 0.0;
  TaoSetMonitor(p.tao, CompareSolutionWithReportedObjective, &largest, nullptr);
  BOOST_REQUIRE_GT(p.Solve(), 0);
  PetscInt iterations;
  TaoGetIterationNumber(p.tao, &iterations);
  BOOST_REQUIRE_GT(iterations, 1);
  BOOST_CHECK_SMALL(largest, 1e-12);
}

namespace {

PetscErrorCode CountUpdates(Tao, PetscInt iteration, void* ctx) {
  auto* seen = static_cast<std::vector<PetscInt>*>(ctx);
  seen->push_back(iteration);
  return 0;
}

}  // namespace

// TaoSetUpdate's routine is called after every accepted step with TAO's
// iteration number, as TAO's own solvers call it once per iteration.
BOOST_AUTO_TEST_CASE(QpmCallsTheUpdateRoutineOncePerIteration) {
  Problem p;
  p.AddEquality();
  std::vector<PetscInt> seen;
  TaoSetUpdate(p.tao, CountUpdates, &seen);
  BOOST_REQUIRE_GT(p.Solve(), 0);
  PetscInt iterations;
  TaoGetIterationNumber(p.tao, &iterations);
  BOOST_REQUIRE_EQUAL(static_cast<PetscInt>(seen.size()), iterations);
  for (size_t k = 0; k < seen.size(); ++k) BOOST_CHECK_EQUAL(seen[k], static_cast<PetscInt>(k + 1));
}
