#include "petsc/tao_routines.hpp"

#include <petsc/private/taoimpl.h>

#include <vector>

namespace qpm {
namespace petsc {

namespace {

struct Rule {
  bool refused;
  const char* message;
};

// The rules in the order of docs/petsc.md's table: the objective first,
// then each kind of row, then the parts of TAO's problem qpm has no use for.
std::vector<Rule> Rules(Tao tao) {
  const TaoOps ops = tao->ops;
  const bool objective = ops->computeobjective || ops->computeobjectiveandgradient;
  const bool gradient = ops->computegradient || ops->computeobjectiveandgradient;
  const bool state_design = ops->computejacobianstate || ops->computejacobiandesign;
  const bool lcl = ops->computeconstraints != nullptr;
  return {
      {ops->computeresidual != nullptr,
       "TaoSetResidualRoutine() (a least-squares objective) is not read by qpm: give the "
       "objective with TaoSetObjective() or TaoSetObjectiveAndGradient()"},
      {ops->computeresidualjacobian != nullptr,
       "TaoSetJacobianResidualRoutine() is not read by qpm: give the objective's gradient with "
       "TaoSetGradient() or TaoSetObjectiveAndGradient()"},
      {tao->res_weights_v != nullptr || tao->res_weights_n > 0,
       "TaoSetResidualWeights() is not read by qpm (it reads no residuals)"},
      {!objective, "qpm needs the objective: TaoSetObjective() or TaoSetObjectiveAndGradient()"},
      {!gradient, "qpm needs the objective's gradient: TaoSetGradient() or TaoSetObjectiveAndGradient()"},
      {ops->computejacobian != nullptr,
       "TaoSetJacobianRoutine() is not read by qpm: give the constraints' Jacobians with "
       "TaoSetJacobianEqualityRoutine() and TaoSetJacobianInequalityRoutine(), or with "
       "TaoSetJacobianStateRoutine() and TaoSetJacobianDesignRoutine()"},
      {lcl && !(ops->computejacobianstate && ops->computejacobiandesign),
       "TaoSetConstraintsRoutine() needs its Jacobian: TaoSetJacobianStateRoutine() and "
       "TaoSetJacobianDesignRoutine()"},
      {lcl && !(tao->state_is && tao->design_is),
       "TaoSetConstraintsRoutine() needs TaoSetStateDesignIS() (which entries of x are states)"},
      {!lcl && state_design,
       "TaoSetJacobianStateRoutine() and TaoSetJacobianDesignRoutine() need the constraints "
       "they differentiate: TaoSetConstraintsRoutine()"},
      {!lcl && (tao->state_is || tao->design_is),
       "TaoSetStateDesignIS() needs the constraints: TaoSetConstraintsRoutine()"},
      {lcl && tao->eq_constrained,
       "qpm reads equality constraints from TaoSetConstraintsRoutine() or from "
       "TaoSetEqualityConstraintsRoutine(), not both: give them in one routine"},
      {tao->eq_constrained && !(ops->computejacobianequality && tao->jacobian_equality),
       "equality constraints need TaoSetJacobianEqualityRoutine()"},
      {tao->ineq_constrained && !(ops->computejacobianinequality && tao->jacobian_inequality),
       "inequality constraints need TaoSetJacobianInequalityRoutine()"},
      {!tao->ineq_constrained && (tao->IL || tao->IU),
       "TaoSetInequalityBounds() needs inequality constraints: TaoSetInequalityConstraintsRoutine()"},
      {tao->gradient_norm != nullptr,
       "TaoSetGradientNorm() is not read by qpm: its tests measure the gradient of the "
       "Lagrangian in the max-norm (-tao_gatol)"},
  };
}

}  // namespace

std::string UnreadRoutine(Tao tao) {
  for (const Rule& rule : Rules(tao)) {
    if (rule.refused) return rule.message;
  }
  return "";
}

bool HasStateDesignConstraints(Tao tao) { return tao->ops->computeconstraints != nullptr; }

}  // namespace petsc
}  // namespace qpm
