#include "core/multipliers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "core/linalg/sparse_cholesky.hpp"

namespace qpm {

namespace {

bool OnBound(const SlackLayout& z, const Iterate& it, int i) {
  return z.has_bounds() && (it.x[i] <= z.lower()[i] || it.x[i] >= z.upper()[i]);
}

// A = [J^T; -E_I^T] restricted to the rows of the free entries of z, and
// b = -[grad f; 0] likewise, applied without forming A (A = J_z^T masked):
// rows of z on a bound are zero in every product. A y goes to the borrowed
// workspace (workspace.hpp).
class LeastSquaresOperator {
 public:
  LeastSquaresOperator(const PenaltyFunction& q, const Iterate& it, Workspace* work)
      : z_(q.layout()), jz_(q.jz()), it_(it), ay_(work->z) {}

  // ay_ = A y.
  const Vector& Apply(const Vector& y) {
    jz_.TransposeTimes(it_, y, &ay_);
    Mask(&ay_);
    return ay_;
  }
  // A^T (b - A y): the normal-equation residual at y (ay_ overwritten).
  Vector NormalResidual(const Vector& y) {
    Vector out(z_.m());
    NormalResidual(y, &out);
    return out;
  }
  void NormalResidual(const Vector& y, Vector* out) {
    Apply(y);
    const int n = z_.n_x();
    for (int i = 0; i < n; ++i) ay_[i] = Free(i) ? -it_.grad_f[i] - ay_[i] : 0.0;
    ay_.tail(z_.num_slacks()) *= -1.0;
    jz_.Times(it_, ay_, *out);
  }
  // b - A y at the last NormalResidual's y.
  const Vector& residual() const { return ay_; }
  // A^T r for r zero on the rows of z at a bound.
  Vector Transposed(const Vector& r) const {
    Vector out(z_.m());
    jz_.Times(it_, r, out);
    return out;
  }
  // The squared column norms of A (1 for an empty column): Jacobi on A^T A.
  Vector InverseColumnNorms() const {
    Vector d = Vector::Zero(z_.m());
    Vector free;
    if (z_.has_bounds()) {
      free.resize(z_.n());
      for (int i = 0; i < z_.n(); ++i) free[i] = Free(i) ? 1.0 : 0.0;
    }
    jz_.RowSquares(it_, z_.has_bounds() ? &free : nullptr, d);
    for (int j = 0; j < d.size(); ++j) d[j] = d[j] > 0.0 ? 1.0 / d[j] : 1.0;
    return d;
  }
  // 1 on the free entries of z, 0 on those at a bound.
  Vector FreeMask() const {
    Vector free(z_.n());
    for (int i = 0; i < z_.n(); ++i) free[i] = Free(i) ? 1.0 : 0.0;
    return free;
  }
  bool AnyFree() const {
    bool any = false;
    for (int i = 0; i < z_.n() && !any; ++i) any = Free(i);
    return z_.reduce().Any(any);
  }

 private:
  bool Free(int i) const { return !OnBound(z_, it_, i); }
  void Mask(Vector* v) const {
    if (!z_.has_bounds()) return;
    for (int i = 0; i < v->size(); ++i) {
      if (!Free(i)) (*v)[i] = 0.0;
    }
  }

