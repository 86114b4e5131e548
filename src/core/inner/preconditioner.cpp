#include "core/inner/preconditioner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Dense>

#include "core/inner/cholesky_preconditioner.hpp"
#include "core/linalg/huge_pages.hpp"

namespace qpm {

const char* ToString(PreconditionerKind kind) {
  switch (kind) {
    case PreconditionerKind::kNone: return "none";
    case PreconditionerKind::kJacobi: return "jacobi";
    case PreconditionerKind::kPenalty: return "penalty";
    case PreconditionerKind::kCholesky: return "cholesky";
    case PreconditionerKind::kAuto: return "auto";
    case PreconditionerKind::kModeDefault: return "default";
  }
  return "unknown";
}

namespace {

// diag(W) made positive: a floor relative to its largest entry keeps M SPD
// where W is indefinite or zero (slacks).
void PositiveDiagonal(const PenaltyFunction& q, Vector* d) {
  const int nx = q.layout().n_x();
  q.HessianDiagonal(d->head(nx));
  d->head(nx) = d->head(nx).cwiseAbs();
  d->tail(q.layout().num_slacks()).setZero();
  const double largest = q.layout().reduce().Max(nx ? d->head(nx).maxCoeff() : 1.0);
  const double floor = 1e-8 * std::max(1.0, largest);
  *d = d->cwiseMax(floor);
}

class JacobiPreconditioner : public Preconditioner {
 public:
  explicit JacobiPreconditioner(PenaltyFunction* q) : q_(q), diag_(q->layout().n()) {
    AdviseHugePages(diag_.data(), sizeof(double) * diag_.size());
  }
  PreconditionerKind kind() const override { return PreconditionerKind::kJacobi; }

  bool Update(const Iterate& it) override {
    PositiveDiagonal(*q_, &diag_);
    q_->jz().AddColumnSquares(it, q_->merit().beta(), &diag_);  // + beta diag(J_z^T J_z)
    return true;
  }

  void Apply(const Vector& r, const Vector* /*free*/, Vector* z) override {
    *z = r.cwiseQuotient(diag_);
  }
  // z = r ./ diag(H) formed entry by entry inside the update, never stored.
  double Direction(const Reductions& sum, const Vector& r, const Vector* free, bool first,
                   double rz_previous, Vector*, Vector* d) override {
    if (!free) return NextDirection(sum, r, r.cwiseQuotient(diag_), first, rz_previous, d);
    return NextDirection(sum, r, r.cwiseQuotient(diag_).cwiseProduct(*free), first, rz_previous, d);
  }
  bool needs_work() const override { return false; }

 private:
  PenaltyFunction* q_;
  Vector diag_;  // diag(H)
};

// A distributed model's own preconditioner on x's block
// (DistributedModel::ApplyPreconditioner), H_ss = beta I on the slacks.
// Where it is not positive on CG's residual (r.z <= 0: a PC built from an
// indefinite W), CG restarts with Jacobi, which the solve keeps from then on.
class ModelPreconditioner : public Preconditioner {
 public:
  ModelPreconditioner(PenaltyFunction* q, DistributedModel* model)
      : q_(q), model_(model), jacobi_(q) {}
  PreconditionerKind kind() const override { return PreconditionerKind::kJacobi; }
  const char* name() const override { return use_model_ ? "model" : "jacobi (the model's was indefinite)"; }
  bool Update(const Iterate& it) override {
    jacobi_.Update(it);
    if (use_model_ && !model_->UpdatePreconditioner(q_->merit().beta())) use_model_ = false;
    return true;
  }
  void Apply(const Vector& r, const Vector* free, Vector* z) override {
    if (!use_model_) return jacobi_.Apply(r, free, z);
    const int nx = q_->layout().n_x(), ns = q_->layout().num_slacks();
    model_->ApplyPreconditioner(r.head(nx), z->head(nx));
    z->tail(ns) = r.tail(ns) / q_->merit().beta();
  }
  double Direction(const Reductions& sum, const Vector& r, const Vector* free, bool first,
                   double rz_previous, Vector* work, Vector* d) override {
    bool restart = first;
    if (use_model_) {
      const double rz = Preconditioner::Direction(sum, r, free, first, rz_previous, work, d);
      if (rz > 0.0) return rz;
      use_model_ = false, restart = true;
    }
    return jacobi_.Direction(sum, r, free, restart, rz_previous, work, d);
  }

