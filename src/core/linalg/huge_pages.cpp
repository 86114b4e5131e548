#include "core/linalg/huge_pages.hpp"

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

void CopyLarge(const Vector& from, Vector* to) {
  if (to->size() != from.size()) {
    to->resize(from.size());
    AdviseHugePages(to->data(), sizeof(double) * static_cast<std::size_t>(from.size()));
  }
  *to = from;
}

}  // namespace qpm