  const SlackLayout& z_;
  const JzOperator& jz_;
  const Iterate& it_;
  Vector& ay_;
};

// The least-squares estimate by a sparse Cholesky of the Gram matrix
// G = A^T A = J_z F J_z^T (F: the free entries of z) shifted by delta =
// kGramShift times its largest diagonal entry, in iterated Tikhonov steps
// from the guess (proximal point steps on ||A y - b||^2):
//   y <- y + (G + delta I)^{-1} A^T (b - A y).
// Each step's residual comes from A itself, so what the factor (which
// squares A's condition number) loses to rounding is recovered as in
// iterative refinement (Bjorck, Numerical Methods for Least Squares
// Problems, 1996, Sec. 2.8, the corrected seminormal equations); the shift
// keeps the multipliers that the gradient does not determine (dependent
// active rows) at the guess, where CG on the same factor would fill them
// with rounding amplified by 1/delta (docs/algorithm.md, "Multipliers at
// the end").
class GramCholesky {
 public:
  // False, and no factor, where J is not assembled, the Gram matrix is not
  // within kGramFill of J's entries, one factorization is predicted to cost
  // more than `iterations` CGLS iterations (each streams J twice; a
  // factorization's flops count 1 / flops_per_entry of an entry streamed,
  // tr.factor_flops_per_entry, as for the preconditioner), or no
  // shift up to kMaxGramShift makes G + delta I numerically positive definite.
  // G is formed by m product pairs with A where they cost (4 m nnz(J) flops)
  // at most twice the assembled product (about 2 (GramBound + nnz(J))): a
  // few dense rows, where the assembled product's copies of J would take
  // O(nnz(J) + n) memory.
  bool Build(const PenaltyFunction& q, LeastSquaresOperator* a, const Iterate& it,
             int iterations, double flops_per_entry) {
    if (q.distributed() || !q.layout().any_rows()) return false;
    const ConstSparseMatrixView j = it.jacobian();
    const LowerMatrix gram = Gram(q, a, it);
    if (gram.rows() == 0) return false;
    const double largest = std::max(1.0, gram.diagonal().maxCoeff());
    cholesky_ = MakeSparseCholesky();
    const FactorCost cost = cholesky_->Analyze(gram);
    if (cost.flops / flops_per_entry > 2.0 * iterations * static_cast<double>(j.nonZeros())) {
      return false;
    }
    for (double shift = kGramShift; shift <= kMaxGramShift; shift *= 100.0) {
      delta_ = shift * largest;
      if (cholesky_->Factorize(gram, delta_)) return true;
    }
    return false;
  }
  Vector Solve(LeastSquaresOperator* a, const Reductions& r, const Vector& guess) {
    Vector y = guess, step(guess.size());
    double last = std::numeric_limits<double>::infinity();
    for (int k = 0; k < kRefinements; ++k) {
      const Vector residual = a->NormalResidual(y);
      const double size = SquaredNorm(r, residual);
      if (!(size < last)) break;  // rounding reached
      last = size;
      cholesky_->Solve(residual, &step);
      y += step;
    }
    return y;
  }

 private:
  // G, or an empty matrix where it is not within kGramFill of J's entries.
  static LowerMatrix Gram(const PenaltyFunction& q, LeastSquaresOperator* a, const Iterate& it) {
    const ConstSparseMatrixView j = it.jacobian();
    const double m = q.layout().m(), entries = j.nonZeros();
    // GramBound >= max(nnz, nnz^2 / n) (Cauchy-Schwarz), equal for dense rows.
    const double least = std::max(entries, entries * entries / std::max(1.0, double(j.cols())));
    if (m * entries <= least + entries) return ByProducts(a, q.layout().m());
    const double bound = GramBound(j);
    if (m * entries <= bound + entries) return ByProducts(a, q.layout().m());
    if (bound > kGramFill * (entries + j.rows())) return LowerMatrix();
    return Assembled(q, *a, it);
  }
  // G from J: copies of J weighted by F (O(nnz(J) + n) memory).
  static LowerMatrix Assembled(const PenaltyFunction& q, const LeastSquaresOperator& a,
                               const Iterate& it) {
    Vector diagonal = Vector::Zero(q.layout().m());
    LowerMatrix gram = q.jz().WeightedGram(it, a.FreeMask(), &diagonal);
    for (int r = 0; r < gram.rows(); ++r) gram.coeffRef(r, r) += diagonal[r];
    gram.makeCompressed();
    return gram;
  }
  // G column by column as A^T (A e_j): m product pairs with A, no copy of J.
  static LowerMatrix ByProducts(LeastSquaresOperator* a, int m) {
    LowerMatrix gram(m, m);
    gram.reserve(Eigen::VectorXi::LinSpaced(m, m, 1));
    Vector unit = Vector::Zero(m);
    for (int col = 0; col < m; ++col) {
      unit[col] = 1.0;
      const Vector g = a->Transposed(a->Apply(unit));
      unit[col] = 0.0;
      for (int row = col; row < m; ++row) gram.insert(row, col) = g[row];
    }
    gram.makeCompressed();
    return gram;
  }

