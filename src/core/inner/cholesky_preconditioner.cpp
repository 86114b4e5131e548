#include "core/inner/cholesky_preconditioner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Cholesky>

namespace qpm {
namespace {

// Ipopt's inertia correction constants (Waechter & Biegler 2006, Sec. 3.1).
constexpr double kFirstShift = 1e-4;       // delta_w^0
constexpr double kMaxShift = 1e40;         // delta_w^max
constexpr double kShrinkShift = 1.0 / 3;   // kappa_w^-
constexpr double kGrowShift = 8.0;         // kappa_w^+
constexpr double kGrowFirstShift = 100.0;  // kappa-bar_w^+

constexpr double kMaxPinned = 32;  // columns M^{-1} e_i kept for pinned entries

// Slot of entry (row, col), row >= col, of a compressed lower matrix.
int Slot(const LowerMatrix& a, int row, int col) {
  const int* begin = a.innerIndexPtr() + a.outerIndexPtr()[col];
  const int* end = a.innerIndexPtr() + a.outerIndexPtr()[col + 1];
  return static_cast<int>(std::lower_bound(begin, end, row) - a.innerIndexPtr());
}

// Column of the slack of each row (n_x + slack index), or -1.
std::vector<int> SlackColumns(const SlackLayout& z) {
  std::vector<int> column(z.m(), -1);
  for (int i = 0; i < z.num_slacks(); ++i) column[z.slack_row(i)] = z.n_x() + i;
  return column;
}

}  // namespace

double CholeskyPreconditioner::ProductBound(const AssembledPenalty& q,
                                            const SparseMatrix& jacobian_pattern) {
  const std::vector<int> slack = SlackColumns(q->layout());
  double bound = 0.0;
  for (int r = 0; r < jacobian_pattern.outerSize(); ++r) {
    const double k = jacobian_pattern.outerIndexPtr()[r + 1] - jacobian_pattern.outerIndexPtr()[r] +
                     (slack[r] >= 0 ? 1.0 : 0.0);
    bound += 0.5 * k * (k + 1.0);
  }
  return bound;
}

CholeskyPreconditioner::CholeskyPreconditioner(AssembledPenalty q,
                                               const SparseMatrix& jacobian_pattern)
    : q_(q), cholesky_(MakeSparseCholesky()) {
  BuildPattern(jacobian_pattern);
  cost_ = cholesky_->Analyze(h_);
  // Pinning d entries costs d solves of 4 nnz(L) flops, a new factor its
  // flops (Apply).
  max_pinned_ = static_cast<int>(std::min(
      kMaxPinned, std::max(1.0, cost_.flops / (4.0 * std::max(1.0, cost_.factor_nonzeros)))));
  pinned_.reserve(max_pinned_);
  wanted_.reserve(max_pinned_);
  face_ = h_;
  factored_values_.resize(h_.nonZeros());
  if (q_->layout().has_bounds()) columns_ = std::make_unique<SymmetricColumns>(h_);
  factored_free_.setOnes(q_->layout().n());
  newton_step_.resize(q_->layout().n());
}

// The lower triangle of W (x block), of J_z^T J_z, and the diagonal; the
// slots each value lands in are kept for Assemble.
void CholeskyPreconditioner::BuildPattern(const SparseMatrix& jacobian_pattern) {
  const int n = q_->layout().n();
  const SparseMatrix& w = q_.hessian();
  const std::vector<int> slack = SlackColumns(q_->layout());
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<size_t>(w.nonZeros() + n + ProductBound(q_, jacobian_pattern)));
  for (int i = 0; i < w.outerSize(); ++i) {
    for (SparseMatrix::InnerIterator e(w, i); e; ++e) {
      entries.emplace_back(std::max(i, e.index()), std::min(i, e.index()), 0.0);
    }
  }
  std::vector<int> columns;  // of one row of J_z
  auto row_columns = [&](int r) {
    columns.assign(jacobian_pattern.innerIndexPtr() + jacobian_pattern.outerIndexPtr()[r],
                   jacobian_pattern.innerIndexPtr() + jacobian_pattern.outerIndexPtr()[r + 1]);
    if (slack[r] >= 0) columns.push_back(slack[r]);
  };
  for (int r = 0; r < jacobian_pattern.outerSize(); ++r) {
    row_columns(r);
    for (size_t a = 0; a < columns.size(); ++a) {
      for (size_t b = 0; b <= a; ++b) {
        entries.emplace_back(std::max(columns[a], columns[b]), std::min(columns[a], columns[b]), 0.0);
      }
    }
  }
  for (int i = 0; i < n; ++i) entries.emplace_back(i, i, 0.0);
  h_.resize(n, n);
  h_.setFromTriplets(entries.begin(), entries.end());
  h_.makeCompressed();
  entries = {};
  w_slot_.clear();
  for (int i = 0; i < w.outerSize(); ++i) {
    for (SparseMatrix::InnerIterator e(w, i); e; ++e) {
      w_slot_.push_back(Slot(h_, std::max(i, e.index()), std::min(i, e.index())));
    }
  }
  pair_slot_.clear();
  for (int r = 0; r < jacobian_pattern.outerSize(); ++r) {
    row_columns(r);
    for (size_t a = 0; a < columns.size(); ++a) {
      for (size_t b = 0; b <= a; ++b) {
        pair_slot_.push_back(Slot(h_, std::max(columns[a], columns[b]), std::min(columns[a], columns[b])));
      }
    }
  }
  diag_slot_.resize(n);
  column_of_.resize(h_.nonZeros());
  for (int j = 0; j < n; ++j) {
    diag_slot_[j] = Slot(h_, j, j);
    for (int s = h_.outerIndexPtr()[j]; s < h_.outerIndexPtr()[j + 1]; ++s) column_of_[s] = j;
  }
}

