#include "qpm/ipopt/derivative_checker.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace qpm {
namespace {

using Ipopt::Index;
using Ipopt::Number;
using Level = DerivativeTestOptions::Level;

// Uniform numbers in [0, 1) from a fixed seed: the reference point, and so
// the whole log, is the same on every run and every thread.
class Uniform {
 public:
  double Next() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_{0x9e3779b97f4a7c15ULL};
};

// Triplet indices grouped by one coordinate (a column of J, a row of J or
// a row of the symmetric Hessian).
using Groups = std::vector<std::vector<int>>;

class Checker {
 public:
  Checker(Ipopt::TNLP& tnlp, const DerivativeTestOptions& options) : tnlp_(tnlp), o_(options) {}

  DerivativeTestResult Run() {
    if (Setup() && FirstOrderWanted()) CheckFirstOrder();
    if (result_.evaluated && SecondOrderWanted()) CheckSecondOrder();
    if (result_.evaluated) {
      result_.lines.emplace_back();
      result_.lines.push_back(result_.errors == 0
                                  ? std::string("No errors detected by derivative checker.")
                                  : "Derivative checker detected " +
                                        std::to_string(result_.errors) + " error(s).");
    }
    return result_;
  }

 private:
  bool FirstOrderWanted() const {
    return o_.level == Level::kFirstOrder || o_.level == Level::kSecondOrder;
  }
  bool SecondOrderWanted() const {
    return o_.level == Level::kSecondOrder || o_.level == Level::kOnlySecondOrder;
  }
  bool Fail(const char* what) {
    result_.evaluated = false;
    result_.failure = std::string("derivative test: ") + what;
    return false;
  }
  double Step(int i) const { return o_.perturbation * std::max(1.0, std::abs(x_[i])); }

  bool Setup();
  bool ReadStructures();
  void MoveReferencePoint(const std::vector<Number>& x_l, const std::vector<Number>& x_u);
  void CheckFirstOrder();
  void CheckSecondOrder();
  bool ReadHessianStructure();
  bool CheckHessianOf(int icon, std::vector<Number>* h, std::vector<Number>* lambda);
  // Sums row `row` of J (values `jac`) into dense `out`.
  void JacobianRow(int row, const std::vector<Number>& jac, std::vector<Number>* out) const;
  // Records one comparison; `label` is the line up to " = ".
  void Compare(const char* label, double exact, bool found, double approx, bool show_found);

