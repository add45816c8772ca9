// Mirror of rules/no_quarter/battle/flow_fire.py: weapon assignment and the resolution of one
// firing (§15.1, §17.3-§17.4, rulings D14, D18, D19, D26, D32): the FIRE frame's handler
// (fire_step, fire_options, fire_act), registered in flow.hpp's Procedures by register_fire.
//
// Rule numbers come from ctx.rules (forces/data.hpp RulesTables). Firing at a building
// (buildings.fire_at_building, §19.4.2) is not ported: resolving one throws NotPorted; the
// FireAtBuilding options are (buildings.rated_buildings, can_fire_at).
#pragma once

#include <cstdint>
#include <vector>

#include "../forces/data.hpp"
#include "actions.hpp"
#include "flow.hpp"

namespace wargym::no_quarter {

// flow_fire.fire_options: the weapon-to-target assignments allowed now, plus EndFire
// (§17.3, D14, D32), in the reference's order.
std::vector<Action> fire_options(const Battle& battle, const RulesTables& rules, const FireFrame& frame);

// flow_fire.fire_step: assign weapons (automatically for reaction and charge fire), then resolve.
void fire_step(Ctx& ctx, FrameRef frame);
// flow_fire.fire_act: record one assignment, or resolve the firing on EndFire.
void fire_act(Ctx& ctx, FrameRef frame, const Action& action);
// flow_fire.resolve_firing: every assigned weapon, then one set of tests per target (D18).
void resolve_firing(Ctx& ctx, FrameRef frame);

// buildings.rated_buildings: indices of the buildings that still have armour (§19.4.2).
std::vector<std::int64_t> rated_buildings(const Battle& battle);
// buildings.can_fire_at: weapon in range of the wall, in arc under twist and in LOS (§17.4).
bool can_fire_at(const Battle& battle, const RulesTables& rules, const Mech& shooter, std::int64_t weapon,
                 std::int64_t feature, std::int64_t twist);

// FIRE's slot of game.HANDLERS (step, act, options).
void register_fire(Procedures& procedures);

}  // namespace wargym::no_quarter
