// Mirror of rules/no_quarter/battle/flow_move.py: a move carried out (walk: 1" steps, bumps on
// unseen bases, flames crossed, the In Sight it may start) and the INSIGHT frame's handler
// (insight_step, insight_options, insight_act: the free moves, one roll per group leader, the
// winners' mandatory actions), §15.2, §16.1, rulings D5, D8, D27, D32, E5. Also facing.turn_to
// (a Face that brings a new enemy group into sight starts an In Sight, §16.1.2).
//
// Every rule number comes from ctx.rules (forces/data.hpp RulesTables). Not mirrored here:
// np_flow.pef_spotted_at with a non-player force in play and flow_charges.start_waiting_charges
// with waiting charges (both throw NotPorted; their owners port them).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "../forces/data.hpp"
#include "../sight_movement/bumping.hpp"
#include "flow.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

// flow_move.walk: move mech straight to `to`, pausing for an In Sight (§16.1.2). kind: the
// MechMoved kind ("voluntary", "reverse", "jump", "charge", ...); goes_on: this continues a
// move an In Sight paused (D27). Returns (allowance spent, interrupted).
std::pair<double, bool> walk(Ctx& ctx, std::int64_t mech, Point to, double heading, std::string_view kind,
                             bool jump = false, bool in_sight = true, bool goes_on = false);

// facing.turn_to: face as the action says; an enemy group newly in sight pauses (§16.1.2).
void turn_to(Ctx& ctx, std::int64_t mech, const Face& action);

// flow_move.insight_step / insight_options / insight_act.
void insight_step(Ctx& ctx, FrameRef frame);
std::vector<Action> insight_options(const Battle& battle, const RulesTables& rules, FrameRef frame);
void insight_act(Ctx& ctx, FrameRef frame, const Action& action);

// Helpers shared with flow_mech.cpp.
namespace move_detail {
const RulesTables& rules_of(const Ctx& ctx);
Mech& mech_ref(Battle& battle, std::int64_t id);
// bumping.planning_bodies(battle, mech) as path_problem's bodies.
std::vector<Body> planning_bodies_of(const Battle& battle, const RulesTables& rules, const Mech& mech);
// bumping.bump(battle, mech, to, jump=jump)
std::optional<Bump> bump_of(const Battle& battle, const RulesTables& rules, const Mech& mech, Point to, bool jump);
// bumping.planning_bodies(battle, mech) as movement's BaseAt rows.
std::vector<BaseAt> planning_bases_of(const Battle& battle, const RulesTables& rules, const Mech& mech);
// flow_melee.room_for_attacker, mid_charge and charge_stage: flow_melee.hpp.
}  // namespace move_detail

}  // namespace wargym::no_quarter
