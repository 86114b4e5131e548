#include "core/penalty.hpp"

#include <algorithm>

#include "core/linalg/huge_pages.hpp"

namespace qpm {

// J's products (JacobianProducts, for the JzOperator) and W.
class PenaltyFunction::Algebra : public JacobianProducts {
 public:
  virtual void Allocate(Iterate* it) const = 0;
  virtual bool EvalJacobian(const ConstVectorRef& x, Iterate* it) = 0;
  // W at x with sigma = 1 and `lambda`; false on failure or a non-finite entry.
  virtual bool EvalHessian(const ConstVectorRef& x, const Vector& lambda) = 0;
  virtual void HessianTimes(const ConstVectorRef& v, VectorRef out) = 0;
  virtual void HessianDiagonal(VectorRef d) = 0;
};

// J's values per iterate over the penalty's one pattern, W's lower triangle
// in the penalty (PenaltyFunction::hessian()), products by Eigen.
class PenaltyFunction::Assembled : public PenaltyFunction::Algebra {
 public:
  explicit Assembled(PenaltyFunction* q) : q_(*q) {}
  void Allocate(Iterate* it) const override {
    SetZeroLarge(&it->jacobian_values, static_cast<Eigen::Index>(q_.jacobian_pattern_.inner.size()));
    it->jacobian_pattern = &q_.jacobian_pattern_;
  }
  bool EvalJacobian(const ConstVectorRef& x, Iterate* it) override {
    SparseMatrixView jacobian = it->jacobian();
    if (!q_.problem_->EvalJacobian(x, &jacobian)) return false;
    q_.ClearFreeRows(jacobian);
    return true;
  }
  void Times(const Iterate& it, const ConstVectorRef& v, VectorRef out) override {
    out.noalias() = it.jacobian() * v;
  }
  void TransposeTimes(const Iterate& it, const ConstVectorRef& w, VectorRef out) override {
    out.noalias() = it.jacobian().transpose() * w;
  }
  void TransposeTimesAdd(const Iterate& it, double alpha, const ConstVectorRef& w,
                         VectorRef out) override {
    out.noalias() += alpha * (it.jacobian().transpose() * w);
  }
  // One pass over J: row r gives (J v)_r and at once adds (alpha J_ri) jv_r
  // to out_i, each sum in the order and rounding of Eigen's J * v and
  // alpha * (J^T jv), so the products are bit for bit the two-pass ones.
  void AddGramTimes(const Iterate& it, double alpha, const ConstVectorRef& v, VectorRef jv,
                    VectorRef out) override {
    const ConstSparseMatrixView j = it.jacobian();
    const int* outer = j.outerIndexPtr();
    const int* inner = j.innerIndexPtr();
    const double* a = j.valuePtr();
    for (int r = 0; r < j.outerSize(); ++r) {
      double sum = 0.0;
      for (int k = outer[r]; k < outer[r + 1]; ++k) sum += a[k] * v[inner[k]];
      jv[r] += sum;
      const double w = jv[r];
      for (int k = outer[r]; k < outer[r + 1]; ++k) out[inner[k]] += (alpha * a[k]) * w;
    }
  }
  void AddColumnSquares(const Iterate& it, double alpha, VectorRef out) override {
    const ConstSparseMatrixView j = it.jacobian();
    for (int r = 0; r < j.outerSize(); ++r) {
      for (ConstSparseMatrixView::InnerIterator e(j, r); e; ++e) out[e.col()] += alpha * e.value() * e.value();
    }
  }
  void RowSquares(const Iterate& it, const Vector* free, VectorRef out) override {
    const ConstSparseMatrixView j = it.jacobian();
    for (int r = 0; r < j.outerSize(); ++r) {
      out[r] = 0.0;
      for (ConstSparseMatrixView::InnerIterator e(j, r); e; ++e) {
        if (!free || (*free)[e.col()] != 0.0) out[r] += e.value() * e.value();
      }
    }
  }
  bool EvalHessian(const ConstVectorRef& x, const Vector& lambda) override {
    SparseMatrix& w = q_.hessian_;
    if (!q_.problem_->EvalHessian(x, 1.0, lambda, &w)) return false;
    return std::isfinite(Eigen::Map<const Vector>(w.valuePtr(), w.nonZeros()).sum());
  }
  void HessianTimes(const ConstVectorRef& v, VectorRef out) override { q_.SymmetricProduct(v, out); }
  void HessianDiagonal(VectorRef d) override;

