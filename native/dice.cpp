// Mirror of rules/dice.py (see dice.hpp).
#include "dice.hpp"

#include <string>

#include "errors.hpp"

namespace wargym {

namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::string list_repr(const std::vector<int>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(values[i]);
    }
    return out + "]";
}

void check_count(std::int64_t n) {
    if (n > kMaxDicePerRoll) {
        throw ArgumentError("n", "at most " + std::to_string(kMaxDicePerRoll) +
                                     " dice per roll, got " + std::to_string(n));
    }
}

}  // namespace

RandomDice::RandomDice(std::uint64_t seed) : seed_(seed) {
    std::uint64_t x = seed;
    for (auto& word : s_) word = splitmix64(x);
}

std::uint64_t RandomDice::next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

int RandomDice::face() {
    // Reject the top partial block so every face is equally likely.
    constexpr std::uint64_t limit = UINT64_MAX - UINT64_MAX % 6;
    std::uint64_t x;
    do {
        x = next();
    } while (x >= limit);
    return static_cast<int>(x % 6) + 1;
}

std::vector<int> RandomDice::roll(std::int64_t n) {
    if (n <= 0) return {};
    check_count(n);
    std::vector<int> out(static_cast<std::size_t>(n));
    for (auto& f : out) f = face();
    return out;
}

std::vector<int> NumpyDice::roll(std::int64_t n) {
    if (n <= 0) return {};
    check_count(n);
    const std::vector<std::int64_t> drawn = g_.integers(1, 7, n);
    return {drawn.begin(), drawn.end()};
}

ScriptedDice::ScriptedDice(std::vector<int> faces) : faces_(std::move(faces)) {
    for (int face : faces_) {
        if (face < 1 || face > 6) {
            throw ArgumentError("faces", "a d6 face must be 1..6, got " + std::to_string(face));
        }
    }
}

std::vector<int> ScriptedDice::roll(std::int64_t n) {
    if (n <= 0) return {};
    const std::size_t left = remaining();
    if (static_cast<std::uint64_t>(n) > left) {
        throw DiceScriptExhausted("script ran out: wanted " + std::to_string(n) + "d6, " +
                                  std::to_string(left) + " left (used so far " +
                                  list_repr(used_) + ")");
    }
    const auto first = faces_.begin() + static_cast<std::ptrdiff_t>(next_);
    std::vector<int> out(first, first + n);
    next_ += static_cast<std::size_t>(n);
    used_.insert(used_.end(), out.begin(), out.end());
    return out;
}

std::vector<int> ScriptedDice::faces() const {
    return {faces_.begin() + static_cast<std::ptrdiff_t>(next_), faces_.end()};
}

}  // namespace wargym
