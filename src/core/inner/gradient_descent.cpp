#include "core/inner/gradient_descent.hpp"

namespace qpm {

GradientDescent::GradientDescent(const GradientDescentOptions& options, AssembledPenalty q)
    : options_(options),
      line_search_(options.line_search),
      q_(q),
      last_step_(options.initial_step / options.step_growth) {
  q_->Allocate(&trial_);
  direction_.resize(q_->layout().n());
}

// The paper's rule grows the last accepted t; the Barzilai-Borwein rule
// tries t = s.s / s.y from the last step (then Armijo backtracks as usual).
double GradientDescent::FirstTrial() const {
  if (options_.trial_step == GdTrialStep::kBarzilaiBorwein && bb_step_ > 0.0) return bb_step_;
  return options_.step_growth * last_step_;
}

void GradientDescent::RememberStep(const Iterate& from, const Iterate& to) {
  if (options_.trial_step != GdTrialStep::kBarzilaiBorwein) return;
  const auto s = to.x - from.x;
  const double sy = s.dot(to.grad_q - from.grad_q);
  bb_step_ = sy > 0.0 ? s.squaredNorm() / sy : 0.0;
}

InnerSummary GradientDescent::Minimize(const InnerControl& control, Iterate* x) {
  InnerSummary summary;
  bb_step_ = 0.0;  // beta changed: old curvature no longer applies
  StallMonitor monitor(options_.stall_window, control.stall_rounding, *x, q_->merit().beta());
  while (!CheckStop(control, x, &summary)) {
    StepInfo step;
    direction_ = -x->grad_q;
    if (!line_search_.Search(q_, *x, direction_, FirstTrial(), &trial_, &step)) {
      summary.status = InnerStatus::kStalled;
      summary.evaluation_failed = line_search_.last_trial_failed();
      return summary;
    }
    last_step_ = step.step_size;
    RememberStep(*x, trial_);
    SwapIterates(x, &trial_);
    if (ReportStep(control, *x, step, &monitor, &summary)) return summary;
  }
  return summary;
}

}  // namespace qpm