 private:
  PenaltyFunction& q_;
};

// The operators of a model split over processes (qpm/core/distributed.hpp).
class PenaltyFunction::Operators : public PenaltyFunction::Algebra {
 public:
  explicit Operators(DistributedModel* model) : model_(*model) {}
  void Allocate(Iterate* it) const override {
    if (it->jacobian_slot < 0) it->jacobian_slot = model_.NewJacobianSlot();
  }
  bool EvalJacobian(const ConstVectorRef& x, Iterate* it) override {
    return model_.EvalJacobian(x, it->jacobian_slot);
  }
  void Times(const Iterate& it, const ConstVectorRef& v, VectorRef out) override {
    model_.JacobianTimes(it.jacobian_slot, v, out);
  }
  void TransposeTimes(const Iterate& it, const ConstVectorRef& w, VectorRef out) override {
    model_.JacobianTransposeTimes(it.jacobian_slot, w, out);
  }
  void TransposeTimesAdd(const Iterate& it, double alpha, const ConstVectorRef& w,
                         VectorRef out) override {
    model_.JacobianTransposeTimesAdd(it.jacobian_slot, alpha, w, out);
  }
  void AddGramTimes(const Iterate& it, double alpha, const ConstVectorRef& v, VectorRef jv,
                    VectorRef out) override {
    if (j_times_v_.size() != jv.size()) j_times_v_.resize(jv.size());  // once
    model_.JacobianTimes(it.jacobian_slot, v, j_times_v_);
    jv += j_times_v_;
    model_.JacobianTransposeTimesAdd(it.jacobian_slot, alpha, jv, out);
  }
  void AddColumnSquares(const Iterate& it, double alpha, VectorRef out) override {
    model_.AddJacobianColumnSquares(it.jacobian_slot, alpha, out);
  }
  void RowSquares(const Iterate& it, const Vector*, VectorRef out) override {
    model_.JacobianRowSquares(it.jacobian_slot, out);
  }
  bool EvalHessian(const ConstVectorRef& x, const Vector& lambda) override {
    return model_.EvalHessian(x, 1.0, lambda);
  }
  void HessianTimes(const ConstVectorRef& v, VectorRef out) override { model_.HessianTimes(v, out); }
  void HessianDiagonal(VectorRef d) override { model_.HessianDiagonal(d); }

