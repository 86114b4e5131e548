#include "qpm/core/problem.hpp"

#include "qpm/core/distributed.hpp"

#include <limits>

#include <Eigen/Core>

namespace qpm {

void Problem::GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const {
  x_l.setConstant(-std::numeric_limits<double>::infinity());
  x_u.setConstant(std::numeric_limits<double>::infinity());
  g_l.setZero();
  g_u.setZero();
}

bool Problem::AnyVariableBound() const {
  const int n = num_variables(), m = num_constraints();
  Vector x_l(n), x_u(n), g_l(m), g_u(m);
  GetBounds(x_l, x_u, g_l, g_u);
  return x_l.array().isFinite().any() || x_u.array().isFinite().any();
}

namespace {
class Serial : public Reductions {
 public:
  double Sum(double local) const override { return local; }
  double Max(double local) const override { return local; }
};
}  // namespace

const Reductions& SerialReductions() {
  static const Serial serial;
  return serial;
}

}  // namespace qpm
