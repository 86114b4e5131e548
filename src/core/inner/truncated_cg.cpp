#include "qpm/core/inner/truncated_cg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qpm {

double BoundaryStep(const Vector& p, const Vector& d, double radius) {
  const double pd = p.dot(d), dd = d.squaredNorm(), pp = p.squaredNorm();
  const double disc = std::max(0.0, pd * pd + dd * (radius * radius - pp));
  return (-pd + std::sqrt(disc)) / dd;
}

double BoxStep(const Vector& p, const Vector& d, const CgBox& box) {
  double tau = std::numeric_limits<double>::infinity();
  for (int i = 0; i < p.size(); ++i) {
    if (d[i] > 0.0) tau = std::min(tau, ((*box.upper)[i] - p[i]) / d[i]);
    if (d[i] < 0.0) tau = std::min(tau, ((*box.lower)[i] - p[i]) / d[i]);
  }
  return std::max(tau, 0.0);
}

TruncatedCg::TruncatedCg(int n) : r_(n), z_(n), d_(n), hd_(n), hp_(n) {}

CgResult TruncatedCg::Solve(const HessianOperator& hessian, const Vector& g, double radius,
                            double tol, int max_iter, Vector* p, const CgBox* box,
                            const HessianOperator* preconditioner) {
  CgResult result;
  // z = M^{-1} r (M = I without a preconditioner), masked to the free set.
  auto precondition = [&]() {
    if (!preconditioner) return;
    (*preconditioner)(r_, &z_);
    if (box) z_ = z_.cwiseProduct(*box->free);
  };
  if (box) {
    hessian(*p, &hp_);
    r_ = (g + hp_).cwiseProduct(*box->free);  // model gradient on the free set
  } else {
    p->setZero();
    hp_.setZero();
    r_ = g;                                   // r = H p + g
  }
  precondition();
  const Vector& z = preconditioner ? z_ : r_;
  d_ = -z;
  double rz = r_.dot(z);
  // -m(p) with H p recomputed: the recurrence for H p drifts over many CG
  // iterations, and at large beta the drift can exceed the true decrease
  // (seen at n = 1e4: every step rejected and the radius collapsing).
  auto finish = [&](CgExit exit) {
    result.exit = exit;
    if (result.iterations > 1) hessian(*p, &hp_);
    result.model_decrease = -(g.dot(*p) + 0.5 * p->dot(hp_));
    return result;
  };
  // Moves p by tau d (to the ball or the box) and stops with `exit`.
  auto stop_at = [&](double tau, CgExit exit) {
    *p += tau * d_;
    hp_ += tau * hd_;
    ++result.iterations;
    return finish(exit);
  };
  if (r_.norm() <= tol) return finish(CgExit::kConverged);
  if (!(rz > 0.0)) return finish(CgExit::kConverged);  // M not positive on r: stop at p
  for (; result.iterations < max_iter; ++result.iterations) {
    hessian(d_, &hd_);
    const double dhd = d_.dot(hd_);
    double limit = BoundaryStep(*p, d_, radius);
    if (box) limit = std::min(limit, BoxStep(*p, d_, *box));
    if (dhd <= 0.0) return stop_at(limit, CgExit::kNegativeCurvature);
    const double alpha = rz / dhd;
    if (alpha >= limit) return stop_at(limit, CgExit::kBoundary);
    *p += alpha * d_;
    hp_ += alpha * hd_;
    if (box) {
      r_ += alpha * hd_.cwiseProduct(*box->free);
    } else {
      r_ += alpha * hd_;
    }
    if (r_.norm() <= tol) {
      ++result.iterations;
      return finish(CgExit::kConverged);
    }
    precondition();
    const double rz_next = r_.dot(z);
    d_ = -z + (rz_next / rz) * d_;
    rz = rz_next;
  }
  return finish(CgExit::kIterationLimit);
}

}  // namespace qpm
