// The quadratic penalty of the paper, eq. (1.1), extended to bounds and
// inequality rows through slacks (docs/algorithm.md):
//
//   z = (x, s),  s one slack per inequality row  g_l,i < g_u,i,
//   c(z)_j = g_j(x) - g_l,j   (equality row j)
//   c(z)_j = g_j(x) - s_j     (inequality row j, g_l,j <= s_j <= g_u,j)
//   Q_beta(z)      = f(x) + beta/2 ||c(z)||^2   over the box  l <= z <= u,
//   grad_x Q       = grad f(x) + beta J(x)^T c,   grad_s Q = -beta c_I,
//
// Without bounds and inequalities z = x and this is the paper's Q exactly.
// Slacks keep Q twice differentiable (the slack-free form
// beta/2 dist(g, [g_l, g_u])^2 has a jump in its Hessian at the bounds,
// which would break the trust-region model); minimizing over s gives the
// same value.
//
// Stationarity over the box is measured by the norm of the projected
// gradient of Calamai & More (Math. Prog. 39, 1987): grad Q projected on the
// tangent cone of the box, i.e. grad Q with the entries removed that sit on
// a bound and point out of the box. It equals ||grad Q|| (paper eq. (2.4))
// when no bound binds, vanishes exactly at the box's KKT points, and bounds
// the other common measure: ||P(z - grad Q) - z|| <= ||P_T(-grad Q)||
// (their Lemma 3.1), so a point passing our test passes that one too. We do
// not use ||P(z - grad Q) - z|| itself: it is capped by the distance to the
// bounds, so with the feasibility-aware tolerance tau = eps1/eps0 ||c|| an
// infeasible corner can pass it for every beta (docs/algorithm.md,
// "Projected inner solvers and the stationarity measure").
//
// Multiplier estimates (the default mode, docs/algorithm.md): with lambda
// set (SetMultipliers), the merit is the augmented Lagrangian
//   L_A(z) = f(x) + lambda' c(z) + beta/2 ||c(z)||^2,
//   grad_x L_A = grad f + J^T y,  grad_s L_A = -y_I,  y = lambda + beta c,
//   Hess L_A v = W(y) v_x + beta J_z^T J_z v,
// i.e. the penalty with beta c replaced by y everywhere but the curvature
// term. Without multipliers (the paper's mode) none of this is computed and
// Q is the paper's, to the last bit.
//
// An Iterate caches f, g, c, grad f and J at its point, so that Q and grad Q
// for a new beta cost no model callbacks (Algorithm 1, line 4 compares Q at
// x_k and x_0). Counting: one Q evaluation is one (f, g) pair, one grad Q
// evaluation one (grad f, J) pair, one Hessian evaluation one W.
#ifndef QPM_CORE_PENALTY_HPP_
#define QPM_CORE_PENALTY_HPP_

#include <cmath>
#include <memory>
#include <vector>

#include "core/linalg/reduce.hpp"
#include "qpm/core/problem.hpp"

namespace qpm {

// J's compressed row-major pattern, one copy for every Iterate of a
// PenaltyFunction (docs/algorithm.md, "Memory budget").
struct JacobianPattern {
  int rows = 0, cols = 0;
  std::vector<int> outer, inner;
};

// A point z = (x, s) with the model values the penalty needs, cached.
struct Iterate {
  Vector x;                // z = (x, s), size n + number of slacks
  double f = 0.0;
  Vector g;                // g(x)
  Vector c;                // c(z)
  double c_squared = 0.0;  // ||c(z)||_2^2
  double lambda_c = 0.0;   // lambda' c(z) for the penalty's multipliers (0 without)
  Vector grad_f;
  Vector jacobian_values;  // J(x) = dg/dx over *jacobian_pattern
  JacobianPattern* jacobian_pattern = nullptr;
  int jacobian_slot = -1;  // J(x) held by a distributed model instead (DistributedModel)
  Vector grad_q;           // grad Q_beta(z) for the beta it was formed with
  double grad_q_norm = 0.0;  // stationarity ||P_T(-grad Q)||_2 (= ||grad Q|| unbounded)

  // The merit the inner solvers minimize: Q_beta, or L_A with multipliers.
  double Q(double beta) const { return f + lambda_c + 0.5 * beta * c_squared; }
  double c_norm() const { return std::sqrt(c_squared); }
  SparseMatrixView jacobian() {
    JacobianPattern& p = *jacobian_pattern;
    return SparseMatrixView(p.rows, p.cols, jacobian_values.size(), p.outer.data(),
                            p.inner.data(), jacobian_values.data());
  }
  ConstSparseMatrixView jacobian() const {
    const JacobianPattern& p = *jacobian_pattern;
    return ConstSparseMatrixView(p.rows, p.cols, jacobian_values.size(), p.outer.data(),
                                 p.inner.data(), jacobian_values.data());
  }
};

struct PenaltyCounts {
  long q_evals = 0;       // (f, g) pairs
  long grad_evals = 0;    // (grad f, J) pairs
  long hess_evals = 0;    // Lagrangian Hessians
  long hess_products = 0; // Hessian-of-Q times vector (CG iterations and checks)
};

class PenaltyFunction {
 public:
  explicit PenaltyFunction(Problem* problem);
  ~PenaltyFunction();
  // Iterates point to its JacobianPattern: it stays where it was made.
  PenaltyFunction(const PenaltyFunction&) = delete;
  PenaltyFunction& operator=(const PenaltyFunction&) = delete;