 private:
  PenaltyFunction* q_;
  DistributedModel* model_;
  JacobiPreconditioner jacobi_;
  bool use_model_ = true;
};

// The pattern of S = J D^{-1} J^T + I/beta with unit values (its lower triangle).
LowerMatrix ProductPattern(const SparseMatrix& jacobian) {
  SparseMatrix ones = jacobian;
  std::fill(ones.valuePtr(), ones.valuePtr() + ones.nonZeros(), 1.0);
  LowerMatrix s = (ones * ones.transpose()).triangularView<Eigen::Lower>();
  for (int r = 0; r < s.rows(); ++r) s.coeffRef(r, r) += 1.0;
  s.makeCompressed();
  return s;
}

class PenaltyPreconditioner : public Preconditioner {
 public:
  PenaltyPreconditioner(AssembledPenalty q, const SparseMatrix& jacobian_pattern, bool dense)
      : q_(&q.penalty()), diag_(q->layout().n()), w_(q->layout().n()), t_(q->layout().m()),
        y_(q->layout().m()), use_dense_(dense) {
    if (!use_dense_) {
      sparse_ = MakeSparseCholesky();
      sparse_->Analyze(ProductPattern(jacobian_pattern));
    }
  }
  PreconditionerKind kind() const override { return PreconditionerKind::kPenalty; }

  // An upper bound on nnz(J D^{-1} J^T) from J's pattern (GramBound).
  static double ProductBound(const SparseMatrix& j) { return GramBound(j); }

  // S = I/beta + J_z D^{-1} J_z^T = I/beta + J D_x^{-1} J^T + E D_s^{-1} E^T.
  bool Update(const Iterate& it) override {
    at_ = &it;
    PositiveDiagonal(*q_, &diag_);
    const int m = q_->layout().m();
    const Vector dinv = diag_.cwiseInverse();
    Vector extra = Vector::Constant(m, 1.0 / q_->merit().beta());  // + E D_s^{-1} E^T below
    LowerMatrix s = q_->jz().WeightedGram(it, dinv, &extra);
    for (int r = 0; r < m; ++r) s.coeffRef(r, r) += extra[r];
    s.makeCompressed();
    ++factorizations_;
    if (use_dense_) {
      dense_.compute(Eigen::MatrixXd(s));  // LLT reads the lower triangle
      return dense_.info() == Eigen::Success;
    }
    return sparse_->Factorize(s, 0.0);
  }

  void Apply(const Vector& r, const Vector* /*free*/, Vector* z) override {
    *z = r.cwiseQuotient(diag_);  // D^{-1} r
    if (q_->layout().m() == 0) return;
    q_->jz().Times(*at_, *z, t_);  // J_z D^{-1} r
    if (use_dense_) {
      y_ = dense_.solve(t_);
    } else {
      sparse_->Solve(t_, &y_);
    }
    q_->jz().TransposeTimes(*at_, y_, &w_);
    *z -= w_.cwiseQuotient(diag_);  // z -= D^{-1} J_z^T y
  }

