#include "core/inner/truncated_cg.hpp"

#include <algorithm>
#include <cmath>

#include "core/linalg/huge_pages.hpp"

namespace qpm {

double BoundaryStep(const Vector& p, const Vector& d, double radius, const Reductions& r) {
  const double pd = Dot(r, p, d), dd = SquaredNorm(r, d), pp = SquaredNorm(r, p);
  const double disc = std::max(0.0, pd * pd + dd * (radius * radius - pp));
  return (-pd + std::sqrt(disc)) / dd;
}

namespace {

// M = I: z = r (CG without a preconditioner, the paper's).
class Identity : public CgPreconditioner {
 public:
  void Apply(const Vector& r, const Vector*, Vector* z) override { *z = r; }
  double Direction(const Reductions& sum, const Vector& r, const Vector*, bool first,
                   double rz_previous, Vector*, Vector* d) override {
    return NextDirection(sum, r, r, first, rz_previous, d);
  }
  bool needs_work() const override { return false; }
};

}  // namespace

double CgPreconditioner::Direction(const Reductions& sum, const Vector& r, const Vector* free,
                                   bool first, double rz_previous, Vector* work, Vector* d) {
  Apply(r, free, work);
  if (free) work->array() *= free->array();
  return NextDirection(sum, r, *work, first, rz_previous, d);
}

namespace {
bool Lendable(const Vector* lent, int n) { return lent && lent->size() == n; }
}  // namespace

TruncatedCg::TruncatedCg(int n, Vector* lent_hd, const Reductions& reductions)
    : r_(n),
      d_(n),
      own_hd_(Lendable(lent_hd, n) ? 0 : n),
      hd_(Lendable(lent_hd, n) ? *lent_hd : own_hd_),
      reduce_(reductions) {
  for (const Vector* v : {&r_, &d_, &own_hd_}) AdviseHugePages(v->data(), sizeof(double) * v->size());
}

void TruncatedCg::Reserve(const CgPreconditioner* preconditioner) {
  if (!preconditioner || !preconditioner->needs_work() || z_.size() == r_.size()) return;
  z_.resize(r_.size());
  AdviseHugePages(z_.data(), sizeof(double) * z_.size());
}

CgResult TruncatedCg::Solve(const HessianOperator& hessian, const Vector& g, double radius,
                            double tol, int max_iter, Vector* p,
                            CgPreconditioner* preconditioner) {
  p->setZero();
  r_ = g;  // r = H p + g
  CgResult result = Iterate(hessian, radius, tol, max_iter, nullptr, preconditioner, p);
  // -m(p) with H p into hd_, free once CG is done: after one iteration p =
  // t d_0 and H p = t H d_0 (hd_ scaled in place); after more, H p is
  // recomputed, not taken from a recurrence, which drifts over many CG
  // iterations and at large beta can exceed the true decrease, so that
  // every step is rejected and the radius collapses.
  if (result.iterations == 0) {
    result.model_decrease = -(Dot(reduce_, g, *p) + 0.0);
    return result;
  }
  if (result.iterations == 1) {
    hd_ *= first_step_;
  } else {
    hessian(*p, &hd_);
  }
  result.model_decrease = -(Dot(reduce_, g, *p) + 0.5 * Dot(reduce_, *p, hd_));
  return result;
}

CgResult TruncatedCg::SolveOnFace(const HessianOperator& hessian, const Vector& gradient,
                                  const Vector& free, double radius, double tol, int max_iter,
                                  Vector* p, CgPreconditioner* preconditioner) {
  r_ = gradient.cwiseProduct(free);  // the model gradient on the face
  return Iterate(hessian, radius, tol, max_iter, &free, preconditioner, p);
}

CgResult TruncatedCg::Iterate(const HessianOperator& hessian, double radius, double tol,
                              int max_iter, const Vector* free,
                              CgPreconditioner* preconditioner, Vector* p) {
  CgResult result;
  static Identity identity;  // stateless
  CgPreconditioner& m = preconditioner ? *preconditioner : identity;
  Reserve(preconditioner);  // no-op once sized (the trust region reserves at set-up)
  // d = -M^{-1} r, zero off the face, as every later d.
  double rz = m.Direction(reduce_, r_, free, true, 0.0, &z_, &d_);
  // Moves p by tau d (to the ball) and stops with `exit`.
  auto stop_at = [&](double tau, CgExit exit) {
    *p += tau * d_;
    if (result.iterations == 0) first_step_ = tau;
    ++result.iterations;
    result.exit = exit;
    return result;
  };
  if (Norm(reduce_, r_) <= tol) return result;
  if (!(rz > 0.0)) return result;  // M not positive on r: stop at p
  for (; result.iterations < max_iter; ++result.iterations) {
    hessian(d_, &hd_);
    if (free) hd_.array() *= free->array();  // H_FF d_F
    const double dhd = Dot(reduce_, d_, hd_);
    const double limit = BoundaryStep(*p, d_, radius, reduce_);
    if (dhd <= 0.0) return stop_at(limit, CgExit::kNegativeCurvature);
    const double alpha = rz / dhd;
    if (alpha >= limit) return stop_at(limit, CgExit::kBoundary);
    *p += alpha * d_;
    if (result.iterations == 0) first_step_ = alpha;
    r_ += alpha * hd_;
    if (Norm(reduce_, r_) <= tol) {
      ++result.iterations;
      return result;
    }
    rz = m.Direction(reduce_, r_, free, false, rz, &z_, &d_);
  }
  result.exit = CgExit::kIterationLimit;
  return result;
}

}  // namespace qpm
