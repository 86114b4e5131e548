// QPM-TR inner solver: a trust-region method on Q_beta with exact
// Hessian-vector products (paper Sec. 7; Conn, Gould & Toint Alg. 6.1.1):
//
//   p_k ~ argmin g.p + 1/2 p.(W + beta J^T J) p,  ||p|| <= Delta_k   (truncated CG)
//   rho_k = (Q(x_k) - Q(x_k + p_k) + reg) / (m-decrease + reg)
//   accept when rho_k >= eta_accept; shrink Delta when rho_k < eta_shrink;
//   expand (up to Delta_max, assumption A9) when rho_k > eta_expand and the
//   step reached the boundary.
//
// Delta_max is max_radius (assumption A9) or, when InnerControl asks for
// it, max_radius * max(1, ||z_k||_inf) (InnerControl::relative_radius_cap).
//
// Where the Cholesky preconditioner needed an inertia shift sigma, the model's
// Hessian is W + beta J^T J + sigma I (Ipopt's convexified step; SetModel).
//
// W is evaluated once per accepted iterate (and at a subproblem's start,
// since it depends on beta through lambda = beta c). The radius carries over
// between subproblems. Stops when ||grad Q|| <= tau(x) (2.4). With bounds
// the step is TRON's active-set step (inner/active_set.hpp: a generalized
// Cauchy point on the projected-gradient path, then CG and a projected
// search face by face, inside the box and the ball) and the test uses the
// projected gradient. Without bounds the step is plain truncated CG.
//
// In the default mode a rejected trial whose residual c the step's linear
// model underestimated is first moved back toward that linearization (a
// second-order correction, one CG solve with the same H; docs/algorithm.md,
// "Second-order correction") and judged again with the same predicted decrease.
#ifndef QPM_CORE_INNER_TRUST_REGION_HPP_
#define QPM_CORE_INNER_TRUST_REGION_HPP_

#include <cstdint>

#include "core/inner/active_set.hpp"
#include "core/inner/inner_solver.hpp"
#include "core/inner/preconditioner.hpp"
#include "core/inner/truncated_cg.hpp"
#include "qpm/core/options.hpp"

namespace qpm {

class TrustRegion : public InnerSolver {
 public:
  TrustRegion(const TrustRegionOptions& options, PenaltyFunction* q);

  InnerSummary Minimize(const InnerControl& control, Iterate* x) override;

  double radius() const { return radius_; }
  long corrections() const override { return corrections_; }
  long factorizations() const override {
    return preconditioner_ ? preconditioner_->factorizations() : 0;
  }
  FaceSolve* LendFactorization() override {
    return preconditioner_ ? preconditioner_->LendFactorization() : nullptr;
  }
  const char* preconditioner() const override {
    return preconditioner_ ? preconditioner_->name() : ToString(PreconditionerKind::kNone);
  }

 private:
  bool BelowResolution(const Vector& z) const;
  StallMonitor NewStallMonitor(const InnerControl& control, const Iterate& x) const;
  static double FirstRadius(const TrustRegionOptions& options, const SlackLayout& layout);
  double RelativeCap(const Iterate& x) const;
  bool RadiusCollapsed(const Iterate& x);
  bool RadiusCollapsedAt(const Iterate& x) const;
  InnerSummary Steps(const InnerControl& control, Iterate* x);  // Minimize's loop
  bool RadiusCapped(double step_norm);
  void SetModel(const Iterate& x);  // model_ and shift_ for the steps at a new point
  // Computes a step from x, tries it, updates the radius. True when the step
  // was accepted (trial_ then holds the new point with derivatives).
  bool TryStep(const Iterate& x, StepInfo* step);
  void UpdateRadius(double rho, double step_norm);
  bool HessianAtTrial(const InnerControl& control, bool* hessian_current);
  // W at an accepted trial (TrustRegionOptions::gauss_newton_after_shift),
  // chosen once.
  bool ExactHessian(const Iterate& x);
  bool HessianAfterShift(const Iterate& x);
  int CgBudget() const;
  CgResult BoundedStep(const Iterate& x, double tol, int max_iter,
                       CgPreconditioner* preconditioner);
  int ReleaseRounds() const;
  void SnapToBounds();
  double Ratio(const Iterate& x, double predicted);
  // The strategies for a rejected trial (TrustRegionOptions::correction),
  // chosen once: true when they made a new trial, whose rho is then in *rho.
  bool NoCorrection(const Iterate&, double, double*) { return false; }
  bool SecondOrderCorrection(const Iterate& x, double predicted, double* rho);

  TrustRegionOptions options_;
  PenaltyFunction* q_;
  TruncatedCg cg_;
  ActiveSetStep active_set_;  // bounded problems only
  Iterate trial_;
  Vector step_;
  std::uint64_t last_end_ = 0;  // HashBits of z where the last subproblem ended
  Vector step_lower_, step_upper_;  // the box of the step: l - z, u - z
  Vector linear_residual_;  // m-sized: c(z) + J_z p, then the correction's e
  bool (TrustRegion::*correct_)(const Iterate&, double, double*);
  bool (TrustRegion::*trial_hessian_)(const Iterate&);
  long corrections_ = 0;  // trials accepted after a correction
  double radius_;
  double exact_ratio_;  // options_.exact_ratio, or -1 with a box (chosen once)
  double max_radius_;   // Delta_max at the current iterate
  int shift_lowering_trials_;  // options_'s, or 0 with a box (chosen once)
  double cap_scale_ = 1.0;  // Delta_max's growth in this subproblem (cap_growth)
  long collapsed_ = 0;  // consecutive iterations with a collapsed radius (TrustRegionOptions)
  long capped_ = 0;     // consecutive accepted steps of length max_radius
  int release_streak_ = 0;      // consecutive accepted steps whose Cauchy point freed bounds
  bool rejected_here_ = false;  // a trial of this subproblem was rejected (exact_ratio)
  bool last_cauchy_freed_ = false;  // the last step's Cauchy point did
  HessianOperator hessian_;          // H v
  HessianOperator shifted_hessian_;  // (H + shift_ I) v
  const HessianOperator* model_ = &hessian_;  // the steps' model at this point (SetModel)
  double shift_ = 0.0;
  std::unique_ptr<Preconditioner> preconditioner_;  // null: plain CG
  int size_;  // of z over all processes: CG's iteration limit
  const Iterate* at_ = nullptr;  // iterate whose Hessian is loaded
  bool derivatives_ready_ = false;  // trial_ has its gradient
  bool below_resolution_ = false;
  bool below_ulp_ = false;  // the last trial's predicted decrease (Ratio)
  bool last_trial_failed_ = false;
  bool last_rejection_failed_ = false;  // the last rejected trial failed to evaluate
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_TRUST_REGION_HPP_
