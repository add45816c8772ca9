// Mirror of rules/no_quarter/battle/flow_turn.py: the turn (activation dice, §14.0), the side
// phase (groups formed, Leaving mechs, the voluntary group orders of group_orders.py, §12.2,
// §13.1, then the groups by activation Rep, §14.0, ruling D25) and the group (its mechs one at a
// time, §18.3.4) — the TURN, PHASE and GROUP handlers of game.HANDLERS, with their options.
//
// Not ported here (NotPorted, naming the procedure): what a mission adds (battle.mission not
// None: mission_play.mission_over / on_activation_roll, np_flow.check_reinforcements on a 7,
// cestus_play.troll_check in a Cestus V mission) and consequences.leave_move for a Leaving
// mech able to move. In a skirmish those hooks do nothing, exactly as the reference's guards.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "flow.hpp"

namespace wargym::no_quarter {

// flow_turn.turn_step
void turn_step(Ctx& ctx, FrameRef frame);
// flow_turn.phase_step / phase_options / phase_act (with group_orders' lead_* and split_*)
void phase_step(Ctx& ctx, FrameRef frame);
std::vector<Action> phase_options(const Ctx& ctx, const Frame& frame);
void phase_act(Ctx& ctx, FrameRef frame, const Action& action);
// flow_turn.group_step / group_options / group_act
void group_step(Ctx& ctx, FrameRef frame);
std::vector<Action> group_options(const Ctx& ctx, const Frame& frame);
void group_act(Ctx& ctx, FrameRef frame, const Action& action);

// group_orders.lead_step / lead_act / split_step / split_act (over D's pure parts).
void lead_step(Ctx& ctx, FrameRef frame);
void lead_act(Ctx& ctx, FrameRef frame, const Action& action);
void split_step(Ctx& ctx, FrameRef frame);
void split_act(Ctx& ctx, FrameRef frame, const Action& action);

// flow_turn._top_tier: (group index, live members, activation Rep) of the groups that may
// activate now: the highest eligible Rep (every eligible group on the NP side, §22.4).
struct TierGroup {
    std::size_t index = 0;
    std::vector<std::int64_t> members;
    std::int64_t rep = 0;
};
std::vector<TierGroup> top_tier(const Ctx& ctx, const PhaseFrame& frame);

// Fills the turn, phase and group slots of ``procedures``.
void register_turn(Procedures& procedures);

}  // namespace wargym::no_quarter