  Ipopt::TNLP& tnlp_;
  DerivativeTestOptions o_;
  DerivativeTestResult result_;
  Index n_ = 0, m_ = 0, nnz_jac_ = 0, nnz_h_ = 0;
  int offset_ = 0;  // 1 for FORTRAN_STYLE: reported indices in the model's style
  std::vector<Number> x_, g_, grad_, jac_;
  Number f_ = 0.0;
  std::vector<Index> jrow_, jcol_;
  Groups jac_by_col_, jac_by_row_;
  std::vector<Index> hrow_, hcol_;
  Groups hess_by_var_;
};

bool Checker::Setup() {
  Ipopt::TNLP::IndexStyleEnum style;
  if (!tnlp_.get_nlp_info(n_, m_, nnz_jac_, nnz_h_, style)) return Fail("get_nlp_info failed");
  offset_ = style == Ipopt::TNLP::FORTRAN_STYLE ? 1 : 0;
  x_.assign(n_, 0.0), g_.assign(m_, 0.0), grad_.assign(n_, 0.0), jac_.assign(nnz_jac_, 0.0);
  std::vector<Number> x_l(n_), x_u(n_), g_l(m_), g_u(m_);
  if (!tnlp_.get_bounds_info(n_, x_l.data(), x_u.data(), m_, g_l.data(), g_u.data())) {
    return Fail("get_bounds_info failed");
  }
  if (!tnlp_.get_starting_point(n_, true, x_.data(), false, nullptr, nullptr, m_, false, nullptr)) {
    return Fail("get_starting_point failed");
  }
  MoveReferencePoint(x_l, x_u);
  if (!ReadStructures()) return false;
  if (!tnlp_.eval_f(n_, x_.data(), true, f_)) return Fail("f could not be evaluated at the reference point");
  if (m_ > 0 && !tnlp_.eval_g(n_, x_.data(), false, m_, g_.data())) {
    return Fail("g could not be evaluated at the reference point");
  }
  if (!tnlp_.eval_grad_f(n_, x_.data(), false, grad_.data())) {
    return Fail("grad_f could not be evaluated at the reference point");
  }
  if (m_ > 0 && !tnlp_.eval_jac_g(n_, x_.data(), false, m_, nnz_jac_, nullptr, nullptr, jac_.data())) {
    return Fail("the Jacobian could not be evaluated at the reference point");
  }
  return true;
}

// x0 moved uniformly within [max(x_l, x0 - r), min(x_u, x0 + r)].
void Checker::MoveReferencePoint(const std::vector<Number>& x_l, const std::vector<Number>& x_u) {
  Uniform uniform;
  const double r = o_.point_perturbation_radius;
  for (int i = 0; i < n_; ++i) {
    const double lower = std::max(x_l[i], x_[i] - r);
    const double upper = std::min(x_u[i], x_[i] + r);
    const double u = uniform.Next();
    if (lower <= upper) x_[i] = lower + u * (upper - lower);
  }
}

bool Checker::ReadStructures() {
  jrow_.assign(nnz_jac_, 0), jcol_.assign(nnz_jac_, 0);
  jac_by_col_.assign(n_, {}), jac_by_row_.assign(m_, {});
  if (m_ == 0) return true;
  if (!tnlp_.eval_jac_g(n_, nullptr, false, m_, nnz_jac_, jrow_.data(), jcol_.data(), nullptr)) {
    return Fail("the Jacobian structure could not be evaluated");
  }
  for (int k = 0; k < nnz_jac_; ++k) {
    jac_by_col_[jcol_[k] - offset_].push_back(k);
    jac_by_row_[jrow_[k] - offset_].push_back(k);
  }
  return true;
}

void Checker::Compare(const char* label, double exact, bool found, double approx, bool show_found) {
  const double relative = std::abs(approx - exact) / std::max(std::abs(approx), 1.0);
  const bool error = relative >= o_.tol || !std::isfinite(relative);
  ++result_.checked;
  result_.errors += error;
  if (!error && !o_.print_all) return;
  char line[256];
  if (show_found) {
    std::snprintf(line, sizeof line, "%c %s = %23.16e %c  ~ %23.16e  [%10.3e]", error ? '*' : ' ',
                  label, exact, found ? 'v' : ' ', approx, relative);
  } else {
    std::snprintf(line, sizeof line, "%c %s = %23.16e    ~ %23.16e  [%10.3e]", error ? '*' : ' ',
                  label, exact, approx, relative);
  }
  result_.lines.push_back(line);
}

void Checker::CheckFirstOrder() {
  result_.lines.push_back("Starting derivative checker for first derivatives.");
  std::vector<Number> xp = x_, gp(m_), exact(m_);
  std::vector<char> found(m_);
  char label[96];
  for (int i = std::max(0, o_.first_index); i < n_; ++i) {
    const double h = Step(i);
    xp[i] = x_[i] + h;
    Number fp = 0.0;
    if (!tnlp_.eval_f(n_, xp.data(), true, fp)) {
      Fail("f could not be evaluated at a perturbed point");
      return;
    }
    std::snprintf(label, sizeof label, "grad_f[      %5d]", i + offset_);
    Compare(label, grad_[i], true, (fp - f_) / h, false);
    if (m_ > 0 && !tnlp_.eval_g(n_, xp.data(), false, m_, gp.data())) {
      Fail("g could not be evaluated at a perturbed point");
      return;
    }
    std::fill(exact.begin(), exact.end(), 0.0);
    std::fill(found.begin(), found.end(), 0);
    for (int k : jac_by_col_[i]) exact[jrow_[k] - offset_] += jac_[k], found[jrow_[k] - offset_] = 1;
    for (int r = 0; r < m_; ++r) {
      std::snprintf(label, sizeof label, "jac_g [%5d,%5d]", r + offset_, i + offset_);
      Compare(label, exact[r], found[r], (gp[r] - g_[r]) / h, true);
    }
    xp[i] = x_[i];
  }
}

void Checker::JacobianRow(int row, const std::vector<Number>& jac, std::vector<Number>* out) const {
  std::fill(out->begin(), out->end(), 0.0);
  for (int k : jac_by_row_[row]) (*out)[jcol_[k] - offset_] += jac[k];
}

void Checker::CheckSecondOrder() {
  result_.lines.push_back("Starting derivative checker for second derivatives.");
  if (!ReadHessianStructure()) return;
  std::vector<Number> h(nnz_h_), lambda(m_, 0.0);
  for (int icon = std::max(-1, o_.first_index); icon < m_; ++icon) {
    if (!CheckHessianOf(icon, &h, &lambda)) return;
  }
}

bool Checker::ReadHessianStructure() {
  hrow_.assign(nnz_h_, 0), hcol_.assign(nnz_h_, 0);
  if (!tnlp_.eval_h(n_, nullptr, false, 0.0, m_, nullptr, false, nnz_h_, hrow_.data(),
                    hcol_.data(), nullptr)) {
    return Fail("the Hessian structure could not be evaluated");
  }
  hess_by_var_.assign(n_, {});  // entries of row i of the symmetric matrix, either triangle
  for (int k = 0; k < nnz_h_; ++k) {
    hess_by_var_[hrow_[k] - offset_].push_back(k);
    if (hrow_[k] != hcol_[k]) hess_by_var_[hcol_[k] - offset_].push_back(k);
  }
  return true;
}

// Hessian of f (icon = -1) or of g_icon against differences of its gradient.
bool Checker::CheckHessianOf(int icon, std::vector<Number>* h, std::vector<Number>* lambda) {
  if (icon >= 0) (*lambda)[icon] = 1.0;
  const bool ok = tnlp_.eval_h(n_, x_.data(), true, icon < 0 ? 1.0 : 0.0, m_, lambda->data(), true,
                               nnz_h_, nullptr, nullptr, h->data());
  if (icon >= 0) (*lambda)[icon] = 0.0;
  if (!ok) return Fail("the Hessian could not be evaluated at the reference point");
  std::vector<Number> xp = x_, ref(n_), pert(n_), jac_p(nnz_jac_), exact(n_);
  std::vector<char> found(n_);
  if (icon < 0) ref = grad_; else JacobianRow(icon, jac_, &ref);
  char label[96];
  for (int i = 0; i < n_; ++i) {
    const double step = Step(i);
    xp[i] = x_[i] + step;
    const bool evaluated = icon < 0 ? tnlp_.eval_grad_f(n_, xp.data(), true, pert.data())
                                    : tnlp_.eval_jac_g(n_, xp.data(), true, m_, nnz_jac_, nullptr,
                                                       nullptr, jac_p.data());
    if (!evaluated) return Fail("a gradient could not be evaluated at a perturbed point");
    if (icon >= 0) JacobianRow(icon, jac_p, &pert);
    std::fill(exact.begin(), exact.end(), 0.0);
    std::fill(found.begin(), found.end(), 0);
    for (int k : hess_by_var_[i]) {
      const int j = (hrow_[k] - offset_ == i ? hcol_[k] : hrow_[k]) - offset_;
      exact[j] += (*h)[k], found[j] = 1;
    }
    for (int j = 0; j < n_; ++j) {
      if (icon < 0) {
        std::snprintf(label, sizeof label, "            obj_hess[%5d,%5d]", i + offset_, j + offset_);
      } else {
        std::snprintf(label, sizeof label, "%5d-th constr_hess[%5d,%5d]", icon + offset_,
                      i + offset_, j + offset_);
      }
      Compare(label, exact[j], found[j], (pert[j] - ref[j]) / step, true);
    }
    xp[i] = x_[i];
  }
  return true;
}

}  // namespace

DerivativeTestResult CheckDerivatives(Ipopt::TNLP& tnlp, const DerivativeTestOptions& options) {
  if (options.level == DerivativeTestOptions::Level::kNone) return DerivativeTestResult();
  return Checker(tnlp, options).Run();
}

}  // namespace qpm
