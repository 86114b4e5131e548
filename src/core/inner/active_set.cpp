#include "core/inner/active_set.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qpm {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

ActiveSetStep::ActiveSetStep(int n, const TrustRegionOptions& options, Vector* lent_hd,
                             const Reductions& reductions)
    : options_(options),
      reduce_(reductions),
      cg_(n, lent_hd, reductions),
      free_(n),
      hp_(n),
      gradient_(n),
      w_(n),
      trial_(n),
      delta_(n),
      h_delta_(n),
      h_trial_(n),
      free_previous_(n) {}

// Lin & More Sec. 4 (dspcg): the Cauchy point, then CG and a projected
// search on each face until no new bound becomes active.
ActiveSetResult ActiveSetStep::Solve(const HessianOperator& hessian, const Vector& g,
                                     const Vector& lower, const Vector& upper, double radius,
                                     double tol, int max_cg_iter, Vector* p,
                                     CgPreconditioner* preconditioner, int release_streak) {
  lower_ = &lower, upper_ = &upper;
  ActiveSetResult result;
  result.cauchy_trials = CauchyPoint(hessian, g, radius, p);
  result.cg.exit = CgExit::kBoundary;  // the box ends the step when no entry is free
  int free = MarkFree(*p);
  result.cauchy_freed = FreedBoundsAtCauchyPoint();
  const int after = options_.gradient_projection_after;
  if (after > 0 && result.cauchy_freed && release_streak + 1 >= after) {
    result.projected_gradient_steps = ProjectedGradientSteps(hessian, radius, max_cg_iter, p, &free);
  }
  result.cg.iterations = result.projected_gradient_steps;  // they share CG's budget
  while (free > 0 && result.cg.iterations < max_cg_iter) {
    if (Norm(reduce_, gradient_.cwiseProduct(free_)) <= tol) {  // minimized on this face
      result.cg.exit = CgExit::kConverged;
      break;
    }
    w_ = *p;
    const CgResult cg = cg_.SolveOnFace(hessian, gradient_, free_, radius, tol,
                                        max_cg_iter - result.cg.iterations, &w_, preconditioner);
    ++result.faces;
    result.cg.iterations += cg.iterations;
    result.cg.exit = cg.exit;
    w_ -= *p;  // the direction: CG's point minus the face's start
    if (!ProjectedSearch(hessian, p)) break;
    const int before = free;
    free = MarkFree(*p);
    if (free == before) break;  // no new bound: CG's exit ends the step
  }
  if (free == 0) result.cg.exit = CgExit::kBoundary;
  result.free = free;
  result.cg.model_decrease = -(Dot(reduce_, g, *p) + 0.5 * Dot(reduce_, *p, hp_));
  return result;
}

double ActiveSetStep::PathPoint(double t, const Vector& g) {
  trial_ = (-t * g).cwiseMax(*lower_).cwiseMin(*upper_);
  return Norm(reduce_, trial_);
}

// dcauchy: t from the last call; while p(t) = P(-t g) is inside the ball
// with m(p(t)) <= mu_0 g.p(t) (Lin & More (3.3)) t grows, up to the last
// breakpoint of the path; otherwise t shrinks until both hold. Returns the
// number of trials; p = 0 if none succeeded.
int ActiveSetStep::CauchyPoint(const HessianOperator& hessian, const Vector& g, double radius,
                               Vector* p) {
  auto sufficient = [&](double t) {
    if (PathPoint(t, g) > radius) return false;
    hessian(trial_, &h_trial_);
    const double gp = Dot(reduce_, g, trial_);
    return gp + 0.5 * Dot(reduce_, trial_, h_trial_) <= options_.cauchy_decrease * gp;
  };
  auto keep = [&]() {
    *p = trial_;
    hp_.swap(h_trial_);
  };
  double last_break = 0.0;  // beyond it the path no longer moves
  for (int i = 0; i < g.size(); ++i) {
    const double bound = g[i] < 0.0 ? (*upper_)[i] : (*lower_)[i];
    if (g[i] != 0.0) last_break = std::max(last_break, -bound / g[i]);
  }
  last_break = reduce_.Max(last_break);
  int trials = 1;
  double t = t_;
  p->setZero();
  hp_.setZero();
  if (sufficient(t)) {  // extrapolate
    keep();
    while (t <= last_break && trials < options_.max_cauchy_trials) {
      ++trials;
      if (!sufficient(t * options_.cauchy_extrapolation)) break;
      t *= options_.cauchy_extrapolation;
      keep();
    }
  } else {  // interpolate
    bool found = false;
    while (!found && trials < options_.max_cauchy_trials) {
      ++trials;
      t *= options_.cauchy_interpolation;
      found = sufficient(t);
    }
    if (found) keep();
  }
  t_ = t;
  gradient_ = g + hp_;
  return trials;
}

