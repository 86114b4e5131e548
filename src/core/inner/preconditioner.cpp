#include "core/inner/preconditioner.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace qpm {

const char* ToString(PreconditionerType type) {
  switch (type) {
    case PreconditionerType::kNone: return "none";
    case PreconditionerType::kJacobi: return "jacobi";
    case PreconditionerType::kPenalty: return "penalty";
  }
  return "unknown";
}

Preconditioner::Preconditioner(PreconditionerType type, PenaltyFunction* q, int dense_limit)
    : type_(type), q_(q), dense_limit_(dense_limit) {
  diag_.setZero(q->n());
  t_.setZero(q->m());
  y_.setZero(q->m());
  use_dense_ = q->m() <= dense_limit_;
}

bool Preconditioner::Update(const Iterate& it) {
  at_ = &it;
  if (type_ == PreconditionerType::kPenalty && !use_dense_ && !pattern_checked_) {
    pattern_checked_ = true;  // J's pattern is fixed for the solve
    if (ProductTooDense(it.jacobian)) type_ = PreconditionerType::kJacobi;
  }
  if (type_ == PreconditionerType::kJacobi) {
    UpdateJacobi(it);
    return true;
  }
  if (type_ == PreconditionerType::kPenalty) return UpdatePenalty(it);
  return true;
}

// diag(W) made positive: a floor relative to its largest entry keeps M SPD
// where W is indefinite or zero (slacks).
static void PositiveDiagonal(const PenaltyFunction& q, Vector* d) {
  const int nx = q.num_x();
  d->head(nx) = q.hessian_diagonal().cwiseAbs();
  d->tail(q.num_slacks()).setZero();
  const double floor = 1e-8 * std::max(1.0, d->head(nx).size() ? d->head(nx).maxCoeff() : 1.0);
  *d = d->cwiseMax(floor);
}

void Preconditioner::UpdateJacobi(const Iterate& it) {
  PositiveDiagonal(*q_, &diag_);
  const double beta = q_->beta();
  const SparseMatrix& j = it.jacobian;
  for (int r = 0; r < j.outerSize(); ++r) {
    for (SparseMatrix::InnerIterator e(j, r); e; ++e) diag_[e.col()] += beta * e.value() * e.value();
  }
  diag_.tail(q_->num_slacks()).array() += beta;
}

// An upper bound on nnz(J D^{-1} J^T) from J's pattern, O(nnz(J)): a column
// in k rows adds at most k^2 entries.
bool Preconditioner::ProductTooDense(const SparseMatrix& j) const {
  std::vector<double> rows_in_column(j.cols(), 0.0);
  for (int r = 0; r < j.outerSize(); ++r) {
    for (SparseMatrix::InnerIterator e(j, r); e; ++e) rows_in_column[e.col()] += 1.0;
  }
  double bound = 0.0;
  for (double k : rows_in_column) bound += k * k;
  return bound > kDenseProductFactor * (static_cast<double>(j.nonZeros()) + j.rows());
}

bool Preconditioner::UpdatePenalty(const Iterate& it) {
  PositiveDiagonal(*q_, &diag_);
  const int nx = q_->num_x();
  const Vector dinv_x = diag_.head(nx).cwiseInverse();
  // S = I/beta + J D_x^{-1} J^T + E D_s^{-1} E^T.
  // One O(nnz(J)) temporary (J D^{-1}); the product itself is m x m.
  const SparseMatrix jd = it.jacobian * dinv_x.asDiagonal();
  Eigen::SparseMatrix<double> s = jd * it.jacobian.transpose();
  Vector extra = Vector::Constant(q_->m(), 1.0 / q_->beta());
  for (int i = 0; i < q_->num_slacks(); ++i) extra[q_->slack_row(i)] += 1.0 / diag_[nx + i];
  for (int r = 0; r < q_->m(); ++r) s.coeffRef(r, r) += extra[r];
  if (use_dense_) {
    dense_.compute(Eigen::MatrixXd(s));
    return dense_.info() == Eigen::Success;
  }
  sparse_.compute(s);
  return sparse_.info() == Eigen::Success;
}

void Preconditioner::Apply(const Vector& r, Vector* z) {
  if (type_ == PreconditionerType::kNone) {
    *z = r;
    return;
  }
  *z = r.cwiseQuotient(diag_);  // D^{-1} r
  if (type_ == PreconditionerType::kJacobi || q_->m() == 0) return;
  const int nx = q_->num_x();
  t_.noalias() = at_->jacobian * z->head(nx);  // J_z w
  for (int i = 0; i < q_->num_slacks(); ++i) t_[q_->slack_row(i)] -= (*z)[nx + i];
  if (use_dense_) {
    y_ = dense_.solve(t_);
  } else {
    y_ = sparse_.solve(t_);
  }
  // z -= D^{-1} J_z^T y
  z->head(nx).noalias() -= (at_->jacobian.transpose() * y_).cwiseQuotient(diag_.head(nx));
  for (int i = 0; i < q_->num_slacks(); ++i) (*z)[nx + i] += y_[q_->slack_row(i)] / diag_[nx + i];
}

}  // namespace qpm
