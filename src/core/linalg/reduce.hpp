// Dot products, norms and counts over all processes (qpm/core/distributed.hpp).
// Every such quantity the solver decides on goes through these, so that the
// processes of a distributed model take the same decisions; on one process
// they are Eigen's own, to the last bit (Sum and Max are the identity, and
// Eigen's norm() is sqrt(squaredNorm())).
#ifndef QPM_CORE_LINALG_REDUCE_HPP_
#define QPM_CORE_LINALG_REDUCE_HPP_

#include <cmath>

#include <Eigen/Core>

#include "qpm/core/distributed.hpp"

namespace qpm {

template <class A, class B>
double Dot(const Reductions& r, const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  return r.Sum(a.dot(b));
}
template <class A>
double SquaredNorm(const Reductions& r, const Eigen::MatrixBase<A>& a) {
  return r.Sum(a.squaredNorm());
}
template <class A>
double Norm(const Reductions& r, const Eigen::MatrixBase<A>& a) {
  return std::sqrt(r.Sum(a.squaredNorm()));
}
// ||a||_inf, 0 for an empty vector.
template <class A>
double MaxNorm(const Reductions& r, const Eigen::MatrixBase<A>& a) {
  return r.Max(a.size() ? a.template lpNorm<Eigen::Infinity>() : 0.0);
}
inline long Count(const Reductions& r, long local) {
  return std::lround(r.Sum(static_cast<double>(local)));
}

}  // namespace qpm

#endif  // QPM_CORE_LINALG_REDUCE_HPP_
