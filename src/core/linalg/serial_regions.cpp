// SerialRegions and the `GOMP_parallel` it needs (serial_regions.hpp).
//
// GCC compiles `#pragma omp parallel` into a call of `GOMP_parallel(fn,
// data, threads, flags)`, which runs fn(data) on a team. This library
// defines that symbol, so the dynamic linker binds a library's regions to it
// where qpm comes first in the lookup order (it does wherever qpm is linked
// before libgomp, as compilers order them); it then calls fn(data) itself
// inside a SerialRegions and hands every other region to the next definition,
// libgomp's. Called inline, fn sees what a team of one shows it
// (omp_get_num_threads() 1, omp_get_thread_num() 0) and its orphaned
// work-sharing constructs run on the calling thread, as OpenMP specifies.
// Where another definition comes first, max-active-levels 0 still keeps the
// regions on one thread.
#include "core/linalg/serial_regions.hpp"

#include <dlfcn.h>
#include <omp.h>

namespace qpm {
namespace {
thread_local int inline_depth = 0;  // SerialRegions alive on this thread
}  // namespace

SerialRegions::SerialRegions() : saved_(omp_get_max_active_levels()) {
  omp_set_max_active_levels(0);
  ++inline_depth;
}

SerialRegions::~SerialRegions() {
  --inline_depth;
  omp_set_max_active_levels(saved_);
}

}  // namespace qpm

extern "C" __attribute__((visibility("default"))) void GOMP_parallel(
    void (*fn)(void*), void* data, unsigned num_threads, unsigned flags) {
  using Entry = void (*)(void (*)(void*), void*, unsigned, unsigned);
  if (qpm::inline_depth > 0) {
    fn(data);
    return;
  }
  static const Entry next = reinterpret_cast<Entry>(dlsym(RTLD_NEXT, "GOMP_parallel"));
  if (next) {
    next(fn, data, num_threads, flags);
  } else {
    fn(data);  // no runtime below: a team of one
  }
}
