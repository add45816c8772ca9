// Mirror of rules/no_quarter/battle/flow_melee.py: Charge into Melee and melee combat in play
// (§18.2-§18.3, ruling D33): the CHARGE frame's handler (charge_step) and the MELEE frame's
// (melee_step, melee_options, melee_act), registered by register_melee; flow_charges.hpp has
// the CHARGES frame's.
//
// Rule numbers come from ctx.rules (forces/data.hpp RulesTables: the combat tables, the charge's
// stage distance, the most attackers per target, the battlefield's cover and move tables).
// Not ported: flow_move.walk (the charge's legs, walked like any move with In Sight pauses and
// flames): a charge that must move throws NotPorted until flow_move's port provides it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../forces/data.hpp"
#include "actions.hpp"
#include "flow.hpp"

namespace wargym::no_quarter {

// flow_melee.MAX_TIED_ROUNDS: an engine safety valve (not a rule): after this many tied rounds
// in a row the exchange ends without a winner.
inline constexpr std::int64_t kMaxTiedRounds = 50;

// flow_melee.room_for_attacker: fewer than max_attackers_per_target enemies melee or charge the
// target, counting the In Sight's waiting charges (§18.3.4, §18.2.1 step 5).
bool room_for_attacker(const Battle& battle, const RulesTables& rules, const Mech& target);
// flow_melee.mid_charge: mech_id is on a leg of its charge, paused for an In Sight (§16.1.2).
bool mid_charge(const Battle& battle, std::int64_t mech_id);
// flow_melee.charge_stage: the point the charger moves to before the test, or nullopt if out
// of reach (§18.2, D5).
std::optional<Point> charge_stage(const Battle& battle, const RulesTables& rules, const Mech& charger,
                                  const Mech& target, double allowance);

// flow_melee.charge_step: stage, test, target fire, contact, melee (§18.2.1).
void charge_step(Ctx& ctx, FrameRef frame);
// flow_melee.melee_step: declarations (attacker first), then rounds until a damaging blow.
void melee_step(Ctx& ctx, FrameRef frame);
// flow_melee.melee_options: punch with an arm or kick with a leg still attached (§18.3, D33).
std::vector<Action> melee_options(const Battle& battle, const RulesTables& rules, FrameRef frame);
// flow_melee.melee_act: record a declaration (a DeclareMelee action).
void melee_act(Ctx& ctx, FrameRef frame, const Action& action);

// CHARGE's and MELEE's slots of game.HANDLERS (with flow_charges' CHARGES: register_charges).
void register_melee(Procedures& procedures);

}  // namespace wargym::no_quarter
