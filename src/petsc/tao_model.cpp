#include "petsc/tao_model.hpp"

#include <petsc/private/taoimpl.h>

#include "petsc/tao_routines.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

namespace qpm {
namespace petsc {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

int LocalSize(Vec v) {
  PetscInt n = 0;
  if (v) VecGetLocalSize(v, &n);
  return static_cast<int>(n);
}

// TAO's infinite bounds are +-PETSC_INFINITY (~1e300); the core's are +-inf.
double Bound(PetscScalar b) {
  if (b <= PETSC_NINFINITY) return -kInf;
  if (b >= PETSC_INFINITY) return kInf;
  return b;
}

PetscErrorCode Copy(const double* from, int n, Vec to) {
  PetscScalar* a;
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(to, &a));
  std::copy(from, from + n, a);
  PetscCall(VecRestoreArrayWrite(to, &a));
  PetscFunctionReturn(0);
}

PetscErrorCode Copy(Vec from, double* to, double sign = 1.0) {
  const PetscScalar* a;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(from, &n));
  PetscCall(VecGetArrayRead(from, &a));
  for (PetscInt i = 0; i < n; ++i) to[i] = sign * a[i];
  PetscCall(VecRestoreArrayRead(from, &a));
  PetscFunctionReturn(0);
}

// A matrix whose values MatDuplicate and MatCopy copy and MatGetRow reads
// (a shell's or a nest's would share or lack them).
bool Assembled(Mat m) {
  PetscBool match = PETSC_FALSE;
  if (!m) return true;
  PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(m), &match, MATSEQAIJ, MATMPIAIJ,
                            MATSEQBAIJ, MATMPIBAIJ, MATSEQDENSE, MATMPIDENSE, "");
  return match;
}

// The equality rows' Vec: the equality routine's, or TaoSetConstraintsRoutine's.
Vec EqualityRows(Tao tao) {
  if (HasStateDesignConstraints(tao)) return tao->constraints;
  return tao->eq_constrained ? tao->constraints_equality : nullptr;
}

// A product that failed: NaN entries, which the core treats as an
// evaluation failure.
void Poison(VectorRef out) { out.setConstant(std::numeric_limits<double>::quiet_NaN()); }

// A Vec of `like`'s layout without storage of its own: its array is placed
// (Placed) for each use.
PetscErrorCode EmptyLike(Vec like, Vec* out) {
  MPI_Comm comm = PetscObjectComm(reinterpret_cast<PetscObject>(like));
  PetscMPIInt size;
  PetscInt n, global, bs;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecGetLocalSize(like, &n));
  PetscCall(VecGetSize(like, &global));
  PetscCall(VecGetBlockSize(like, &bs));
  if (size == 1) {
    PetscCall(VecCreateSeqWithArray(comm, bs, n, nullptr, out));
  } else {
    PetscCall(VecCreateMPIWithArray(comm, bs, n, global, nullptr, out));
  }
  PetscFunctionReturn(0);
}

// `v` reads and writes `data` for the scope of this object (VecPlaceArray).
class Placed {
 public:
  Placed(Vec v, const double* data) : v_(v), code_(VecPlaceArray(v, data)) {}
  ~Placed() {
    if (!code_) VecResetArray(v_);
  }
  Placed(const Placed&) = delete;
  Placed& operator=(const Placed&) = delete;
  PetscErrorCode code() const { return code_; }

 private:
  Vec v_;
  PetscErrorCode code_;
};

}  // namespace

