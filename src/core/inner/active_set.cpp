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
                                     CgPreconditioner* preconditioner, int release_streak,
                                     const SymmetricColumns* assembled, double shift,
                                     int release_rounds) {
  lower_ = &lower, upper_ = &upper;
  assembled_ = assembled;
  shift_ = shift;
  backtrack_ = assembled ? &ActiveSetStep::BacktrackOnAssembled : &ActiveSetStep::BacktrackByProducts;
  if (assembled && clip_.size() != p->size()) {  // once: the search then allocates nothing
    clip_.setZero(p->size());
    u_.resize(p->size());
    clipped_.reserve(p->size());
  }
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
  double model = 0.0;  // m(p) before the round
  for (int round = 0;; ++round) {  // step 2, then step 3's rounds of one face each
    const int faces = round == 0 ? max_cg_iter : 1;
    free = Faces(hessian, radius, tol, max_cg_iter, faces, p, preconditioner, free, &result);
    if (round >= release_rounds || result.cg.iterations >= max_cg_iter) break;
    if (free > 0 && result.cg.exit != CgExit::kConverged) break;  // the ball or curvature
    const double now = Dot(reduce_, g, *p) + 0.5 * Dot(reduce_, *p, hp_);
    if (round > 0 && model - now < options_.release_gain * -now) break;  // diminishing
    model = now;
    const int released = ReleaseInward(*p, tol);
    free += released;
    result.released += released;
    if (released > 0 && round > 0 && after > 0) {  // a second release: a front (header, 3)
      const int steps = ProjectedGradientSteps(hessian, radius, max_cg_iter - result.cg.iterations, p, &free);
      result.projected_gradient_steps += steps;
      result.cg.iterations += steps;
    }
    if (released == 0 && Norm(reduce_, gradient_.cwiseProduct(free_)) <= tol) break;
  }
  if (free == 0) result.cg.exit = CgExit::kBoundary;
  result.free = free;
  result.cg.model_decrease = -(Dot(reduce_, g, *p) + 0.5 * Dot(reduce_, *p, hp_));
  return result;
}

// Step 2: faces from p (free_ marks the first), at most max_faces, until
// CG's exit ends the step or no entry is free. Returns the entries free at
// the end.
int ActiveSetStep::Faces(const HessianOperator& hessian, double radius, double tol,
                         int max_cg_iter, int max_faces, Vector* p,
                         CgPreconditioner* preconditioner, int free, ActiveSetResult* result) {
  for (int face = 0; face < max_faces && free > 0 && result->cg.iterations < max_cg_iter; ++face) {
    if (Norm(reduce_, gradient_.cwiseProduct(free_)) <= tol) {  // minimized on this face
      result->cg.exit = CgExit::kConverged;
      break;
    }
    w_ = *p;
    const CgResult cg = cg_.SolveOnFace(hessian, gradient_, free_, radius, tol,
                                        max_cg_iter - result->cg.iterations, &w_, preconditioner);
    ++result->faces;
    result->cg.iterations += cg.iterations;
    result->cg.exit = cg.exit;
    w_ -= *p;  // the direction: CG's point minus the face's start
    if (!ProjectedSearch(hessian, p)) break;
    const int before = free;
    free = MarkFree(*p);
    if (free == before) break;  // no new bound: CG's exit ends the step
  }
  return free;
}

