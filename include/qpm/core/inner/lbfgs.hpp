// L-BFGS inner solver for models without a Hessian: the direction is
// d = -H g from the two-loop recursion (Nocedal & Wright, Alg. 7.4) over the
// last `memory` pairs s = x+ - x, y = grad Q(x+) - grad Q(x), with
// H0 = (s.y / y.y) I, and the step comes from the Armijo line search of
// inner/line_search.hpp (t0 = 1). Pairs with too little curvature are
// skipped so H stays positive definite. Memory is cleared at each
// subproblem (pairs measured with another beta describe another function)
// unless LbfgsOptions::warm_start keeps it.
// With bounds, entries at a bound whose steepest-descent move points outward
// are held fixed and the step is projected on the box (line search).
//
// Why not LBFGS++ (Debian liblbfgspp-dev): its stopping tests are
// ||g|| <= eps max(1, ||x||) and a relative-decrease window; our rule
// ||grad Q(x)|| <= tau(x) depends on c(x) at each iterate, it cannot report
// our Q / grad Q evaluation counts per (f, c) and (grad f, J) pair, and its
// line searches throw std::runtime_error where we return a status.
#ifndef QPM_CORE_INNER_LBFGS_HPP_
#define QPM_CORE_INNER_LBFGS_HPP_

#include <vector>

#include <Eigen/Core>

#include "qpm/core/inner/inner_solver.hpp"
#include "qpm/core/inner/line_search.hpp"
#include "qpm/core/options.hpp"

namespace qpm {

// d <- H d by the two-loop recursion (Nocedal & Wright, Alg. 7.4) over the
// `count` newest pairs of a circular store: columns of s and y, the newest
// in column `newest`, rho_j = 1 / (s_j.y_j), and H0 = (s.y / y.y) I of the
// newest pair. `alpha` is work space of size s.cols(). Lbfgs uses it for
// its direction; a free function so that it can be checked against the
// dense BFGS update of H.
void TwoLoopRecursion(const Eigen::MatrixXd& s, const Eigen::MatrixXd& y, const Vector& rho,
                      int newest, int count, Vector* alpha, Vector* d);

class Lbfgs : public InnerSolver {
 public:
  Lbfgs(const LbfgsOptions& options, PenaltyFunction* q);

  InnerSummary Minimize(const InnerControl& control, Iterate* x) override;

 private:
  void Direction(const Iterate& x);  // direction_ = -H g on the free entries
  void FindActive(const Iterate& x);
  void ZeroActive();
  void TwoLoop();
  void Remember(const Iterate& from, const Iterate& to);  // new (s, y) pair

  LbfgsOptions options_;
  ArmijoLineSearch line_search_;
  PenaltyFunction* q_;
  Iterate trial_;
  Vector direction_;
  Eigen::MatrixXd s_, y_;  // n x memory, circular
  Vector rho_, alpha_;     // 1 / (s.y), two-loop coefficients
  std::vector<char> active_;  // at a bound with -grad Q pointing outward
  int newest_ = -1;
  int count_ = 0;
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_LBFGS_HPP_