TaoModel::TaoModel(Tao tao, const std::string& pc_type)
    : tao_(tao),
      comm_(PetscObjectComm(reinterpret_cast<PetscObject>(tao))),
      n_(LocalSize(tao->solution)),
      me_(LocalSize(EqualityRows(tao))),
      mi_(tao->ineq_constrained ? LocalSize(tao->constraints_inequality) : 0),
      bounded_(tao->XL || tao->XU),
      state_design_(HasStateDesignConstraints(tao)),
      constrained_(EqualityRows(tao) || tao->ineq_constrained),
      assembled_(!state_design_ && Assembled(tao->jacobian_equality) &&
                 Assembled(tao->jacobian_inequality)),
      keep_points_(assembled_ ? -1 : 1),
      user_hessian_(tao->ops->computehessian != nullptr) {
  PetscBool objective = PETSC_FALSE, both = PETSC_FALSE;
  TaoIsObjectiveDefined(tao, &objective);
  TaoIsObjectiveAndGradientDefined(tao, &both);
  objective_with_gradient_ = !objective && both;
  g_ = tao->gradient;
  Failed(VecDuplicate(tao->solution, &x_));
  Failed(EmptyLike(tao->solution, &v_));
  Failed(EmptyLike(tao->solution, &hv_));
  if (!user_hessian_ || state_design_) Failed(VecDuplicate(tao->solution, &hessian_x_));
  if (EqualityRows(tao)) Failed(VecDuplicate(EqualityRows(tao), &ye_));
  if (tao->ineq_constrained) Failed(VecDuplicate(tao->constraints_inequality, &yi_));
  if (!user_hessian_) {
    Failed(VecDuplicate(tao->solution, &base_gradient_));
    Failed(VecDuplicate(tao->solution, &shifted_));
    if (constrained_) Failed(VecDuplicate(tao->solution, &jtw_));
    if (ye_) Failed(VecDuplicate(ye_, &lambda_e_));
    if (yi_) Failed(VecDuplicate(yi_, &lambda_i_));
  }
  if (!state_design_ && DenseColumns::Serves(tao->jacobian_equality)) {
    equality_columns_ = std::make_unique<DenseColumns>();
  }
  if (tao->ineq_constrained && DenseColumns::Serves(tao->jacobian_inequality)) {
    inequality_columns_ = std::make_unique<DenseColumns>();
  }
  if (state_design_) {
    split_ = std::make_unique<StateDesignSplit>(tao);
    Failed(split_->error());
  }
  if (!pc_type.empty()) {
    Failed(MakePc(pc_type));
  } else if (split_ && StatePreconditioner::Available(tao)) {
    state_pc_ = std::make_unique<StatePreconditioner>(tao, split_.get());
    Failed(state_pc_->error());
  }
}

// The PC is built from the user's Hessian preconditioner matrix, i.e. from
// W alone: the penalty's beta J^T J is left to CG.
PetscErrorCode TaoModel::MakePc(const std::string& type) {
  const char* prefix = nullptr;
  PetscFunctionBeginUser;
  PetscCheck(user_hessian_ && tao_->hessian_pre, comm_, PETSC_ERR_ARG_WRONGSTATE,
             "qpm: -tao_qpm_pc_type needs a Hessian matrix (TaoSetHessian)");
  PetscCall(PCCreate(comm_, &pc_));
  PetscCall(TaoGetOptionsPrefix(tao_, &prefix));
  PetscCall(PCSetOptionsPrefix(pc_, prefix));
  PetscCall(PCAppendOptionsPrefix(pc_, "tao_qpm_"));
  PetscCall(PCSetType(pc_, type.c_str()));
  PetscCall(PCSetFromOptions(pc_));
  PetscFunctionReturn(0);
}

TaoModel::~TaoModel() {
  PCDestroy(&pc_);
  for (Slot& s : slots_) MatDestroy(&s.equality), MatDestroy(&s.inequality), VecDestroy(&s.x);
  for (Vec* v : {&x_, &v_, &hv_, &ye_, &yi_, &hessian_x_, &base_gradient_, &shifted_,
                 &lambda_e_, &lambda_i_, &jtw_}) {
    VecDestroy(v);
  }
}

bool TaoModel::Failed(PetscErrorCode code) {
  if (code && !error_) error_ = code;
  return code != 0;
}

PetscErrorCode TaoModel::ReadVec(Vec v, VectorRef out) const { return Copy(v, out.data()); }
PetscErrorCode TaoModel::WriteVec(const ConstVectorRef& in, Vec v) const {
  return Copy(in.data(), n_, v);
}

double TaoModel::Sum(double local) const {
  double all = local;
  MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return all;
}

double TaoModel::Max(double local) const {
  double all = local;
  MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return all;
}

