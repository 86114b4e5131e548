#include "core/multipliers.hpp"

#include <algorithm>
#include <cmath>

namespace qpm {

namespace {

bool OnBound(const PenaltyFunction& q, const Iterate& it, int i) {
  return q.has_bounds() && (it.x[i] <= q.lower()[i] || it.x[i] >= q.upper()[i]);
}

// out = J_z^T y (J_z = [J, -E], E the slack columns of their rows), z-sized.
void JzTransposeTimes(const PenaltyFunction& q, const Iterate& it, const Vector& y, Vector* out) {
  const int n = q.num_x();
  q.JacobianTransposeTimes(it, y, out->head(n));
  for (int s = 0; s < q.num_slacks(); ++s) (*out)[n + s] = -y[q.slack_row(s)];
}

// out = J_z v, m-sized.
void JzTimes(const PenaltyFunction& q, const Iterate& it, const Vector& v, Vector* out) {
  q.JacobianTimes(it, v.head(q.num_x()), *out);
  for (int s = 0; s < q.num_slacks(); ++s) (*out)[q.slack_row(s)] -= v[q.num_x() + s];
}

// A = [J^T; -E_I^T] restricted to the rows of the free entries of z, and
// b = -[grad f; 0] likewise, applied without forming A: rows of z on a bound
// are zero in every product. A y goes to the penalty's scratch vector.
class LeastSquaresOperator {
 public:
  LeastSquaresOperator(const PenaltyFunction& q, const Iterate& it)
      : q_(q), it_(it), ay_(q.scratch()) {}

  // ay_ = A y.
  const Vector& Apply(const Vector& y) {
    JzTransposeTimes(q_, it_, y, &ay_);
    Mask(&ay_);
    return ay_;
  }
  // A^T (b - A y): the normal-equation residual at y (ay_ overwritten).
  Vector NormalResidual(const Vector& y) {
    Apply(y);
    const int n = q_.num_x();
    for (int i = 0; i < n; ++i) ay_[i] = Free(i) ? -it_.grad_f[i] - ay_[i] : 0.0;
    ay_.tail(q_.num_slacks()) *= -1.0;
    return Transposed(ay_);
  }
  // A^T r for r zero on the rows of z at a bound.
  Vector Transposed(const Vector& r) const {
    Vector out(q_.m());
    JzTimes(q_, it_, r, &out);
    return out;
  }
  // The squared column norms of A (1 for an empty column): Jacobi on A^T A.
  Vector InverseColumnNorms() const {
    Vector d = Vector::Zero(q_.m());
    Vector free;
    if (q_.has_bounds()) {
      free.resize(q_.n());
      for (int i = 0; i < q_.n(); ++i) free[i] = Free(i) ? 1.0 : 0.0;
    }
    q_.JacobianRowSquares(it_, q_.has_bounds() ? &free : nullptr, d);
    for (int s = 0; s < q_.num_slacks(); ++s) {
      if (Free(q_.num_x() + s)) d[q_.slack_row(s)] += 1.0;
    }
    for (int j = 0; j < d.size(); ++j) d[j] = d[j] > 0.0 ? 1.0 / d[j] : 1.0;
    return d;
  }
  bool AnyFree() const {
    bool any = false;
    for (int i = 0; i < q_.n() && !any; ++i) any = Free(i);
    return q_.reduce().Any(any);
  }

 private:
  bool Free(int i) const { return !OnBound(q_, it_, i); }
  void Mask(Vector* v) const {
    if (!q_.has_bounds()) return;
    for (int i = 0; i < v->size(); ++i) {
      if (!Free(i)) (*v)[i] = 0.0;
    }
  }

  const PenaltyFunction& q_;
  const Iterate& it_;
  Vector& ay_;
};

// min ||A lambda - b|| by Jacobi-preconditioned CG on the normal equations
// (CGLS) from `guess`, the residual recomputed from lambda each iteration;
// stops when ||A^T r|| <= tolerance ||A^T b||. `guess` itself when no entry
// of z is free.
Vector SolveLeastSquares(const PenaltyFunction& q, const Iterate& it, int max_iterations,
                         double tolerance, const Vector& guess) {
  LeastSquaresOperator a(q, it);
  if (!a.AnyFree()) return guess;
  const Reductions& r = q.reduce();
  const Vector d = a.InverseColumnNorms();
  const double threshold =
      tolerance * tolerance * SquaredNorm(r, a.NormalResidual(Vector::Zero(q.m())));
  Vector y = guess;
  Vector s = a.NormalResidual(y);
  if (threshold == 0.0) return Vector::Zero(q.m());
  if (SquaredNorm(r, s) < threshold) return y;
  Vector p = d.cwiseProduct(s);
  double rz = Dot(r, s, p);
  for (int i = 0; i < max_iterations; ++i) {
    const double ap = SquaredNorm(r, a.Apply(p));
    if (!(ap > 0.0)) break;
    y += (rz / ap) * p;
    s = a.NormalResidual(y);
    if (SquaredNorm(r, s) < threshold) break;
    const double rz_next = Dot(r, s, d.cwiseProduct(s));
    p = d.cwiseProduct(s) + (rz_next / rz) * p;
    rz = rz_next;
  }
  return y;
}

// S v = J_F H_FF^{-1} J_F^T v with J_F = J_z on the face, in two work
// vectors of z's size.
class DualHessian {
 public:
  DualHessian(const PenaltyFunction& q, const Iterate& x, const Vector& free, FaceSolve* solve)
      : q_(q), x_(x), free_(free), solve_(solve), t_(q.n()), z_(q.n()) {}
  // dz = -H_FF^{-1} J_F^T d: the move of the subproblem's minimizer that a
  // multiplier step d predicts on the face.
  void Move(const Vector& d, Vector* dz) {
    JzTransposeTimes(q_, x_, d, &t_);
    t_.array() *= -free_.array();
    solve_->Solve(t_, dz);
    dz->array() *= free_.array();
  }
  void Apply(const Vector& v, Vector* out) {
    Move(v, &z_);
    JzTimes(q_, x_, z_, out);
    *out = -*out;
  }

