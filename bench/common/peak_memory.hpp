// Peak resident memory of this process so far, in MB, for the benches that
// run one solve per process (Linux: getrusage's ru_maxrss is in KiB).
#ifndef QPM_BENCH_PEAK_MEMORY_HPP_
#define QPM_BENCH_PEAK_MEMORY_HPP_

#include <sys/resource.h>

inline double PeakMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

#endif  // QPM_BENCH_PEAK_MEMORY_HPP_
