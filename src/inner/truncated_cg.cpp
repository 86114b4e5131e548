#include "qpm/inner/truncated_cg.hpp"

#include <algorithm>
#include <cmath>

namespace qpm {

double BoundaryStep(const Vector& p, const Vector& d, double radius) {
  const double pd = p.dot(d), dd = d.squaredNorm(), pp = p.squaredNorm();
  const double disc = std::max(0.0, pd * pd + dd * (radius * radius - pp));
  return (-pd + std::sqrt(disc)) / dd;
}

TruncatedCg::TruncatedCg(int n) : r_(n), d_(n), hd_(n), hp_(n) {}

CgResult TruncatedCg::Solve(const HessianOperator& hessian, const Vector& g, double radius,
                            double tol, int max_iter, Vector* p) {
  CgResult result;
  p->setZero();
  hp_.setZero();
  r_ = g;                 // r = H p + g
  d_ = -r_;
  double rr = r_.squaredNorm();
  auto finish = [&](CgExit exit) {
    result.exit = exit;
    result.model_decrease = -(g.dot(*p) + 0.5 * p->dot(hp_));  // -m(p)
    return result;
  };
  if (std::sqrt(rr) <= tol) return finish(CgExit::kConverged);
  for (; result.iterations < max_iter; ++result.iterations) {
    hessian(d_, &hd_);
    const double dhd = d_.dot(hd_);
    if (dhd <= 0.0) {  // nonpositive curvature: go to the boundary along d
      const double tau = BoundaryStep(*p, d_, radius);
      *p += tau * d_;
      hp_ += tau * hd_;
      ++result.iterations;
      return finish(CgExit::kNegativeCurvature);
    }
    const double alpha = rr / dhd;
    if ((*p + alpha * d_).norm() >= radius) {  // leaves the ball: stop on it
      const double tau = BoundaryStep(*p, d_, radius);
      *p += tau * d_;
      hp_ += tau * hd_;
      ++result.iterations;
      return finish(CgExit::kBoundary);
    }
    *p += alpha * d_;
    hp_ += alpha * hd_;
    r_ += alpha * hd_;
    const double rr_next = r_.squaredNorm();
    if (std::sqrt(rr_next) <= tol) {
      ++result.iterations;
      return finish(CgExit::kConverged);
    }
    d_ = -r_ + (rr_next / rr) * d_;
    rr = rr_next;
  }
  return finish(CgExit::kIterationLimit);
}

}  // namespace qpm
