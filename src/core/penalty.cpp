#include "core/penalty.hpp"

#include <algorithm>

#include "core/linalg/huge_pages.hpp"

namespace qpm {

class PenaltyFunction::Algebra {
 public:
  virtual ~Algebra() = default;
  virtual void Allocate(Iterate* it) const = 0;
  virtual bool EvalJacobian(const ConstVectorRef& x, Iterate* it) = 0;
  virtual void Times(const Iterate& it, const ConstVectorRef& v, VectorRef out) = 0;
  virtual void TransposeTimes(const Iterate& it, const ConstVectorRef& w, VectorRef out) = 0;
  virtual void TransposeTimesAdd(const Iterate& it, double alpha, const ConstVectorRef& w,
                                 VectorRef out) = 0;
  virtual void AddColumnSquares(const Iterate& it, double alpha, VectorRef out) = 0;
  virtual void RowSquares(const Iterate& it, const Vector* free, VectorRef out) = 0;
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
  Operators(DistributedModel* model, int n) : model_(*model), work_(n) {}
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
    model_.JacobianTransposeTimes(it.jacobian_slot, w, work_);
    out += alpha * work_;
  }
  void AddColumnSquares(const Iterate& it, double alpha, VectorRef out) override {
    model_.JacobianColumnSquares(it.jacobian_slot, work_);
    out += alpha * work_;
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
  Vector work_;  // J^T w before it is added (x-sized)
};

PenaltyFunction::PenaltyFunction(Problem* problem)
    : problem_(problem),
      n_(problem->num_variables()),
      m_(problem->num_constraints()),
      reduce_(problem->distributed() ? problem->distributed()->reductions() : SerialReductions()),
      distributed_(problem->distributed() != nullptr) {
  any_rows_ = Count(reduce_, m_) > 0;
  if (distributed_) {
    algebra_ = std::make_unique<Operators>(problem->distributed(), n_);
  } else {
    algebra_ = std::make_unique<Assembled>(this);
  }
  g_lower_.resize(m_);
  g_upper_.resize(m_);
  SetZeroLarge(&lower_, n_ + m_);  // x's bounds, then room for every row's slack
  SetZeroLarge(&upper_, n_ + m_);
  problem_->GetBounds(lower_.head(n_), upper_.head(n_), g_lower_, g_upper_);
  row_slack_.assign(m_, kEqualityRow);
  for (int j = 0; j < m_; ++j) {
    if (g_lower_[j] == g_upper_[j]) continue;
    if (std::isinf(g_lower_[j]) && std::isinf(g_upper_[j])) {  // -inf <= g_j <= inf
      row_slack_[j] = kFreeRow;
      free_rows_.push_back(j);
      continue;
    }
    row_slack_[j] = static_cast<int>(slack_row_.size());
    slack_row_.push_back(j);
  }
  const int ns = num_slacks();
  lower_.conservativeResize(n_ + ns);
  upper_.conservativeResize(n_ + ns);
  for (int i = 0; i < ns; ++i) {
    lower_[n_ + i] = g_lower_[slack_row_[i]];
    upper_[n_ + i] = g_upper_[slack_row_[i]];
  }
  for (int i = 0; i < n_ + ns; ++i) {
    if (std::isfinite(lower_[i]) || std::isfinite(upper_[i])) has_bounds_ = true;
  }
  has_bounds_ = reduce_.Any(has_bounds_);  // every process tests the box the same way
  if (!has_bounds_) {  // nothing reads the box then: free its 2 (n + ns) doubles
    lower_.resize(0);
    upper_.resize(0);
  }
  if (problem_->has_hessian() && !distributed_) {
    problem_->InitHessian(&hessian_);
    hessian_.makeCompressed();
  }
  if (!distributed_) ReadJacobianPattern();
  lambda_.setZero(m_);
  jv_.setZero(m_);
  SetZeroLarge(&scratch_, n_ + ns);
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
  SetZeroLarge(&it->x, n());
  it->g.setZero(m_);
  it->c.setZero(m_);
  SetZeroLarge(&it->grad_f, n_);
  SetZeroLarge(&it->grad_q, n());
  algebra_->Allocate(it);
}

int PenaltyFunction::Project(VectorRef z) const {
  if (!has_bounds_) return 0;
  int moved = 0;
  for (int i = 0; i < z.size(); ++i) {
    const double p = std::min(std::max(z[i], lower_[i]), upper_[i]);
    moved += p != z[i];
    z[i] = p;
  }
  return static_cast<int>(Count(reduce_, moved));
}

void PenaltyFunction::FormResidual(Iterate* it) const {
  for (int j = 0; j < m_; ++j) {
    const int slack = row_slack_[j];
    it->c[j] = slack == kFreeRow       ? 0.0
               : slack == kEqualityRow ? it->g[j] - g_lower_[j]
                                       : it->g[j] - it->x[n_ + slack];
  }
  it->c_squared = SquaredNorm(reduce_, it->c);
  it->lambda_c = has_multipliers_ ? Dot(reduce_, multipliers_, it->c) : 0.0;
}

void PenaltyFunction::SetMultipliers(const Vector& lambda) {
  multipliers_ = lambda;
  for (int j : free_rows_) multipliers_[j] = 0.0;  // W must not see a free row either
  has_multipliers_ = true;
  shifted_.resize(m_);
}

void PenaltyFunction::FirstOrderMultipliers(const Iterate& it, Vector* y) const {
  *y = beta_ * it.c;
  if (has_multipliers_) *y += multipliers_;
}

void PenaltyFunction::Refresh(Iterate* it) const {
  FormResidual(it);
  FormGradient(it);
}

bool PenaltyFunction::EvaluateValues(Iterate* it) {
  ++counts_.q_evals;
  const auto x = it->x.head(n_);
  if (!problem_->EvalObjective(x, &it->f)) return false;
  if (any_rows_) problem_->SamePointNext();
  if (any_rows_ && !problem_->EvalConstraints(x, it->g)) return false;
  FormResidual(it);
  return std::isfinite(it->f) && std::isfinite(it->c_squared);
}

void PenaltyFunction::FitSlacks(Iterate* it) const {
  for (int i = 0; i < num_slacks(); ++i) {
    const int j = slack_row_[i];
    it->x[n_ + i] = std::min(std::max(it->g[j], g_lower_[j]), g_upper_[j]);
  }
  FormResidual(it);
}

bool PenaltyFunction::EvaluateDerivatives(Iterate* it) {
  ++counts_.grad_evals;
  const auto x = it->x.head(n_);
  if (!problem_->EvalGradient(x, it->grad_f)) return false;
  if (any_rows_) problem_->SamePointNext();
  if (any_rows_ && !algebra_->EvalJacobian(x, it)) return false;
  FormGradient(it);
  // Every entry, not the norm: the max-norm and the tangent-cone filter pass
  // over a NaN (std::max and comparisons ignore it). A non-finite entry of
  // grad f or of J (times any y, 0 included) makes an entry of grad Q
  // non-finite.
  return !reduce_.Any(!it->grad_q.allFinite());
}

// A free row constrains nothing: c_j = 0 (FormResidual) and its Jacobian
// row 0, so that neither grad Q nor the products with J_z^T J_z see it.
void PenaltyFunction::ClearFreeRows(SparseMatrixView jacobian) const {
  for (int j : free_rows_) {
    for (SparseMatrixView::InnerIterator it(jacobian, j); it; ++it) it.valueRef() = 0.0;
  }
}

void PenaltyFunction::FormGradient(Iterate* it) const {
  auto gx = it->grad_q.head(n_);
  gx = it->grad_f;
  if (has_multipliers_) {  // grad L_A: y = lambda + beta c in place of beta c
    shifted_ = multipliers_ + beta_ * it->c;
    if (any_rows_) algebra_->TransposeTimesAdd(*it, 1.0, shifted_, gx);
    for (int i = 0; i < num_slacks(); ++i) it->grad_q[n_ + i] = -shifted_[slack_row_[i]];
  } else {
    if (any_rows_) algebra_->TransposeTimesAdd(*it, beta_, it->c, gx);
    for (int i = 0; i < num_slacks(); ++i) it->grad_q[n_ + i] = -beta_ * it->c[slack_row_[i]];
  }
  if (!has_bounds_) {
    it->grad_q_norm = max_norm_ ? MaxNorm(reduce_, it->grad_q) : Norm(reduce_, it->grad_q);
    return;
  }
  double sum = 0.0, largest = 0.0;  // ||P_T(-grad Q)||^2 and its max-norm, tangent cone
  for (int i = 0; i < n(); ++i) {
    const double g = it->grad_q[i];
    if (!Blocked(it->x, i, g)) sum += g * g, largest = std::max(largest, std::abs(g));
  }
  it->grad_q_norm = max_norm_ ? reduce_.Max(largest) : std::sqrt(reduce_.Sum(sum));
}

PenaltyFunction::DualMeasures PenaltyFunction::Dual(const Iterate& it,
                                                   const DualWeights* weights) const {
  DualMeasures d;
  for (int i = 0; i < n(); ++i) {
    const double g = it.grad_q[i];
    if (Blocked(it.x, i, g)) {
      d.bound_multipliers_l1 += std::abs(g);
    } else {
      d.dual_inf = std::max(d.dual_inf, std::abs(g));
      if (weights) {
        const double w = i < n_ ? weights->x : weights->slacks[i - n_];
        d.weighted_dual_inf = std::max(d.weighted_dual_inf, std::abs(g) * w);
      }
    }
  }
  d.dual_inf = reduce_.Max(d.dual_inf);
  d.bound_multipliers_l1 = reduce_.Sum(d.bound_multipliers_l1);
  if (weights) d.weighted_dual_inf = reduce_.Max(d.weighted_dual_inf);
  return d;
}

// scratch_ <- J_z^T c (slack columns -1), the gradient of ||c||^2 / 2.
void PenaltyFunction::ViolationGradientToScratch(const Iterate& it) const {
  algebra_->TransposeTimes(it, it.c, scratch_.head(n_));
  for (int i = 0; i < num_slacks(); ++i) scratch_[n_ + i] = -it.c[slack_row_[i]];
}

double PenaltyFunction::DualInfeasibilityAtMultipliers(const Iterate& it) const {
  ViolationGradientToScratch(it);
  double dual_inf = 0.0;
  for (int i = 0; i < n(); ++i) {
    const double g = it.grad_q[i] - beta_ * scratch_[i];
    if (!Blocked(it.x, i, g)) dual_inf = std::max(dual_inf, std::abs(g));
  }
  return reduce_.Max(dual_inf);
}

double PenaltyFunction::ViolationStationarity(const Iterate& it) {
  const double c_norm = it.c_norm();
  if (!any_rows_ || !(c_norm > 0.0)) return 0.0;
  ViolationGradientToScratch(it);
  double sum = 0.0;
  for (int i = 0; i < n(); ++i) {
    const double g = scratch_[i];
    if (!Blocked(it.x, i, g)) sum += g * g;
  }
  return std::sqrt(reduce_.Sum(sum)) / c_norm;
}

bool PenaltyFunction::EvaluateHessian(const Iterate& it) {
  ++counts_.hess_evals;
  lambda_ = beta_ * it.c;
  if (has_multipliers_) lambda_ += multipliers_;
  return algebra_->EvalHessian(it.x.head(n_), lambda_);
}

// W v from the lower triangle in one pass: each stored a_ij adds a_ij v_j to
// row i and, off the diagonal, a_ij v_i to row j (half the memory traffic of
// L v + L^T v - diag v).
void PenaltyFunction::SymmetricProduct(const ConstVectorRef& v, VectorRef out) const {
  out.setZero();
  const int* outer = hessian_.outerIndexPtr();
  const int* inner = hessian_.innerIndexPtr();
  const double* a = hessian_.valuePtr();
  for (int i = 0; i < n_; ++i) {
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
  for (int i = 0; i < q_.n_; ++i) {
    d[i] = 0.0;
    for (int k = outer[i + 1] - 1; k >= outer[i]; --k) {
      if (inner[k] == i) {
        d[i] = a[k];
        break;
      }
    }
  }
}

void PenaltyFunction::HessianProduct(const Iterate& it, const Vector& v, Vector* out) {
  ++counts_.hess_products;
  const auto vx = v.head(n_);
  auto ox = out->head(n_);
  algebra_->HessianTimes(vx, ox);
  if (!any_rows_) return;
  algebra_->Times(it, vx, jv_);  // dc/dz v = J v_x - v_s on slack rows
  for (int i = 0; i < num_slacks(); ++i) jv_[slack_row_[i]] -= v[n_ + i];
  algebra_->TransposeTimesAdd(it, beta_, jv_, ox);
  for (int i = 0; i < num_slacks(); ++i) (*out)[n_ + i] = -beta_ * jv_[slack_row_[i]];
}

void PenaltyFunction::JacobianTimes(const Iterate& it, const ConstVectorRef& v_x,
                                    VectorRef out) const {
  algebra_->Times(it, v_x, out);
}

void PenaltyFunction::JacobianTransposeTimes(const Iterate& it, const ConstVectorRef& w,
                                             VectorRef out) const {
  algebra_->TransposeTimes(it, w, out);
}

void PenaltyFunction::JacobianTransposeTimesAdd(const Iterate& it, double alpha,
                                                const ConstVectorRef& w, VectorRef out) const {
  algebra_->TransposeTimesAdd(it, alpha, w, out);
}

void PenaltyFunction::AddJacobianColumnSquares(const Iterate& it, double alpha, VectorRef out) const {
  algebra_->AddColumnSquares(it, alpha, out);
}

void PenaltyFunction::JacobianRowSquares(const Iterate& it, const Vector* free, VectorRef out) const {
  algebra_->RowSquares(it, free, out);
}

}  // namespace qpm
