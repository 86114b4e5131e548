#include "core/slack_layout.hpp"

#include <algorithm>
#include <cmath>

#include "core/linalg/huge_pages.hpp"

namespace qpm {

SlackLayout::SlackLayout(Problem* problem)
    : n_x_(problem->num_variables()),
      m_(problem->num_constraints()),
      reduce_(problem->distributed() ? problem->distributed()->reductions() : SerialReductions()) {
  any_rows_ = Count(reduce_, m_) > 0;
  g_lower_.resize(m_);
  g_upper_.resize(m_);
  SetZeroLarge(&lower_, n_x_ + m_);  // x's bounds, then room for every row's slack
  SetZeroLarge(&upper_, n_x_ + m_);
  problem->GetBounds(lower_.head(n_x_), upper_.head(n_x_), g_lower_, g_upper_);
  row_slack_.assign(m_, kEqualityRow);
  for (int j = 0; j < m_; ++j) {
    if (g_lower_[j] == g_upper_[j]) continue;
    if (std::isinf(g_lower_[j]) && std::isinf(g_upper_[j])) {  // -inf <= g_j <= inf
      row_slack_[j] = kFreeRow;
      free_rows_.push_back(j);
      continue;
    }
    row_slack_[j] = static_cast<int>(slack_row_.size());
    slack_row_.push_back(j);
  }
  const int ns = num_slacks();
  lower_.conservativeResize(n_x_ + ns);
  upper_.conservativeResize(n_x_ + ns);
  for (int i = 0; i < ns; ++i) {
    lower_[n_x_ + i] = g_lower_[slack_row_[i]];
    upper_[n_x_ + i] = g_upper_[slack_row_[i]];
  }
  for (int i = 0; i < n_x_ + ns; ++i) {
    if (std::isfinite(lower_[i]) || std::isfinite(upper_[i])) has_bounds_ = true;
  }
  has_bounds_ = reduce_.Any(has_bounds_);  // every process tests the box the same way
  if (!has_bounds_) {  // nothing reads the box then: free its 2 (n + ns) doubles
    lower_.resize(0);
    upper_.resize(0);
  }
}

int SlackLayout::Project(VectorRef z) const {
  if (!has_bounds_) return 0;
  int moved = 0;
  for (int i = 0; i < z.size(); ++i) {
    const double p = std::min(std::max(z[i], lower_[i]), upper_[i]);
    moved += p != z[i];
    z[i] = p;
  }
  return static_cast<int>(Count(reduce_, moved));
}

void SlackLayout::Residual(const Vector& g, const Vector& z, Vector* c) const {
  for (int j = 0; j < m_; ++j) {
    const int slack = row_slack_[j];
    (*c)[j] = slack == kFreeRow       ? 0.0
              : slack == kEqualityRow ? g[j] - g_lower_[j]
                                      : g[j] - z[n_x_ + slack];
  }
}

void SlackLayout::FitSlacks(const Vector& g, Vector* z) const {
  for (int i = 0; i < num_slacks(); ++i) {
    const int j = slack_row_[i];
    (*z)[n_x_ + i] = std::min(std::max(g[j], g_lower_[j]), g_upper_[j]);
  }
}

}  // namespace qpm
