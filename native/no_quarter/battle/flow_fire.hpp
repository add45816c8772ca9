// Mirror of rules/no_quarter/battle/flow_fire.py: weapon assignment and the resolution of one
// firing (§15.1, §17.3-§17.4, rulings D14, D18, D19, D26, D32): the FIRE frame's handler
// (fire_step, fire_options, fire_act), registered in flow.hpp's Procedures by register_fire.
//
// Rule numbers come from ctx.rules (forces/data.hpp RulesTables). Fire at buildings is
// battlefield/buildings.hpp's (rated_buildings, can_fire_at, fire_at_building).
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

// FIRE's slot of game.HANDLERS (step, act, options).
void register_fire(Procedures& procedures);

}  // namespace wargym::no_quarter