void TaoModel::GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const {
  x_l.setConstant(-kInf);
  x_u.setConstant(kInf);
  const PetscScalar* a;
  if (tao_->XL && !VecGetArrayRead(tao_->XL, &a)) {
    for (int i = 0; i < n_; ++i) x_l[i] = Bound(a[i]);
    VecRestoreArrayRead(tao_->XL, &a);
  }
  if (tao_->XU && !VecGetArrayRead(tao_->XU, &a)) {
    for (int i = 0; i < n_; ++i) x_u[i] = Bound(a[i]);
    VecRestoreArrayRead(tao_->XU, &a);
  }
  g_l.setZero();
  g_u.head(me_).setZero();
  g_u.tail(mi_).setConstant(kInf);
  if (tao_->ineq_doublesided && tao_->IL && tao_->IU) {  // IL <= c_i <= IU
    if (!VecGetArrayRead(tao_->IL, &a)) {
      for (int j = 0; j < mi_; ++j) g_l[me_ + j] = Bound(a[j]);
      VecRestoreArrayRead(tao_->IL, &a);
    }
    if (!VecGetArrayRead(tao_->IU, &a)) {
      for (int j = 0; j < mi_; ++j) g_u[me_ + j] = Bound(a[j]);
      VecRestoreArrayRead(tao_->IU, &a);
    }
  }
}

PetscErrorCode TaoModel::SetPoint(const ConstVectorRef& x) {
  PetscFunctionBeginUser;
  gradient_at_x_ = false;
  live_slot_ = -1, near_hessian_point_ = false;  // a user routine is called next
  PetscCall(Copy(x.data(), n_, x_));
  PetscFunctionReturn(0);
}

// With only TAO's objective-and-gradient routine, f comes with grad f,
// kept for EvalGradient at the same point (TaoComputeObjective would
// compute it too, into a temporary).
bool TaoModel::EvalObjective(const ConstVectorRef& x, double* f) {
  if (error_ || Failed(SetPoint(x))) return false;
  PetscReal value = 0.0;
  if (objective_with_gradient_) {
    if (Failed(TaoComputeObjectiveAndGradient(tao_, x_, &value, g_))) return false;
    gradient_at_x_ = true;
  } else if (Failed(TaoComputeObjective(tao_, x_, &value))) {
    return false;
  }
  *f = value;
  return true;
}

bool TaoModel::EvalGradient(const ConstVectorRef& x, VectorRef grad_f) {
  bool moved = false;
  if (error_ || Failed(Moved(x, &moved))) return false;
  if (moved || !gradient_at_x_) {
    if (Failed(SetPoint(x)) || Failed(TaoComputeGradient(tao_, x_, g_))) return false;
    gradient_at_x_ = true;
  }
  return !Failed(Copy(g_, grad_f.data()));
}

bool TaoModel::EvalConstraints(const ConstVectorRef& x, VectorRef g) {
  if (error_ || Failed(SetPoint(x))) return false;
  if (!constrained_) return true;
  if (state_design_) {  // TAOLCL's order: the Jacobians at x first (the header)
    if (Failed(ComputeUserJacobians(x_)) || Failed(TaoComputeConstraints(tao_, x_, tao_->constraints)) ||
        Failed(Copy(tao_->constraints, g.data()))) {
      return false;
    }
  } else if (tao_->eq_constrained) {
    if (Failed(TaoComputeEqualityConstraints(tao_, x_, tao_->constraints_equality)) ||
        Failed(Copy(tao_->constraints_equality, g.data()))) {
      return false;
    }
  }
  if (tao_->ineq_constrained) {
    if (Failed(TaoComputeInequalityConstraints(tao_, x_, tao_->constraints_inequality)) ||
        Failed(Copy(tao_->constraints_inequality, g.data() + me_))) {
      return false;
    }
  }
  return true;
}

// Whether x differs from x_ on any process: decided by all, since the
// routine called next is collective.
PetscErrorCode TaoModel::Moved(const ConstVectorRef& x, bool* moved) const {
  const PetscScalar* a;
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x_, &a));
  const bool local = !std::equal(x.data(), x.data() + n_, a);
  PetscCall(VecRestoreArrayRead(x_, &a));
  *moved = Any(local);
  PetscFunctionReturn(0);
}

int TaoModel::NewJacobianSlot() {
  slots_.emplace_back();
  return static_cast<int>(slots_.size()) - 1;
}

