// Mirror of rules/no_quarter/battle/flow.py's dice helper roll_index (ruling D24). The rest of
// flow.py (Ctx, frames, handlers) is the orchestrator's plumbing and is not mirrored here.
#pragma once

#include <cstdint>
#include <vector>

#include "../../dice.hpp"

namespace wargym::no_quarter {

// The most items roll_index picks from: beyond 36 the reference's 2d6 reading (count * (36 //
// count) == 0) never accepts a roll, so the binding refuses the count instead of looping.
inline constexpr std::int64_t kRollIndexMaxCount = 36;

struct RolledIndex {
    std::int64_t index = 0;
    std::vector<int> faces;  // every face rolled, re-rolls included
};

// roll_index: one of count items uniformly with d6 rolls (ruling D24): one d6 with re-rolls for
// up to six items, 2d6 read as 36 outcomes beyond that. count 1..kRollIndexMaxCount (else
// ArgumentError("count")); consumes exactly the faces the reference consumes, in its order.
RolledIndex roll_index(wargym::Dice& dice, std::int64_t count);

}  // namespace wargym::no_quarter
