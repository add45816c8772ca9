// Mirror of rules/no_quarter/battle/flow_mech.py: one mech's activation, the MECH frame's
// handler (mech_step, mech_options, mech_act) with _can_fire_now, _can_fire_at_buildings,
// charge_targets, _limb_options, _end_of_action and _melee (§15.0, §15.2, D6, D25, D33). The move
// options are flow_mech_moves.hpp's (helper C); a move is carried out by flow_move.hpp's walk.
//
// register_mech fills the MECH and INSIGHT slots of Procedures (step, act, options).
// Not mirrored (NotPorted when reached): mission_play.exit_options / exit_table (a mission in
// play), buildings.strike_building (an AttackBuilding chosen).
#pragma once

#include <cstdint>
#include <vector>

#include "../forces/data.hpp"
#include "flow.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

// flow_mech._can_fire_now: Active Fire is possible now (D6, D17, D33).
bool can_fire_now(const Battle& battle, const RulesTables& rules, const Mech& mech);
// flow_mech._can_fire_at_buildings (§19.4.2 ruling).
bool can_fire_at_buildings(const Battle& battle, const RulesTables& rules, const Mech& mech);
// flow_mech.charge_targets: enemies in clear LOS with a stage point within the movement left.
std::vector<std::int64_t> charge_targets(const Battle& battle, const RulesTables& rules, const Mech& mech,
                                         const MechFrame& frame);
// flow_mech._limb_options: punch with each arm, kick with each leg not lost.
std::vector<DeclareMelee> limb_options(const Mech& mech);
// buildings.in_contact: the base touches the building (§19.4.2 ruling).
bool in_contact(const Battle& battle, const RulesTables& rules, const Mech& mech, std::int64_t feature);

// flow_mech.mech_step / mech_options / mech_act.
void mech_step(Ctx& ctx, FrameRef frame);
std::vector<Action> mech_options(const Battle& battle, const RulesTables& rules, FrameRef frame);
void mech_act(Ctx& ctx, FrameRef frame, const Action& action);

// MECH's and INSIGHT's slots of game.HANDLERS (step, act, options).
void register_mech(Procedures& procedures);

}  // namespace wargym::no_quarter