  int n() const { return n_ + num_slacks(); }  // size of z (this process's block)
  int num_x() const { return n_; }
  int m() const { return m_; }
  // Some process holds a constraint row (m() > 0 on one process).
  bool any_rows() const { return any_rows_; }
  // Sums and maxima over the processes of a distributed model (reduce.hpp).
  const Reductions& reduce() const { return reduce_; }
  // The model is split over processes (Problem::distributed()): J and W are
  // its operators, and hessian() and jacobian_pattern() are empty.
  bool distributed() const { return distributed_; }
  int num_slacks() const { return static_cast<int>(slack_row_.size()); }
  int slack_row(int i) const { return slack_row_[i]; }
  bool has_bounds() const { return has_bounds_; }
  const Vector& lower() const { return lower_; }  // box of z; empty when !has_bounds()
  const Vector& upper() const { return upper_; }
  double beta() const { return beta_; }
  void set_beta(double beta) { beta_ = beta; }
  // The norm of Iterate::grad_q_norm, the stationarity the inner solvers test:
  // the paper's 2-norm, or (default mode) the max-norm of Ipopt's test, so
  // that a subproblem does not chase a 2-norm that sums the rounding noise of
  // n entries (docs/algorithm.md, "The default mode").
  void set_max_norm_stationarity(bool max_norm) { max_norm_ = max_norm; }

  // Multiplier estimates lambda (size m, Ipopt's sign): the merit becomes the
  // augmented Lagrangian. Cached iterates need Refresh() afterwards.
  void SetMultipliers(const Vector& lambda);
  bool has_multipliers() const { return has_multipliers_; }
  const Vector& multipliers() const { return multipliers_; }
  // y = lambda + beta c(z): the Lagrange multipliers the merit's gradient uses.
  void FirstOrderMultipliers(const Iterate& it, Vector* y) const;
  // Recomputes lambda' c and grad Q of a cached iterate for new lambda or beta.
  void Refresh(Iterate* it) const;
  // c, ||c||^2 and lambda' c from the cached g and slacks.
  void UpdateResidual(Iterate* it) const { FormResidual(it); }

  // Sizes all vectors of `it` and gives it the shared Jacobian pattern.
  void Allocate(Iterate* it) const;

  // f, g and c at it->x (one Q evaluation). False on failure or non-finite values.
  bool EvaluateValues(Iterate* it);
  // grad f and J at it->x (one grad Q evaluation), then grad Q for beta().
  bool EvaluateDerivatives(Iterate* it);
  // The caller's promise that the next evaluation is at the z of the last
  // one, unchanged (Problem::SamePointNext): the derivatives and W of a
  // trial point right after its values.
  void SamePointNext() { problem_->SamePointNext(); }
  // grad Q and the stationarity for the current beta from the cached values.
  void FormGradient(Iterate* it) const;
  // Sets each slack to g_j(x) projected on [g_l,j, g_u,j] (c_I = 0 when
  // possible) and refreshes c; used at the start point.
  void FitSlacks(Iterate* it) const;

  // Stationarity of the violation ||c(z)|| over the box: the norm of
  // grad ||c|| = J_z^T c / ||c|| (J_z = dc/dz, slack columns -1) projected on
  // the tangent cone as in FormGradient; 0 when c = 0. Small with ||c||
  // large: z is (nearly) a stationary point of the violation, the evidence of
  // local infeasibility. O(nnz(J)), no callbacks.
  double ViolationStationarity(const Iterate& it);
  // One z-sized work vector for the O(n) computations made once per outer
  // iteration or so: the violation's gradient above and the least-squares
  // multipliers (core/multipliers.cpp); lent to the trust region's CG for
  // H d (TruncatedCg). Its contents do not outlive a call, and nothing
  // HessianProduct calls may use it.
  Vector& scratch() const { return scratch_; }

  // Ipopt's dual measures at a point: the max-norm of grad Q over the
  // entries of z not blocked by a bound (the blocked ones are absorbed by
  // bound multipliers z_L, z_U >= 0, so this is ||grad_z L - z_L + z_U||_inf
  // with L's multipliers y = lambda + beta c), and ||(z_L, z_U)||_1.
  // With `weights`, also the max-norm of the weighted entries:
  // the dual infeasibility of the unscaled problem when the penalty works
  // on a ScaledProblem.
  struct DualMeasures {
    double dual_inf = 0.0;
    double bound_multipliers_l1 = 0.0;
    double weighted_dual_inf = 0.0;
  };
  // Weights of the entries of z: `x` for every x entry, `slacks[i]` for slack i.
  struct DualWeights {
    double x = 1.0;
    Vector slacks;
  };
  DualMeasures Dual(const Iterate& it, const DualWeights* weights = nullptr) const;
  // The same dual infeasibility (max-norm over the entries not blocked by a
  // bound) of the Lagrangian at the multipliers alone, grad f + J_z^T lambda
  // = grad Q - beta J_z^T c: what lambda explains of grad f at z without the
  // penalty term. Uses scratch().
  double DualInfeasibilityAtMultipliers(const Iterate& it) const;

