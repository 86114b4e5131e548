#include "qpm/ipopt/tnlp_problem.hpp"

#include <IpException.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <utility>

#include "core/linalg/hash_bits.hpp"
#include "core/linalg/huge_pages.hpp"


namespace qpm {

using Ipopt::Index;
using Ipopt::Number;

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string Format(const char* fmt, long a, double b = 0.0, double c = 0.0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, fmt, a, b, c);
  return buffer;
}

// Builds the compressed pattern of `rows` x `cols` entries (row[k], col[k])
// and, for each triplet k, the index of its value in the compressed storage,
// so that repeated triplets land on (and are summed into) the same slot.
// v->assign(size, value) on memory advised for huge pages (core/linalg/huge_pages.hpp).
template <class T>
void AssignLarge(std::vector<T>* v, size_t size, T value) {
  if (v->capacity() < size) {
    std::vector<T>().swap(*v);
    v->reserve(size);
    AdviseHugePages(v->data(), sizeof(T) * size);
  }
  v->assign(size, value);
}

// Sorts the columns of each row of a counting-sorted pattern, merges
// repeats, and moves slot[k] along.
void SortAndMerge(int rows, std::vector<int>* outer, std::vector<int>* inner,
                  std::vector<int>* slot) {
  std::vector<int> moved(inner->size());  // old position -> new one
  std::vector<int> order, cols;
  int written = 0;
  for (int r = 0; r < rows; ++r) {
    const int begin = (*outer)[r], end = (*outer)[r + 1];
    order.resize(end - begin);
    for (int p = begin; p < end; ++p) order[p - begin] = p;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return (*inner)[a] < (*inner)[b]; });
    cols.resize(order.size());
    for (size_t i = 0; i < order.size(); ++i) cols[i] = (*inner)[order[i]];
    (*outer)[r] = written;
    for (size_t i = 0; i < order.size(); ++i) {
      if (i == 0 || cols[i] != cols[i - 1]) (*inner)[written++] = cols[i];
      moved[order[i]] = written - 1;
    }
  }
  (*outer)[rows] = written;
  inner->resize(written);
  inner->shrink_to_fit();
  for (int& s : *slot) s = moved[s];
}

// The compressed row pattern of triplets (row[k], col[k]) in `outer` and
// `inner` (duplicates merged, columns ascending) and slot[k], the index of
// triplet k in it: a counting sort by row, then a sort of the rows whose
// columns are not already strictly ascending.
void BuildPattern(int rows, const std::vector<Index>& row, const std::vector<Index>& col,
                  std::vector<int>* outer, std::vector<int>* inner, std::vector<int>* slot) {
  const size_t nnz = slot->size();
  AssignLarge(outer, rows + 1, 0);
  for (size_t k = 0; k < nnz; ++k) ++(*outer)[row[k] + 1];
  for (int r = 0; r < rows; ++r) (*outer)[r + 1] += (*outer)[r];
  AssignLarge(inner, nnz, 0);
  {
    std::vector<int> next(outer->begin(), outer->end() - 1);
    for (size_t k = 0; k < nnz; ++k) {
      const int p = next[row[k]]++;
      (*inner)[p] = col[k];
      (*slot)[k] = p;
    }
  }
  bool ordered = true;
  for (int r = 0; r < rows && ordered; ++r) {
    for (int p = (*outer)[r] + 1; p < (*outer)[r + 1] && ordered; ++p) ordered = (*inner)[p - 1] < (*inner)[p];
  }
  if (!ordered) SortAndMerge(rows, outer, inner, slot);
}

// True when triplet k lands in slot k: the model's order is the compressed
// order and nothing repeats, so eval_* can write straight into the matrix.
bool IsIdentity(const std::vector<int>& slot) {
  for (size_t k = 0; k < slot.size(); ++k) {
    if (slot[k] != static_cast<int>(k)) return false;
  }
  return true;
}

// Sums triplet values into the compressed storage through `slot`.
void ScatterValues(const std::vector<double>& values, const std::vector<int>& slot, double* v,
                   Eigen::Index nnz) {
  std::fill_n(v, nnz, 0.0);
  for (size_t k = 0; k < slot.size(); ++k) v[slot[k]] += values[k];
}