// GPCG's gradient-projection phase (More & Toraldo, SIAM J. Optim. 1(1),
// 1991, Sec. 5) between the Cauchy point and CG (when to run it: Solve):
// p <- P(p - t grad m(p)) while the steps free entries. Why
// (docs/algorithm.md, "Freeing many bounds in one step"): the Cauchy point
// frees only entries whose own gradient points into the box, one layer of a
// wrongly active region per step on a mesh; each projected step here frees
// the next layer for one or two products instead of a CG solve.
// t: the Cauchy point's, then Barzilai and Borwein's s.Hs / Hs.Hs (their
// shorter step, which keeps the steps local), halved until
// ||p|| <= Delta and m falls by mu_0 times its linear prediction.
int ActiveSetStep::ProjectedGradientSteps(const HessianOperator& hessian, double radius,
                                          int max_steps, Vector* p, int* free) {
  // Ends after three steps in a row that freed nothing: Barzilai-Borwein's
  // long steps, which smooth the free entries, alternate with short ones,
  // which free the next entries (a 1D front, test/active_set_test.cpp, is
  // freed twice as far with three as with two).
  int steps = 0, idle = 0;  // idle: steps in a row that freed no entry
  double t = t_;
  while (steps < max_steps && *free > 0 && idle < 3) {
    if (!ProjectedGradientStep(hessian, radius, *p, &t)) break;
    *p = trial_;
    hp_ += h_delta_;
    gradient_ += h_delta_;
    ++steps;
    free_previous_.swap(free_);
    *free = MarkFree(*p);
    idle = reduce_.Any((free_.array() > free_previous_.array()).any()) ? 0 : idle + 1;
  }
  return steps;
}

// One step of the phase above into trial_ (delta_ = trial_ - p, h_delta_ =
// H delta_); t becomes the next step's first trial. False: no decrease found.
bool ActiveSetStep::ProjectedGradientStep(const HessianOperator& hessian, double radius,
                                          const Vector& p, double* t) {
  for (int trial = 0; trial < options_.max_cauchy_trials; ++trial, *t *= options_.search_backtrack) {
    trial_ = (p - *t * gradient_).cwiseMax(*lower_).cwiseMin(*upper_);
    if (Norm(reduce_, trial_) > radius) continue;
    const double change = ModelChange(hessian, p);
    if (change < 0.0 && change <= options_.cauchy_decrease * Dot(reduce_, gradient_, delta_)) {
      const double curvature = Dot(reduce_, delta_, h_delta_);
      if (curvature > 0.0) *t = curvature / SquaredNorm(reduce_, h_delta_);  // s.Hs / Hs.Hs
      return true;
    }
  }
  return false;
}

// Whether an entry on a bound at p = 0 is free at p (free_).
bool ActiveSetStep::FreedBoundsAtCauchyPoint() const {
  bool freed = false;
  for (int i = 0; i < free_.size() && !freed; ++i) {
    freed = free_[i] != 0.0 && ((*lower_)[i] == 0.0 || (*upper_)[i] == 0.0);
  }
  return reduce_.Any(freed);
}

// m(trial_) - m(p) for delta_ = trial_ - p: grad m(p).delta + 1/2 delta.H delta.
double ActiveSetStep::ModelChange(const HessianOperator& hessian, const Vector& p) {
  delta_ = trial_ - p;
  hessian(delta_, &h_delta_);
  return Dot(reduce_, gradient_, delta_) + 0.5 * Dot(reduce_, delta_, h_delta_);
}

// dprsrch: p_new = P(p + a w), a = 1, backtracking while a is beyond the
// first breakpoint, until m(p_new) - m(p) <= mu_0 grad m(p).(p_new - p)
// (Lin & More (4.3)); failing that, a = the first breakpoint, where the ray
// is still in the box and the entry that meets its bound is put on it.
bool ActiveSetStep::ProjectedSearch(const HessianOperator& hessian, Vector* p) {
  int entry = -1;
  const double first = FirstBreakpoint(*p, &entry);
  bool accepted = false;
  double a = 1.0;
  for (int k = 0; !accepted && a > first && k < options_.max_search_trials; ++k) {
    trial_ = (*p + a * w_).cwiseMax(*lower_).cwiseMin(*upper_);
    const double change = ModelChange(hessian, *p);
    accepted = change <= options_.cauchy_decrease * Dot(reduce_, gradient_, delta_);
    a *= options_.search_backtrack;
  }
  if (!accepted) {
    a = std::min(1.0, first);
    trial_ = (*p + a * w_).cwiseMax(*lower_).cwiseMin(*upper_);
    if (a == first && entry >= 0) {
      trial_[entry] = w_[entry] > 0.0 ? (*upper_)[entry] : (*lower_)[entry];
    }
    if (!(ModelChange(hessian, *p) < 0.0)) return false;  // not a descent direction
  }
  *p = trial_;
  hp_ += h_delta_;
  gradient_ += h_delta_;
  return true;
}

double ActiveSetStep::FirstBreakpoint(const Vector& p, int* entry) const {
  double first = kInf;
  for (int i = 0; i < p.size(); ++i) {
    if (w_[i] == 0.0) continue;
    const double a = ((w_[i] > 0.0 ? (*upper_)[i] : (*lower_)[i]) - p[i]) / w_[i];
    if (a < first) first = a, *entry = i;
  }
  // The entry is this process's only when its breakpoint is the first of all.
  const double all = reduce_.Min(first);
  if (first > all) *entry = -1;
  return all;
}

CgResult ActiveSetStep::CorrectOnFace(const HessianOperator& hessian, const Vector& p,
                                      double radius, double tol, int max_iter, Vector* r,
                                      Vector* q, CgPreconditioner* preconditioner) {
  MarkFree(p);
  r->array() *= free_.array();
  q->setZero();
  return cg_.SolveOnFace(hessian, *r, free_, radius, tol, max_iter, q, preconditioner);
}

int ActiveSetStep::MarkFree(const Vector& p) {
  int count = 0;
  for (int i = 0; i < p.size(); ++i) {
    const bool inside = (*lower_)[i] < p[i] && p[i] < (*upper_)[i];
    free_[i] = inside ? 1.0 : 0.0;
    count += inside;
  }
  return static_cast<int>(Count(reduce_, count));
}

}  // namespace qpm