// H = W + beta J_z^T J_z on the pattern: J_z's rows are J's with -1 in the
// row's slack column.
void CholeskyPreconditioner::Assemble(const Iterate& it) {
  double* h = h_.valuePtr();
  std::fill(h, h + h_.nonZeros(), 0.0);
  const double* w = q_.hessian().valuePtr();
  for (size_t k = 0; k < w_slot_.size(); ++k) h[w_slot_[k]] += w[k];
  const double beta = q_->merit().beta();
  const SlackLayout& layout = q_->layout();
  const ConstSparseMatrixView j = it.jacobian();
  size_t pair = 0;
  int slack_index = 0;
  for (int r = 0; r < j.outerSize(); ++r) {
    const double* v = j.valuePtr() + j.outerIndexPtr()[r];
    const int k = j.outerIndexPtr()[r + 1] - j.outerIndexPtr()[r];
    const bool has_slack = slack_index < layout.num_slacks() && layout.slack_row(slack_index) == r;
    const int entries = k + (has_slack ? 1 : 0);
    for (int a = 0; a < entries; ++a) {
      const double va = a < k ? v[a] : -1.0;
      for (int b = 0; b <= a; ++b) h[pair_slot_[pair++]] += beta * va * (b < k ? v[b] : -1.0);
    }
    slack_index += has_slack;
  }
  stale_ = true;
}

// An unshifted factor stands when H is bit for bit the one it was made from
// (the header's "Reuse"); else the next Apply factors again.
bool CholeskyPreconditioner::Update(const Iterate& it) {
  Assemble(it);
  reused_ = FactorStands();
  if (reused_) stale_ = false;
  return true;
}

bool CholeskyPreconditioner::FactorStands() const {
  return factored_ && factor_unshifted_ &&
         std::equal(h_.valuePtr(), h_.valuePtr() + h_.nonZeros(), factored_values_.data());
}

// face_ = h_ with rows and columns off the face replaced by the identity's;
// the pins, made on the face factored before, are dropped.
void CholeskyPreconditioner::FillFace(const Vector* free) {
  pinned_.clear();
  const double* h = h_.valuePtr();
  double* f = face_.valuePtr();
  const int* row = h_.innerIndexPtr();
  for (int s = 0; s < h_.nonZeros(); ++s) {
    const bool on_face = !free || ((*free)[row[s]] != 0.0 && (*free)[column_of_[s]] != 0.0);
    f[s] = on_face ? h[s] : (row[s] == column_of_[s] ? 1.0 : 0.0);
  }
  if (free) {
    factored_free_ = *free;
  } else {
    factored_free_.setOnes();
  }
}

