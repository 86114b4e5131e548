// A TAO problem as the core's distributed model (qpm/core/distributed.hpp):
// this process's block of x (the local part of the solution Vec) and of
// the rows (the local parts of the equality, then the inequality constraint
// Vecs), with the user's callbacks through TAO's TaoCompute* routines and
// products with J and W through MatMult (docs/petsc.md).
//
// TAO's problem:   min f(x)  s.t.  c_e(x) = 0,  c_i(x) >= 0 (or IL <= c_i <= IU),
// XL <= x <= XU. The core's rows are g = (c_e, c_i) with bounds [0, 0] and
// [0, inf] (or [IL, IU]); its multipliers lambda (Ipopt's sign, L = f +
// lambda' g) are TAO's DE = lambda_e and DI = -lambda_i (PDIPM's convention,
// L = f + DE' c_e - DI' c_i, DI >= 0). c_e comes from the equality routine,
// or from TaoSetConstraintsRoutine with its Jacobian as TAOLCL takes it:
// J = [J_state, J_design] over the columns of TaoSetStateDesignIS. As
// TAOLCL does, the Jacobian routines are called at x before the constraints
// routine: PETSc's PDE programs compute coefficients of c(x) there.
//
// The Jacobians: each point the solver keeps (a slot) holds either a copy
// of the matrices' values (MatCopy) or the point itself, at which the
// Jacobian routines are called again when the user's matrices last saw
// another (any user routine may move a shell's point). Copies are kept
// where every Jacobian matrix is assembled (AIJ, BAIJ, dense) and no
// process holds more of their entries than of x; otherwise the point is the
// smaller (a dense row's owner holds n entries), or the only choice (shell
// matrices, the state and design blocks: used through MatMult and
// MatMultTranspose alone). Products read and write the core's vectors in
// place (VecPlaceArray), without copies.
//
// The Hessian: the user's Hessian routine is called with tao->DE and
// tao->DI set to the current multipliers, as PDIPM does, so a routine
// that forms the Hessian of the Lagrangian from them gives W; one that
// forms the objective's alone gives W without the constraints' curvature.
// Without a Hessian routine, W v is a finite difference of the gradient of
// the Lagrangian, grad f + J^T lambda (of the objective's gradient alone
// without constraints: TaoDefaultComputeHessianMFFD's choice).
//
// PETSc errors inside a callback end the evaluation as failed and are kept
// (error()); the solver returns them after the core stops.
#ifndef QPM_PETSC_TAO_MODEL_HPP_
#define QPM_PETSC_TAO_MODEL_HPP_

#include <petsctao.h>

#include <memory>
#include <string>
#include <vector>

#include "qpm/core/distributed.hpp"
#include "petsc/dense_columns.hpp"
#include "petsc/state_design.hpp"
#include "petsc/state_preconditioner.hpp"
#include "qpm/core/problem.hpp"

namespace qpm {
namespace petsc {

class TaoModel final : public Problem, public DistributedModel, private Reductions {
 public:
  // After TaoSetUp (bounds computed, DE and DI allocated). `pc_type`, when
  // not empty: a PETSc PC of that type on the user's Hessian
  // (preconditioner) matrix preconditions the trust region's CG; its own
  // options take the prefix -tao_qpm_ (docs/petsc.md).
  TaoModel(Tao tao, const std::string& pc_type);
  ~TaoModel() override;
  TaoModel(const TaoModel&) = delete;
  TaoModel& operator=(const TaoModel&) = delete;

  // The first PETSc error met (0: none).
  PetscErrorCode error() const { return error_; }
  int num_equality() const { return me_; }
  // x (size n) into and out of a Vec of the solution's layout.
  PetscErrorCode ReadVec(Vec v, VectorRef out) const;
  PetscErrorCode WriteVec(const ConstVectorRef& in, Vec v) const;

  // Problem: this process's blocks.
  int num_variables() const override { return n_; }
  int num_constraints() const override { return me_ + mi_; }
  void GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const override;
  bool AnyVariableBound() const override { return bounded_; }
  void InitJacobian(SparseMatrix* jacobian) const override { jacobian->resize(0, 0); }
  bool EvalObjective(const ConstVectorRef& x, double* f) override;
  bool EvalConstraints(const ConstVectorRef& x, VectorRef g) override;
  bool EvalGradient(const ConstVectorRef& x, VectorRef grad_f) override;
  bool EvalJacobian(const ConstVectorRef&, SparseMatrixView*) override { return false; }
  bool has_hessian() const override { return true; }
  DistributedModel* distributed() override { return this; }

  // DistributedModel.
  const Reductions& reductions() const override { return *this; }
  int NewJacobianSlot() override;
  bool EvalJacobian(const ConstVectorRef& x, int slot) override;
  void JacobianTimes(int slot, const ConstVectorRef& v, VectorRef out) override;
  void JacobianTransposeTimes(int slot, const ConstVectorRef& w, VectorRef out) override;
  void JacobianTransposeTimesAdd(int slot, double alpha, const ConstVectorRef& w,
                                 VectorRef out) override;
  void AddJacobianColumnSquares(int slot, double alpha, VectorRef out) override;
  void JacobianRowSquares(int slot, VectorRef out) override;
  bool EvalHessian(const ConstVectorRef& x, double sigma, const ConstVectorRef& lambda) override;
  void HessianTimes(const ConstVectorRef& v, VectorRef out) override;
  void HessianDiagonal(VectorRef d) override;
  bool has_preconditioner() const override { return pc_ || state_pc_; }
  bool UpdatePreconditioner(double beta) override;
  void ApplyPreconditioner(const ConstVectorRef& r, VectorRef z) override;