  static constexpr double kGramFill = 20.0;
  static constexpr double kGramShift = 1e-12;
  static constexpr double kMaxGramShift = 1e-6;
  static constexpr int kRefinements = 4;
  std::unique_ptr<SparseCholesky> cholesky_;
  double delta_ = 0.0;
};

// min ||A lambda - b|| by Jacobi-preconditioned CG on the normal equations
// (CGLS) from `guess`, the residual recomputed from lambda each iteration;
// stops when ||A^T r|| <= tolerance ||A^T b||, or when ||r||^2 has had no
// new low by a relative kLeastSquaresProgress for kLeastSquaresStall
// iterations: at a point that is not stationary, r's rounding keeps
// ||A^T r|| above a tight tolerance, and the iterations after ||r|| has
// settled only move lambda along directions A barely sees. `guess` itself
// when no entry of z is free.
constexpr double kLeastSquaresProgress = 1e-12;
constexpr int kLeastSquaresStall = 20;
Vector SolveLeastSquares(const PenaltyFunction& q, const Iterate& it, int max_iterations,
                         double tolerance, const Vector& guess, Workspace* work) {
  LeastSquaresOperator a(q, it, work);
  if (!a.AnyFree()) return guess;
  const Reductions& r = q.layout().reduce();
  const int m = q.layout().m();
  const Vector d = a.InverseColumnNorms();
  const double threshold =
      tolerance * tolerance * SquaredNorm(r, a.NormalResidual(Vector::Zero(m)));
  Vector y = guess;
  Vector s = a.NormalResidual(y);
  if (threshold == 0.0) return Vector::Zero(m);
  if (SquaredNorm(r, s) < threshold) return y;
  Vector p = d.cwiseProduct(s), ds(m);
  double rz = Dot(r, s, p);
  double low = SquaredNorm(r, a.residual());
  int since_low = 0;
  for (int i = 0; i < max_iterations; ++i) {
    const double ap = SquaredNorm(r, a.Apply(p));
    if (!(ap > 0.0)) break;
    y += (rz / ap) * p;
    a.NormalResidual(y, &s);
    if (SquaredNorm(r, s) < threshold) break;
    // ||b - A y||, which CGLS lowers monotonically, has settled: the dual
    // infeasibility it measures is at its least to 1e-12.
    const double size = SquaredNorm(r, a.residual());
    if (size < (1.0 - kLeastSquaresProgress) * low) {
      low = size, since_low = 0;
    } else if (++since_low >= kLeastSquaresStall) {
      break;
    }
    ds = d.cwiseProduct(s);
    const double rz_next = Dot(r, s, ds);
    p = ds + (rz_next / rz) * p;
    rz = rz_next;
  }
  return y;
}

// S v = J_F H_FF^{-1} J_F^T v with J_F = J_z on the face, in two work
// vectors of z's size.
class DualHessian {
 public:
  DualHessian(const PenaltyFunction& q, const Iterate& x, const Vector& free, FaceSolve* solve)
      : jz_(q.jz()), x_(x), free_(free), solve_(solve), t_(q.layout().n()), z_(q.layout().n()) {}
  // dz = -H_FF^{-1} J_F^T d: the move of the subproblem's minimizer that a
  // multiplier step d predicts on the face.
  void Move(const Vector& d, Vector* dz) {
    jz_.TransposeTimes(x_, d, &t_);
    t_.array() *= -free_.array();
    solve_->Solve(t_, dz);
    dz->array() *= free_.array();
  }
  void Apply(const Vector& v, Vector* out) {
    Move(v, &z_);
    jz_.Times(x_, z_, *out);
    *out = -*out;
  }

