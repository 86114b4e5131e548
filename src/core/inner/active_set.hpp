// The trust-region step over a box, by the active-set method of TRON
// (Lin & More, "Newton's method for large bound-constrained optimization
// problems", SIAM J. Optim. 9(4), 1999, Sec. 3-4; their Fortran dcauchy,
// dspcg and dprsrch):
//
//   min_p  m(p) = g.p + 1/2 p.H p   s.t.  lower <= p <= upper,  ||p|| <= Delta
//
// (lower = l - z <= 0 <= upper = u - z for the iterate z in its box l, u).
//
// 1. Generalized Cauchy point on the projected-gradient path
//    p(t) = P(-t g), P the projection on [lower, upper]: t is extrapolated or
//    cut until ||p(t)|| <= Delta and m(p(t)) <= mu_0 g.p(t) (their (3.3)),
//    so every bound that the path meets before t is active after one search.
// 1b. When the Cauchy points of gradient_projection_after steps in a row
//    (this one included) freed bounds, GPCG's projected-gradient steps
//    p <- P(p - t grad m(p)) (More & Toraldo, SIAM J. Optim. 1(1), 1991,
//    Sec. 5) until three in a row free no entry (or a trickle, below
//    gradient_projection_trickle of the most one step freed): they free a wrongly active
//    region layer by layer at one or two products a layer, where the Cauchy
//    point of each trust-region step frees one layer only.
// 2. Face by face: F = the entries strictly inside the box at p. Steihaug CG
//    on min m(p + w), w_i = 0 off F, inside the ball (their (4.2); products and
//    preconditioner restricted to F), then a projected search
//    p <- P(p + a w), a = 1, 1/2, ... until
//    m(p_new) <= m(p) + mu_0 grad m(p).(p_new - p)       (their (4.3)),
//    or a reaches the first breakpoint of the box (one more bound active).
//    With H assembled (the Cholesky preconditioner's), the trials cost one
//    product a face and H's columns at the entries the box clips
//    (BacktrackOnAssembled); else one product each.
//    The next face starts there. The step ends when CG converges on a face or
//    stops at the ball without a new bound becoming active, when no entry is
//    free, or when the CG budget is spent.
// 3. (release_rounds > 0: the trust region passes it with an exact
//    preconditioner.) When step 2 ended with CG converged inside the ball,
//    every entry on a bound where grad m(p) points into the box is freed at
//    once and one face of step 2 is solved from p; from the second round on
//    (a front that one release did not settle), step 1b's projected-gradient
//    steps free the layers beyond the released entries first (when
//    gradient_projection_after > 0). At most release_rounds
//    times, until the model is stationary on the box to CG's tolerance or a
//    round gains less than release_gain of the step's decrease so far (a
//    round costs a solve on a new face, often a factorization): the projected Newton
//    method (Bertsekas, SIAM J. Control Optim. 20(2), 1982), or a
//    primal-dual active-set method (Hintermueller, Ito & Kunisch, SIAM J.
//    Optim. 13(3), 2002), on the model. Without it a wrongly active region
//    is freed only by the next step's Cauchy point (docs/algorithm.md,
//    "Freeing many bounds in one step").
//
// Unlike TRON, whose CG ball is centred at each face's start, the ball is
// centred at 0 for the whole step: since P is non-expansive and P(0) = 0,
// ||P(p + a w)|| <= ||p + a w|| <= Delta, so ||p|| <= Delta holds throughout
// and the trust region's ratio and radius rules apply unchanged. Work
// vectors are sized once; a step allocates nothing.
#ifndef QPM_CORE_INNER_ACTIVE_SET_HPP_
#define QPM_CORE_INNER_ACTIVE_SET_HPP_

#include <vector>

#include "core/inner/truncated_cg.hpp"
#include "core/linalg/symmetric_columns.hpp"
#include "qpm/core/options.hpp"

namespace qpm {

struct ActiveSetResult {
  // exit: the last face's CG exit (kBoundary when no entry was left free);
  // iterations: CG iterations over all faces plus the projected-gradient
  // steps (they share the budget); model_decrease: -m(p).
  CgResult cg;
  int faces = 0;          // faces on which CG ran
  int cauchy_trials = 0;  // values of t tried by the Cauchy search
  int free = 0;           // entries strictly inside the box at the step
  int projected_gradient_steps = 0;  // step 1b
  bool cauchy_freed = false;  // the Cauchy point freed an entry that was on a bound
  int released = 0;           // entries freed by step 3
};

class ActiveSetStep {
 public:
  // lent_hd and reductions: TruncatedCg's.
  ActiveSetStep(int n, const TrustRegionOptions& options, Vector* lent_hd = nullptr,
                const Reductions& reductions = SerialReductions());