 private:
  PenaltyFunction* q_;
  const Iterate* at_ = nullptr;
  Vector diag_;   // D
  Vector w_;      // J_z^T y (z-sized)
  Vector t_, y_;  // m-vectors
  bool use_dense_;
  Eigen::LLT<Eigen::MatrixXd> dense_;
  std::unique_ptr<SparseCholesky> sparse_;
};

// Whether a product bound (entries of J_z^T J_z or of J J^T) allows forming
// the product at all: within kDenseProductFactor of the data it comes from.
constexpr double kDenseProductFactor = 20.0;
bool ProductSparse(double bound, double data) { return bound <= kDenseProductFactor * data; }

// The user's choice: S dense up to dense_limit rows, else sparse where its
// pattern allows.
std::unique_ptr<Preconditioner> MakePenalty(const TrustRegionOptions& options, AssembledPenalty q,
                                            const SparseMatrix& j) {
  const int m = q->layout().m();
  const bool dense = m <= options.dense_limit;
  if (!dense && !ProductSparse(PenaltyPreconditioner::ProductBound(j), j.nonZeros() + m)) {
    return nullptr;
  }
  return std::make_unique<PenaltyPreconditioner>(q, j, dense);
}

// auto where the factorization is beyond the budget only by its flops:
// jacobi, until a step's products with H cost at least auto_trial_fraction of
// the predicted factorization (in units of w, as the budget); then one step
// with the Cholesky preconditioner, whose counted work against the last
// jacobi step's decides which stays. A jacobi step's CG is cut at what a
// cholesky step costs: before the trial one predicted factorization, after
// it the trial step's work; a step cut there switches to cholesky for the
// rest of the solve (its own work is unknown, and above the cholesky
// step's), so that one cheap jacobi step at the trial does not fix jacobi
// for steps that come to cost more. Counted, not
// timed, so that the same model takes the same path on any machine and
// under any load (docs/algorithm.md, "Choosing the preconditioner").
class AutoPreconditioner : public Preconditioner {
 public:
  AutoPreconditioner(PenaltyFunction* q, std::unique_ptr<CholeskyPreconditioner> cholesky,
                     double product_work, const TrustRegionOptions& options)
      : q_(q),
        jacobi_(q),
        cholesky_(std::move(cholesky)),
        trial_products_(options.auto_trial_fraction * cholesky_->cost().flops / product_work),
        product_(product_work),
        jacobi_solve_(q->layout().n()),
        cholesky_solve_(2.0 * cholesky_->cost().factor_nonzeros),
        factorization_(cholesky_->cost().flops / options.factor_flops_per_entry),
        jacobi_cap_(CapAt(factorization_)) {}
  PreconditionerKind kind() const override {
    return phase_ == Phase::kCholesky || phase_ == Phase::kTrial ? PreconditionerKind::kCholesky
                                                                 : PreconditionerKind::kJacobi;
  }
  bool exact() const override { return kind() == PreconditionerKind::kCholesky; }
  // Not during the trial step: a factorization the trial has yet to justify
  // is not repeated for the multiplier step.
  FaceSolve* LendFactorization() override {
    return phase_ == Phase::kCholesky ? cholesky_.get() : nullptr;
  }
  const SymmetricColumns* Assembled() const override {
    return kind() == PreconditionerKind::kCholesky ? cholesky_->Assembled() : nullptr;
  }
  double StepShift() override {
    return kind() == PreconditionerKind::kCholesky ? cholesky_->StepShift() : 0.0;
  }
  bool Shifted() const override {
    return kind() == PreconditionerKind::kCholesky && cholesky_->Shifted();
  }
  int StepIterations(int max_iter) const override {
    return Jacobi() ? static_cast<int>(std::min<long>(max_iter, jacobi_cap_)) : max_iter;
  }
  // At the start of each step, on the last point's counted work.
  bool Update(const Iterate& it) override {
    const long products = q_->counts().hess_products - products_before_;
    if (Jacobi() && products >= jacobi_cap_) {
      phase_ = Phase::kCholesky;
    } else if (phase_ == Phase::kJacobi && products >= trial_products_) {
      phase_ = Phase::kTrial;
      jacobi_work_ = products * product_ + solves_ * jacobi_solve_;
      factorizations_before_trial_ = cholesky_->factorizations();
    } else if (phase_ == Phase::kTrial) {
      const long factored = cholesky_->factorizations() - factorizations_before_trial_;
      const double trial_work =
          factored * factorization_ + products * product_ + solves_ * cholesky_solve_;
      phase_ = trial_work <= jacobi_work_ ? Phase::kCholesky : Phase::kJacobiOnly;
      jacobi_cap_ = CapAt(trial_work);
    }
    solves_ = 0;
    products_before_ = q_->counts().hess_products;
    return active().Update(it);
  }
  void HoldFace(bool hold) override { cholesky_->HoldFace(hold); }
  void Apply(const Vector& r, const Vector* free, Vector* z) override {
    ++solves_;
    active().Apply(r, free, z);
    factorizations_ = cholesky_->factorizations();
  }
  double Direction(const Reductions& sum, const Vector& r, const Vector* free, bool first,
                   double rz_previous, Vector* work, Vector* d) override {
    ++solves_;
    const double rz = active().Direction(sum, r, free, first, rz_previous, work, d);
    factorizations_ = cholesky_->factorizations();
    return rz;
  }

 private:
  enum class Phase { kJacobi, kTrial, kCholesky, kJacobiOnly };
  bool Jacobi() const { return phase_ == Phase::kJacobi || phase_ == Phase::kJacobiOnly; }
  // The jacobi CG iterations of a given work, at least 1 and within int.
  long CapAt(double work) const {
    return static_cast<long>(std::clamp(std::ceil(work / (product_ + jacobi_solve_)), 1.0, 1e9));
  }
  Preconditioner& active() {
    return kind() == PreconditionerKind::kCholesky ? static_cast<Preconditioner&>(*cholesky_)
                                                   : jacobi_;
  }

