#include "core/linalg/huge_pages.hpp"

#include <algorithm>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace qpm {

void AdviseHugePages(const void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes < kHugePageMinBytes) return;
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (start + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t end = (start + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // advice only
#else
  (void)data, (void)bytes;
#endif
}

void SetZeroLarge(Vector* v, Eigen::Index n) {
  if (v->size() != n) {
    v->resize(n);
    AdviseHugePages(v->data(), sizeof(double) * static_cast<std::size_t>(n));
  }
  v->setZero();
}

void CopyLarge(const SparseMatrix& from, SparseMatrix* to) {
  if (!from.isCompressed()) {
    *to = from;
    return;
  }
  const std::size_t nnz = static_cast<std::size_t>(from.nonZeros());
  to->resize(from.rows(), from.cols());
  to->resizeNonZeros(from.nonZeros());
  AdviseHugePages(to->outerIndexPtr(), sizeof(int) * static_cast<std::size_t>(from.outerSize() + 1));
  AdviseHugePages(to->innerIndexPtr(), sizeof(int) * nnz);
  AdviseHugePages(to->valuePtr(), sizeof(double) * nnz);
  std::copy_n(from.outerIndexPtr(), from.outerSize() + 1, to->outerIndexPtr());
  std::copy_n(from.innerIndexPtr(), nnz, to->innerIndexPtr());
  std::copy_n(from.valuePtr(), nnz, to->valuePtr());
}

void CopyLarge(const ConstVectorRef& from, Vector* to) {
  if (to->size() != from.size()) {
    to->resize(from.size());
    AdviseHugePages(to->data(), sizeof(double) * static_cast<std::size_t>(from.size()));
  }
  *to = from;
}

}  // namespace qpm
