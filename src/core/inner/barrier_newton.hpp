// Interior steps on the bounds (Options::inner_solver = kInterior): the
// subproblem, min L_A over the box l <= z <= u, written with its residual
// relaxed (the same minimizers, r = c(z); Arreckx & Orban's NCL form),
//
//   min  f(x) + lambda' r + beta/2 ||r||^2   s.t.  c(z) = r,  l <= z <= u,
//
// by a primal-dual log-barrier Newton method in (z, y), y = lambda + beta r
// the constraints' multipliers (Waechter & Biegler 2006, Sec. 2-3):
//
//   (W(y) + Sigma + beta J_z^T J_z + delta I) dz = -grad phi_mu(z),
//   y + dy = lambda + beta (c + J_z dz),
//   Sigma = V_L (Z - L)^-1 + V_U (U - Z)^-1,
//
// phi_mu = Q_beta - mu sum log(z_i - l_i) - mu sum log(u_i - z_i), W(y) the
// Lagrangian's Hessian at the iterate's own y, delta Ipopt's inertia
// correction. The bound multipliers v move by the linearized
// complementarity, z and v each by its fraction to the boundary, (z, y) by
// Ipopt's filter line search on the pair (theta, phi): theta = ||c(z) - r||_1
// and phi = f + lambda' r + beta/2 ||r||^2 + the barrier. A trial is taken
// where it lowers theta or phi enough, so the constraints' linearization
// error weighs in theta, not as the beta/2 ||c(z + p) - c - J_z p||^2 that
// makes Q reject Newton steps at a large beta (docs/algorithm.md,
// "Interior steps on the bounds"; docs/acopf.md). mu falls (Fiacco-McCormick,
// Ipopt's monotone rule) once the barrier problem's KKT error is below
// kappa_eps mu. One factorization per step however many bounds are active,
// where the active-set step changes a few per face; the solve is refined
// against the factored matrix, and a residual that stays large (a factor
// singular to rounding, as at a large beta) takes the next larger shift.
// Where the filter finds no step, y is reset to lambda + beta c(z) (theta =
// 0: NCL's restoration) once before the trust region finishes.
//
// Ending. The iterates stay inside the box, where the projected gradient of
// (2.4) is the whole gradient; so once the box problem's KKT error (of Q at
// z alone, or of the relaxed problem) is below tau, the point with its active bounds (v_i > gap_i)
// snapped onto them is tested, after at most three Newton steps on the face
// it defines; (2.3) holds there or the point is not taken. Where mu cannot
// fall further, or the steps stop moving z, or 1000 steps pass at one mu, or a
// step fails, the subproblem is finished by the trust region
// (inner/trust_region.hpp) from the snapped or the current point, or the
// step's point of lowest Q where that is lower (or the start, where Q rose
// above it).
#ifndef QPM_CORE_INNER_BARRIER_NEWTON_HPP_
#define QPM_CORE_INNER_BARRIER_NEWTON_HPP_

#include <memory>
#include <vector>

#include "core/inner/cholesky_preconditioner.hpp"
#include "core/inner/inner_solver.hpp"
#include "core/inner/trust_region.hpp"

namespace qpm {

class BarrierNewton : public InnerSolver {
 public:
  // `factor`: of W + beta J_z^T J_z for q (MakeFactorization); `finish`:
  // the trust region that finishes the subproblems (null: one of its own).
  BarrierNewton(const TrustRegionOptions& options, AssembledPenalty q,
                std::unique_ptr<CholeskyPreconditioner> factor, TrustRegion* finish = nullptr);

  InnerSummary Minimize(const InnerControl& control, Iterate* x) override;
  long factorizations() const override {
    return factor_->factorizations() + (own_finish_ ? own_finish_->factorizations() : 0);
  }
  long corrections() const override { return own_finish_ ? own_finish_->corrections() : 0; }
  const char* preconditioner() const override { return "cholesky"; }
  FaceSolve* LendFactorization() override { return factor_.get(); }

