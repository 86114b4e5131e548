// How a subproblem ended and what one inner step did: public because
// Summary::outer (OuterRecord::inner_status) and IterationInfo::step report
// them to users. The inner solvers themselves are internal (src/core/inner/).
#ifndef QPM_CORE_INNER_STATUS_HPP_
#define QPM_CORE_INNER_STATUS_HPP_

namespace qpm {

// Each value says what the Iterate passed to Minimize holds afterwards.
enum class InnerStatus {
  kConverged,       // a point with ||grad Q|| <= tau(x): the subproblem's answer
  kIterationLimit,  // the last accepted point; the iteration budget ran out
  kTimeLimit,       // the last accepted point; the CPU deadline passed
  kStalled,         // the last accepted point; no acceptable step was found
  kUserStop,        // the last accepted point; the iteration callback said stop
  kEvaluationError, // the last accepted point; the model failed where it must not
  kRunaway,         // the last accepted point, beyond InnerControl's runaway limits:
                    // the outer loop discards it (Options::runaway_violation_factor)
};

const char* ToString(InnerStatus status);

// Describes one accepted inner step, for logs and user callbacks.
struct StepInfo {
  double step_size = 0.0;  // line-search t or trust-region radius used
  double step_norm = 0.0;  // ||x_new - x_old||
  int backtracks = 0;      // rejected trials before acceptance
  bool below_ulp = false;  // trust region: the predicted decrease was below
                           // eps_mach max(1, |Q|), which Q cannot resolve
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_STATUS_HPP_
