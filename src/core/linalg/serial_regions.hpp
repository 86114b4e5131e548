// OpenMP regions of a library called on this thread (CHOLMOD's), run on it
// alone and inline: docs/algorithm.md, "The Newton path: a sparse Cholesky
// of W + beta J_z^T J_z", Backend settings, has why and the measurements.
#ifndef QPM_CORE_LINALG_SERIAL_REGIONS_HPP_
#define QPM_CORE_LINALG_SERIAL_REGIONS_HPP_

namespace qpm {

// While one lives, every OpenMP region opened on this thread runs on it:
// OpenMP's max-active-levels is 0 (a per-thread setting; the caller's is
// restored), and a region opened through GCC's runtime entry point
// `GOMP_parallel` is called inline, as a team of one runs it, without the
// runtime's team set-up and end-of-region barrier (a futex system call per
// region). Regions opened elsewhere, or on other threads, go to the runtime.
class SerialRegions {
 public:
  SerialRegions();
  ~SerialRegions();
  SerialRegions(const SerialRegions&) = delete;
  SerialRegions& operator=(const SerialRegions&) = delete;

 private:
  int saved_;
};

}  // namespace qpm

#endif  // QPM_CORE_LINALG_SERIAL_REGIONS_HPP_
