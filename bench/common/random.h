// bench/common/random.h: the inputs the H100 harnesses share (bench/gemm,
// bench/conv): f16 uniform in [-1, 1] from splitmix64 with a fixed seed.

#pragma once

#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace bench {

/// The next value of splitmix64 (Steele, Lea and Flood, 2014) at state `s`.
inline uint64_t splitmix64(uint64_t &s) {
  s += 0x9E3779B97F4A7C15ull;
  uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// f16 values uniform in [-1, 1] (24 random bits each, rounded to
/// nearest), as raw 16-bit patterns.
inline void fillUniformHalf(std::vector<uint16_t> &v, uint64_t seed) {
  uint64_t s = seed;
  for (auto &x : v) {
    uint64_t z = splitmix64(s);
    float f = (float)((z >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
    __half h = __float2half_rn(f);
    memcpy(&x, &h, 2);
  }
}

} // namespace bench
