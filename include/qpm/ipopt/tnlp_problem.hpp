// Boundary adapter: an Ipopt TNLP seen as a qpm::Problem.
//
// It honours the TNLP contract (docs/robustness.md): structure calls once,
// C or Fortran index style, repeated triplets summed, Hessian in either
// triangle (stored lower), new_x = false only when the previous evaluation
// was at exactly this x, bounds at or beyond nlp_{lower,upper}_bound_inf are
// infinite (+-inf in the core). The core sees f_s = obj_scaling * f and the
// model's g with its bounds. Inconsistent bounds (lower > upper) are refused
// with a message naming the first offending index.
#ifndef QPM_IPOPT_TNLP_PROBLEM_HPP_
#define QPM_IPOPT_TNLP_PROBLEM_HPP_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <IpTNLP.hpp>

#include "qpm/core/problem.hpp"

namespace qpm {

struct TnlpOptions {
  double lower_bound_inf = -1e19;  // nlp_lower_bound_inf
  double upper_bound_inf = 1e19;   // nlp_upper_bound_inf
  double obj_scaling = 1.0;        // obj_scaling_factor (negative maximizes)
  bool need_hessian = false;       // make the eval_h structure call
  bool warm_start = false;         // warm_start_init_point: also ask for lambda, z_L, z_U
};

// How often each TNLP callback was made (value calls, not structure calls).
struct CallbackCounts {
  long eval_f = 0;
  long eval_g = 0;
  long eval_grad_f = 0;
  long eval_jac_g = 0;
  long eval_h = 0;
  double wall_time = 0.0;  // wall seconds spent inside the callbacks
};

// An exception thrown by a model callback during the solve.
struct CallbackFailure {
  enum Kind { kNone, kIpoptException, kOtherException };
  Kind kind = kNone;
  std::string message;  // "eval_f: <what()>"
};

class TnlpProblem : public Problem {
 public:
  // Queries sizes, bounds, structures and x0. Returns null when the model is
  // invalid or not supported; `error` then says why.
  static std::unique_ptr<TnlpProblem> Create(const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp,
                                             const TnlpOptions& options,
                                             std::string* error);

  int num_variables() const override { return n_; }
  int num_constraints() const override { return m_; }
  void GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const override;
  bool AnyVariableBound() const override { return !x_free_; }
  // As InitHessian: the first call hands J's pattern over, a later one
  // reads it from the TNLP again.
  void InitJacobian(SparseMatrix* jacobian) const override;
  bool EvalObjective(const ConstVectorRef& x, double* f) override;
  bool EvalConstraints(const ConstVectorRef& x, VectorRef g) override;
  bool EvalGradient(const ConstVectorRef& x, VectorRef grad_f) override;
  bool EvalJacobian(const ConstVectorRef& x, SparseMatrixView* jacobian) override;
  void SamePointNext() override { same_point_next_ = true; }
  bool has_hessian() const override { return has_hessian_; }
  // The first call hands W's pattern over (the caller keeps it; TnlpProblem
  // does not); a later one reads it from the TNLP again.
  void InitHessian(SparseMatrix* hessian) const override;
  bool EvalHessian(const ConstVectorRef& x, double sigma, const ConstVectorRef& lambda,
                   SparseMatrix* hessian) override;

  const Vector& starting_point() const { return x0_; }
  // The user's constraint multipliers (warm_start_init_point yes), in the
  // problem's scaling (times obj_scaling_factor); empty otherwise.
  const Vector& starting_multipliers() const { return lambda0_; }
  long jacobian_nonzeros() const { return jac_nonzeros_; }
  const Vector& row_lower() const { return g_l_; }  // g_l, infinite bounds as -inf
  const Vector& row_upper() const { return g_u_; }
  int num_equalities() const { return static_cast<int>((g_l_.array() == g_u_.array()).count()); }
  double obj_scaling() const { return options_.obj_scaling; }
  const CallbackCounts& counts() const { return counts_; }
  // Set when a callback threw; from then on no callback is made.
  const CallbackFailure& failure() const { return failure_; }
  bool aborted() const { return failure_.kind != CallbackFailure::kNone; }
  Ipopt::TNLP::IndexStyleEnum index_style() const { return index_style_; }

 private:
  TnlpProblem(const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp, const TnlpOptions& options);
  bool ReadSizesAndBounds(std::string* error);
  bool ReadStartingPoint(std::string* error);
  bool CheckBounds(const char* what, const char* name, Vector* lower, Vector* upper,
                   std::string* error) const;
  bool ReadJacobianStructure(std::string* error);
  bool ReadHessianStructure(std::string* error);
  // promised: SamePointNext came just before this call.
  bool NewX(const ConstVectorRef& x, bool promised);
  template <class Callback>
  bool Guard(const char* name, Callback&& callback);

  Ipopt::SmartPtr<Ipopt::TNLP> tnlp_;
  TnlpOptions options_;
  int n_ = 0;
  int m_ = 0;
  int nnz_jac_ = 0;
  int nnz_h_ = 0;
  Ipopt::TNLP::IndexStyleEnum index_style_ = Ipopt::TNLP::C_STYLE;
  Vector x0_;
  Vector lambda0_;
  Vector x_l_, x_u_, g_l_, g_u_;  // infinite bounds as +-inf
  bool x_free_ = false;           // no variable bounds: x_l_, x_u_ empty
  // A compressed row-major pattern without values (the callers' matrices
  // hold those): 4 bytes per entry instead of a SparseMatrix's 12.
  struct Pattern {
    int rows = 0, cols = 0;
    std::vector<int> outer, inner;
    void To(SparseMatrix* matrix) const;  // the pattern, zero values
    void Release() { outer = std::vector<int>(), inner = std::vector<int>(); }
  };

  mutable Pattern jac_pattern_;
  mutable bool jac_pattern_given_ = false;
  long jac_nonzeros_ = 0;           // entries of the compressed pattern
  std::vector<int> jac_slot_;       // triplet k -> value index; empty when k -> k
  std::vector<double> jac_values_;  // triplet values from eval_jac_g
  bool has_hessian_ = false;
  mutable Pattern hess_pattern_;
  mutable bool hess_pattern_given_ = false;
  std::vector<int> hess_slot_;
  std::vector<double> hess_values_;
  Vector lambda_buffer_;
  // The last x the model saw, as where it lay and a hash of its bits
  // (NewX): no copy of x.
  const double* last_x_data_ = nullptr;
  Eigen::Index last_x_size_ = 0;
  std::uint64_t last_x_hash_ = 0;
  bool same_point_next_ = false;  // SamePointNext: the next NewX need not hash x
  CallbackCounts counts_;
  CallbackFailure failure_;
};

}  // namespace qpm

#endif  // QPM_IPOPT_TNLP_PROBLEM_HPP_