 private:
  DistributedModel& model_;
  Vector j_times_v_;  // AddGramTimes' J v
};

PenaltyFunction::PenaltyFunction(Problem* problem)
    : problem_(problem),
      distributed_(problem->distributed() != nullptr),
      layout_(problem),
      algebra_(distributed_ ? std::unique_ptr<Algebra>(std::make_unique<Operators>(
                                  problem->distributed()))
                            : std::unique_ptr<Algebra>(std::make_unique<Assembled>(this))),
      jz_(layout_, algebra_.get()),
      merit_(layout_, jz_),
      workspace_(layout_.n()) {
  if (problem_->has_hessian() && !distributed_) {
    problem_->InitHessian(&hessian_);
    hessian_.makeCompressed();
  }
  if (!distributed_) ReadJacobianPattern();
  lambda_.setZero(layout_.m());
  jv_.setZero(layout_.m());
}

// J's pattern, asked of the model once and kept as indices only.
void PenaltyFunction::ReadJacobianPattern() {
  SparseMatrix pattern;
  problem_->InitJacobian(&pattern);
  pattern.makeCompressed();
  JacobianPattern& p = jacobian_pattern_;
  p.rows = static_cast<int>(pattern.rows());
  p.cols = static_cast<int>(pattern.cols());
  p.outer.assign(pattern.outerIndexPtr(), pattern.outerIndexPtr() + p.rows + 1);
  p.inner.reserve(static_cast<size_t>(pattern.nonZeros()));
  AdviseHugePages(p.inner.data(), sizeof(int) * p.inner.capacity());
  p.inner.assign(pattern.innerIndexPtr(), pattern.innerIndexPtr() + pattern.nonZeros());
}

PenaltyFunction::~PenaltyFunction() = default;

void PenaltyFunction::JacobianPatternMatrix(SparseMatrix* jacobian) const {
  const JacobianPattern& p = jacobian_pattern_;
  jacobian->resize(p.rows, p.cols);
  jacobian->resizeNonZeros(static_cast<Eigen::Index>(p.inner.size()));
  AdviseHugePages(jacobian->valuePtr(), sizeof(double) * p.inner.size());
  AdviseHugePages(jacobian->innerIndexPtr(), sizeof(int) * p.inner.size());
  std::copy(p.outer.begin(), p.outer.end(), jacobian->outerIndexPtr());
  std::copy(p.inner.begin(), p.inner.end(), jacobian->innerIndexPtr());
  std::fill_n(jacobian->valuePtr(), p.inner.size(), 0.0);
}

void PenaltyFunction::Allocate(Iterate* it) const {
  SetZeroLarge(&it->x, layout_.n());
  it->g.setZero(layout_.m());
  it->c.setZero(layout_.m());
  SetZeroLarge(&it->grad_f, layout_.n_x());
  SetZeroLarge(&it->grad_q, layout_.n());
  algebra_->Allocate(it);
}

bool PenaltyFunction::EvaluateValues(Iterate* it) {
  ++counts_.q_evals;
  const auto x = it->x.head(layout_.n_x());
  if (!problem_->EvalObjective(x, &it->f)) return false;
  if (layout_.any_rows()) problem_->SamePointNext();
  if (layout_.any_rows() && !problem_->EvalConstraints(x, it->g)) return false;
  merit_.UpdateResidual(it);
  return std::isfinite(it->f) && std::isfinite(it->c_squared);
}

bool PenaltyFunction::EvaluateDerivatives(Iterate* it) {
  ++counts_.grad_evals;
  const auto x = it->x.head(layout_.n_x());
  if (!problem_->EvalGradient(x, it->grad_f)) return false;
  if (layout_.any_rows()) problem_->SamePointNext();
  if (layout_.any_rows() && !algebra_->EvalJacobian(x, it)) return false;
  merit_.FormGradient(it);
  // Every entry, not the norm: the max-norm and the tangent-cone filter pass
  // over a NaN (std::max and comparisons ignore it). A non-finite entry of
  // grad f or of J (times any y, 0 included) makes an entry of grad Q
  // non-finite.
  return !layout_.reduce().Any(!it->grad_q.allFinite());
}

// A free row constrains nothing: c_j = 0 (SlackLayout::Residual) and its
// Jacobian row 0, so that neither grad Q nor the products with J_z^T J_z see it.
void PenaltyFunction::ClearFreeRows(SparseMatrixView jacobian) const {
  for (int j : layout_.free_rows()) {
    for (SparseMatrixView::InnerIterator it(jacobian, j); it; ++it) it.valueRef() = 0.0;
  }
}

bool PenaltyFunction::EvaluateHessian(const Iterate& it) {
  merit_.FirstOrderMultipliers(it, &lambda_);  // beta c (+ lambda)
  return EvaluateHessianAt(it, lambda_);
}

bool PenaltyFunction::EvaluateGaussNewtonHessian(const Iterate& it) {
  if (merit_.has_multipliers()) {
    lambda_ = merit_.multipliers();
  } else {
    lambda_.setZero();
  }
  return EvaluateHessianAt(it, lambda_);
}

bool PenaltyFunction::EvaluateHessianAt(const Iterate& it, const Vector& y) {
  ++counts_.hess_evals;
  return algebra_->EvalHessian(it.x.head(layout_.n_x()), y);
}

// W v from the lower triangle in one pass: each stored a_ij adds a_ij v_j to
// row i and, off the diagonal, a_ij v_i to row j (half the memory traffic of
// L v + L^T v - diag v).
void PenaltyFunction::SymmetricProduct(const ConstVectorRef& v, VectorRef out) const {
  out.setZero();
  const int* outer = hessian_.outerIndexPtr();
  const int* inner = hessian_.innerIndexPtr();
  const double* a = hessian_.valuePtr();
  for (int i = 0; i < layout_.n_x(); ++i) {
    double sum = 0.0;
    const double vi = v[i];
    for (int k = outer[i]; k < outer[i + 1]; ++k) {
      const int j = inner[k];
      sum += a[k] * v[j];
      if (j != i) out[j] += a[k] * vi;
    }
    out[i] += sum;
  }
}

void PenaltyFunction::HessianDiagonal(VectorRef d) const { algebra_->HessianDiagonal(d); }

// diag(W) from the lower triangle by rows, where W_ii ends row i when it is
// stored (the row is searched when its entries are not sorted).
void PenaltyFunction::Assembled::HessianDiagonal(VectorRef d) {
  const SparseMatrix& w = q_.hessian_;
  const int* outer = w.outerIndexPtr();
  const int* inner = w.innerIndexPtr();
  const double* a = w.valuePtr();
  for (int i = 0; i < q_.layout_.n_x(); ++i) {
    d[i] = 0.0;
    for (int k = outer[i + 1] - 1; k >= outer[i]; --k) {
      if (inner[k] == i) {
        d[i] = a[k];
        break;
      }
    }
  }
}

// Hess Q v = (W v_x, 0) + beta J_z^T (J_z v).
void PenaltyFunction::HessianProduct(const Iterate& it, const Vector& v, Vector* out) {
  ++counts_.hess_products;
  const int n_x = layout_.n_x();
  algebra_->HessianTimes(v.head(n_x), out->head(n_x));
  if (!layout_.any_rows()) return;
  jz_.GramTimesAdd(it, merit_.beta(), v, jv_, out);
}

}  // namespace qpm
