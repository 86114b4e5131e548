// A 64-bit hash of a vector's bits: the identity of a point without a copy
// of it (Ipopt's new_x in the TNLP shell, the least-squares estimate's reuse
// in the outer loop).
#ifndef QPM_CORE_LINALG_HASH_BITS_HPP_
#define QPM_CORE_LINALG_HASH_BITS_HPP_

#include <cstdint>

#include "qpm/core/problem.hpp"

namespace qpm {

// Four FNV-1a lanes (independent chains, so not bound by the multiplier's
// latency). Each lane's step is a bijection of its state for a given word,
// so x differing from the hashed vector in one entry always changes the
// hash; differing in more, it collides with probability ~2^-64.
std::uint64_t HashBits(const ConstVectorRef& x);

}  // namespace qpm

#endif  // QPM_CORE_LINALG_HASH_BITS_HPP_
