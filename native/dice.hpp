// Mirror of rules/dice.py: the core's source of d6 results (No Quarter §5).
//
// RandomDice is the core's own seeded generator (xoshiro256** seeded through splitmix64; its
// stream is not numpy's). ScriptedDice replays recorded faces with the semantics of the Python
// ScriptedDice: faces outside 1..6 are refused when the script is built, and asking for more
// faces than remain raises DiceScriptExhausted without consuming any.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "numpy_random.hpp"

namespace wargym {

// The most dice one roll may ask for: a guard against a runaway allocation, far above any rule.
inline constexpr std::int64_t kMaxDicePerRoll = 1 << 20;

class Dice {
public:
    virtual ~Dice() = default;
    // Roll ``n`` d6 in order; ``n <= 0`` gives no faces (rules/dice.py: Dice.roll).
    virtual std::vector<int> roll(std::int64_t n) = 0;
};

class RandomDice final : public Dice {
public:
    explicit RandomDice(std::uint64_t seed);
    std::vector<int> roll(std::int64_t n) override;
    // One face, 1..6, unbiased (rejection sampling).
    int face();
    std::uint64_t seed() const noexcept { return seed_; }

private:
    std::uint64_t next();
    std::uint64_t seed_;
    std::array<std::uint64_t, 4> s_{};
};

// rules/dice.py's RandomDice over a numpy Generator: ``rng.integers(1, 7, size=n)`` on the
// PCG64 mirror (numpy_random.hpp), the same faces and the same state after as the reference's
// dice on that generator (the envs' dice and the NP opponent's stream).
class NumpyDice final : public Dice {
public:
    explicit NumpyDice(const Pcg64State& state) : g_(state) {}
    std::vector<int> roll(std::int64_t n) override;
    const Pcg64State& state() const noexcept { return g_.state(); }
    NumpyGenerator& generator() noexcept { return g_; }

private:
    NumpyGenerator g_;
};

class ScriptedDice final : public Dice {
public:
    explicit ScriptedDice(std::vector<int> faces);
    std::vector<int> roll(std::int64_t n) override;
    std::size_t remaining() const noexcept { return faces_.size() - next_; }
    // The faces not yet rolled, and those rolled so far (Python: .faces and .used).
    std::vector<int> faces() const;
    const std::vector<int>& used() const noexcept { return used_; }

private:
    std::vector<int> faces_;
    std::size_t next_ = 0;
    std::vector<int> used_;
};

}  // namespace wargym