bool CholeskyPreconditioner::FactorFace(const Vector* free) {
  FillFace(free);
  factored_ = FactorWithShift();
  factor_unshifted_ = factored_ && !last_shifted_;
  KeepFactoredValues();
  return factored_;
}

void CholeskyPreconditioner::KeepFactoredValues() {
  if (factored_) std::copy(h_.valuePtr(), h_.valuePtr() + h_.nonZeros(), factored_values_.data());
}

// Ipopt's decay of delta_w, once per point (the trust region calls it after
// each Update): the last shift that was needed times kappa_w^- while that
// stays above the floor, else 0 (the header's "Inertia").
double CholeskyPreconditioner::StepShift() {
  step_shift_ = 0.0;
  if (reused_) return step_shift_;
  if (last_shifted_ && kShrinkShift * last_delta_ >= min_shift_ * CurvatureScale()) {
    step_shift_ = kShrinkShift * last_delta_;
  }
  return step_shift_;
}

// The decayed shift sigma of a point, factored on the whole space, and its
// Newton step inside the ball: sigma / factor, sigma / factor^2, ... (0
// below the floor) while those factor and their Newton steps stay inside;
// the first that reaches the ball is kept (its step is cut there), else the
// lowest that factored (factored again after a trial that failed). Only
// where sigma itself factored: a point whose decayed shift failed needs
// more, not less (docs/algorithm.md, "The lowered shift").
double CholeskyPreconditioner::LowerStepShift(const Vector& g, double radius, int trials,
                                              double factor) {
  const double sigma = StepShift();
  if (sigma <= 0.0 || trials <= 0) return sigma;
  if (stale_) {
    stale_ = false;
    FactorFace(nullptr);
  }
  if (!factored_ || applied_shift() != sigma || NewtonStepNorm(g) >= radius) return sigma;
  const double floor = min_shift_ * CurvatureScale();
  double kept = sigma;
  for (int k = 0; k < trials && kept > 0.0; ++k) {
    const double trial = kept / factor >= floor ? kept / factor : 0.0;
    ++factorizations_;
    if (!cholesky_->Factorize(face_, trial)) {
      ++factorizations_;
      cholesky_->Factorize(face_, kept);  // kept factored before: it factors again
      break;
    }
    kept = trial;
    if (NewtonStepNorm(g) >= radius) break;
  }
  KeepShift(kept);
  return kept;
}

// ||M^{-1} g|| for the current factor (the whole space: no box).
double CholeskyPreconditioner::NewtonStepNorm(const Vector& g) {
  cholesky_->Solve(g, &newton_step_);
  return Norm(q_->layout().reduce(), newton_step_);
}

// The factor now is of H + delta I: the point's shift, remembered as
// FactorWithShift would.
void CholeskyPreconditioner::KeepShift(double delta) {
  step_shift_ = delta;
  last_shifted_ = delta > 0.0;
  if (last_shifted_) last_delta_ = delta;
  factor_unshifted_ = !last_shifted_;
  KeepFactoredValues();
}

// Ipopt's inertia correction, on positive definiteness alone (above): the
// point's shift first, then larger ones.
bool CholeskyPreconditioner::FactorWithShift() {
  ++factorizations_;
  if (cholesky_->Factorize(face_, step_shift_)) {
    last_shifted_ = step_shift_ > 0.0;
    if (last_shifted_) last_delta_ = step_shift_;
    return true;
  }
  const double growth = last_delta_ > 0.0 ? kGrowShift : kGrowFirstShift;
  double delta = step_shift_ > 0.0    ? growth * step_shift_
                 : last_delta_ > 0.0 ? std::max(min_shift_ * CurvatureScale(), kShrinkShift * last_delta_)
                                     : kFirstShift;
  return FactorFromShift(delta, growth);
}

// The shifts delta, delta growth, ... up to the limit: the first whose
// factorization works is kept as the last shift.
bool CholeskyPreconditioner::FactorFromShift(double delta, double growth) {
  for (; delta <= kMaxShift; delta *= growth) {
    ++factorizations_;
    if (cholesky_->Factorize(face_, delta)) {
      last_delta_ = delta;
      last_shifted_ = true;
      return true;
    }
  }
  last_shifted_ = false;
  return false;
}

