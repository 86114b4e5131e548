// Steihaug-Toint truncated conjugate gradients for the trust-region model
//
//   min_p  m(p) = g.p + 1/2 p.H p   subject to  ||p|| <= Delta
//
// (Conn, Gould & Toint, "Trust-Region Methods", Alg. 7.5.1). CG from p = 0
// stops when the residual ||H p + g|| <= tol, when an iterate would leave the
// ball (then the step is cut at the boundary), or on a direction of
// nonpositive curvature (then it is followed to the boundary). Every iterate
// p_j has ||p_j|| increasing and <= Delta. H is applied through a callback.
//
// With a box lower <= p <= upper (bounds on the step), CG starts from the
// given p (a Cauchy point inside the box and the ball), moves only the
// entries marked free, and stops at the first box breakpoint as at the ball.
#ifndef QPM_CORE_INNER_TRUNCATED_CG_HPP_
#define QPM_CORE_INNER_TRUNCATED_CG_HPP_

#include <functional>

#include "qpm/core/problem.hpp"

namespace qpm {

enum class CgExit {
  kConverged,          // residual below the tolerance inside the ball
  kBoundary,           // the step reached ||p|| = Delta
  kNegativeCurvature,  // d.Hd <= 0 found; followed to the boundary
  kIterationLimit,     // cg_max_iter reached inside the ball
};

struct CgResult {
  CgExit exit = CgExit::kConverged;
  int iterations = 0;
  double model_decrease = 0.0;  // -m(p) >= 0
};

using HessianOperator = std::function<void(const Vector& v, Vector* hv)>;

// Bounds on the step and the entries CG may move (1 free, 0 fixed).
struct CgBox {
  const Vector* lower = nullptr;
  const Vector* upper = nullptr;
  const Vector* free = nullptr;
};

class TruncatedCg {
 public:
  explicit TruncatedCg(int n);  // work vectors sized once

  // Without `box`, p is set to the step; with it, p holds the start on entry.
  // A preconditioner M^{-1} (SPD) gives preconditioned CG; the trust region
  // stays Euclidean: CG stops at the first iterate that would leave the ball,
  // which is on it, so ||p|| <= Delta still holds.
  CgResult Solve(const HessianOperator& hessian, const Vector& g, double radius, double tol,
                 int max_iter, Vector* p, const CgBox* box = nullptr,
                 const HessianOperator* preconditioner = nullptr);

 private:
  Vector r_, z_, d_, hd_, hp_;
};

// tau >= 0 with ||p + tau d|| = radius, for ||p|| <= radius.
double BoundaryStep(const Vector& p, const Vector& d, double radius);
// Largest tau >= 0 with lower <= p + tau d <= upper (infinity if none binds).
double BoxStep(const Vector& p, const Vector& d, const CgBox& box);

}  // namespace qpm

#endif  // QPM_CORE_INNER_TRUNCATED_CG_HPP_
