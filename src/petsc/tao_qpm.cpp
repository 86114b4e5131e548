// The TAO solver type "qpm": TAO's set-up, solve, view, options and
// destroy around qpm::Solve on a TaoModel (docs/petsc.md). The method is
// the core's, in the mode -tao_qpm_mode chooses (the default mode unless
// set), run by every process on its blocks.
#include <petsc/private/taoimpl.h>

#include <cmath>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "petsc/tao_model.hpp"
#include "petsc/tao_routines.hpp"
#include "qpm/core/option_table.hpp"
#include "qpm/core/solver.hpp"
#include "qpm/petsc/tao.hpp"

namespace {

struct TaoQpm {
  qpm::Options options;   // -tao_qpm_* on top of the defaults
  qpm::Summary summary;   // of the last solve
  bool solved = false;
  qpm::Vector z_l, z_u;   // bound multipliers of the last solve (local)
  std::string pc_type;    // -tao_qpm_pc_type: a PETSc PC for CG, or none (qpm's own)
};

TaoQpm* Data(Tao tao) { return static_cast<TaoQpm*>(tao->data); }

// TAO's tolerances as the core's: Ipopt's test with tol = gatol on the
// gradient of the Lagrangian and constr_viol_tol = catol on ||c||_inf.
// tao->max_it (TAO's iterations are the inner ones) is TAO's own test's.
qpm::Options FromTao(Tao tao, qpm::Options o) {
  o.termination.tol = tao->gatol;
  o.termination.dual_inf_tol = tao->gatol;
  o.termination.constr_viol_tol = tao->catol;
  o.termination.compl_inf_tol = tao->catol;
  return o;
}

// The core's termination as TAO's reason, when TAO's own test (run after
// every iteration) has not given one.
TaoConvergedReason Reason(qpm::TerminationType type) {
  using T = qpm::TerminationType;
  switch (type) {
    case T::kConverged: return TAO_CONVERGED_GATOL;
    case T::kAcceptable: return TAO_CONVERGED_USER;
    case T::kMaxOuterIterations:
    case T::kMaxInnerIterations: return TAO_DIVERGED_MAXITS;
    case T::kStalled: return TAO_DIVERGED_TR_REDUCTION;
    case T::kEvaluationError:
    case T::kInvalidNumberAtStart: return TAO_DIVERGED_NAN;
    default: return TAO_DIVERGED_USER;  // infeasible, diverging, time limits, user stop
  }
}

// After each accepted step: the iterate into tao->solution, then the
// user's update routine (TaoSetUpdate), TAO's history, monitors and
// convergence test (gatol, catol, max_it, max_funcs, a user's test); false
// ends the solve.
bool Monitor(Tao tao, const qpm::petsc::TaoModel& model, const qpm::IterationInfo& info,
             PetscErrorCode* error) {
  if (!std::isfinite(info.f) || !std::isfinite(info.grad_q_norm)) {
    tao->reason = TAO_DIVERGED_NAN;
    return false;
  }
  tao->niter = static_cast<PetscInt>(info.iter);
  // TAO's monitors and the user's routines read the iterate in tao->solution.
  *error = model.WriteVec(Eigen::Map<const qpm::Vector>(info.x, info.n), tao->solution);
  if (*error) return false;
  if (tao->ops->update && info.iter > 0) *error = (*tao->ops->update)(tao, tao->niter, tao->user_update);
  if (!*error) *error = TaoLogConvergenceHistory(tao, info.f, info.grad_q_norm, info.c_norm, tao->ksp_its);
  if (!*error) *error = TaoMonitor(tao, tao->niter, info.f, info.grad_q_norm, info.c_norm, info.step.step_size);
  if (!*error && tao->ops->convergencetest) *error = (*tao->ops->convergencetest)(tao, tao->cnvP);
  return !*error && tao->reason == TAO_CONTINUE_ITERATING;
}

// The solution, multipliers (DE = lambda_e, DI = -lambda_i) and grad f
// back into TAO's vectors.
PetscErrorCode Publish(Tao tao, qpm::petsc::TaoModel& model, const qpm::Summary& s) {
  PetscFunctionBeginUser;
  if (s.x.size() != model.num_variables()) PetscFunctionReturn(0);
  PetscCall(model.WriteVec(s.x, tao->solution));
  const int me = model.num_equality();
  auto put = [](const double* from, int n, double sign, Vec to) -> PetscErrorCode {
    PetscScalar* a;
    PetscFunctionBeginUser;
    PetscCall(VecGetArrayWrite(to, &a));
    for (int i = 0; i < n; ++i) a[i] = sign * from[i];
    PetscCall(VecRestoreArrayWrite(to, &a));
    PetscFunctionReturn(0);
  };
  if (tao->DE) PetscCall(put(s.lambda.data(), me, 1.0, tao->DE));
  if (tao->DI) {
    PetscCall(put(s.lambda.data() + me, static_cast<int>(s.lambda.size()) - me, -1.0, tao->DI));
  }
  PetscCall(TaoComputeGradient(tao, tao->solution, tao->gradient));
  PetscFunctionReturn(0);
}

PetscErrorCode TaoSolve_QPM(Tao tao) {
  TaoQpm* qpm = Data(tao);
  PetscFunctionBegin;
  const qpm::Options options = FromTao(tao, qpm->options);
  std::string why;
  PetscCheck(options.IsValid(&why), PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_OUTOFRANGE,
             "qpm: %s", why.c_str());
  qpm::petsc::TaoModel model(tao, qpm->pc_type);
  PetscCall(model.error());
  qpm::Vector x0(model.num_variables());
  PetscCall(model.ReadVec(tao->solution, x0));
  PetscErrorCode monitor_error = 0;
  qpm::Callbacks callbacks;
  callbacks.on_iteration = [&](const qpm::IterationInfo& info) {
    return !model.error() && Monitor(tao, model, info, &monitor_error);
  };
  try {  // no exception crosses the C boundary
    qpm->summary = qpm::Solve(&model, x0, options, callbacks);
  } catch (const std::bad_alloc&) {
    SETERRQ(PetscObjectComm((PetscObject)tao), PETSC_ERR_MEM, "qpm: out of memory");
  } catch (const std::exception& e) {
    SETERRQ(PetscObjectComm((PetscObject)tao), PETSC_ERR_LIB, "qpm: %s", e.what());
  }
  qpm->solved = true;
  PetscCall(model.error());
  PetscCall(monitor_error);
  PetscCheck(qpm->summary.termination != qpm::TerminationType::kInvalidOptions,
             PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_WRONG, "qpm: %s",
             qpm->summary.message.c_str());
  if (tao->reason == TAO_CONTINUE_ITERATING) tao->reason = Reason(qpm->summary.termination);
  qpm->z_l = qpm->summary.z_l, qpm->z_u = qpm->summary.z_u;
  PetscCall(Publish(tao, model, qpm->summary));
  PetscFunctionReturn(0);
}

PetscErrorCode TaoSetUp_QPM(Tao tao) {
  const MPI_Comm comm = PetscObjectComm((PetscObject)tao);
  PetscFunctionBegin;
  const std::string unread = qpm::petsc::UnreadRoutine(tao);
  PetscCheck(unread.empty(), comm, PETSC_ERR_ARG_WRONGSTATE, "qpm: %s", unread.c_str());
  if (!tao->gradient) PetscCall(VecDuplicate(tao->solution, &tao->gradient));
  PetscCall(TaoComputeVariableBounds(tao));
  if (tao->eq_constrained && !tao->DE) PetscCall(VecDuplicate(tao->constraints_equality, &tao->DE));
  if (qpm::petsc::HasStateDesignConstraints(tao) && !tao->DE) {
    PetscCall(VecDuplicate(tao->constraints, &tao->DE));
  }
  if (tao->ineq_constrained && !tao->DI) {
    PetscCall(VecDuplicate(tao->constraints_inequality, &tao->DI));
  }
  if (tao->DE) PetscCall(VecSet(tao->DE, 0.0));
  if (tao->DI) PetscCall(VecSet(tao->DI, 0.0));
  PetscFunctionReturn(0);
}

// Bound multipliers z_L, z_U >= 0 (Ipopt's, grad f + J^T lambda - z_L + z_U = 0).
PetscErrorCode TaoComputeDual_QPM(Tao tao, Vec dl, Vec du) {
  TaoQpm* qpm = Data(tao);
  PetscFunctionBegin;
  PetscCall(VecSet(dl, 0.0));
  PetscCall(VecSet(du, 0.0));
  PetscInt n;
  PetscCall(VecGetLocalSize(dl, &n));
  if (!qpm->solved || qpm->z_l.size() != n) PetscFunctionReturn(0);
  PetscScalar* a;
  PetscCall(VecGetArrayWrite(dl, &a));
  for (PetscInt i = 0; i < n; ++i) a[i] = qpm->z_l[i];
  PetscCall(VecRestoreArrayWrite(dl, &a));
  PetscCall(VecGetArrayWrite(du, &a));
  for (PetscInt i = 0; i < n; ++i) a[i] = qpm->z_u[i];
  PetscCall(VecRestoreArrayWrite(du, &a));
  PetscFunctionReturn(0);
}

// One -tao_qpm_* option per qpm_* entry of the option table (the names,
// meanings and defaults of docs/options.md).
PetscErrorCode ReadOption(PetscOptionItems* PetscOptionsObject, const qpm::OptionEntry& e,
                          qpm::Options* options) {
  PetscFunctionBegin;
  const std::string flag = "-tao_" + e.name;
  const double current = e.get(*options);
  PetscBool set = PETSC_FALSE;
  switch (e.type) {
    case qpm::OptionType::kNumber: {
      PetscReal v = current;
      PetscCall(PetscOptionsReal(flag.c_str(), e.meaning.c_str(), "", v, &v, &set));
      if (set) e.set(options, v);
      break;
    }
    case qpm::OptionType::kInteger: {
      PetscInt v = static_cast<PetscInt>(std::min(current, 2e9));
      PetscCall(PetscOptionsInt(flag.c_str(), e.meaning.c_str(), "", v, &v, &set));
      if (set) e.set(options, static_cast<double>(v));
      break;
    }
    case qpm::OptionType::kBool: {
      PetscBool v = current != 0.0 ? PETSC_TRUE : PETSC_FALSE;
      PetscCall(PetscOptionsBool(flag.c_str(), e.meaning.c_str(), "", v, &v, &set));
      if (set) e.set(options, v ? 1.0 : 0.0);
      break;
    }
    case qpm::OptionType::kEnum: {
      std::vector<const char*> names;
      for (const qpm::OptionChoice& c : e.choices) names.push_back(c.name.c_str());
      PetscInt v = static_cast<PetscInt>(current);
      PetscCall(PetscOptionsEList(flag.c_str(), e.meaning.c_str(), "", names.data(),
                                  static_cast<PetscInt>(names.size()), names[v], &v, &set));
      if (set) e.set(options, static_cast<double>(v));
      break;
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode TaoSetFromOptions_QPM(Tao tao, PetscOptionItems* PetscOptionsObject) {
  TaoQpm* qpm = Data(tao);
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Quadratic penalty method (qpm) for constrained optimization");
  for (const qpm::OptionEntry& e : qpm::OptionTable()) {
    if (e.registered) PetscCall(ReadOption(PetscOptionsObject, e, &qpm->options));
  }
  char pc_type[64] = "";
  PetscBool set = PETSC_FALSE;
  PetscCall(PetscOptionsString("-tao_qpm_pc_type",
                               "A PETSc PC on the Hessian (preconditioner) matrix for the trust "
                               "region's CG, its options prefixed -tao_qpm_ (default: qpm's Jacobi)",
                               "", pc_type, pc_type, sizeof pc_type, &set));
  if (set) qpm->pc_type = pc_type;
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

PetscErrorCode TaoView_QPM(Tao tao, PetscViewer viewer) {
  TaoQpm* qpm = Data(tao);
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "mode: %s\n",
                                   qpm->options.mode == qpm::Mode::kPaper ? "paper" : "default"));
  if (qpm->solved) {
    const qpm::Summary& s = qpm->summary;
    PetscCall(PetscViewerASCIIPrintf(viewer, "qpm: %s (%s)\n", qpm::ToString(s.termination),
                                     s.message.c_str()));
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "outer iterations %d, inner iterations %ld, penalty %g, "
                                     "||c||_inf %g, Hessian products %ld, preconditioner %s\n",
                                     s.outer_iterations, s.inner_iterations, s.beta, s.c_max,
                                     s.hess_products, s.preconditioner.c_str()));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode TaoDestroy_QPM(Tao tao) {
  PetscFunctionBegin;
  delete Data(tao);
  tao->data = nullptr;
  PetscCall(VecDestroy(&tao->DE));
  PetscCall(VecDestroy(&tao->DI));
  tao->ops->computedual = nullptr;
  PetscFunctionReturn(0);
}

}  // namespace

PETSC_EXTERN PetscErrorCode TaoCreate_QPM(Tao tao) {
  PetscFunctionBegin;
  tao->data = new TaoQpm();
  tao->ops->setup = TaoSetUp_QPM;
  tao->ops->solve = TaoSolve_QPM;
  tao->ops->view = TaoView_QPM;
  tao->ops->setfromoptions = TaoSetFromOptions_QPM;
  tao->ops->destroy = TaoDestroy_QPM;
  tao->ops->computedual = TaoComputeDual_QPM;
  // Constrained: gradient and constraints absolute, as ALMM (grtol and
  // crtol would stop on |grad| / |f| alone).
  if (!tao->grtol_changed) tao->grtol = 0.0;
  if (!tao->crtol_changed) tao->crtol = 0.0;
  if (!tao->gttol_changed) tao->gttol = 0.0;
  PetscFunctionReturn(0);
}

PETSC_EXTERN PetscErrorCode QpmTaoRegister(void) {
  static bool registered = false;
  PetscFunctionBegin;
  if (registered) PetscFunctionReturn(0);
  registered = true;
  PetscCall(TaoRegister(TAOQPM, TaoCreate_QPM));
  PetscFunctionReturn(0);
}

// Called by PETSc when the library is loaded with -dll_append.
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_qpm_petsc(void) { return QpmTaoRegister(); }