 private:
  // A kept Jacobian: copies of the matrices' values (of a dense block kept
  // by columns, of its columns), or (keep_points_) the point at which the
  // Jacobian routines are called again.
  struct Slot {
    Mat equality = nullptr, inequality = nullptr;
    DenseColumns equality_columns, inequality_columns;
    Vec x = nullptr;
  };
  // The matrices of one Jacobian, by the rows they give; a dense block
  // kept by columns (DenseColumns) is applied through that copy.
  struct Operators {
    Mat equality = nullptr, state = nullptr, design = nullptr, inequality = nullptr;
    DenseColumns *equality_columns = nullptr, *inequality_columns = nullptr;
  };
  // Reductions over the Tao's communicator.
  double Sum(double local) const override;
  double Max(double local) const override;

  bool Failed(PetscErrorCode code);  // keeps the first error; true on one
  PetscErrorCode SetPoint(const ConstVectorRef& x);  // x_ <- x
  PetscErrorCode Moved(const ConstVectorRef& x, bool* moved) const;  // x != x_ anywhere
  PetscErrorCode Keep(Mat from, Mat* to);  // a copy of J's values for a slot
  bool KeepPoints();                        // decided at the first Jacobian (the header)
  PetscErrorCode SquareEntries(Mat j, double alpha, double* row_sums, Vec column_sums);
  PetscErrorCode SquareDenseEntries(Mat j, double alpha, double* row_sums, Vec column_sums);
  PetscErrorCode RowSquares(Mat j, DenseColumns* columns, double* out);
  PetscErrorCode SetMultipliers(const ConstVectorRef& lambda);
  PetscErrorCode ComputeUserJacobians(Vec x);  // the user's matrices at x
  Operators UserOperators() const;
  PetscErrorCode SlotOperators(int slot, Operators* ops);
  PetscErrorCode Multiply(const Operators& j, Vec v);  // (ye_, yi_) = J v
  PetscErrorCode MultiplyTranspose(const Operators& j, Vec we, Vec wi, Vec out);  // out = J^T w
  PetscErrorCode MultiplyTransposeAdd(const Operators& j, Vec we, Vec wi, Vec out);  // out += J^T w
  PetscErrorCode ScaledRows(double alpha, const ConstVectorRef& w);  // (ye_, yi_) = alpha w
  PetscErrorCode LagrangianGradient(Vec x, Vec out);
  PetscErrorCode DifferenceProduct(Vec v, Vec out);
  PetscErrorCode AtHessianPoint();  // the user's matrices near where W was evaluated
  PetscErrorCode MakePc(const std::string& type);

  Tao tao_;
  MPI_Comm comm_;
  int n_ = 0, me_ = 0, mi_ = 0;
  bool bounded_ = false;
  bool state_design_ = false;              // c_e from TaoSetConstraintsRoutine (TAOLCL's form)
  bool constrained_ = false;               // any rows, on any process
  bool assembled_ = false;                 // J's entries readable (MatGetRow; the header)
  int keep_points_ = -1;                   // slots hold points, not copies (-1: undecided)
  int live_slot_ = -1;                     // the slot whose point the user's matrices hold
  bool near_hessian_point_ = false;        // ... or they hold one within h of hessian_x_
  bool user_hessian_ = false;
  bool objective_with_gradient_ = false;  // f only through the objective-and-gradient routine
  bool gradient_at_x_ = false;            // g_ holds grad f at x_
  PetscErrorCode error_ = 0;
  Vec x_ = nullptr;                       // the evaluation point
  Vec g_ = nullptr;                       // grad f at x_ (TAO's gradient Vec, not owned)
  Vec v_ = nullptr, hv_ = nullptr;        // products' input and output: no storage, placed
  Vec ye_ = nullptr, yi_ = nullptr;       // row-space work (c_e and c_i layouts)
  Vec hessian_x_ = nullptr;               // where W was evaluated (x_ with a Hessian routine)
  Vec base_gradient_ = nullptr, shifted_ = nullptr;  // finite-difference W: grad L at hessian_x_, x + h v
  Vec lambda_e_ = nullptr, lambda_i_ = nullptr;      // finite-difference W: its multipliers
  Vec jtw_ = nullptr;                                // finite-difference W: J^T lambda
  PC pc_ = nullptr;                       // the user's PC on tao->hessian_pre, or none
  std::unique_ptr<StateDesignSplit> split_;        // x's state and design entries (TAOLCL's form)
  std::unique_ptr<StatePreconditioner> state_pc_;  // from the state Jacobian's inverse, or none
  std::unique_ptr<DenseColumns> equality_columns_, inequality_columns_;  // MATMPIDENSE blocks, or none
  std::vector<Slot> slots_;
  std::vector<PetscScalar> squares_;      // a chunk of squared entries (SquareEntries)
  std::vector<PetscInt> square_columns_;  // their columns (dense matrices)
};

}  // namespace petsc
}  // namespace qpm

#endif  // QPM_PETSC_TAO_MODEL_HPP_