 private:
  const JzOperator& jz_;
  const Iterate& x_;
  const Vector& free_;
  FaceSolve* solve_;
  Vector t_, z_;
};

// CG on S d = c from d = beta c, to a residual of kNewtonTolerance ||c||.
constexpr double kNewtonTolerance = 1e-10;
Vector SolveDualNewton(DualHessian* s, const Vector& c, double beta, int max_iterations) {
  Vector d = beta * c;
  Vector sd(c.size());
  s->Apply(d, &sd);
  Vector r = c - sd;
  Vector p = r;
  double rr = r.squaredNorm();
  const double target = kNewtonTolerance * kNewtonTolerance * c.squaredNorm();
  for (int k = 0; k < max_iterations && rr > target; ++k) {
    s->Apply(p, &sd);
    const double curvature = p.dot(sd);
    if (!(curvature > 0.0)) break;
    const double a = rr / curvature;
    d += a * p;
    r -= a * sd;
    const double rr_next = r.squaredNorm();
    p = r + (rr_next / rr) * p;
    rr = rr_next;
  }
  return d;
}

// The largest a in [0, 1] with z + a0 + a (a1 - a0) inside the box and
// within `reach` of z in max-norm, on F.
double FractionInReach(const SlackLayout& z, const Iterate& x, const Vector& free,
                       const Vector& a0, const Vector& a1, double reach) {
  double a = 1.0;
  for (int i = 0; i < z.n() && a > 0.0; ++i) {
    if (free[i] == 0.0) continue;
    double lower = x.x[i] - reach, upper = x.x[i] + reach;
    if (z.has_bounds()) lower = std::max(lower, z.lower()[i]), upper = std::min(upper, z.upper()[i]);
    const double z0 = x.x[i] + a0[i], dz = a1[i] - a0[i];
    if (z0 < lower || z0 > upper) return 0.0;
    if (dz < 0.0) a = std::min(a, (lower - z0) / dz);
    if (dz > 0.0) a = std::min(a, (upper - z0) / dz);
  }
  return std::max(a, 0.0);
}

// How far from the first-order step toward the Newton step to go: the
// largest a in [0, 1] for which the minimizer's predicted move stays in the
// box and within kReach max(1, ||z||_inf) of z (the step assumes F fixed and
// W constant), and 0 when the Newton step exceeds kMaxAmplification times
// the first-order step (S numerically singular: its step is rounding).
constexpr double kReach = 1.0;
constexpr double kMaxAmplification = 1e8;
double NewtonFraction(const SlackLayout& z, const Iterate& x, const Vector& free,
                      DualHessian* s, const Vector& first, const Vector& newton) {
  if (newton.lpNorm<Eigen::Infinity>() > kMaxAmplification * first.lpNorm<Eigen::Infinity>()) {
    return 0.0;
  }
  Vector move_first(z.n()), move_newton(z.n());
  s->Move(first, &move_first);
  s->Move(newton, &move_newton);
  const double reach = kReach * std::max(1.0, x.x.lpNorm<Eigen::Infinity>());
  return FractionInReach(z, x, free, move_first, move_newton, reach);
}

// Whether c is as linear as the step assumes over the move it predicts: at
// z + dz, dz the minimizer's predicted move under d (projected on the box),
// c must stay within kMaxNonlinearity ||c(z)||_inf of its linearization
// c(z) + J_z dz (docs/algorithm.md, "Newton multiplier step"). One
// evaluation of f and g, counted; a failed one says no.
constexpr double kMaxNonlinearity = 0.5;
bool LinearOverMove(PenaltyFunction* q, const Iterate& x, DualHessian* s, const Vector& d) {
  const SlackLayout& z = q->layout();
  Iterate moved;
  q->Allocate(&moved);
  s->Move(d, &moved.x);
  moved.x += x.x;
  z.Project(moved.x);
  if (!q->EvaluateValues(&moved)) return false;
  Vector linear(z.m());
  q->jz().Times(x, moved.x - x.x, linear);
  linear += x.c;
  return (moved.c - linear).lpNorm<Eigen::Infinity>() <=
         kMaxNonlinearity * x.c.lpNorm<Eigen::Infinity>();
}

// A row whose slack is on a bound is active there: its multiplier takes the
// sign that bound gives it (grad_s Q = -(lambda + beta c) >= 0 at a lower
// bound, <= 0 at an upper one, with c = 0 at the solution).
void HoldSigns(const SlackLayout& layout, const Iterate& x, const Vector& free, Vector* lambda) {
  for (int i = 0; i < layout.num_slacks(); ++i) {
    const int z = layout.n_x() + i, j = layout.slack_row(i);
    if (free[z] != 0.0) continue;
    (*lambda)[j] = x.x[z] <= layout.lower()[z] ? std::min((*lambda)[j], 0.0) : std::max((*lambda)[j], 0.0);
  }
}

}  // namespace

bool NewtonMultiplierStep(const AssembledPenalty& assembled, const Iterate& x, int max_iterations,
                          FaceSolve* solve, Vector* lambda) {
  const PenaltyFunction& q = assembled.penalty();
  const SlackLayout& z = q.layout();
  if (!z.any_rows() || !solve) return false;
  Vector free = Vector::Ones(z.n());
  for (int i = 0; i < z.n(); ++i) {
    if (OnBound(z, x, i)) free[i] = 0.0;
  }
  if (!solve->EvaluateAndFactor(x, free)) return false;
  DualHessian s(q, x, free, solve);
  const double beta = q.merit().beta();
  const Vector first = beta * x.c;
  const Vector newton = SolveDualNewton(&s, x.c, beta, max_iterations);
  if (!newton.allFinite()) return false;
  double a = NewtonFraction(z, x, free, &s, first, newton);
  if (a > 0.0 && !LinearOverMove(&assembled.penalty(), x, &s, first + a * (newton - first))) a = 0.0;
  *lambda += first + a * (newton - first);
  HoldSigns(z, x, free, lambda);
  return true;
}

Vector LeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it, double max_abs,
                               Workspace* work) {
  const SlackLayout& z = q.layout();
  const Vector zero = Vector::Zero(z.m());
  if (!z.any_rows()) return zero;
  const int m = static_cast<int>(Count(z.reduce(), z.m()));
  const Vector estimate =
      SolveLeastSquares(q, it, std::max(20, std::min(m, 200)), 1e-10, zero, work);
  const double size = MaxNorm(z.reduce(), estimate);
  return std::isfinite(size) && size <= max_abs ? estimate : zero;
}

Vector AccurateLeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it,
                                       const Vector& guess, double flops_per_entry,
                                       Workspace* work) {
  const SlackLayout& z = q.layout();
  if (!z.any_rows()) return Vector::Zero(z.m());
  // CG ends in m iterations in exact arithmetic; past 2m + 10 it only stirs rounding.
  const int m = static_cast<int>(Count(z.reduce(), z.m()));
  const int iterations = std::min(std::max(50, std::min(2 * m, 1000)), 2 * m + 10);
  LeastSquaresOperator a(q, it, work);
  GramCholesky gram;
  if (a.AnyFree() && gram.Build(q, &a, it, iterations, flops_per_entry)) return gram.Solve(&a, z.reduce(), guess);
  return SolveLeastSquares(q, it, iterations, 1e-15, guess, work);
}

}  // namespace qpm