bool CholeskyPreconditioner::FactorWithDiagonal(const Iterate& it, const Vector& d) {
  Assemble(it);
  FillFace(nullptr);
  double* f = face_.valuePtr();
  for (int i = 0; i < d.size(); ++i) f[diag_slot_[i]] += d[i];
  StepShift();
  reused_ = false;
  factored_ = FactorWithShift();
  factor_unshifted_ = false;  // not H's own factor: never reused as one
  stale_ = false;
  return factored_;
}

// Ipopt's iterative refinement (its residual_ratio_max 1e-10, at most 10
// rounds) on the factored matrix, face_ + delta I, by its lower triangle.
double CholeskyPreconditioner::SolveRefined(const Vector& r, Vector* z, Vector* residual,
                                            Vector* correction) {
  constexpr double kRatioMax = 1e-10;
  constexpr int kRounds = 10;
  cholesky_->Solve(r, z);
  const double shift = applied_shift(), r_norm = r.lpNorm<Eigen::Infinity>();
  double ratio = 0.0;
  for (int k = 0;; ++k) {
    residual->noalias() = face_.selfadjointView<Eigen::Lower>() * (*z);
    *residual += shift * (*z) - r;
    const double z_norm = z->lpNorm<Eigen::Infinity>();
    ratio = residual->lpNorm<Eigen::Infinity>() / (std::min(z_norm, 1e6 * r_norm) + r_norm);
    if (!(ratio > kRatioMax) || k == kRounds) break;
    cholesky_->Solve(*residual, correction);
    *z -= *correction;
  }
  return std::isfinite(ratio) ? ratio : std::numeric_limits<double>::infinity();
}

// After a factor whose solve the residual showed singular: the next shift of
// the inertia rule above the one it was made with.
bool CholeskyPreconditioner::FactorWithLargerShift() {
  const double delta = last_shifted_ ? kGrowShift * last_delta_
                                     : std::max(kFirstShift, min_shift_ * CurvatureScale());
  factored_ = FactorFromShift(delta, kGrowShift);
  return factored_;
}

// max(1, max |W_ij|): the shift corrects W's inertia, so its floor follows
// W's scale, not beta J_z^T J_z's (which is positive semidefinite and at a
// large beta would raise the floor above W's own curvature).
double CholeskyPreconditioner::CurvatureScale() const {
  const double* w = q_.hessian().valuePtr();
  double scale = 1.0;
  for (size_t k = 0; k < w_slot_.size(); ++k) scale = std::max(scale, std::abs(w[k]));
  return scale;
}

// H_FF itself or nothing: no shift is tried (nor remembered for the trust
// region's next factorization). An unshifted factor of the same H on the
// same face stands (the header's "Reuse").
bool CholeskyPreconditioner::EvaluateAndFactor(const Iterate& x, const Vector& free) {
  if (!q_->EvaluateHessian(x)) return false;
  Assemble(x);
  if (FactorStands() && ChangedEntries(&free) == 0) {
    pinned_.clear();
    stale_ = false;
    return true;
  }
  FillFace(&free);
  ++factorizations_;
  factored_ = cholesky_->Factorize(face_, 0.0);
  factor_unshifted_ = true;
  KeepFactoredValues();
  stale_ = !factored_;
  return factored_;
}

int CholeskyPreconditioner::ChangedEntries(const Vector* free) const {
  if (!free) return static_cast<int>((factored_free_.array() == 0.0).count());
  return static_cast<int>((free->array() != factored_free_.array()).count());
}

// A new face inside the factored one pins the entries it fixes (at most
// max_pinned_, each one solve) instead of a factorization; any other face
// is factored when more entries changed than a factorization is worth (a
// stale face costs CG at most two iterations per changed entry, a rank-2k
// change of M, each a solve of 4 nnz(L) flops).
void CholeskyPreconditioner::Apply(const Vector& r, const Vector* free, Vector* z) {
  const double refactor_at = cost_.flops / (8.0 * std::max(1.0, cost_.factor_nonzeros));
  if (stale_) {
    stale_ = false;
    FactorFace(free);
  } else if (factored_ && !hold_face_ && (!free || FaceChanged(*free))) {
    if (!(free && Pin(*free)) && ChangedEntries(free) > refactor_at) FactorFace(free);
  }
  if (free) served_ = *free;
  if (!factored_) {  // no shift made H_F positive definite (non-finite values)
    *z = r;
    return;
  }
  cholesky_->Solve(r, z);
  if (!pinned_.empty() && PinnedOffFace(free)) RemovePinned(z);
}

