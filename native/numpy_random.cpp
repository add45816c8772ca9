// numpy's PCG64 and the Generator methods of the set-up (see numpy_random.hpp).
#include "numpy_random.hpp"

#include <cmath>
#include <string>

#include "errors.hpp"

namespace wargym {

namespace {

// pcg64.h: PCG_DEFAULT_MULTIPLIER_HIGH / _LOW (the PCG paper's 128-bit LCG multiplier).
constexpr unsigned __int128 kMultiplier =
    (static_cast<unsigned __int128>(2549297995355413924ULL) << 64) + 4865540595714422341ULL;

inline std::uint64_t rotr64(std::uint64_t value, unsigned rot) {
    return (value >> rot) | (value << ((-rot) & 63U));
}

}  // namespace

// pcg_setseq_128_xsl_rr_64_random_r: step, then the XSL-RR output of the new state.
std::uint64_t NumpyGenerator::next_uint64() {
    s_.state = s_.state * kMultiplier + s_.inc;
    const auto hi = static_cast<std::uint64_t>(s_.state >> 64U);
    const auto lo = static_cast<std::uint64_t>(s_.state);
    return rotr64(hi ^ lo, static_cast<unsigned>(s_.state >> 122U));
}

// pcg64_next32: the low half of a fresh 64-bit draw, the high half buffered for the next call.
std::uint32_t NumpyGenerator::next_uint32() {
    if (s_.has_uint32) {
        s_.has_uint32 = 0;
        return s_.uinteger;
    }
    const std::uint64_t next = next_uint64();
    s_.has_uint32 = 1;
    s_.uinteger = static_cast<std::uint32_t>(next >> 32U);
    return static_cast<std::uint32_t>(next & 0xffffffffULL);
}

// _common.pxd uint64_to_double of pcg64_next64.
double NumpyGenerator::next_double() {
    return static_cast<double>(next_uint64() >> 11U) * (1.0 / 9007199254740992.0);
}

std::uint32_t NumpyGenerator::buffered_bounded_lemire_uint32(std::uint32_t rng) {
    const std::uint32_t rng_excl = rng + 1;
    std::uint64_t m = static_cast<std::uint64_t>(next_uint32()) * rng_excl;
    auto leftover = static_cast<std::uint32_t>(m & 0xffffffffULL);
    if (leftover < rng_excl) {
        const std::uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = static_cast<std::uint64_t>(next_uint32()) * rng_excl;
            leftover = static_cast<std::uint32_t>(m & 0xffffffffULL);
        }
    }
    return static_cast<std::uint32_t>(m >> 32U);
}

std::uint64_t NumpyGenerator::bounded_lemire_uint64(std::uint64_t rng) {
    const std::uint64_t rng_excl = rng + 1;
    unsigned __int128 m = static_cast<unsigned __int128>(next_uint64()) * rng_excl;
    auto leftover = static_cast<std::uint64_t>(m);
    if (leftover < rng_excl) {
        const std::uint64_t threshold = (UINT64_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = static_cast<unsigned __int128>(next_uint64()) * rng_excl;
            leftover = static_cast<std::uint64_t>(m);
        }
    }
    return static_cast<std::uint64_t>(m >> 64U);
}

void NumpyGenerator::bounded_uint64_fill(std::uint64_t off, std::uint64_t rng, std::int64_t cnt,
                                         std::uint64_t* out) {
    if (rng == 0) {
        for (std::int64_t i = 0; i < cnt; ++i) out[i] = off;
    } else if (rng <= 0xffffffffULL) {
        if (rng == 0xffffffffULL) {
            for (std::int64_t i = 0; i < cnt; ++i) out[i] = off + next_uint32();
        } else {
            for (std::int64_t i = 0; i < cnt; ++i) {
                out[i] = off + buffered_bounded_lemire_uint32(static_cast<std::uint32_t>(rng));
            }
        }
    } else if (rng == UINT64_MAX) {
        for (std::int64_t i = 0; i < cnt; ++i) out[i] = off + next_uint64();
    } else {
        for (std::int64_t i = 0; i < cnt; ++i) out[i] = off + bounded_lemire_uint64(rng);
    }
}

// _bounded_integers.pyx.in _rand_int64 (scalar low/high, size None) on [low, top]:
// rng = top - low, off = low.
std::int64_t NumpyGenerator::integers_closed(std::int64_t low, std::int64_t top) {
    if (low > top) {
        throw ArgumentError("high", "low >= high (" + std::to_string(low) + " >= " +
                                        std::to_string(top) + " + 1)");
    }
    const std::uint64_t rng = static_cast<std::uint64_t>(top) - static_cast<std::uint64_t>(low);
    std::uint64_t out = 0;
    bounded_uint64_fill(static_cast<std::uint64_t>(low), rng, 1, &out);
    return static_cast<std::int64_t>(out);
}

// _rand_int64 with a size: an empty size draws nothing and checks nothing, as numpy's.
std::vector<std::int64_t> NumpyGenerator::integers_closed(std::int64_t low, std::int64_t top,
                                                          std::int64_t size) {
    if (size < 0) throw ArgumentError("size", "negative dimensions are not allowed");
    if (size == 0) return {};
    if (low > top) {
        throw ArgumentError("high", "low >= high (" + std::to_string(low) + " >= " +
                                        std::to_string(top) + " + 1)");
    }
    const std::uint64_t rng = static_cast<std::uint64_t>(top) - static_cast<std::uint64_t>(low);
    std::vector<std::uint64_t> raw(static_cast<std::size_t>(size));
    bounded_uint64_fill(static_cast<std::uint64_t>(low), rng, size, raw.data());
    std::vector<std::int64_t> out(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) out[i] = static_cast<std::int64_t>(raw[i]);
    return out;
}

std::int64_t NumpyGenerator::integers(std::int64_t low, std::int64_t high) {
    if (high == INT64_MIN) throw ArgumentError("high", "low >= high");
    return integers_closed(low, high - 1);
}

std::vector<std::int64_t> NumpyGenerator::integers(std::int64_t low, std::int64_t high,
                                                   std::int64_t size) {
    if (size > 0 && high == INT64_MIN) throw ArgumentError("high", "low >= high");
    return integers_closed(low, high == INT64_MIN ? high : high - 1, size);
}

// _generator.pyx Generator.uniform (scalar path) and distributions.c random_uniform.
double NumpyGenerator::uniform(double low, double high) {
    const double range = high - low;
    if (!std::isfinite(range)) {
        throw ArgumentError("high", "high - low range exceeds valid bounds");
    }
    if (range < 0.0) throw ArgumentError("high", "high - low < 0");
    return low + range * next_double();
}

}  // namespace wargym