 private:
  enum class Snap { kConverged, kMoved, kRefused };
  bool PushInside(Iterate* x);
  void Gaps(const Vector& z);
  void StartMultipliers(const Vector& grad_q);
  double Barrier(const Vector& z) const;
  double Theta(const Iterate& it, const Vector& y) const;
  double Phi(const Iterate& it, const Vector& y) const;
  double PhiSlope(const Iterate& x) const;
  double BoxKktError(const Iterate& x) const;
  double KktError(const Iterate& x, double mu);
  double BarrierKktError(const Iterate& x);
  bool Idle(const Iterate& x, bool lower);
  void LowerMuAnyway();
  bool SnapReady(const InnerControl& control, const Iterate& x);
  void Restore(const Iterate& x);
  void LowerMu(const Iterate& x);
  bool Step(double beta, Iterate* x, double* moved);
  double FractionToBoundary(double tau) const;
  double Search(double tau, Iterate* x);
  bool Take(double theta, double phi, bool f_type, Iterate* x);
  double Corrected(double tau, double alpha, const Iterate& x);
  bool Acceptable(double theta, double phi, double slope, double alpha, double theta_trial,
                  double phi_trial, bool* f_type) const;
  void ClampMultipliers();
  Snap Snapped(const InnerControl& control, double q_start, const Iterate& x);
  bool FaceNewton(const InnerControl& control, double q_start, Iterate* x);
  InnerSummary Finish(const InnerControl& control, double q_start, InnerSummary summary, Iterate* x);

  AssembledPenalty q_;
  double value_noise_;  // TrustRegionOptions::value_noise: Q's rounding on a face step
  std::unique_ptr<TrustRegion> own_finish_;
  TrustRegion* finish_;
  std::unique_ptr<CholeskyPreconditioner> factor_;
  Iterate trial_, start_, snap_, best_;  // best_: the lowest Q of the steps
  Vector lower_gap_, upper_gap_;  // z - l, u - z (+inf without the bound)
  Vector v_lower_, v_upper_;      // the bounds' multipliers
  Vector sigma_, rhs_, dz_, dv_lower_, dv_upper_, residual_, correction_;
  Vector dual_;                   // grad f + J_z^T y (z-sized)
  Vector lambda_;                 // L_A's lambda (0 without), for the subproblem
  Vector y_, dy_, y_trial_, jz_dz_;  // the constraints' multipliers and their step (m-sized)
  Vector soc_dz_, soc_rhs_, soc_e_, soc_dy_;  // the second-order correction (Corrected)
  struct FilterEntry {
    double theta, phi;
  };
  std::vector<FilterEntry> filter_;  // emptied whenever mu falls
  double theta_min_ = 0.0, theta_max_ = 0.0;
  double mu_ = 0.1;
  double snapped_at_mu_ = 0.0;  // mu of the last snap tried
  int still_ = 0;               // steps in a row that did not move z
  int steps_at_mu_ = 0;         // steps since mu last fell
  int idle_ = 0;                // steps in a row without progress (Idle)
  double kkt_mark_ = 0.0;       // the barrier KKT error a step must halve
};

// The trust region, switched to the interior steps for the rest of the solve
// after a subproblem whose trust region took more than
// TrustRegionOptions::interior_switch_factorizations factorizations per
// accepted step, or within the subproblem whose trust region reaches
// interior_switch_iterations accepted steps (the steps after them are the
// interior steps'): counted work, so the same model takes the same path on
// any machine (docs/algorithm.md, "Interior steps on the bounds"). Watched,
// the first subproblem that moves starts again on the interior steps once
// the trust region's model turns out nonconvex (same place, "The interior
// start").
class SwitchingTrustRegion : public InnerSolver {
 public:
  // `interior_first`: the interior steps from the first subproblem, where a
  // factorization is affordable (MakeInnerSolver decides).
  // `watch_shift`: the first subproblem that moves starts again on the
  // interior steps if a factorization of its trust region needs a shift (Q
  // nonconvex on the face: docs/algorithm.md, "The interior start").
  SwitchingTrustRegion(const TrustRegionOptions& options, AssembledPenalty q,
                       bool interior_first = false, bool watch_shift = false);
  InnerSummary Minimize(const InnerControl& control, Iterate* x) override;
  long factorizations() const override;
  long corrections() const override { return trust_region_.corrections(); }
  const char* preconditioner() const override { return trust_region_.preconditioner(); }
  FaceSolve* LendFactorization() override;

 private:
  void MakeInterior();  // interior_, where a factorization is affordable
  InnerSummary RestartInterior(const InnerControl& control, long steps, Iterate* x);

  TrustRegionOptions options_;
  AssembledPenalty q_;
  TrustRegion trust_region_;
  std::unique_ptr<BarrierNewton> interior_;  // made at the switch
  bool no_interior_ = false;  // the switch found no affordable factorization
  bool watch_shift_;          // until the first subproblem that moved
  Iterate start_;             // the watched subproblem's start
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_BARRIER_NEWTON_HPP_