// Converts structure indices to 0-based and checks them against the sizes.
bool CheckIndices(const char* what, Index offset, int rows, int cols,
                  std::vector<Index>* row, std::vector<Index>* col, std::string* error) {
  for (size_t k = 0; k < row->size(); ++k) {
    (*row)[k] -= offset;
    (*col)[k] -= offset;
    if ((*row)[k] < 0 || (*row)[k] >= rows || (*col)[k] < 0 || (*col)[k] >= cols) {
      *error = std::string(what) + Format(" structure: entry %ld has (row %g, col %g) out of range",
                                          static_cast<long>(k), (*row)[k] + offset,
                                          (*col)[k] + offset) +
               (offset ? " for FORTRAN_STYLE (1-based) indices" : " for C_STYLE (0-based) indices");
      return false;
    }
  }
  return true;
}

// Structure arrays get a guard zone past the declared count and every slot
// holds a sentinel no valid index can take: after the call, a sentinel left
// inside the count or overwritten in the guard shows that the nonzero count
// of get_nlp_info disagrees with what the structure call wrote.
constexpr Index kUnset = std::numeric_limits<Index>::min();

size_t GuardSize(int nnz) { return static_cast<size_t>(std::max(16, nnz)); }

void PrepareStructure(int nnz, std::vector<Index>* row, std::vector<Index>* col) {
  AssignLarge(row, nnz + GuardSize(nnz), kUnset);
  AssignLarge(col, nnz + GuardSize(nnz), kUnset);
}

bool CheckStructureCount(const char* call, const char* count_name, int nnz,
                         std::vector<Index>* row, std::vector<Index>* col, std::string* error) {
  long filled = 0;
  while (filled < nnz && (*row)[filled] != kUnset && (*col)[filled] != kUnset) ++filled;
  long beyond = 0;
  for (size_t k = nnz; k < row->size(); ++k) beyond += (*row)[k] != kUnset || (*col)[k] != kUnset;
  if (filled < nnz) {
    *error = std::string(call) + Format(" structure: entry %ld of the %g declared by get_nlp_info (",
                                        filled, nnz) +
             count_name + ") was not filled: the nonzero count is larger than the structure";
    return false;
  }
  if (beyond > 0) {
    *error = std::string(call) + Format(" structure: %ld entries written past the %g declared by "
                                        "get_nlp_info (", beyond, nnz) +
             count_name + "): the nonzero count is smaller than the structure";
    return false;
  }
  row->resize(nnz);
  col->resize(nnz);
  return true;
}

