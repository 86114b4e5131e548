#include "qpm/core/problem.hpp"

#include <limits>

namespace qpm {

void Problem::GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const {
  x_l.setConstant(-std::numeric_limits<double>::infinity());
  x_u.setConstant(std::numeric_limits<double>::infinity());
  g_l.setZero();
  g_u.setZero();
}

}  // namespace qpm
