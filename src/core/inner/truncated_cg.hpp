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
// On a face (the bound-constrained step, inner/active_set.hpp) CG starts
// from a given p inside the ball and moves only the entries marked free:
// it solves min m(p + w) over w with w_i = 0 off the free set, i.e. the
// reduced system H_FF w_F = -(g + H p)_F, with the ball still centred at 0
// (Lin & More 1999, Sec. 4; the box is left to the caller's projected search).
#ifndef QPM_CORE_INNER_TRUNCATED_CG_HPP_
#define QPM_CORE_INNER_TRUNCATED_CG_HPP_

#include <functional>

#include "core/linalg/reduce.hpp"
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

// M^{-1} for preconditioned CG (M symmetric positive definite).
class CgPreconditioner {
 public:
  virtual ~CgPreconditioner() = default;
  // z = M^{-1} r. On a face (free: 1 on the face's entries, 0 off them; null
  // for the whole space) M may be the face's own reduced matrix; CG masks z.
  virtual void Apply(const Vector& r, const Vector* free, Vector* z) = 0;
  // CG's next direction: d <- -z + (r.z / rz_previous) d, or d <- -z for the
  // first one (first = true), with z = M^{-1} r masked to the face; returns
  // r.z. `work` holds z. A preconditioner that forms z entry by entry
  // overrides it without `work` and says so in needs_work(): CG then keeps
  // one n-vector less (docs/algorithm.md, "Memory budget").
  // `sum` reduces r.z over the processes (reduce.hpp).
  virtual double Direction(const Reductions& sum, const Vector& r, const Vector* free, bool first,
                           double rz_previous, Vector* work, Vector* d);
  virtual bool needs_work() const { return true; }

 protected:
  // The update of Direction for z given as a vector or an expression.
  template <class Z>
  static double NextDirection(const Reductions& sum, const Vector& r, const Z& z, bool first,
                              double rz_previous, Vector* d) {
    const double rz = Dot(sum, r, z);
    if (first) {
      *d = -z;
    } else {
      *d = -z + (rz / rz_previous) * *d;
    }
    return rz;
  }
};

class TruncatedCg {
 public:
  // Work vectors sized once. `lent_hd`, when given, is a caller's n-vector
  // that CG uses for H d during Solve and SolveOnFace only (its contents do
  // not survive a call, nothing the products call may use it): one n-vector
  // less (docs/algorithm.md, "Memory budget").
  // `reductions`: the processes' sums of a distributed model (reduce.hpp).
  explicit TruncatedCg(int n, Vector* lent_hd = nullptr,
                       const Reductions& reductions = SerialReductions());
  TruncatedCg(const TruncatedCg&) = delete;  // hd_ may refer to its own own_hd_
  TruncatedCg& operator=(const TruncatedCg&) = delete;
  // Sizes M^{-1} r's vector when `preconditioner` needs one (CgPreconditioner::needs_work).
  void Reserve(const CgPreconditioner* preconditioner);

  // p is set to the step. A preconditioner M^{-1} (SPD) gives preconditioned
  // CG; the trust region stays Euclidean: CG stops at the first iterate that
  // would leave the ball, which is on it, so ||p|| <= Delta still holds.
  CgResult Solve(const HessianOperator& hessian, const Vector& g, double radius, double tol,
                 int max_iter, Vector* p, CgPreconditioner* preconditioner = nullptr);

  // CG on a face: p holds the start (||p|| <= radius) and `gradient` the
  // model's gradient g + H p there; only entries with free[i] = 1 move.
  // Products and the preconditioner are restricted to the face (their
  // inputs vanish off it, their outputs are masked). model_decrease is not
  // computed (0): the caller's projected search measures the model.
  CgResult SolveOnFace(const HessianOperator& hessian, const Vector& gradient, const Vector& free,
                       double radius, double tol, int max_iter, Vector* p,
                       CgPreconditioner* preconditioner = nullptr);

 private:
  // The CG iterations from p with r_ = H p + g (masked by `free` when given).
  CgResult Iterate(const HessianOperator& hessian, double radius, double tol, int max_iter,
                   const Vector* free, CgPreconditioner* preconditioner, Vector* p);

  Vector r_, z_, d_, own_hd_;  // z_: M^{-1} r, sized by Reserve only where needed
  Vector& hd_;                 // own_hd_ or the lent vector
  const Reductions& reduce_;
  double first_step_ = 0.0;  // the step length along d_0 (p = first_step_ d_0 after one iteration)
};

// tau >= 0 with ||p + tau d|| = radius, for ||p|| <= radius.
double BoundaryStep(const Vector& p, const Vector& d, double radius,
                    const Reductions& r = SerialReductions());

}  // namespace qpm

#endif  // QPM_CORE_INNER_TRUNCATED_CG_HPP_
