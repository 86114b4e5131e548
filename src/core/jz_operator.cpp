#include "core/jz_operator.hpp"

namespace qpm {

void JzOperator::Times(const Iterate& it, const Vector& v, VectorRef out) const {
  const int n_x = layout_.n_x();
  jacobian_.Times(it, v.head(n_x), out);
  for (int i = 0; i < layout_.num_slacks(); ++i) out[layout_.slack_row(i)] -= v[n_x + i];
}

void JzOperator::TransposeTimes(const Iterate& it, const Vector& w, Vector* out) const {
  const int n_x = layout_.n_x();
  jacobian_.TransposeTimes(it, w, out->head(n_x));
  for (int i = 0; i < layout_.num_slacks(); ++i) (*out)[n_x + i] = -w[layout_.slack_row(i)];
}

void JzOperator::TransposeTimesAdd(const Iterate& it, const Vector& w, Vector* out) const {
  const int n_x = layout_.n_x();
  if (layout_.any_rows()) jacobian_.TransposeTimesAdd(it, 1.0, w, out->head(n_x));
  for (int i = 0; i < layout_.num_slacks(); ++i) (*out)[n_x + i] = -w[layout_.slack_row(i)];
}

void JzOperator::TransposeTimesAdd(const Iterate& it, double alpha, const Vector& w,
                                   Vector* out) const {
  const int n_x = layout_.n_x();
  if (layout_.any_rows()) jacobian_.TransposeTimesAdd(it, alpha, w, out->head(n_x));
  for (int i = 0; i < layout_.num_slacks(); ++i) (*out)[n_x + i] = -alpha * w[layout_.slack_row(i)];
}

void JzOperator::GramTimesAdd(const Iterate& it, double alpha, const Vector& v, VectorRef jv,
                              Vector* out) const {
  const int n_x = layout_.n_x();
  jv.setZero();
  for (int i = 0; i < layout_.num_slacks(); ++i) jv[layout_.slack_row(i)] = -v[n_x + i];
  jacobian_.AddGramTimes(it, alpha, v.head(n_x), jv, out->head(n_x));
  for (int i = 0; i < layout_.num_slacks(); ++i) (*out)[n_x + i] = -alpha * jv[layout_.slack_row(i)];
}

void JzOperator::AddColumnSquares(const Iterate& it, double alpha, Vector* out) const {
  if (layout_.any_rows()) jacobian_.AddColumnSquares(it, alpha, out->head(layout_.n_x()));
  out->tail(layout_.num_slacks()).array() += alpha;
}

void JzOperator::RowSquares(const Iterate& it, const Vector* free, VectorRef out) const {
  const int n_x = layout_.n_x();
  jacobian_.RowSquares(it, free, out);
  for (int i = 0; i < layout_.num_slacks(); ++i) {
    if (!free || (*free)[n_x + i] != 0.0) out[layout_.slack_row(i)] += 1.0;
  }
}

LowerMatrix JzOperator::WeightedGram(const Iterate& it, const Vector& d, Vector* diagonal) const {
  const int n_x = layout_.n_x();
  const SparseMatrix jd = it.jacobian() * d.head(n_x).asDiagonal();
  LowerMatrix gram = (jd * it.jacobian().transpose()).triangularView<Eigen::Lower>();
  for (int i = 0; i < layout_.num_slacks(); ++i) (*diagonal)[layout_.slack_row(i)] += d[n_x + i];
  return gram;
}

}  // namespace qpm
