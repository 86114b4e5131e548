// The quadratic penalty of the paper, eq. (1.2):
//
//   Q_beta(x)      = f(x) + beta/2 ||c(x)||^2,
//   grad Q_beta(x) = grad f(x) + beta J(x)^T c(x),
//
// evaluated on an Iterate that caches f, c, grad f and J at its point, so that
// Q and grad Q for a new beta cost no model callbacks (paper Algorithm 1,
// line 4 compares Q_{beta_k} at x_k and x_0).
//
// Counting (used to reproduce the paper's tables): one Q evaluation is one
// (f, c) pair at a point, one grad Q evaluation is one (grad f, J) pair.
#ifndef QPM_PENALTY_HPP_
#define QPM_PENALTY_HPP_

#include <cmath>

#include "qpm/problem.hpp"

namespace qpm {

// A point with the model values the penalty needs, cached.
struct Iterate {
  Vector x;
  double f = 0.0;
  Vector c;
  double c_squared = 0.0;  // ||c(x)||_2^2
  Vector grad_f;
  SparseMatrix jacobian;
  Vector grad_q;           // grad Q_beta(x) for the beta it was formed with
  double grad_q_norm = 0.0;

  double Q(double beta) const { return f + 0.5 * beta * c_squared; }
  double c_norm() const { return std::sqrt(c_squared); }
};

// Copies the point and all cached values of `from` into `to` without
// reallocating (both were sized by PenaltyFunction::Allocate).
void CopyIterate(const Iterate& from, Iterate* to);

struct PenaltyCounts {
  long q_evals = 0;       // (f, c) pairs
  long grad_evals = 0;    // (grad f, J) pairs
  long hess_evals = 0;    // Lagrangian Hessians
};

class PenaltyFunction {
 public:
  explicit PenaltyFunction(Problem* problem);

  int n() const { return n_; }
  int m() const { return m_; }
  double beta() const { return beta_; }
  void set_beta(double beta) { beta_ = beta; }

  // Sizes all vectors of `it` and gives it the Jacobian pattern.
  void Allocate(Iterate* it) const;

  // f and c at it->x (one Q evaluation). False on failure or non-finite values.
  bool EvaluateValues(Iterate* it);
  // grad f and J at it->x (one grad Q evaluation), then grad Q for beta().
  bool EvaluateDerivatives(Iterate* it);
  // grad Q for the current beta from the cached grad f, J and c: no callbacks.
  void FormGradient(Iterate* it) const;

  // Second order. W = Hessian of the Lagrangian at it.x with sigma = 1 and
  // lambda = beta c(x) (one Hessian evaluation), kept here until the next
  // call; then the Hessian of Q_beta is applied matrix-free,
  //   Hess Q_beta v = W v + beta J^T (J v),
  // in O(nnz(W) + nnz(J)), never forming J^T J.
  bool has_hessian() const { return problem_->has_hessian(); }
  bool EvaluateHessian(const Iterate& it);
  void HessianProduct(const Iterate& it, const Vector& v, Vector* out);

  const PenaltyCounts& counts() const { return counts_; }
  Problem* problem() const { return problem_; }

 private:
  Problem* problem_;
  int n_;
  int m_;
  double beta_ = 1.0;
  PenaltyCounts counts_;
  SparseMatrix hessian_;  // lower triangle of W
  Vector hessian_diag_;   // diag(W), counted twice by L v + L^T v
  Vector lambda_;         // beta c, the multipliers W was formed with
  Vector jv_;             // J v
};

}  // namespace qpm

#endif  // QPM_PENALTY_HPP_