// J's values at the slot's point: the user's matrix is refilled at every
// evaluation, so each point the solver keeps has its own copy (same
// pattern: values only; a changed pattern: a new duplicate).
PetscErrorCode TaoModel::Keep(Mat from, Mat* to) {
  PetscFunctionBeginUser;
  if (*to) {
    MatInfo a, b;
    PetscCall(MatGetInfo(from, MAT_LOCAL, &a));
    PetscCall(MatGetInfo(*to, MAT_LOCAL, &b));
    if (a.nz_used == b.nz_used) {
      PetscCall(MatCopy(from, *to, SAME_NONZERO_PATTERN));
      PetscFunctionReturn(0);
    }
    PetscCall(MatDestroy(to));
  }
  PetscCall(MatDuplicate(from, MAT_COPY_VALUES, to));
  PetscFunctionReturn(0);
}

PetscErrorCode TaoModel::ComputeUserJacobians(Vec x) {
  PetscFunctionBeginUser;
  if (state_design_) {
    PetscCall(TaoComputeJacobianState(tao_, x, tao_->jacobian_state, tao_->jacobian_state_pre,
                                      tao_->jacobian_state_inv));
    PetscCall(TaoComputeJacobianDesign(tao_, x, tao_->jacobian_design));
  } else if (tao_->eq_constrained) {
    PetscCall(TaoComputeJacobianEquality(tao_, x, tao_->jacobian_equality, tao_->jacobian_equality_pre));
    if (equality_columns_) PetscCall(equality_columns_->Refresh(tao_->jacobian_equality));
  }
  if (tao_->ineq_constrained) {
    PetscCall(TaoComputeJacobianInequality(tao_, x, tao_->jacobian_inequality,
                                           tao_->jacobian_inequality_pre));
    if (inequality_columns_) PetscCall(inequality_columns_->Refresh(tao_->jacobian_inequality));
  }
  PetscFunctionReturn(0);
}

TaoModel::Operators TaoModel::UserOperators() const {
  Operators j;
  if (state_design_) j.state = tao_->jacobian_state, j.design = tao_->jacobian_design;
  if (tao_->eq_constrained) j.equality = tao_->jacobian_equality;
  if (tao_->ineq_constrained) j.inequality = tao_->jacobian_inequality;
  j.equality_columns = equality_columns_.get(), j.inequality_columns = inequality_columns_.get();
  return j;
}

// The matrices of J at the slot's point: its copies, or the user's
// matrices, brought back to that point when they last saw another.
PetscErrorCode TaoModel::SlotOperators(int slot, Operators* j) {
  PetscFunctionBeginUser;
  Slot& s = slots_[slot];
  if (keep_points_ != 1) {
    j->equality = s.equality, j->inequality = s.inequality;
    if (equality_columns_) j->equality = tao_->jacobian_equality, j->equality_columns = &s.equality_columns;
    if (inequality_columns_) {
      j->inequality = tao_->jacobian_inequality, j->inequality_columns = &s.inequality_columns;
    }
    PetscFunctionReturn(0);
  }
  if (live_slot_ != slot) {
    live_slot_ = -1, near_hessian_point_ = false;
    PetscCall(ComputeUserJacobians(s.x));
    live_slot_ = slot;
  }
  *j = UserOperators();
  PetscFunctionReturn(0);
}

// Copies where no process holds more of J's entries than of x; else points.
// A dense block kept by columns counts the entries of its columns.
bool TaoModel::KeepPoints() {
  if (keep_points_ < 0) {
    MatInfo info;
    double entries = 0.0;
    for (auto [j, columns] : {std::pair{tao_->jacobian_equality, equality_columns_.get()},
                              std::pair{tao_->jacobian_inequality, inequality_columns_.get()}}) {
      if (columns) {
        entries += static_cast<double>(columns->entries());
      } else if (j && !Failed(MatGetInfo(j, MAT_LOCAL, &info))) {
        entries += info.nz_allocated;
      }
    }
    keep_points_ = Any(entries > n_) ? 1 : 0;
  }
  return keep_points_ == 1;
}