// Adds the wall time of its scope to a counter (callback time in the log).
// The steady clock costs ~20 ns; the CPU clock (a system call) would cost
// more than many models' callbacks.
class ScopedTimer {
 public:
  explicit ScopedTimer(double* total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    *total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  double* total_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

TnlpProblem::TnlpProblem(const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp, const TnlpOptions& options)
    : tnlp_(tnlp), options_(options) {}

std::unique_ptr<TnlpProblem> TnlpProblem::Create(const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp,
                                                 const TnlpOptions& options,
                                                 std::string* error) {
  std::unique_ptr<TnlpProblem> problem(new TnlpProblem(tnlp, options));
  if (!problem->ReadSizesAndBounds(error)) return nullptr;
  if (!problem->ReadJacobianStructure(error)) return nullptr;
  if (options.need_hessian && !problem->ReadHessianStructure(error)) return nullptr;
  if (!problem->ReadStartingPoint(error)) return nullptr;
  problem->lambda_buffer_.setZero(problem->m_);
  return problem;
}

// As Ipopt: init_z and init_lambda only with warm_start_init_point yes.
// The bound multipliers are read (the contract asks the model for them) but
// not used: qpm's bound multipliers come from the projected gradient.
bool TnlpProblem::ReadStartingPoint(std::string* error) {
  SetZeroLarge(&x0_, n_);
  const bool warm = options_.warm_start;
  Vector z_l = Vector::Zero(warm ? n_ : 0), z_u = Vector::Zero(warm ? n_ : 0);
  lambda0_.setZero(warm ? m_ : 0);
  if (!tnlp_->get_starting_point(n_, true, x0_.data(), warm, warm ? z_l.data() : nullptr,
                                 warm ? z_u.data() : nullptr, m_, warm,
                                 warm ? lambda0_.data() : nullptr)) {
    *error = "get_starting_point returned false";
    return false;
  }
  if (warm && !lambda0_.allFinite()) {
    *error = "get_starting_point returned a non-finite multiplier";
    return false;
  }
  lambda0_ *= options_.obj_scaling;
  return true;
}

bool TnlpProblem::ReadSizesAndBounds(std::string* error) {
  Index n = 0, m = 0, nnz_jac = 0, nnz_h = 0;
  if (!tnlp_->get_nlp_info(n, m, nnz_jac, nnz_h, index_style_)) {
    *error = "get_nlp_info returned false";
    return false;
  }
  if (n < 0 || m < 0 || nnz_jac < 0 || nnz_h < 0) {
    *error = "get_nlp_info gave a negative size (n, m, nnz_jac_g or nnz_h_lag)";
    return false;
  }
  n_ = n, m_ = m, nnz_jac_ = nnz_jac, nnz_h_ = nnz_h;
  SetZeroLarge(&x_l_, n), SetZeroLarge(&x_u_, n), g_l_.resize(m), g_u_.resize(m);
  if (!tnlp_->get_bounds_info(n, x_l_.data(), x_u_.data(), m, g_l_.data(), g_u_.data())) {
    *error = "get_bounds_info returned false";
    return false;
  }
  if (!CheckBounds("variable", "x", &x_l_, &x_u_, error) ||
      !CheckBounds("constraint", "g", &g_l_, &g_u_, error)) {
    return false;
  }
  x_free_ = (x_l_.array() == -kInfinity).all() && (x_u_.array() == kInfinity).all();
  if (x_free_) x_l_ = Vector(), x_u_ = Vector();  // 16 bytes per variable saved
  return true;
}

// Maps bounds at or beyond nlp_{lower,upper}_bound_inf to +-infinity and
// refuses lower > upper (or NaN), naming the first offending index.
bool TnlpProblem::CheckBounds(const char* what, const char* name, Vector* lower, Vector* upper,
                              std::string* error) const {
  const double inf = std::numeric_limits<double>::infinity();
  for (int i = 0; i < lower->size(); ++i) {
    double& l = (*lower)[i];
    double& u = (*upper)[i];
    if (l <= options_.lower_bound_inf) l = -inf;
    if (u >= options_.upper_bound_inf) u = inf;
    if (!(l <= u)) {
      char buffer[200];
      std::snprintf(buffer, sizeof buffer, "%s %d has inconsistent bounds %s_l = %g > %s_u = %g",
                    what, i, name, l, name, u);
      *error = buffer;
      return false;
    }
  }
  return true;
}

void TnlpProblem::GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const {
  if (x_free_) {
    x_l.setConstant(-kInfinity), x_u.setConstant(kInfinity);
  } else {
    x_l = x_l_, x_u = x_u_;
  }
  g_l = g_l_, g_u = g_u_;
}

bool TnlpProblem::ReadJacobianStructure(std::string* error) {
  std::vector<Index> row, col;
  PrepareStructure(nnz_jac_, &row, &col);
  if (!tnlp_->eval_jac_g(n_, nullptr, false, m_, nnz_jac_, row.data(), col.data(), nullptr)) {
    *error = "eval_jac_g (structure) returned false";
    return false;
  }
  if (!CheckStructureCount("eval_jac_g", "nnz_jac_g", nnz_jac_, &row, &col, error)) return false;
  const Index offset = index_style_ == Ipopt::TNLP::FORTRAN_STYLE ? 1 : 0;
  if (!CheckIndices("eval_jac_g", offset, m_, n_, &row, &col, error)) return false;
  AssignLarge(&jac_slot_, nnz_jac_, 0);
  jac_pattern_.rows = m_, jac_pattern_.cols = n_;
  BuildPattern(m_, row, col, &jac_pattern_.outer, &jac_pattern_.inner, &jac_slot_);
  jac_nonzeros_ = static_cast<long>(jac_pattern_.inner.size());
  if (IsIdentity(jac_slot_)) {
    std::vector<int>().swap(jac_slot_);  // direct: no buffer, no scatter (clear() keeps the memory)
  } else {
    jac_values_.assign(nnz_jac_, 0.0);
  }
  return true;
}

bool TnlpProblem::ReadHessianStructure(std::string* error) {
  std::vector<Index> row, col;
  PrepareStructure(nnz_h_, &row, &col);
  if (!tnlp_->eval_h(n_, nullptr, false, 1.0, m_, nullptr, false, nnz_h_, row.data(),
                     col.data(), nullptr)) {
    has_hessian_ = false;  // the model offers no Hessian; not an error here
    return true;
  }
  if (!CheckStructureCount("eval_h", "nnz_h_lag", nnz_h_, &row, &col, error)) return false;
  const Index offset = index_style_ == Ipopt::TNLP::FORTRAN_STYLE ? 1 : 0;
  if (!CheckIndices("eval_h", offset, n_, n_, &row, &col, error)) return false;
  // Either triangle is allowed: store every entry in the lower one.
  for (int k = 0; k < nnz_h_; ++k) {
    if (row[k] < col[k]) std::swap(row[k], col[k]);
  }
  AssignLarge(&hess_slot_, nnz_h_, 0);
  hess_pattern_.rows = hess_pattern_.cols = n_;
  BuildPattern(n_, row, col, &hess_pattern_.outer, &hess_pattern_.inner, &hess_slot_);
  if (IsIdentity(hess_slot_)) {
    std::vector<int>().swap(hess_slot_);
  } else {
    hess_values_.assign(nnz_h_, 0.0);
  }
  has_hessian_ = true;
  return true;
}

// Runs a model callback; an exception ends the solve: it is recorded (kind
// and message, for the application's return code and log), the call counts
// as failed, and no further callback is made (the solver then stops at its
// last accepted point, which finalize_solution receives).
template <class Callback>
bool TnlpProblem::Guard(const char* name, Callback&& callback) {
  try {
    return callback();
  } catch (const Ipopt::IpoptException& e) {
    failure_ = {CallbackFailure::kIpoptException, std::string(name) + ": " + e.Message()};
  } catch (const std::exception& e) {
    failure_ = {CallbackFailure::kOtherException, std::string(name) + ": " + e.what()};
  } catch (...) {
    failure_ = {CallbackFailure::kOtherException, std::string(name) + ": unknown exception"};
  }
  return false;
}

// Ipopt's new_x: false only for the same vector (where it lies, and the hash
// of its bits) as the last call's. The solver evaluates a point through one
// buffer, so repeated calls at a point see the same address; a point copied
// elsewhere gets new_x = true, which only costs the model a recomputation.
bool TnlpProblem::NewX(const ConstVectorRef& x, bool promised) {
  if (promised && x.data() == last_x_data_ && x.size() == last_x_size_) return false;
  const std::uint64_t hash = HashBits(x);
  const bool same = x.data() == last_x_data_ && x.size() == last_x_size_ && hash == last_x_hash_;
  last_x_data_ = x.data(), last_x_size_ = x.size(), last_x_hash_ = hash;
  return !same;
}

bool TnlpProblem::EvalObjective(const ConstVectorRef& x, double* f) {
  const bool promised = std::exchange(same_point_next_, false);
  if (aborted()) return false;
  ++counts_.eval_f;
  ScopedTimer timer(&counts_.wall_time);
  const bool new_x = NewX(x, promised);
  if (!Guard("eval_f", [&] { return tnlp_->eval_f(n_, x.data(), new_x, *f); })) return false;
  *f *= options_.obj_scaling;
  return true;
}

bool TnlpProblem::EvalConstraints(const ConstVectorRef& x, VectorRef g) {
  const bool promised = std::exchange(same_point_next_, false);
  if (aborted()) return false;
  ++counts_.eval_g;
  ScopedTimer timer(&counts_.wall_time);
  const bool new_x = NewX(x, promised);
  if (m_ == 0) return true;
  return Guard("eval_g", [&] { return tnlp_->eval_g(n_, x.data(), new_x, m_, g.data()); });
}

bool TnlpProblem::EvalGradient(const ConstVectorRef& x, VectorRef grad_f) {
  const bool promised = std::exchange(same_point_next_, false);
  if (aborted()) return false;
  ++counts_.eval_grad_f;
  ScopedTimer timer(&counts_.wall_time);
  const bool new_x = NewX(x, promised);
  if (!Guard("eval_grad_f", [&] { return tnlp_->eval_grad_f(n_, x.data(), new_x, grad_f.data()); })) {
    return false;
  }
  grad_f *= options_.obj_scaling;
  return true;
}

void TnlpProblem::Pattern::To(SparseMatrix* matrix) const {
  matrix->resize(rows, cols);
  matrix->resizeNonZeros(static_cast<Eigen::Index>(inner.size()));
  AdviseHugePages(matrix->outerIndexPtr(), sizeof(int) * outer.size());
  AdviseHugePages(matrix->valuePtr(), sizeof(double) * inner.size());
  AdviseHugePages(matrix->innerIndexPtr(), sizeof(int) * inner.size());
  std::copy(outer.begin(), outer.end(), matrix->outerIndexPtr());
  std::copy(inner.begin(), inner.end(), matrix->innerIndexPtr());
  std::fill_n(matrix->valuePtr(), inner.size(), 0.0);
}

void TnlpProblem::InitHessian(SparseMatrix* hessian) const {
  if (hess_pattern_given_ && has_hessian_) {
    std::string error;  // it was read once without one
    const_cast<TnlpProblem*>(this)->ReadHessianStructure(&error);
  }
  hess_pattern_.To(hessian);
  hess_pattern_.Release();
  hess_pattern_given_ = true;
}

// A re-read that fails leaves an empty pattern, which EvalJacobian refuses.
void TnlpProblem::InitJacobian(SparseMatrix* jacobian) const {
  if (jac_pattern_given_) {
    std::string error;
    const long nonzeros = jac_nonzeros_;
    if (!const_cast<TnlpProblem*>(this)->ReadJacobianStructure(&error) ||
        jac_nonzeros_ != nonzeros) {
      jac_pattern_.Release();
    }
  }
  jac_pattern_.To(jacobian);
  jac_pattern_.Release();
  jac_pattern_given_ = true;
}

bool TnlpProblem::EvalJacobian(const ConstVectorRef& x, SparseMatrixView* jacobian) {
  const bool promised = std::exchange(same_point_next_, false);
  if (aborted() || jacobian->nonZeros() != jac_nonzeros_) return false;
  ++counts_.eval_jac_g;
  ScopedTimer timer(&counts_.wall_time);
  const bool new_x = NewX(x, promised);
  if (m_ == 0) return true;
  const bool direct = jac_slot_.empty();
  double* values = direct ? jacobian->valuePtr() : jac_values_.data();
  if (!Guard("eval_jac_g", [&] {
        return tnlp_->eval_jac_g(n_, x.data(), new_x, m_, nnz_jac_, nullptr, nullptr, values);
      })) {
    return false;
  }
  if (!direct) ScatterValues(jac_values_, jac_slot_, jacobian->valuePtr(), jacobian->nonZeros());
  return true;
}

bool TnlpProblem::EvalHessian(const ConstVectorRef& x, double sigma,
                              const ConstVectorRef& lambda, SparseMatrix* hessian) {
  const bool promised = std::exchange(same_point_next_, false);
  if (!has_hessian_ || aborted()) return false;
  ++counts_.eval_h;
  ScopedTimer timer(&counts_.wall_time);
  const bool new_x = NewX(x, promised);
  lambda_buffer_ = lambda;
  const bool direct = hess_slot_.empty();
  double* values = direct ? hessian->valuePtr() : hess_values_.data();
  if (!Guard("eval_h", [&] {
        return tnlp_->eval_h(n_, x.data(), new_x, sigma * options_.obj_scaling, m_,
                             lambda_buffer_.data(), true, nnz_h_, nullptr, nullptr, values);
      })) {
    return false;
  }
  if (!direct) ScatterValues(hess_values_, hess_slot_, hessian->valuePtr(), hessian->nonZeros());
  return true;
}

}  // namespace qpm