  // z <- P(z), the projection on the box; returns how many entries moved.
  int Project(VectorRef z) const;

  // Second order. W = Hessian of the Lagrangian at x with sigma = 1 and
  // lambda = beta c (one Hessian evaluation), kept until the next call; then
  //   Hess Q v = ( W v_x + beta J^T (J v_x - v_s^rows) ;  -beta (J v_x - v_s^rows)_I )
  // is applied matrix-free in O(nnz(W) + nnz(J)), never forming J^T J.
  bool has_hessian() const { return problem_->has_hessian(); }
  bool EvaluateHessian(const Iterate& it);
  void HessianProduct(const Iterate& it, const Vector& v, Vector* out);

  void HessianDiagonal(VectorRef d) const;  // d = diag(W), size num_x()

  // Products with J(x) at an iterate with derivatives: out = J v_x (rows),
  // out = J^T w and out += alpha J^T w (x-sized); never J^T J.
  void JacobianTimes(const Iterate& it, const ConstVectorRef& v_x, VectorRef out) const;
  void JacobianTransposeTimes(const Iterate& it, const ConstVectorRef& w, VectorRef out) const;
  void JacobianTransposeTimesAdd(const Iterate& it, double alpha, const ConstVectorRef& w,
                                 VectorRef out) const;
  // out_i += alpha sum_r J_ri^2 (x-sized): the diagonal of alpha J^T J.
  void AddJacobianColumnSquares(const Iterate& it, double alpha, VectorRef out) const;
  // out_r = sum_i J_ri^2 over the columns i with free[i] != 0 (free: z-sized,
  // or null for all; a distributed model sums over all columns).
  void JacobianRowSquares(const Iterate& it, const Vector* free, VectorRef out) const;

  // How J and W are held and applied (penalty.cpp): the assembled matrices
  // here, or a distributed model's operators; chosen once, at construction.
  class Algebra;

 private:
  class Assembled;
  class Operators;

 public:
  // W's lower triangle (pattern from construction, values of the last
  // EvaluateHessian) and J's pattern, for preconditioners that factor.
  const SparseMatrix& hessian() const { return hessian_; }
  const JacobianPattern& jacobian_pattern() const { return jacobian_pattern_; }
  // J's pattern as a matrix with zero values (a copy: for set-up only).
  void JacobianPatternMatrix(SparseMatrix* jacobian) const;
  const PenaltyCounts& counts() const { return counts_; }
  Problem* problem() const { return problem_; }

 private:
  void ReadJacobianPattern();
  void FormResidual(Iterate* it) const;
  void ViolationGradientToScratch(const Iterate& it) const;
  // Entry i of z sits on a bound and g points out of the box there.
  bool Blocked(const Vector& z, int i, double g) const {
    return has_bounds_ && ((g > 0.0 && z[i] <= lower_[i]) || (g < 0.0 && z[i] >= upper_[i]));
  }
  void SymmetricProduct(const ConstVectorRef& v, VectorRef out) const;

  Problem* problem_;
  int n_;
  int m_;
  const Reductions& reduce_;
  bool distributed_;
  bool any_rows_ = false;
  std::unique_ptr<Algebra> algebra_;
  double beta_ = 1.0;
  PenaltyCounts counts_;
  Vector lower_, upper_;          // box of z
  Vector g_lower_, g_upper_;      // row bounds
  void ClearFreeRows(SparseMatrixView jacobian) const;

  static constexpr int kEqualityRow = -1, kFreeRow = -2;
  std::vector<int> row_slack_;    // slack index of row j, kEqualityRow or kFreeRow
  std::vector<int> free_rows_;    // rows with both bounds infinite
  std::vector<int> slack_row_;    // row of slack i
  bool has_bounds_ = false;       // some entry of the box is finite
  mutable JacobianPattern jacobian_pattern_;  // Iterate::jacobian_pattern of every iterate
  SparseMatrix hessian_;  // lower triangle of W
  Vector lambda_;         // beta c (or lambda + beta c), the multipliers W was formed with
  Vector multipliers_;    // lambda of the augmented Lagrangian (empty without)
  bool has_multipliers_ = false;
  bool max_norm_ = false;
  mutable Vector shifted_;  // y = lambda + beta c, work vector of FormGradient
  Vector jv_;             // J v_x - v_s on the rows
  mutable Vector scratch_;  // scratch()
};

}  // namespace qpm

#endif  // QPM_CORE_PENALTY_HPP_