bool TaoModel::EvalJacobian(const ConstVectorRef& x, int slot) {
  if (error_ || Failed(SetPoint(x)) || Failed(ComputeUserJacobians(x_))) return false;
  Slot& s = slots_[slot];
  if (KeepPoints()) {
    if ((!s.x && Failed(VecDuplicate(x_, &s.x))) || Failed(VecCopy(x_, s.x))) return false;
    live_slot_ = slot;
    return true;
  }
  if (equality_columns_) {
    s.equality_columns = *equality_columns_;
  } else if (tao_->eq_constrained && Failed(Keep(tao_->jacobian_equality, &s.equality))) {
    return false;
  }
  if (inequality_columns_) {
    s.inequality_columns = *inequality_columns_;
    return true;
  }
  return !tao_->ineq_constrained || !Failed(Keep(tao_->jacobian_inequality, &s.inequality));
}

// (ye_, yi_) = J v; the state and design blocks act on v's entries of
// TaoSetStateDesignIS.
PetscErrorCode TaoModel::Multiply(const Operators& j, Vec v) {
  PetscFunctionBeginUser;
  if (j.equality_columns) {
    PetscCall(j.equality_columns->Multiply(v, ye_));
  } else if (j.equality) {
    PetscCall(MatMult(j.equality, v, ye_));
  }
  if (j.state) {
    PetscCall(split_->GetState(v, split_->state()));
    PetscCall(MatMult(j.state, split_->state(), ye_));
    PetscCall(split_->GetDesign(v, split_->design()));
    PetscCall(MatMultAdd(j.design, split_->design(), ye_, ye_));
  }
  if (j.inequality_columns) {
    PetscCall(j.inequality_columns->Multiply(v, yi_));
  } else if (j.inequality) {
    PetscCall(MatMult(j.inequality, v, yi_));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode TaoModel::MultiplyTranspose(const Operators& j, Vec we, Vec wi, Vec out) {
  PetscFunctionBeginUser;
  PetscCall(VecSet(out, 0.0));
  PetscCall(MultiplyTransposeAdd(j, we, wi, out));
  PetscFunctionReturn(0);
}

PetscErrorCode TaoModel::MultiplyTransposeAdd(const Operators& j, Vec we, Vec wi, Vec out) {
  PetscFunctionBeginUser;
  if (j.equality_columns) {
    PetscCall(j.equality_columns->MultiplyTransposeAdd(we, out));
  } else if (j.equality) {
    PetscCall(MatMultTransposeAdd(j.equality, we, out, out));
  }
  if (j.state) {
    PetscCall(MatMultTranspose(j.state, we, split_->state()));
    PetscCall(split_->SetState(split_->state(), out, ADD_VALUES));
    PetscCall(MatMultTranspose(j.design, we, split_->design()));
    PetscCall(split_->SetDesign(split_->design(), out, ADD_VALUES));
  }
  if (j.inequality_columns) {
    PetscCall(j.inequality_columns->MultiplyTransposeAdd(wi, out));
  } else if (j.inequality) {
    PetscCall(MatMultTransposeAdd(j.inequality, wi, out, out));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode TaoModel::ScaledRows(double alpha, const ConstVectorRef& w) {
  PetscScalar* a;
  PetscFunctionBeginUser;
  for (auto [rows, first, count] : {std::tuple{ye_, 0, me_}, std::tuple{yi_, me_, mi_}}) {
    if (!rows) continue;
    PetscCall(VecGetArrayWrite(rows, &a));
    for (int k = 0; k < count; ++k) a[k] = alpha * w[first + k];
    PetscCall(VecRestoreArrayWrite(rows, &a));
  }
  PetscFunctionReturn(0);
}

void TaoModel::JacobianTimes(int slot, const ConstVectorRef& v, VectorRef out) {
  Operators j;
  const Placed in(v_, v.data());
  if (Failed(SlotOperators(slot, &j)) || Failed(in.code()) || Failed(Multiply(j, v_))) {
    return Poison(out);
  }
  if (ye_ && Failed(Copy(ye_, out.data()))) return Poison(out);
  if (yi_ && Failed(Copy(yi_, out.data() + me_))) return Poison(out);
}

void TaoModel::JacobianTransposeTimes(int slot, const ConstVectorRef& w, VectorRef out) {
  Operators j;
  const Placed result(hv_, out.data());
  const bool failed = Failed(SlotOperators(slot, &j)) || (ye_ && Failed(Copy(w.data(), me_, ye_))) ||
                      (yi_ && Failed(Copy(w.data() + me_, mi_, yi_))) || Failed(result.code()) ||
                      Failed(MultiplyTranspose(j, ye_, yi_, hv_));
  if (failed) Poison(out);
}

void TaoModel::JacobianTransposeTimesAdd(int slot, double alpha, const ConstVectorRef& w,
                                         VectorRef out) {
  Operators j;
  const Placed result(hv_, out.data());
  if (Failed(SlotOperators(slot, &j)) || Failed(ScaledRows(alpha, w)) || Failed(result.code()) ||
      Failed(MultiplyTransposeAdd(j, ye_, yi_, hv_))) {
    Poison(out);
  }
}

constexpr PetscInt kChunk = 4096;  // squared entries passed to VecSetValues at a time
// A dense J's column squares are assembled every kFlushChunks chunks: the
// entries bound for other processes wait in the Vec's stash until then.
constexpr PetscInt kFlushChunks = 64;

// The squares of J's entries over this process's rows: summed per row into
// `row_sums` and added per column, times alpha, into `column_sums`, each
// when given (MatGetRow gives global column indices; the caller's
// VecAssembly sends the entries of columns held elsewhere).
PetscErrorCode TaoModel::SquareEntries(Mat j, double alpha, double* row_sums, Vec column_sums) {
  PetscInt start, end, count;
  const PetscInt* columns;
  const PetscScalar* values;
  PetscBool dense = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(j), &dense, MATSEQDENSE,
                                      MATMPIDENSE, ""));
  if (dense) PetscFunctionReturn(SquareDenseEntries(j, alpha, row_sums, column_sums));
  squares_.resize(kChunk);
  PetscCall(MatGetOwnershipRange(j, &start, &end));
  for (PetscInt r = start; r < end; ++r) {
    PetscCall(MatGetRow(j, r, &count, &columns, &values));
    double sum = 0.0;
    for (PetscInt first = 0; first < count; first += kChunk) {
      const PetscInt size = std::min(kChunk, count - first);
      for (PetscInt k = 0; k < size; ++k) {
        const double square = values[first + k] * values[first + k];
        sum += square;
        squares_[k] = alpha * square;
      }
      if (column_sums) {
        PetscCall(VecSetValues(column_sums, size, columns + first, squares_.data(), ADD_VALUES));
      }
    }
    if (row_sums) row_sums[r - start] = sum;
    PetscCall(MatRestoreRow(j, r, &count, &columns, &values));
  }
  PetscFunctionReturn(0);
}

// As SquareEntries, reading the local rows in place (column-major, with
// its leading dimension): MatGetRow would copy each row of n entries with
// their column indices.
PetscErrorCode TaoModel::SquareDenseEntries(Mat j, double alpha, double* row_sums, Vec column_sums) {
  PetscInt rows, columns, lda;
  const PetscScalar* a;
  PetscFunctionBeginUser;
  squares_.resize(kChunk);
  square_columns_.resize(kChunk);
  PetscCall(MatGetLocalSize(j, &rows, nullptr));
  PetscCall(MatGetSize(j, nullptr, &columns));
  PetscCall(MatDenseGetLDA(j, &lda));
  PetscCall(MatDenseGetArrayRead(j, &a));
  if (row_sums) std::fill(row_sums, row_sums + rows, 0.0);
  for (PetscInt first = 0; first < columns; first += kChunk) {
    const PetscInt size = std::min(kChunk, columns - first);
    for (PetscInt k = 0; k < size; ++k) {
      const PetscScalar* column = a + (first + k) * lda;
      double sum = 0.0;
      for (PetscInt r = 0; r < rows; ++r) {
        const double square = column[r] * column[r];
        if (row_sums) row_sums[r] += square;
        sum += square;
      }
      squares_[k] = alpha * sum;
      square_columns_[k] = first + k;
    }
    if (column_sums && rows > 0) {
      PetscCall(VecSetValues(column_sums, size, square_columns_.data(), squares_.data(), ADD_VALUES));
    }
    // Collective: every process walks the same global columns.
    if (column_sums && (first / kChunk + 1) % kFlushChunks == 0) {
      PetscCall(VecAssemblyBegin(column_sums));
      PetscCall(VecAssemblyEnd(column_sums));
    }
  }
  PetscCall(MatDenseRestoreArrayRead(j, &a));
  PetscFunctionReturn(0);
}

// Unknown for matrices used as operators only: nothing is added (the core's
// Jacobi preconditioner and least-squares scaling then use W's diagonal alone).
void TaoModel::AddJacobianColumnSquares(int slot, double alpha, VectorRef out) {
  Operators j;
  if (!assembled_ || Failed(SlotOperators(slot, &j))) return;
  for (DenseColumns* columns : {j.equality_columns, j.inequality_columns}) {
    if (columns) columns->AddColumnSquares(alpha, out.data());
  }
  const Placed result(hv_, out.data());
  bool failed = Failed(result.code());
  if (j.equality && !j.equality_columns) {
    failed = failed || Failed(SquareEntries(j.equality, alpha, nullptr, hv_));
  }
  if (j.inequality && !j.inequality_columns) {
    failed = failed || Failed(SquareEntries(j.inequality, alpha, nullptr, hv_));
  }
  if (!failed && !Failed(VecAssemblyBegin(hv_))) Failed(VecAssemblyEnd(hv_));
}

// Row i's sum of squares into out_i, from the columns copy or the matrix.
PetscErrorCode TaoModel::RowSquares(Mat j, DenseColumns* columns, double* out) {
  PetscFunctionBeginUser;
  if (columns) PetscFunctionReturn(columns->RowSquares(out));
  PetscFunctionReturn(SquareEntries(j, 1.0, out, nullptr));
}

void TaoModel::JacobianRowSquares(int slot, VectorRef out) {
  Operators j;
  out.setZero();
  if (!assembled_ || Failed(SlotOperators(slot, &j))) return;
  if (j.equality && Failed(RowSquares(j.equality, j.equality_columns, out.data()))) return;
  if (j.inequality) Failed(RowSquares(j.inequality, j.inequality_columns, out.data() + me_));
}

// tao->DE = lambda_e, tao->DI = -lambda_i (the header's conventions).
PetscErrorCode TaoModel::SetMultipliers(const ConstVectorRef& lambda) {
  PetscFunctionBeginUser;
  if (tao_->DE) PetscCall(Copy(lambda.data(), me_, tao_->DE));
  if (tao_->DI) {
    PetscScalar* a;
    PetscCall(VecGetArrayWrite(tao_->DI, &a));
    for (int j = 0; j < mi_; ++j) a[j] = -lambda[me_ + j];
    PetscCall(VecRestoreArrayWrite(tao_->DI, &a));
  }
  PetscFunctionReturn(0);
}

bool TaoModel::EvalHessian(const ConstVectorRef& x, double, const ConstVectorRef& lambda) {
  if (error_) return false;
  if (!hessian_x_) {  // W at x_ (a Hessian routine, no state preconditioner: the header)
    bool moved = false;
    if (Failed(Moved(x, &moved)) || (moved && Failed(SetPoint(x)))) return false;
  }
  live_slot_ = -1, near_hessian_point_ = false;  // the user's routines may move a shell's point
  Vec point = hessian_x_ ? hessian_x_ : x_;
  if (hessian_x_ && Failed(Copy(x.data(), n_, hessian_x_))) return false;
  if (!user_hessian_) {
    if ((lambda_e_ && Failed(Copy(lambda.data(), me_, lambda_e_))) ||
        (lambda_i_ && Failed(Copy(lambda.data() + me_, mi_, lambda_i_)))) {
      return false;
    }
    return !Failed(LagrangianGradient(hessian_x_, base_gradient_));
  }
  if (Failed(SetMultipliers(lambda)) ||
      Failed(TaoComputeHessian(tao_, point, tao_->hessian, tao_->hessian_pre))) {
    return false;
  }
  PetscBool has_norm = PETSC_FALSE;
  if (Failed(MatHasOperation(tao_->hessian, MATOP_NORM, &has_norm))) return false;
  if (!has_norm) return true;
  PetscReal norm = 0.0;
  return !Failed(MatNorm(tao_->hessian, NORM_FROBENIUS, &norm)) && std::isfinite(norm);
}

// grad f(x) + J(x)^T lambda, lambda the multipliers of the last EvalHessian
// (Ipopt's sign), into out.
PetscErrorCode TaoModel::LagrangianGradient(Vec x, Vec out) {
  PetscFunctionBeginUser;
  live_slot_ = -1, near_hessian_point_ = false;
  PetscCall(TaoComputeGradient(tao_, x, out));
  if (!constrained_) PetscFunctionReturn(0);
  PetscCall(ComputeUserJacobians(x));
  near_hessian_point_ = true;  // x is hessian_x_ or within h of it
  PetscCall(MultiplyTranspose(UserOperators(), lambda_e_, lambda_i_, jtw_));
  PetscCall(VecAXPY(out, 1.0, jtw_));
  PetscFunctionReturn(0);
}

// W v ~ (grad L(x + h v) - grad L(x)) / h, h = sqrt(eps) (1 + ||x||) / ||v||.
PetscErrorCode TaoModel::DifferenceProduct(Vec v, Vec out) {
  PetscReal x_norm, v_norm;
  PetscFunctionBeginUser;
  PetscCall(VecNorm(v, NORM_2, &v_norm));
  if (v_norm == 0.0) {
    PetscCall(VecSet(out, 0.0));
    PetscFunctionReturn(0);
  }
  PetscCall(VecNorm(hessian_x_, NORM_2, &x_norm));
  const double h = std::sqrt(PETSC_MACHINE_EPSILON) * (1.0 + x_norm) / v_norm;
  PetscCall(VecWAXPY(shifted_, h, v, hessian_x_));
  PetscCall(LagrangianGradient(shifted_, out));
  PetscCall(VecAXPY(out, -1.0, base_gradient_));
  PetscCall(VecScale(out, 1.0 / h));
  PetscFunctionReturn(0);
}

void TaoModel::HessianTimes(const ConstVectorRef& v, VectorRef out) {
  const Placed in(v_, v.data()), result(hv_, out.data());
  if (Failed(in.code()) || Failed(result.code()) ||
      Failed(user_hessian_ ? MatMult(tao_->hessian, v_, hv_) : DifferenceProduct(v_, hv_))) {
    Poison(out);
  }
}

// diag(W) where the matrix has it stored: a matrix-free one (MFFD, shell)
// would difference or apply once per column, n products for a preconditioner.
void TaoModel::HessianDiagonal(VectorRef d) {
  d.setZero();
  PetscBool has = PETSC_FALSE, matrix_free = PETSC_FALSE;
  if (!user_hessian_ ||
      Failed(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(tao_->hessian), &matrix_free,
                                       MATMFFD, MATSHELL, "")) ||
      matrix_free || Failed(MatHasOperation(tao_->hessian, MATOP_GET_DIAGONAL, &has)) || !has) {
    return;
  }
  const Placed result(hv_, d.data());
  if (Failed(result.code()) || Failed(MatGetDiagonal(tao_->hessian, hv_))) d.setZero();
}

PetscErrorCode TaoModel::AtHessianPoint() {
  PetscFunctionBeginUser;
  if (near_hessian_point_) PetscFunctionReturn(0);
  live_slot_ = -1;
  PetscCall(ComputeUserJacobians(hessian_x_));
  near_hessian_point_ = true;
  PetscFunctionReturn(0);
}

// W was just evaluated into the user's matrices: the PC is set up anew; or
// the state preconditioner's curvature is measured by a product with W.
bool TaoModel::UpdatePreconditioner(double beta) {
  if (error_) return false;
  if (state_pc_) {
    const StatePreconditioner::HessianProduct w = [this](Vec v, Vec out) {
      return user_hessian_ ? MatMult(tao_->hessian, v, out) : DifferenceProduct(v, out);
    };
    return !Failed(AtHessianPoint()) && !Failed(state_pc_->Update(beta, w));
  }
  return !Failed(PCSetOperators(pc_, tao_->hessian_pre, tao_->hessian_pre)) && !Failed(PCSetUp(pc_));
}

void TaoModel::ApplyPreconditioner(const ConstVectorRef& r, VectorRef z) {
  const Placed in(v_, r.data()), result(hv_, z.data());
  const bool failed = Failed(in.code()) || Failed(result.code()) ||
                      (state_pc_ ? Failed(AtHessianPoint()) || Failed(state_pc_->Apply(v_, hv_))
                                 : Failed(PCApply(pc_, v_, hv_)));
  if (failed) Poison(z);
}

}  // namespace petsc
}  // namespace qpm