 private:
  const PenaltyFunction& q_;
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
double FractionInReach(const PenaltyFunction& q, const Iterate& x, const Vector& free,
                       const Vector& a0, const Vector& a1, double reach) {
  double a = 1.0;
  for (int i = 0; i < q.n() && a > 0.0; ++i) {
    if (free[i] == 0.0) continue;
    double lower = x.x[i] - reach, upper = x.x[i] + reach;
    if (q.has_bounds()) lower = std::max(lower, q.lower()[i]), upper = std::min(upper, q.upper()[i]);
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
double NewtonFraction(const PenaltyFunction& q, const Iterate& x, const Vector& free,
                      DualHessian* s, const Vector& first, const Vector& newton) {
  if (newton.lpNorm<Eigen::Infinity>() > kMaxAmplification * first.lpNorm<Eigen::Infinity>()) {
    return 0.0;
  }
  Vector move_first(q.n()), move_newton(q.n());
  s->Move(first, &move_first);
  s->Move(newton, &move_newton);
  const double reach = kReach * std::max(1.0, x.x.lpNorm<Eigen::Infinity>());
  return FractionInReach(q, x, free, move_first, move_newton, reach);
}

// A row whose slack is on a bound is active there: its multiplier takes the
// sign that bound gives it (grad_s Q = -(lambda + beta c) >= 0 at a lower
// bound, <= 0 at an upper one, with c = 0 at the solution).
void HoldSigns(const PenaltyFunction& q, const Iterate& x, const Vector& free, Vector* lambda) {
  for (int i = 0; i < q.num_slacks(); ++i) {
    const int z = q.num_x() + i, j = q.slack_row(i);
    if (free[z] != 0.0) continue;
    (*lambda)[j] = x.x[z] <= q.lower()[z] ? std::min((*lambda)[j], 0.0) : std::max((*lambda)[j], 0.0);
  }
}

}  // namespace

bool NewtonMultiplierStep(const PenaltyFunction& q, const Iterate& x, int max_iterations,
                          FaceSolve* solve, Vector* lambda) {
  if (!q.any_rows() || !solve) return false;
  Vector free = Vector::Ones(q.n());
  for (int i = 0; i < q.n(); ++i) {
    if (OnBound(q, x, i)) free[i] = 0.0;
  }
  if (!solve->Factor(x, free)) return false;
  DualHessian s(q, x, free, solve);
  const Vector first = q.beta() * x.c;
  const Vector newton = SolveDualNewton(&s, x.c, q.beta(), max_iterations);
  if (!newton.allFinite()) return false;
  *lambda += first + NewtonFraction(q, x, free, &s, first, newton) * (newton - first);
  HoldSigns(q, x, free, lambda);
  return true;
}

Vector LeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it, double max_abs) {
  const Vector zero = Vector::Zero(q.m());
  if (!q.any_rows()) return zero;
  const int m = static_cast<int>(Count(q.reduce(), q.m()));
  const Vector estimate = SolveLeastSquares(q, it, std::max(20, std::min(m, 200)), 1e-10, zero);
  const double size = MaxNorm(q.reduce(), estimate);
  return std::isfinite(size) && size <= max_abs ? estimate : zero;
}

Vector AccurateLeastSquaresMultipliers(const PenaltyFunction& q, const Iterate& it,
                                       const Vector& guess) {
  if (!q.any_rows()) return Vector::Zero(q.m());
  // CG ends in m iterations in exact arithmetic; past 2m + 10 it only stirs rounding.
  const int m = static_cast<int>(Count(q.reduce(), q.m()));
  const int iterations = std::min(std::max(50, std::min(2 * m, 1000)), 2 * m + 10);
  return SolveLeastSquares(q, it, iterations, 1e-15, guess);
}

}  // namespace qpm
