// Steihaug-Toint truncated conjugate gradients for the trust-region model
//
//   min_p  m(p) = g.p + 1/2 p.H p   subject to  ||p|| <= Delta
//
// (Conn, Gould & Toint, "Trust-Region Methods", Alg. 7.5.1). CG from p = 0
// stops when the residual ||H p + g|| <= tol, when an iterate would leave the
// ball (then the step is cut at the boundary), or on a direction of
// nonpositive curvature (then it is followed to the boundary). Every iterate
// p_j has ||p_j|| increasing and <= Delta. H is applied through a callback.
#ifndef QPM_INNER_TRUNCATED_CG_HPP_
#define QPM_INNER_TRUNCATED_CG_HPP_

#include <functional>

#include "qpm/problem.hpp"

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

class TruncatedCg {
 public:
  explicit TruncatedCg(int n);  // work vectors sized once

  CgResult Solve(const HessianOperator& hessian, const Vector& g, double radius, double tol,
                 int max_iter, Vector* p);

 private:
  Vector r_, d_, hd_, hp_;
};

// tau >= 0 with ||p + tau d|| = radius, for ||p|| <= radius.
double BoundaryStep(const Vector& p, const Vector& d, double radius);

}  // namespace qpm

#endif  // QPM_INNER_TRUNCATED_CG_HPP_