bool CholeskyPreconditioner::FaceChanged(const Vector& free) const {
  return served_.size() != free.size() || free != served_;
}

bool CholeskyPreconditioner::PinnedOffFace(const Vector* free) const {
  if (!free) return false;
  for (int i : pinned_) {
    if ((*free)[i] != 0.0) return false;
  }
  return true;
}

// Pins F0 \ F for the factored face F0 when F is inside F0 and the number
// is at most max_pinned_: M^{-1} e_i for the new pinned entries i (the
// columns of entries pinned before are kept), and the Cholesky factor of
// S = E_D^T M^{-1} E_D, a principal submatrix of M^{-1} and so positive
// definite. False, with nothing pinned, otherwise.
bool CholeskyPreconditioner::Pin(const Vector& free) {
  wanted_.clear();
  for (int i = 0; i < free.size(); ++i) {
    const bool was_free = factored_free_[i] != 0.0, is_free = free[i] != 0.0;
    if (was_free == is_free) continue;
    if (is_free || static_cast<int>(wanted_.size()) == max_pinned_) {  // freed, or one too many
      pinned_.clear();
      return false;
    }
    wanted_.push_back(i);
  }
  ReservePins();
  KeepPinned(free);
  for (int i : wanted_) {
    if (std::find(pinned_.begin(), pinned_.end(), i) != pinned_.end()) continue;
    unit_.setZero();
    unit_[i] = 1.0;
    cholesky_->Solve(unit_, &column_);
    pinned_solves_.col(static_cast<int>(pinned_.size())) = column_;
    pinned_.push_back(i);
  }
  return FactorSchur();
}

// Work space for pinning, sized at its first use (a solve that never meets
// a sub-face allocates none of it).
void CholeskyPreconditioner::ReservePins() {
  if (pinned_solves_.cols() == max_pinned_) return;
  const int n = q_->layout().n();
  pinned_solves_.resize(n, max_pinned_);
  schur_.resize(max_pinned_, max_pinned_);
  pinned_values_.resize(max_pinned_);
  unit_.resize(n);
  column_.resize(n);
}

// Drops the pinned entries that `free` leaves free, keeping the others'
// columns in order.
void CholeskyPreconditioner::KeepPinned(const Vector& free) {
  int kept = 0;
  for (size_t k = 0; k < pinned_.size(); ++k) {
    if (free[pinned_[k]] != 0.0) continue;
    if (kept != static_cast<int>(k)) pinned_solves_.col(kept) = pinned_solves_.col(static_cast<int>(k));
    pinned_[kept++] = pinned_[k];
  }
  pinned_.resize(kept);
}

// S's lower Cholesky factor, in place in schur_'s leading block.
bool CholeskyPreconditioner::FactorSchur() {
  const int d = static_cast<int>(pinned_.size());
  for (int b = 0; b < d; ++b) {
    for (int a = 0; a < d; ++a) schur_(a, b) = pinned_solves_(pinned_[a], b);
  }
  Eigen::Ref<Eigen::MatrixXd> s = schur_.topLeftCorner(d, d);
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> factor(s);
  if (factor.info() != Eigen::Success) pinned_.clear();
  return factor.info() == Eigen::Success;
}

// z <- z - Y S^{-1} z_D with Y = M^{-1} E_D: the solve with M restricted to
// the face, whose pinned entries are 0 (E_D^T z = 0 afterwards).
void CholeskyPreconditioner::RemovePinned(Vector* z) {
  const int d = static_cast<int>(pinned_.size());
  auto mu = pinned_values_.head(d);
  for (int a = 0; a < d; ++a) mu[a] = (*z)[pinned_[a]];
  const auto l = schur_.topLeftCorner(d, d).triangularView<Eigen::Lower>();
  l.solveInPlace(mu);
  l.transpose().solveInPlace(mu);
  z->noalias() -= pinned_solves_.leftCols(d) * mu;
}

}  // namespace qpm
