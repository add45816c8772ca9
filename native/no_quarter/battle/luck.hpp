// The choice points of rules/no_quarter/battle/luck.py that the rules call inside a roll:
// offer_lucky (Lucky's re-roll, D26) and marksman_pick (Marksman's location, §9.6.4).
//
// Created by helper I (flow_fire/consequences) with just the declarations its code calls; the
// luck helper owns this file. luck_auto.cpp gives luck.py's behaviour OUTSIDE a guard (ctx.guard
// is None: the automatic answer); under a guard (ctx.guarded) it throws NotPorted until
// luck.run_unit's guard is ported.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "flow.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

// The keyword extras of offer_lucky's ask (**info): only the guard's pause frame keeps them.
struct LuckyInfo {
    std::optional<bool> shielded_hit;  // hit_location: the roll hit a protected location
    std::optional<bool> lost;          // melee: the mech lost the round
};

// luck.offer_lucky: the faces that stand after the pilot's side may spend its Lucky re-roll
// (a LuckyReroll event and fresh faces when it does).
std::vector<int> offer_lucky(Ctx& ctx, const Mech& mech, std::string_view what,
                             std::span<const int> faces, bool wanted,
                             std::optional<std::int64_t> target = std::nullopt,
                             const LuckyInfo& info = {});

// luck.marksman_pick: the location a Marksman keeps of his two (better_location when equal or
// marksman="auto"). shielded: the locations protected for this shot.
Location marksman_pick(Ctx& ctx, const Mech& shooter, const Mech& target, Location first,
                       Location second, std::span<const Location> shielded);

}  // namespace wargym::no_quarter
