// Mirror of rules/no_quarter/battle/consequences.py: what results do to a mech — Duck Back,
// Leave the Battlefield, removal, criticals, the Pilot Test, flames crossed (§15-§17, D8-D10,
// D25-D27). Each carries a result out at once through Ctx::emit (events.hpp) and queues the
// reaction tests it causes (queue_tests, caused_by: flow.hpp) as the reference does.
//
// Every function reads its rule numbers from ctx.rules (forces/data.hpp RulesTables: the combat
// tables, the leader tables, the Mech Down radius, the flamer's Impact, the battlefield's sight,
// cover and move tables) and rolls ctx.dice exactly as the Python (same counts, same order).
// Callers: flow_fire (critical_hit, duck_back), flow_melee (critical_hit, duck_back, pilot_test,
// leave_battlefield, remove ...), flow_react (duck_back, leave_battlefield, leave_move),
// flow_mech (cross_flames, involuntary_in_sight).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "../forces/data.hpp"
#include "flow.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

// consequences.queue_tests and consequences.caused_by live in flow.hpp (F's skeleton).

// consequences.cross_flames: each flame area the path enters: hit location 2d6, then 2d6 vs the
// flamer's Impact (D27). goes_on: the path continues a move paused by an In Sight (the areas it
// starts in were rolled for before the pause).
void cross_flames(Ctx& ctx, Mech& mech, std::span<const Point> path, bool goes_on = false);

// consequences.involuntary_in_sight: an involuntary move that brings new enemy groups into
// sight starts an In Sight (D8); seen_before: visible_enemies before the move (sorted ids).
void involuntary_in_sight(Ctx& ctx, Mech& mech, std::span<const std::int64_t> seen_before);

// consequences.ignores_duck_back: Nerves of Steel makes every Duck Back Carry On (§9.6.4).
bool ignores_duck_back(const Ctx& ctx, const Mech& mech);

// consequences.duck_back: nearest cover vs the cause within min(DUCK_BACK_MAX, Speed), face
// away (§15.2.4.1, D9); cause nullptr: only the status changes. reason: StatusChanged.reason.
void duck_back(Ctx& ctx, Mech& mech, const Mech* cause, std::string_view reason);

// consequences.leave_move: a Leaving mech moves its full Speed toward its edge; off the table
// it is removed (D10).
void leave_move(Ctx& ctx, Mech& mech);

// consequences.leave_battlefield: the Leave the Battlefield result: Mech Down at once, then the
// move (§16.3.3); enemies caused it (the Mech Down tests judge cover against them).
void leave_battlefield(Ctx& ctx, Mech& mech, std::string_view reason,
                       std::span<const std::int64_t> enemies = {});

// consequences.mech_down_entries: Mech Down tests of friends within the radius (and in LOS if
// the table says so), of class >= the downed mech's (§16.2). Enemies are left for caused_by.
std::vector<ReactEntry> mech_down_entries(const Ctx& ctx, const Mech& downed);

// consequences.remove: out of play, Mech Down queued, then succession (§12, §16.2).
void remove(Ctx& ctx, Mech& mech, Removal reason);

// consequences._succession: a new Team Leader, then the lost mech's own rank (§12.0).
void succession(Ctx& ctx, const Mech& lost);

// consequences.pilot_killed: a Star (or Hard as Nails, once) cheats death (§9.2, §9.6.4).
// how: the critical kind's value (unused by the reference's body, kept for its signature).
void pilot_killed(Ctx& ctx, Mech& mech, std::string_view how);

// consequences.pilot_test: 1d6 vs Rep (Agile/Slow); failing knocks down and costs 1 Rep
// unless Resilient (§17.4.3.1); Lucky auto re-rolls, or luck.offer_lucky (D26).
void pilot_test(Ctx& ctx, Mech& mech);

// consequences.may_use_lucky / _may_use_lucky: Lucky (auto policy), unused this mission (D26).
bool may_use_lucky(const Ctx& ctx, const Mech& mech);

// consequences.critical_hit: resolve the Critical Hit at location and apply it (§17.4.3).
void critical_hit(Ctx& ctx, Mech& mech, Location location);

}  // namespace wargym::no_quarter
