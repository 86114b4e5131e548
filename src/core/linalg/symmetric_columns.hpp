// Whole columns of a symmetric matrix stored as its lower triangle: column j
// is the lower triangle's column j (rows >= j) and its row j (columns < j).
// The row index is built once for a pattern; values are read from the
// matrix, so they may change on that pattern between calls.
#ifndef QPM_CORE_LINALG_SYMMETRIC_COLUMNS_HPP_
#define QPM_CORE_LINALG_SYMMETRIC_COLUMNS_HPP_

#include <vector>

#include "core/linalg/sparse_cholesky.hpp"

namespace qpm {

class SymmetricColumns {
 public:
  explicit SymmetricColumns(const LowerMatrix& lower);

  const LowerMatrix& lower() const { return lower_; }
  // f(i, a_ij) for every stored entry of column j of the whole matrix.
  template <class F>
  void ForEach(int j, F&& f) const {
    const int* start = lower_.outerIndexPtr();
    const int* row = lower_.innerIndexPtr();
    const double* value = lower_.valuePtr();
    for (int s = start[j]; s < start[j + 1]; ++s) f(row[s], value[s]);
    for (int t = upper_start_[j]; t < upper_start_[j + 1]; ++t) f(upper_column_[t], value[upper_slot_[t]]);
  }

 private:
  const LowerMatrix& lower_;
  // Row j's entries left of the diagonal: their columns and slots in lower_.
  std::vector<int> upper_start_, upper_column_, upper_slot_;
};

}  // namespace qpm

#endif  // QPM_CORE_LINALG_SYMMETRIC_COLUMNS_HPP_