  // p <- the step (lower <= p <= upper, ||p|| <= radius). CG stops at a face
  // residual ||(g + H p)_F|| <= tol and after max_cg_iter iterations in all.
  // release_streak: the accepted steps in a row just before this one whose
  // Cauchy point freed bounds (step 1b's trigger; the caller counts them).
  // assembled: H at this step's point, or null (the projected search then
  // pays one product per trial); shift: sigma of a model hessian = H + sigma I
  // (the assembled columns are H's).
  // Sizes CG's M^{-1} r vector for `preconditioner` (TruncatedCg::Reserve).
  void Reserve(const CgPreconditioner* preconditioner) { cg_.Reserve(preconditioner); }
  ActiveSetResult Solve(const HessianOperator& hessian, const Vector& g, const Vector& lower,
                        const Vector& upper, double radius, double tol, int max_cg_iter,
                        Vector* p, CgPreconditioner* preconditioner = nullptr,
                        int release_streak = 0, const SymmetricColumns* assembled = nullptr,
                        double shift = 0.0, int release_rounds = 0);

  double cauchy_step() const { return t_; }  // t of the last Cauchy point

  // The trust region's second-order correction (trust_region.cpp): q = CG's
  // minimizer of r.q + 1/2 q.H q over the face of the last step's box at p
  // (the entries strictly inside it), within the ball of `radius`. r is
  // masked to that face in place; q is zero off it.
  CgResult CorrectOnFace(const HessianOperator& hessian, const Vector& p, double radius,
                         double tol, int max_iter, Vector* r, Vector* q,
                         CgPreconditioner* preconditioner);

 private:
  // Step 1 (dcauchy): p = P(-t g) with the model's gradient and H p set.
  int CauchyPoint(const HessianOperator& hessian, const Vector& g, double radius, Vector* p);
  // Step 1b (GPCG's projected-gradient steps); returns their number.
  int ProjectedGradientSteps(const HessianOperator& hessian, double radius, int max_steps,
                             Vector* p, int* free);
  bool ProjectedGradientStep(const HessianOperator& hessian, double radius, const Vector& p,
                             double* t);
  bool FreedBoundsAtCauchyPoint() const;
  // P(-t g) into trial_; its norm.
  int Faces(const HessianOperator& hessian, double radius, double tol, int max_cg_iter,
            int max_faces, Vector* p, CgPreconditioner* preconditioner, int free,
            ActiveSetResult* result);
  int ReleaseInward(const Vector& p, double tol);
  double PathPoint(double t, const Vector& g);
  // m(trial_) - m(p) (H (trial_ - p) into h_delta_), with p at trial_ - delta_.
  double ModelChange(const HessianOperator& hessian, const Vector& p);
  // Step 2's search (dprsrch) along w_ from p; false when it found no decrease.
  bool ProjectedSearch(const HessianOperator& hessian, Vector* p);
  // Its backtracking from a = 1 while a > first: true with trial_, delta_
  // and h_delta_ set at the accepted trial. The strategy is chosen per step:
  // by one product per trial, or on the assembled H.
  using Backtrack = bool (ActiveSetStep::*)(const HessianOperator&, const Vector&, double);
  bool BacktrackByProducts(const HessianOperator& hessian, const Vector& p, double first);
  bool BacktrackOnAssembled(const HessianOperator& hessian, const Vector& p, double first);
  // Entry i of w joins u_ (BacktrackOnAssembled); the changes of g.u and
  // u.Hu are added to *gu and *uhu.
  void Unclip(int i, double* gu, double* uhu);
  // d_C.H_CC d_C over the clipped entries (d_C in clip_).
  double ClippedCurvature() const;
  // Smallest a > 0 at which p + a w_ meets a bound, and its entry.
  double FirstBreakpoint(const Vector& p, int* entry) const;
  int MarkFree(const Vector& p);  // free_ = 1 strictly inside the box

  TrustRegionOptions options_;
  const Reductions& reduce_;
  TruncatedCg cg_;
  const Vector* lower_ = nullptr;  // the current step's box
  const Vector* upper_ = nullptr;
  Vector free_;      // 1 on the face, 0 off it
  Vector hp_;        // H p
  Vector gradient_;  // g + H p, the model's gradient at p
  Vector w_;         // CG's direction on the face
  Vector trial_, delta_, h_delta_;
  Vector h_trial_;   // H trial_ in the Cauchy search; H u_ in BacktrackOnAssembled
  Vector free_previous_;  // free_ before the last projected-gradient step
  Backtrack backtrack_ = &ActiveSetStep::BacktrackByProducts;
  // BacktrackOnAssembled's: H, the entries C the box clips, d on C (0
  // elsewhere), and u = w off C; the vectors are sized on first use.
  const SymmetricColumns* assembled_ = nullptr;
  double shift_ = 0.0;  // the model's H + shift_ I over the assembled H
  std::vector<int> clipped_;
  Vector clip_, u_;
  double t_ = 1.0;   // Cauchy step, kept between calls (TRON's alphac)
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_ACTIVE_SET_HPP_
