#include "core/linalg/hash_bits.hpp"

#include <cstring>

namespace qpm {

std::uint64_t HashBits(const ConstVectorRef& x) {
  constexpr std::uint64_t kPrime = 0x100000001b3ULL;
  std::uint64_t lane[4] = {0xcbf29ce484222325ULL, 1, 2, 3};
  const Eigen::Index n = x.size();
  Eigen::Index i = 0;
  auto bits = [&](Eigen::Index k) {
    std::uint64_t b;
    std::memcpy(&b, x.data() + k, sizeof b);
    return b;
  };
  for (; i + 4 <= n; i += 4) {
    for (int l = 0; l < 4; ++l) lane[l] = (lane[l] ^ bits(i + l)) * kPrime;
  }
  for (; i < n; ++i) lane[0] = (lane[0] ^ bits(i)) * kPrime;
  return ((lane[0] * kPrime ^ lane[1]) * kPrime ^ lane[2]) * kPrime ^ lane[3];
}

}  // namespace qpm