  const PenaltyFunction* q_;
  JacobiPreconditioner jacobi_;
  std::unique_ptr<CholeskyPreconditioner> cholesky_;
  // Work in entries streamed: a product with H costs w (CG's iterations,
  // the projected-gradient steps and searches, the checks), an application
  // of M n for jacobi or 2 nnz(L) for cholesky (the two triangular solves),
  // a factorization its predicted flops over factor_flops_per_entry.
  const double trial_products_;  // products with H of one step that call for the trial
  const double product_, jacobi_solve_, cholesky_solve_, factorization_;
  // A jacobi step's CG iterations at most: one factorization's work, after
  // the trial that step's (CapAt).
  long jacobi_cap_;
  Phase phase_ = Phase::kJacobi;
  long products_before_ = 0;             // q's products with H at the last Update
  long solves_ = 0;                      // applications of M since the last Update
  double jacobi_work_ = 0.0;             // the last jacobi step's, before the trial
  long factorizations_before_trial_ = 0;
};

std::unique_ptr<Preconditioner> MakeCholesky(const TrustRegionOptions& options, AssembledPenalty q,
                                             const SparseMatrix& j, bool require_affordable) {
  const double data = static_cast<double>(q.hessian().nonZeros()) + j.nonZeros() + q->layout().n();
  if (!ProductSparse(CholeskyPreconditioner::ProductBound(q, j), data)) return nullptr;
  auto cholesky = std::make_unique<CholeskyPreconditioner>(q, j);
  const double work = ProductWork(q, j);
  if (!require_affordable || Affordable(cholesky->cost(), work, options)) return cholesky;
  TrustRegionOptions by_memory = options;  // the memory budget still holds
  by_memory.factor_flops_per_product = std::numeric_limits<double>::infinity();
  if (options.auto_trial_fraction <= 0.0 || !Affordable(cholesky->cost(), work, by_memory)) {
    return nullptr;
  }
  return std::make_unique<AutoPreconditioner>(&q.penalty(), std::move(cholesky), work, options);
}

}  // namespace

std::unique_ptr<CholeskyPreconditioner> MakeFactorization(const TrustRegionOptions& options,
                                                          AssembledPenalty q) {
  SparseMatrix j;
  q.JacobianPatternMatrix(&j);
  const double data = static_cast<double>(q.hessian().nonZeros()) + j.nonZeros() + q->layout().n();
  if (!ProductSparse(CholeskyPreconditioner::ProductBound(q, j), data)) return nullptr;
  auto cholesky = std::make_unique<CholeskyPreconditioner>(q, j);
  TrustRegionOptions by_memory = options;
  by_memory.factor_flops_per_product = std::numeric_limits<double>::infinity();
  if (!Affordable(cholesky->cost(), ProductWork(q, j), by_memory)) return nullptr;
  return cholesky;
}

double ProductWork(const AssembledPenalty& q, const SparseMatrix& jacobian_pattern) {
  return static_cast<double>(q.hessian().nonZeros()) + 2.0 * jacobian_pattern.nonZeros() +
         q->layout().n();
}

bool Affordable(const FactorCost& cost, double product_work, const TrustRegionOptions& options) {
  const double flops = std::max(options.factor_min_flops, options.factor_flops_per_product * product_work);
  const double memory = std::max(options.factor_min_nonzeros, options.factor_nonzeros_per_product * product_work);
  return cost.flops <= flops && cost.factor_nonzeros <= memory;
}

std::unique_ptr<Preconditioner> MakePreconditioner(const TrustRegionOptions& options,
                                                   PenaltyFunction* q) {
  // A distributed model's J and W are operators: nothing to factor
  // (docs/petsc.md, "Distributed models"), so every kind but none is jacobi.
  if (q->distributed()) {
    if (options.preconditioner == PreconditionerKind::kNone) return nullptr;
    DistributedModel* model = q->problem()->distributed();
    if (model->has_preconditioner()) return std::make_unique<ModelPreconditioner>(q, model);
    return std::make_unique<JacobiPreconditioner>(q);
  }
  const AssembledPenalty assembled = *q->assembled();
  SparseMatrix j;
  assembled.JacobianPatternMatrix(&j);
  std::unique_ptr<Preconditioner> chosen;
  switch (options.preconditioner) {
    case PreconditionerKind::kNone: return nullptr;
    case PreconditionerKind::kJacobi: break;
    case PreconditionerKind::kPenalty: chosen = MakePenalty(options, assembled, j); break;
    case PreconditionerKind::kCholesky:
      chosen = MakeCholesky(options, assembled, j, false);
      if (!chosen) chosen = MakePenalty(options, assembled, j);
      break;
    case PreconditionerKind::kAuto:
    case PreconditionerKind::kModeDefault:  // unresolved (a trust region built outside Solve): auto
      chosen = MakeCholesky(options, assembled, j, true);
      break;
  }
  if (!chosen) chosen = std::make_unique<JacobiPreconditioner>(q);
  return chosen;
}

}  // namespace qpm
