// The trace-pc hook and its bucket set (coverage.hpp). Never compiled with
// -fsanitize-coverage: the hook must not call itself.
#include "coverage.hpp"

namespace {

std::uint8_t g_reached[wargym::fuzz::kBuckets];
std::uint32_t g_order[wargym::fuzz::kBuckets];
std::size_t g_count = 0;
bool g_recording = false;

}  // namespace

extern "C" void __sanitizer_cov_trace_pc() {
    if (!g_recording) return;
    const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
    constexpr std::uintptr_t mask = wargym::fuzz::kBuckets - 1;
    const auto bucket = static_cast<std::uint32_t>((pc ^ (pc >> wargym::fuzz::kBucketBits)) & mask);
    if (!g_reached[bucket]) {
        g_reached[bucket] = 1;
        g_order[g_count++] = bucket;  // at most kBuckets distinct buckets
    }
}

namespace wargym::fuzz {

void begin() noexcept {
    for (std::size_t i = 0; i < g_count; ++i) g_reached[g_order[i]] = 0;
    g_count = 0;
    g_recording = true;
}

std::size_t end(const std::uint32_t** buckets) noexcept {
    g_recording = false;
    *buckets = g_order;
    return g_count;
}

}  // namespace wargym::fuzz
