// Edge coverage for the native fuzzer (tests/native/fuzz_native.py), built only with
// -DWARGYM_FUZZ=ON (docs/native.md, "Fuzzing").
//
// g++ has no libFuzzer (-fsanitize=fuzzer is clang's), but it has -fsanitize-coverage=trace-pc:
// every basic block of an instrumented file calls __sanitizer_cov_trace_pc(). coverage.cpp
// (compiled WITHOUT that flag) defines the hook: between begin() and end() it records each
// block's return address, hashed into kBuckets buckets, once per run. The Python driver keeps
// an input when it reaches a bucket no earlier input reached: a coverage-guided fuzzer.
//
// begin() and end() live in their own, uninstrumented file and must be called across a
// function boundary the optimiser cannot see through (from Python, or from another file):
// the instrumentation is inserted after optimisation, so code in the same file as the state
// could otherwise be optimised as if the hook never ran.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wargym::fuzz {

inline constexpr std::size_t kBucketBits = 16;
inline constexpr std::size_t kBuckets = std::size_t{1} << kBucketBits;

// Start recording (clears the buckets of the previous run).
void begin() noexcept;
// Stop recording; the buckets reached since begin(), in first-reached order.
std::size_t end(const std::uint32_t** buckets) noexcept;

}  // namespace wargym::fuzz
