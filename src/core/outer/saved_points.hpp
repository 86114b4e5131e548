// The iterates the outer loop holds (Algorithm 1): the current one, x_k
// before a subproblem and x_{k+1} after it, and the points it may go back
// to, kept as values only (their derivatives are evaluated again when one is
// restored: O(nnz(J)) memory saved, the counts show it):
//  - x_0, whose merit for each beta needs no callback (eq. (5.2));
//  - the current subproblem's start, which a runaway restart returns;
//  - the outer iterate of least ||c||, which a verdict of local
//    infeasibility returns. It is copied only once the current iterate moves
//    away from it and the start does not hold it (one n-vector saved while
//    ||c|| keeps falling);
// and a spare iterate for trial points (extrapolation, restores).
#ifndef QPM_CORE_OUTER_SAVED_POINTS_HPP_
#define QPM_CORE_OUTER_SAVED_POINTS_HPP_

#include <limits>

#include "core/penalty.hpp"

namespace qpm {

// A point's values: z, g, c, f, ||c||^2.
struct SavedPoint {
  Vector z, g, c;
  const Vector* same_z = nullptr;  // a vector equal to z, kept instead of z
  double f = 0.0;
  double c_squared = std::numeric_limits<double>::infinity();

  // `equal_z`, when given, equals it.x and outlives this point: it is kept
  // by reference instead of a copy of z.
  void Save(const Iterate& it, const Vector* equal_z = nullptr);
  // The merit at the point (Q_beta, or L_A with multipliers), no callbacks.
  double Q(const PenaltyFunction& q) const;
  // Values into `it`, then derivatives and grad Q there; false only for a
  // model whose derivatives fail where they once did not (`it` is then
  // unusable).
  bool Restore(PenaltyFunction* q, Iterate* it) const;
};

class SavedPoints {
 public:
  explicit SavedPoints(PenaltyFunction* q) : q_(q) {}

  Iterate& current() { return current_; }
  const Iterate& current() const { return current_; }
  const SavedPoint& x0() const { return x0_; }
  // The current iterate is x_0 (`equal_z`: as SavedPoint::Save).
  void SaveX0(const Vector* equal_z) { x0_.Save(current_, equal_z); }
  // The current iterate starts a subproblem.
  void SaveStart();
  // The current iterate is an outer iterate: the least-violation one if its
  // ||c|| is below all before.
  void KeepLeastViolation();

  enum class FromX0 { kMoved, kStayed, kFailed };
  // Current <- x_0 evaluated again, the current point saved as the start;
  // where x_0's derivatives fail now, back to that start (kStayed), unless
  // they fail there too (kFailed).
  FromX0 MoveToX0();
  // Current <- x_0 or the subproblem's start, evaluated again through the
  // spare; false (current unchanged) when its derivatives fail now.
  bool RestoreX0();
  bool RestoreStart() { return Restore(start_); }
  // Current <- the least-violation outer iterate, when it is not the current
  // one (a failure to evaluate it again leaves the current one).
  void RestoreLeastViolation();

  // A work iterate for a trial point; AdoptSpare makes it the current one.
  Iterate& spare();
  void AdoptSpare();

 private:
  void LeaveCurrent();
  bool Restore(const SavedPoint& point);

  PenaltyFunction* q_;
  Iterate current_;
  Iterate spare_;
  SavedPoint x0_;
  SavedPoint start_;
  SavedPoint least_;
  enum class Least { kCurrent, kStart, kStored };
  Least least_at_ = Least::kStored;
  double least_c_squared_ = std::numeric_limits<double>::infinity();
};

}  // namespace qpm

#endif  // QPM_CORE_OUTER_SAVED_POINTS_HPP_
