// Feasibility-aware tolerance, paper Definition 2.1, eq. (2.1):
//
//   tau(x) = max( eps1, min( tau_cap, eps1/eps0 * ||c(x)|| ) ).
//
// Properties (eq. (2.2), the definition's consequence): tau >= eps1 always,
// and tau = eps1 whenever ||c(x)|| <= eps0. tau_cap = +inf is the paper's
// adaptive rule tau_k of eq. (7.2); tau_cap = 0 is the fixed rule tau = eps1.
#ifndef QPM_CORE_TOLERANCE_HPP_
#define QPM_CORE_TOLERANCE_HPP_

#include <algorithm>

namespace qpm {

struct FeasibilityTolerance {
  double eps0 = 1e-8;     // feasibility target ||c|| <= eps0
  double eps1 = 1e-8;     // stationarity target ||grad Q|| <= eps1
  double tau_cap = 1e20;  // cap on the tolerance; >= 1e20 means +infinity

  double operator()(double c_norm) const {
    return std::max(eps1, std::min(tau_cap, eps1 / eps0 * c_norm));
  }
};

}  // namespace qpm

#endif  // QPM_CORE_TOLERANCE_HPP_
