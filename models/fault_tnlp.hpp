// Fault injection for any TNLP: a decorator that forwards every call to the
// wrapped model and, at one value call of one callback, writes NaN or Inf
// into one entry of the output (or returns false). Everything else is the
// model's own, so QPM and Ipopt can be run on the same faulty model.
#ifndef QPM_MODELS_FAULT_TNLP_HPP_
#define QPM_MODELS_FAULT_TNLP_HPP_

#include <cmath>
#include <string>

#include <IpTNLP.hpp>

#include "forwarding_tnlp.hpp"

namespace qpm_test {

enum class FaultCallback { kF, kG, kGradF, kJacG, kH };
enum class FaultKind { kNaN, kInf, kFalse };

inline const char* FaultCallbackName(FaultCallback c) {
  static const char* names[] = {"eval_f", "eval_g", "eval_grad_f", "eval_jac_g", "eval_h"};
  return names[static_cast<int>(c)];
}
inline const char* FaultKindName(FaultKind k) {
  static const char* names[] = {"NaN", "Inf", "false"};
  return names[static_cast<int>(k)];
}

struct Fault {
  FaultCallback callback = FaultCallback::kGradF;
  FaultKind kind = FaultKind::kNaN;
  long first_call = 2;  // value calls of `callback` counted from 1
  long last_call = 2;   // the fault persists up to here (first_call: once)
  int entry = 0;        // which output entry (modulo the output's size)
};

class FaultTnlp : public ForwardingTnlp {
 public:
  FaultTnlp(Ipopt::SmartPtr<Ipopt::TNLP> model, Fault fault) : ForwardingTnlp(model), fault_(fault) {}

  bool eval_f(Index n, const Number* x, bool new_x, Number& f) override {
    return ForwardingTnlp::eval_f(n, x, new_x, f) && Inject(FaultCallback::kF, &f, 1);
  }
  bool eval_grad_f(Index n, const Number* x, bool new_x, Number* grad) override {
    return ForwardingTnlp::eval_grad_f(n, x, new_x, grad) && Inject(FaultCallback::kGradF, grad, n);
  }
  bool eval_g(Index n, const Number* x, bool new_x, Index m, Number* g) override {
    return ForwardingTnlp::eval_g(n, x, new_x, m, g) && Inject(FaultCallback::kG, g, m);
  }
  bool eval_jac_g(Index n, const Number* x, bool new_x, Index m, Index nele, Index* row,
                  Index* col, Number* values) override {
    const bool ok = ForwardingTnlp::eval_jac_g(n, x, new_x, m, nele, row, col, values);
    return values ? ok && Inject(FaultCallback::kJacG, values, nele) : ok;
  }
  bool eval_h(Index n, const Number* x, bool new_x, Number sigma, Index m, const Number* lambda,
              bool new_lambda, Index nele, Index* row, Index* col, Number* values) override {
    const bool ok =
        ForwardingTnlp::eval_h(n, x, new_x, sigma, m, lambda, new_lambda, nele, row, col, values);
    return values ? ok && Inject(FaultCallback::kH, values, nele) : ok;
  }
  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* z_L,
                         const Number* z_U, Index m, const Number* g, const Number* lambda,
                         Number obj, const Ipopt::IpoptData* data,
                         Ipopt::IpoptCalculatedQuantities* cq) override {
    injected_by_solver_ = injected_;
    ForwardingTnlp::finalize_solution(status, n, x, z_L, z_U, m, g, lambda, obj, data, cq);
  }

  long calls(FaultCallback c) const { return calls_[static_cast<int>(c)]; }
  // Whether the solver made a faulty call (calls after finalize_solution,
  // a caller's own checks, do not count).
  bool injected() const { return injected_by_solver_ > 0; }

 private:
  bool Inject(FaultCallback which, Number* out, Index size) {
    const long call = ++calls_[static_cast<int>(which)];
    if (which != fault_.callback || call < fault_.first_call || call > fault_.last_call ||
        size <= 0) {
      return true;
    }
    ++injected_;
    switch (fault_.kind) {
      case FaultKind::kNaN: out[fault_.entry % size] = NAN; return true;
      case FaultKind::kInf: out[fault_.entry % size] = INFINITY; return true;
      case FaultKind::kFalse: return false;
    }
    return true;
  }

  Fault fault_;
  long calls_[5] = {0, 0, 0, 0, 0};
  long injected_ = 0;
  long injected_by_solver_ = 0;
};

}  // namespace qpm_test

#endif  // QPM_MODELS_FAULT_TNLP_HPP_
