#include "core/linalg/symmetric_columns.hpp"

namespace qpm {

// A counting sort of the strictly lower entries by row.
SymmetricColumns::SymmetricColumns(const LowerMatrix& lower)
    : lower_(lower), upper_start_(lower.cols() + 1, 0) {
  const int n = static_cast<int>(lower.cols());
  const int* start = lower.outerIndexPtr();
  const int* row = lower.innerIndexPtr();
  for (int k = 0; k < n; ++k) {
    for (int s = start[k]; s < start[k + 1]; ++s) upper_start_[row[s] + 1] += row[s] > k;
  }
  for (int j = 0; j < n; ++j) upper_start_[j + 1] += upper_start_[j];
  upper_column_.resize(upper_start_[n]);
  upper_slot_.resize(upper_start_[n]);
  std::vector<int> next(upper_start_.begin(), upper_start_.end() - 1);
  for (int k = 0; k < n; ++k) {
    for (int s = start[k]; s < start[k + 1]; ++s) {
      if (row[s] == k) continue;
      const int t = next[row[s]]++;
      upper_column_[t] = k;
      upper_slot_[t] = s;
    }
  }
}

}  // namespace qpm
