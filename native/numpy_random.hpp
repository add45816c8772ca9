// A mirror of numpy's PCG64 bit generator and of the numpy.random.Generator methods the
// No Quarter set-up draws (numpy/random/_pcg64.pyx, src/pcg64/pcg64.h, _bounded_integers.pyx.in,
// src/distributions/distributions.c), bit for bit: the same values and the same state after.
//
// The state crosses from Python as `rng.bit_generator.state` (the 128-bit state and increment,
// has_uint32, uinteger) and can be handed back, so the Python Generator continues identically.
// SeedSequence is not mirrored: the core never seeds a PCG64 itself.
#pragma once

#include <cstdint>
#include <vector>

namespace wargym {

// One PCG64 state (pcg64.h's pcg64_state: pcg_state_setseq_128 plus the buffered 32 bits).
struct Pcg64State {
    unsigned __int128 state = 0;
    unsigned __int128 inc = 1;
    int has_uint32 = 0;
    std::uint32_t uinteger = 0;
};

class NumpyGenerator {
public:
    explicit NumpyGenerator(const Pcg64State& state) : s_(state) {}
    const Pcg64State& state() const noexcept { return s_; }

    // pcg64_next64 / pcg64_next32 / pcg64_double
    std::uint64_t next_uint64();
    std::uint32_t next_uint32();
    double next_double();

    // Generator.integers(low, high) with the default dtype int64 and endpoint=False:
    // one value of [low, high). Throws ArgumentError("high") when low >= high, as numpy's
    // ValueError.
    std::int64_t integers(std::int64_t low, std::int64_t high);
    // Generator.integers(low, high, size=n): n values drawn by one random_bounded_uint64_fill.
    std::vector<std::int64_t> integers(std::int64_t low, std::int64_t high, std::int64_t size);
    // The same on the closed interval [low, top] (top = high - 1), which also reaches
    // numpy's integers(low, 2**63): _rand_int64 works on the closed interval.
    std::int64_t integers_closed(std::int64_t low, std::int64_t top);
    std::vector<std::int64_t> integers_closed(std::int64_t low, std::int64_t top,
                                              std::int64_t size);
    // Generator.random(): random_standard_uniform.
    double random() { return next_double(); }
    // Generator.uniform(low, high): random_uniform(low, high - low); numpy refuses a range that
    // is negative (ValueError) or not finite (OverflowError): ArgumentError here.
    double uniform(double low, double high);

private:
    // distributions.c: random_bounded_uint64_fill (use_masked=False) and its helpers.
    void bounded_uint64_fill(std::uint64_t off, std::uint64_t rng, std::int64_t cnt,
                             std::uint64_t* out);
    std::uint32_t buffered_bounded_lemire_uint32(std::uint32_t rng);
    std::uint64_t bounded_lemire_uint64(std::uint64_t rng);
    Pcg64State s_;
};

}  // namespace wargym
