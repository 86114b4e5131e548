// The layout of z = (x, s), fixed when the penalty is built
// (docs/algorithm.md, "Bounds and inequalities: slacks"):
//
//   row j with g_l,j = g_u,j         equality:  c_j = g_j(x) - g_l,j
//   row j with both bounds infinite  free:      c_j = 0 (it constrains nothing)
//   any other row                    slack s_i: c_j = g_j(x) - s_i,
//                                               g_l,j <= s_i <= g_u,j
//
// z's box is x's bounds followed by each slack's row bounds. On a model
// split over processes (Problem::distributed()) every size here is this
// process's block and reduce() sums over the processes.
#ifndef QPM_CORE_SLACK_LAYOUT_HPP_
#define QPM_CORE_SLACK_LAYOUT_HPP_

#include <vector>

#include "core/linalg/reduce.hpp"
#include "qpm/core/problem.hpp"

namespace qpm {

class SlackLayout {
 public:
  // Reads the bounds of `problem` (Problem::GetBounds) once.
  explicit SlackLayout(Problem* problem);

  int n() const { return n_x_ + num_slacks(); }  // size of z
  int n_x() const { return n_x_; }
  int m() const { return m_; }
  int num_slacks() const { return static_cast<int>(slack_row_.size()); }
  int slack_row(int i) const { return slack_row_[i]; }  // the row of slack i
  const std::vector<int>& free_rows() const { return free_rows_; }
  // Some process holds a constraint row (m() > 0 on one process).
  bool any_rows() const { return any_rows_; }
  // Sums and maxima over the processes of a distributed model (reduce.hpp).
  const Reductions& reduce() const { return reduce_; }

  // The box of z; lower() and upper() are empty when !has_bounds().
  bool has_bounds() const { return has_bounds_; }
  const Vector& lower() const { return lower_; }
  const Vector& upper() const { return upper_; }
  // z <- P(z), the projection on the box; returns how many entries moved
  // (over all processes).
  int Project(VectorRef z) const;
  // Entry i of z sits on a bound and g points out of the box there.
  bool Blocked(const Vector& z, int i, double g) const {
    return has_bounds_ && ((g > 0.0 && z[i] <= lower_[i]) || (g < 0.0 && z[i] >= upper_[i]));
  }

  // c(z) from g(x) and the slacks of z, by the table above.
  void Residual(const Vector& g, const Vector& z, Vector* c) const;
  // Each slack of z <- g_j(x) projected on [g_l,j, g_u,j]: c_I = 0 where the
  // bounds allow it (the start point's slacks).
  void FitSlacks(const Vector& g, Vector* z) const;

 private:
  static constexpr int kEqualityRow = -1, kFreeRow = -2;

  int n_x_;
  int m_;
  const Reductions& reduce_;
  bool any_rows_ = false;
  Vector lower_, upper_;        // box of z
  Vector g_lower_, g_upper_;    // row bounds
  std::vector<int> row_slack_;  // slack index of row j, kEqualityRow or kFreeRow
  std::vector<int> free_rows_;  // rows with both bounds infinite
  std::vector<int> slack_row_;  // row of slack i
  bool has_bounds_ = false;     // some entry of the box is finite (on some process)
};

}  // namespace qpm

#endif  // QPM_CORE_SLACK_LAYOUT_HPP_