// Step 3: frees every entry on a bound where grad m(p) points into the box
// (adds it to free_), when those entries' gradient exceeds tol in norm;
// returns how many (0: p is stationary for the model on the box to tol).
int ActiveSetStep::ReleaseInward(const Vector& p, double tol) {
  auto inward = [&](int i) {
    return free_[i] == 0.0 && (*lower_)[i] < (*upper_)[i] &&
           ((p[i] <= (*lower_)[i] && gradient_[i] < 0.0) ||
            (p[i] >= (*upper_)[i] && gradient_[i] > 0.0));
  };
  double sum = 0.0;
  for (int i = 0; i < p.size(); ++i) {
    if (inward(i)) sum += gradient_[i] * gradient_[i];
  }
  if (!(std::sqrt(reduce_.Sum(sum)) > tol)) return 0;
  int count = 0;
  for (int i = 0; i < p.size(); ++i) {
    if (inward(i)) free_[i] = 1.0, ++count;
  }
  return static_cast<int>(Count(reduce_, count));
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
  int steps = 0, idle = 0;  // idle: steps in a row that freed no entry (or a trickle)
  double most = 0.0;        // the most entries one step freed
  double t = t_;
  while (steps < max_steps && *free > 0 && idle < 3) {
    if (!ProjectedGradientStep(hessian, radius, *p, &t)) break;
    *p = trial_;
    hp_ += h_delta_;
    gradient_ += h_delta_;
    ++steps;
    free_previous_.swap(free_);
    *free = MarkFree(*p);
    const double freed = Count(reduce_, static_cast<int>((free_.array() > free_previous_.array()).count()));
    most = std::max(most, freed);
    idle = freed > 0.0 && freed >= options_.gradient_projection_trickle * most ? 0 : idle + 1;
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
  if (!(this->*backtrack_)(hessian, *p, first)) {
    const double a = std::min(1.0, first);
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

bool ActiveSetStep::BacktrackByProducts(const HessianOperator& hessian, const Vector& p,
                                        double first) {
  double a = 1.0;
  for (int k = 0; a > first && k < options_.max_search_trials; ++k) {
    trial_ = (p + a * w_).cwiseMax(*lower_).cwiseMin(*upper_);
    const double change = ModelChange(hessian, p);
    if (change <= options_.cauchy_decrease * Dot(reduce_, gradient_, delta_)) return true;
    a *= options_.search_backtrack;
  }
  return false;
}

// The same trials for one product. Split d = P(p + a w) - p by the entries
// C that the box clips at a: d = a u + d_C, u = w off C. Then
//   grad m(p).d = a g.u + g.d_C,   d.H d = a^2 u.Hu + 2 a d_C.Hu + d_C.H d_C,
// each term at the scale of d itself, as a product with d would be (with
// w in place of u, the terms cancel where CG's step leaves the box far
// behind on steep entries). Hu is one product at a = 1; C only shrinks as a
// does, and an entry leaving it adds its column of H to Hu. The accepted
// trial's H d = a Hu + H d_C takes C's columns. The model's H + sigma I
// adds sigma to each column's diagonal entry.
bool ActiveSetStep::BacktrackOnAssembled(const HessianOperator& hessian, const Vector& p,
                                         double first) {
  if (!(1.0 > first) || options_.max_search_trials <= 0) return false;
  clipped_.clear();
  u_ = w_;
  for (int i = 0; i < p.size(); ++i) {
    const double v = p[i] + w_[i];
    if (v < (*lower_)[i] || v > (*upper_)[i]) clipped_.push_back(i), u_[i] = 0.0;
  }
  Vector& hu = h_trial_;
  hessian(u_, &hu);
  double gu = Dot(reduce_, gradient_, u_), uhu = Dot(reduce_, u_, hu);
  double a = 1.0;
  for (int k = 0; a > first && k < options_.max_search_trials; ++k, a *= options_.search_backtrack) {
    double gu_change = 0.0, uhu_change = 0.0;
    size_t kept = 0;
    for (const int i : clipped_) {
      const double v = p[i] + a * w_[i];
      const double projected = std::min(std::max(v, (*lower_)[i]), (*upper_)[i]);
      if (projected == v) {  // inside the box from this a down
        Unclip(i, &gu_change, &uhu_change);
        continue;
      }
      clipped_[kept++] = i;
      clip_[i] = projected - p[i];
    }
    clipped_.resize(kept);
    gu += reduce_.Sum(gu_change), uhu += reduce_.Sum(uhu_change);
    double gd_c = 0.0, dc_hu = 0.0;
    for (const int i : clipped_) gd_c += gradient_[i] * clip_[i], dc_hu += clip_[i] * hu[i];
    const double gd = a * gu + reduce_.Sum(gd_c);
    const double dhd = a * a * uhu + 2.0 * a * reduce_.Sum(dc_hu) + reduce_.Sum(ClippedCurvature());
    const bool accepted = gd + 0.5 * dhd <= options_.cauchy_decrease * gd;
    if (accepted) {
      trial_ = (p + a * w_).cwiseMax(*lower_).cwiseMin(*upper_);
      delta_ = trial_ - p;
      h_delta_ = a * hu;
      for (const int j : clipped_) {
        assembled_->ForEach(j, [&](int i, double h) { h_delta_[i] += h * clip_[j]; });
        h_delta_[j] += shift_ * clip_[j];
      }
    }
    for (const int i : clipped_) clip_[i] = 0.0;
    if (accepted) return true;
  }
  return false;
}

void ActiveSetStep::Unclip(int i, double* gu, double* uhu) {
  const double wi = w_[i];
  Vector& hu = h_trial_;
  *gu += gradient_[i] * wi;
  *uhu += 2.0 * wi * hu[i];  // (Hu)_i before the column joins it
  assembled_->ForEach(i, [&](int r, double h) {
    hu[r] += wi * h;
    if (r == i) *uhu += wi * wi * h;
  });
  hu[i] += wi * shift_;
  *uhu += wi * wi * shift_;
  u_[i] = wi;
}

double ActiveSetStep::ClippedCurvature() const {
  const LowerMatrix& h = assembled_->lower();
  const int* start = h.outerIndexPtr();
  const int* row = h.innerIndexPtr();
  const double* value = h.valuePtr();
  double sum = 0.0;
  for (const int j : clipped_) {
    sum += shift_ * clip_[j] * clip_[j];
    for (int s = start[j]; s < start[j + 1]; ++s) {
      sum += (row[s] == j ? 1.0 : 2.0) * value[s] * clip_[row[s]] * clip_[j];
    }
  }
  return sum;
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
