// Large vectors on transparent huge pages. A solve at n = 1e7 touches a few
// gigabytes of fresh memory; with 4 KiB pages each first touch is a page
// fault, and the faults cost more than the arithmetic of the set-up
// (docs/algorithm.md, "Memory budget"). Advising the kernel before the first
// touch maps 2 MiB pages instead (Linux, where transparent huge pages are
// "always" or "madvise"; elsewhere, or below kMinBytes, nothing happens).
#ifndef QPM_CORE_LINALG_HUGE_PAGES_HPP_
#define QPM_CORE_LINALG_HUGE_PAGES_HPP_

#include <cstddef>

#include "qpm/core/problem.hpp"

namespace qpm {

constexpr std::size_t kHugePageMinBytes = std::size_t{8} << 20;

// Advises huge pages for the 2 MiB-aligned part of [data, data + bytes).
void AdviseHugePages(const void* data, std::size_t bytes);

// v->resize(n) and zeros, advised before the zeros touch it.
void SetZeroLarge(Vector* v, Eigen::Index n);

// *to = from, advised before the copy touches a new allocation.
void CopyLarge(const ConstVectorRef& from, Vector* to);

// *to = from (compressed), its arrays advised before the copy touches them.
void CopyLarge(const SparseMatrix& from, SparseMatrix* to);

}  // namespace qpm

#endif  // QPM_CORE_LINALG_HUGE_PAGES_HPP_
