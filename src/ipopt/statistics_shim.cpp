#include "statistics_shim.hpp"

#include <IpIpoptCalculatedQuantities.hpp>
#include <IpIpoptData.hpp>
#include <IpIpoptNLP.hpp>

namespace qpm {
namespace {

using namespace Ipopt;

// Answers what SolveStatistics' constructor asks; never used to solve.
class StubIpoptNLP : public IpoptNLP {
 public:
  StubIpoptNLP() : IpoptNLP(nullptr) {}
  bool InitializeStructures(SmartPtr<Vector>&, bool, SmartPtr<Vector>&, bool,
                            SmartPtr<Vector>&, bool, SmartPtr<Vector>&, bool,
                            SmartPtr<Vector>&, bool, SmartPtr<Vector>&,
                            SmartPtr<Vector>&) override { return false; }
  bool GetWarmStartIterate(IteratesVector&) override { return false; }
  Number f(const Vector&) override { return 0.0; }
  SmartPtr<const Vector> grad_f(const Vector&) override { return nullptr; }
  SmartPtr<const Vector> c(const Vector&) override { return nullptr; }
  SmartPtr<const Matrix> jac_c(const Vector&) override { return nullptr; }
  SmartPtr<const Vector> d(const Vector&) override { return nullptr; }
  SmartPtr<const Matrix> jac_d(const Vector&) override { return nullptr; }
  SmartPtr<const SymMatrix> h(const Vector&, Number, const Vector&, const Vector&) override {
    return nullptr;
  }
  SmartPtr<const Vector> x_L() const override { return nullptr; }
  SmartPtr<const Matrix> Px_L() const override { return nullptr; }
  SmartPtr<const Vector> x_U() const override { return nullptr; }
  SmartPtr<const Matrix> Px_U() const override { return nullptr; }
  SmartPtr<const Vector> d_L() const override { return nullptr; }
  SmartPtr<const Matrix> Pd_L() const override { return nullptr; }
  SmartPtr<const Vector> d_U() const override { return nullptr; }
  SmartPtr<const Matrix> Pd_U() const override { return nullptr; }
  SmartPtr<const SymMatrixSpace> HessianMatrixSpace() const override { return nullptr; }
  void GetSpaces(SmartPtr<const VectorSpace>&, SmartPtr<const VectorSpace>&,
                 SmartPtr<const VectorSpace>&, SmartPtr<const VectorSpace>&,
                 SmartPtr<const MatrixSpace>&, SmartPtr<const VectorSpace>&,
                 SmartPtr<const MatrixSpace>&, SmartPtr<const VectorSpace>&,
                 SmartPtr<const MatrixSpace>&, SmartPtr<const VectorSpace>&,
                 SmartPtr<const MatrixSpace>&, SmartPtr<const MatrixSpace>&,
                 SmartPtr<const MatrixSpace>&, SmartPtr<const SymMatrixSpace>&) override {}
  void AdjustVariableBounds(const Vector&, const Vector&, const Vector&,
                            const Vector&) override {}
  Index f_evals() const override { return 0; }
  Index grad_f_evals() const override { return 0; }
  Index c_evals() const override { return 0; }
  Index jac_c_evals() const override { return 0; }
  Index d_evals() const override { return 0; }
  Index jac_d_evals() const override { return 0; }
  Index h_evals() const override { return 0; }
  Number f(const Vector&, Number) override { return 0.0; }
  SmartPtr<const Vector> grad_f(const Vector&, Number) override { return nullptr; }
  SmartPtr<const SymMatrix> h(const Vector&, Number, const Vector&, const Vector&,
                              Number) override {
    return nullptr;
  }
  SmartPtr<const SymMatrix> uninitialized_h() override { return nullptr; }
  void FinalizeSolution(SolverReturn, const Vector&, const Vector&, const Vector&,
                        const Vector&, const Vector&, const Vector&, const Vector&, Number,
                        const IpoptData*, IpoptCalculatedQuantities*) override {}
  bool IntermediateCallBack(AlgorithmMode, Index, Number, Number, Number, Number, Number,
                            Number, Number, Number, Index, SmartPtr<const IpoptData>,
                            SmartPtr<IpoptCalculatedQuantities>) override {
    return true;
  }
};

class StubCalculatedQuantities : public IpoptCalculatedQuantities {
 public:
  StubCalculatedQuantities(const SmartPtr<IpoptNLP>& nlp, const SmartPtr<IpoptData>& data)
      : IpoptCalculatedQuantities(nlp, data) {}
  Number curr_f() override { return 0.0; }
  Number unscaled_curr_f() override { return 0.0; }
  Number curr_nlp_constraint_violation(ENormType) override { return 0.0; }
  Number unscaled_curr_nlp_constraint_violation(ENormType) override { return 0.0; }
  Number curr_dual_infeasibility(ENormType) override { return 0.0; }
  Number unscaled_curr_dual_infeasibility(ENormType) override { return 0.0; }
  Number curr_complementarity(Number, ENormType) override { return 0.0; }
  Number unscaled_curr_complementarity(Number, ENormType) override { return 0.0; }
  Number curr_nlp_error() override { return 0.0; }
  Number unscaled_curr_nlp_error() override { return 0.0; }
};

class QpmStatistics : public SolveStatistics {
 public:
  QpmStatistics(const SolveFigures& figures, const SmartPtr<IpoptNLP>& nlp,
                const SmartPtr<IpoptData>& data, const SmartPtr<IpoptCalculatedQuantities>& cq)
      : SolveStatistics(nlp, data, cq), s_(figures) {}
  Index IterationCount() const override { return s_.iterations; }
  Number TotalCpuTime() const override { return s_.cpu_time; }
  Number TotalSysTime() const override { return 0.0; }
  Number TotalWallclockTime() const override { return s_.wall_time; }
  void NumberOfEvaluations(Index& obj, Index& constr, Index& obj_grad, Index& constr_jac,
                           Index& hess) const override {
    obj = s_.obj_evals, constr = s_.constr_evals, obj_grad = s_.obj_grad_evals;
    constr_jac = s_.constr_jac_evals, hess = s_.hess_evals;
  }
  void Infeasibilities(Number& dual_inf, Number& constr_viol, Number& compl_,
                       Number& kkt) const override {
    dual_inf = s_.dual_inf, constr_viol = s_.constr_viol, compl_ = 0.0;
    kkt = std::max(dual_inf, constr_viol);
  }
  void ScaledInfeasibilities(Number& dual_inf, Number& constr_viol, Number& compl_,
                             Number& kkt) const override {
    dual_inf = s_.scaled_dual_inf, constr_viol = s_.constr_viol, compl_ = 0.0;
    kkt = std::max(dual_inf, constr_viol);
  }
  Number FinalObjective() const override { return s_.objective; }
  Number FinalScaledObjective() const override { return s_.scaled_objective; }

 private:
  SolveFigures s_;
};

}  // namespace

SmartPtr<SolveStatistics> MakeStatistics(const SolveFigures& figures) {
  SmartPtr<IpoptNLP> nlp = new StubIpoptNLP();
  SmartPtr<IpoptData> data = new IpoptData();
  SmartPtr<IpoptCalculatedQuantities> cq = new StubCalculatedQuantities(nlp, data);
  return new QpmStatistics(figures, nlp, data, cq);
}

}  // namespace qpm
