#include "qpm/inner/gradient_descent.hpp"

#include <cmath>
#include <ctime>

namespace qpm {

const char* ToString(InnerStatus status) {
  switch (status) {
    case InnerStatus::kConverged: return "converged";
    case InnerStatus::kIterationLimit: return "iteration limit";
    case InnerStatus::kTimeLimit: return "time limit";
    case InnerStatus::kStalled: return "stalled";
    case InnerStatus::kUserStop: return "user stop";
  }
  return "unknown";
}

double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

void SwapIterates(Iterate* a, Iterate* b) {
  a->x.swap(b->x);
  std::swap(a->f, b->f);
  a->c.swap(b->c);
  std::swap(a->c_squared, b->c_squared);
  a->grad_f.swap(b->grad_f);
  a->jacobian.swap(b->jacobian);
  a->grad_q.swap(b->grad_q);
  std::swap(a->grad_q_norm, b->grad_q_norm);
}

GradientDescent::GradientDescent(const GradientDescentOptions& options,
                                 PenaltyFunction* q)
    : options_(options), q_(q), last_step_(options.initial_step / options.step_growth) {
  q_->Allocate(&trial_);
}

InnerSummary GradientDescent::Minimize(const InnerControl& control, Iterate* x) {
  InnerSummary summary;
  for (;;) {
    summary.tau = control.tolerance(x->c_norm());
    if (x->grad_q_norm <= summary.tau) {  // (2.4)
      summary.status = InnerStatus::kConverged;
      return summary;
    }
    if (summary.iterations >= control.max_iterations) {
      summary.status = InnerStatus::kIterationLimit;
      return summary;
    }
    if (CpuSeconds() > control.cpu_deadline) {
      summary.status = InnerStatus::kTimeLimit;
      return summary;
    }
    StepInfo step;
    if (!LineSearch(*x, &step)) {
      summary.status = InnerStatus::kStalled;
      return summary;
    }
    SwapIterates(x, &trial_);
    ++summary.iterations;
    if (control.on_iteration && !control.on_iteration(*x, step)) {
      summary.status = InnerStatus::kUserStop;
      summary.tau = control.tolerance(x->c_norm());
      return summary;
    }
  }
}

bool GradientDescent::LineSearch(const Iterate& x, StepInfo* step) {
  double t = options_.step_growth * last_step_;
  for (int b = 0; b < options_.max_backtracks; ++b, t *= options_.backtrack_factor) {
    trial_.x = x.x - t * x.grad_q;
    if (!IsAcceptable(x, t)) continue;
    last_step_ = t;
    step->step_size = t;
    step->step_norm = t * x.grad_q_norm;
    step->backtracks = b;
    return true;
  }
  return false;
}

// Evaluates trial_ (values, then derivatives when needed) and applies the
// Armijo test where Q's values can resolve the required decrease, and the
// rounding-aware slope test (Hager-Zhang) where they cannot. A plain value
// test in that regime accepts steps by rounding alone (Q(trial) == Q(x)).
bool GradientDescent::IsAcceptable(const Iterate& x, double t) {
  if (!q_->EvaluateValues(&trial_)) return false;  // failed eval: backtrack
  const double beta = q_->beta();
  const double q0 = x.Q(beta);
  const double qt = trial_.Q(beta);
  const double gg = x.grad_q_norm * x.grad_q_norm;
  const double rounding = options_.rounding_allowance * std::abs(q0);
  const double decrease = options_.armijo_c1 * t * gg;
  if (qt > q0 + rounding) return false;  // worse beyond rounding: reject
  if (decrease > rounding) {
    return qt <= q0 - decrease && q_->EvaluateDerivatives(&trial_);  // Armijo
  }
  if (!q_->EvaluateDerivatives(&trial_)) return false;
  const double slope = -trial_.grad_q.dot(x.grad_q);  // phi'(t)
  return slope <= (1.0 - 2.0 * options_.armijo_c1) * gg;
}

}  // namespace qpm
