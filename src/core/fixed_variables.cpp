#include "core/fixed_variables.hpp"

#include <algorithm>

#include "qpm/core/solver.hpp"

namespace qpm {

namespace {

// The pattern of `full` without the dropped rows and columns (new index -1)
// into `reduced`, and for each value of `full` its index in `reduced` (-1
// when dropped), so that values are copied over in one pass.
std::vector<int> SelectPattern(const SparseMatrix& full, const std::vector<int>& new_row,
                               const std::vector<int>& new_col, int rows, int cols,
                               SparseMatrix* reduced) {
  std::vector<Eigen::Triplet<double>> kept;
  for (int i = 0; i < full.outerSize(); ++i) {
    for (SparseMatrix::InnerIterator it(full, i); it; ++it) {
      if (new_row[it.row()] >= 0 && new_col[it.col()] >= 0) {
        kept.emplace_back(new_row[it.row()], new_col[it.col()], 0.0);
      }
    }
  }
  reduced->resize(rows, cols);
  reduced->setFromTriplets(kept.begin(), kept.end());
  reduced->makeCompressed();
  std::vector<int> slot(full.nonZeros(), -1);
  const int* outer = reduced->outerIndexPtr();
  const int* inner = reduced->innerIndexPtr();
  for (int i = 0; i < full.outerSize(); ++i) {
    for (SparseMatrix::InnerIterator it(full, i); it; ++it) {
      const int r = new_row[it.row()], c = new_col[it.col()];
      if (r < 0 || c < 0) continue;
      const int* at = std::lower_bound(inner + outer[r], inner + outer[r + 1], c);
      slot[&it.valueRef() - full.valuePtr()] = static_cast<int>(at - inner);
    }
  }
  return slot;
}

void CopyValues(const SparseMatrix& full, const std::vector<int>& slot, double* to) {
  const double* from = full.valuePtr();
  for (size_t k = 0; k < slot.size(); ++k) {
    if (slot[k] >= 0) to[slot[k]] = from[k];
  }
}

}  // namespace

bool FixedVariables::Any(const Problem& problem) {
  if (!problem.AnyVariableBound()) return false;
  const int n = problem.num_variables(), m = problem.num_constraints();
  Vector x_l(n), x_u(n), g_l(m), g_u(m);
  problem.GetBounds(x_l, x_u, g_l, g_u);
  return (x_l.array() == x_u.array()).any();
}

FixedVariables::FixedVariables(Problem* problem)
    : problem_(problem), n_(problem->num_variables()), m_(problem->num_constraints()) {
  x_l_.resize(n_), x_u_.resize(n_);
  Vector g_l(m_), g_u(m_);
  problem_->GetBounds(x_l_, x_u_, g_l, g_u);
  std::vector<int> new_index(n_, -1), rows(m_);
  for (int i = 0; i < n_; ++i) {
    if (x_l_[i] == x_u_[i]) {
      fixed_.push_back(i);
    } else {
      new_index[i] = static_cast<int>(free_.size());
      free_.push_back(i);
    }
  }
  for (int j = 0; j < m_; ++j) rows[j] = j;
  full_x_ = x_l_;  // the fixed entries keep these values
  full_grad_.resize(n_);
  problem_->InitJacobian(&full_jacobian_);
  full_jacobian_.makeCompressed();
  jacobian_slot_ = SelectPattern(full_jacobian_, rows, new_index, m_, num_variables(),
                                 &jacobian_pattern_);
  if (!problem_->has_hessian()) return;
  problem_->InitHessian(&full_hessian_);
  full_hessian_.makeCompressed();
  hessian_slot_ = SelectPattern(full_hessian_, new_index, new_index, num_variables(),
                                num_variables(), &hessian_pattern_);
}

void FixedVariables::GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const {
  Vector full_l(n_), full_u(n_);
  problem_->GetBounds(full_l, full_u, g_l, g_u);
  for (int k = 0; k < num_variables(); ++k) x_l[k] = full_l[free_[k]], x_u[k] = full_u[free_[k]];
}

void FixedVariables::Scatter(const ConstVectorRef& x) {
  for (int k = 0; k < num_variables(); ++k) full_x_[free_[k]] = x[k];
}

bool FixedVariables::EvalObjective(const ConstVectorRef& x, double* f) {
  Scatter(x);
  return problem_->EvalObjective(full_x_, f);
}

bool FixedVariables::EvalConstraints(const ConstVectorRef& x, VectorRef g) {
  Scatter(x);
  return problem_->EvalConstraints(full_x_, g);
}

bool FixedVariables::EvalGradient(const ConstVectorRef& x, VectorRef grad_f) {
  Scatter(x);
  if (!problem_->EvalGradient(full_x_, full_grad_)) return false;
  for (int k = 0; k < num_variables(); ++k) grad_f[k] = full_grad_[free_[k]];
  return true;
}

bool FixedVariables::EvalJacobian(const ConstVectorRef& x, SparseMatrixView* jacobian) {
  Scatter(x);
  SparseMatrixView full = ViewOf(full_jacobian_);
  if (!problem_->EvalJacobian(full_x_, &full)) return false;
  CopyValues(full_jacobian_, jacobian_slot_, jacobian->valuePtr());
  return true;
}

bool FixedVariables::EvalHessian(const ConstVectorRef& x, double sigma,
                                 const ConstVectorRef& lambda, SparseMatrix* hessian) {
  Scatter(x);
  if (!problem_->EvalHessian(full_x_, sigma, lambda, &full_hessian_)) return false;
  CopyValues(full_hessian_, hessian_slot_, hessian->valuePtr());
  return true;
}

Vector FixedVariables::Reduce(const Vector& x) const {
  Vector reduced(num_variables());
  for (int k = 0; k < num_variables(); ++k) reduced[k] = x[free_[k]];
  return reduced;
}

void FixedVariables::Expand(const Vector& x0, Summary* s) {
  for (int i : fixed_) s->start_projected += x0[i] != x_l_[i];
  Scatter(s->x);
  s->x = full_x_;
  Vector z_l = Vector::Zero(n_), z_u = Vector::Zero(n_);
  for (int k = 0; k < num_variables() && k < s->z_l.size(); ++k) {
    z_l[free_[k]] = s->z_l[k], z_u[free_[k]] = s->z_u[k];
  }
  SparseMatrixView full_jacobian = ViewOf(full_jacobian_);
  const bool have_point = s->termination != TerminationType::kInvalidOptions &&
                          s->termination != TerminationType::kInvalidNumberAtStart;
  if (have_point && problem_->EvalGradient(full_x_, full_grad_) &&
      (m_ == 0 || problem_->EvalJacobian(full_x_, &full_jacobian))) {
    if (m_ > 0) full_grad_.noalias() += full_jacobian_.transpose() * s->lambda;
    for (int i : fixed_) {
      z_l[i] = std::max(0.0, full_grad_[i]);   // r_i = (grad f + J^T lambda)_i
      z_u[i] = std::max(0.0, -full_grad_[i]);
    }
  }
  s->z_l = z_l, s->z_u = z_u;
}

}  // namespace qpm
