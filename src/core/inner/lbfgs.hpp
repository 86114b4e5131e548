// L-BFGS inner solver for models without a Hessian.
//
// Without bounds: the direction is d = -H g from the two-loop recursion
// (Nocedal & Wright, Alg. 7.4) over the last `memory` pairs s = x+ - x,
// y = grad Q(x+) - grad Q(x), with H0 = (s.y / y.y) I, and the step comes
// from the Armijo line search of inner/line_search.hpp (t0 = 1).
//
// With a box l <= z <= u (any finite bound, slacks of inequality rows
// included): L-BFGS-B (Byrd, Lu, Nocedal & Zhu, SIAM J. Sci. Comput. 16(5),
// 1995). With the compact matrix B = theta I - W M W' (their (3.2)) over the
// same pairs and the model m(z') = g.(z' - z) + 1/2 (z' - z).B (z' - z),
//   1. the generalized Cauchy point z_c: the first local minimizer of m on
//      the projected-gradient path P(z - t g), found breakpoint by breakpoint
//      (their Sec. 4), so one step activates every bound the path crosses;
//   2. subspace minimization: m over the entries still free at z_c, within
//      the box (their Sec. 5; LBFGS++ solves it exactly by BOXCQP,
//      Voglis & Lagaris 2004), giving z_s;
//   3. d = z_s - z; if d.g >= 0 the memory is cleared and 1-2 redone (with
//      B = I, d is the projected steepest-descent step); then the same
//      projected Armijo search, t0 = 1 (z + d is in the box).
//
// In both: pairs with too little curvature are skipped so H stays positive
// definite; the first step (empty memory) is at most 1 long; memory is
// cleared at each subproblem (pairs measured with another beta describe
// another function) unless LbfgsOptions::warm_start keeps it.
//
// From LBFGS++ (Debian liblbfgspp-dev, header-only; Y. Qiu) we take the
// linear algebra of 1-2: BFGSMat<double, true> (the compact matrix),
// Cauchy::get_cauchy_point and SubspaceMin::subspace_minimize. Not its
// driver LBFGSBSolver::minimize: its stopping tests are
// ||P(x - g) - x||_inf <= epsilon (or epsilon_rel ||x||) and a
// relative-decrease window, where ours is ||P_T(-grad Q)|| <= tau(x) with tau
// depending on c(x) at each iterate (inner_solver.hpp); it cannot report our
// Q / grad Q evaluation counts per (f, c) and (grad f, J) pair, nor watch our
// deadlines or stall monitor; its line search throws std::logic_error and
// std::runtime_error where we return a status. Any exception
// of the pieces we call is caught here: the memory is cleared and the step
// retried, and then the solve ends kStalled (nothing escapes Minimize).
#ifndef QPM_CORE_INNER_LBFGS_HPP_
#define QPM_CORE_INNER_LBFGS_HPP_

#include <memory>

#include <Eigen/Core>

#include "core/inner/inner_solver.hpp"
#include "core/inner/line_search.hpp"
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
  Lbfgs(const LbfgsOptions& options, AssembledPenalty q);
  ~Lbfgs() override;

  InnerSummary Minimize(const InnerControl& control, Iterate* x) override;

  // Box only, for tests and logs: of the last direction, the bounds its
  // generalized Cauchy point made active (those the path crossed), and the
  // entries left free for the subspace minimization.
  int cauchy_new_active() const;
  int cauchy_free() const;

 private:
  void ClearMemory();
  void Direction(const Iterate& x);     // direction_ = -H g (no box)
  void TwoLoop();                       // direction_ <- H direction_
  bool BoxDirection(const Iterate& x);  // steps 1-3 above; false: none found
  bool CauchyAndSubspace(const Iterate& x);  // steps 1-2; false when LBFGS++ failed
  void LimitFirstStep();
  void Remember(const Iterate& from, const Iterate& to);  // new (s, y) pair
  void RememberInBox(const Iterate& from, const Iterate& to);
  bool Step(Iterate* x, StepInfo* step, InnerSummary* summary);  // search + remember

  LbfgsOptions options_;
  ArmijoLineSearch line_search_;
  AssembledPenalty q_;
  bool box_;  // L-BFGS-B: the penalty has a finite bound
  Iterate trial_;
  Vector direction_;
  // Two-loop store (no box).
  Eigen::MatrixXd s_, y_;  // n x memory, circular
  Vector rho_, alpha_;     // 1 / (s.y), two-loop coefficients
  int newest_ = -1;
  int count_ = 0;
  // L-BFGS-B (box): LBFGS++'s compact matrix and work space, kept out of
  // this header so that its users need no LBFGS++.
  struct Box;
  std::unique_ptr<Box> b_;
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_LBFGS_HPP_
