// rules/no_quarter/battle/luck.py: choices made inside a roll, Lucky's re-roll (D26) and
// Marksman's location (§9.6.4), played by re-execution (engine choice E21).
//
// While luck.watching() (flow.hpp) holds, every engine unit runs under a guard (run_unit): the
// unit's dice are recorded, the battle is copied before it, and a choice point without an answer
// (offer_lucky, marksman_pick) stops the unit: the battle goes back to the copy, a pause frame
// holds the unit, its faces so far and the answers so far, and the decision goes to the pilot's
// side. resume() re-runs the unit from the copy with the recorded faces and one more answer.
// Outside a guard (ctx.guard is null) a choice point answers by the automatic rule.
//
// First declared by helper I (offer_lucky, marksman_pick, LuckyInfo); the luck helper (M) owns it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "../forces/data_combat.hpp"
#include "actions.hpp"
#include "flow.hpp"
#include "frames.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

// The keyword extras of offer_lucky's ask (**info): only the guard's pause frame keeps them
// (and lucky_advice reads them).
struct LuckyInfo {
    std::optional<bool> shielded_hit;   // hit_location: the roll hit a protected location
    std::optional<bool> lost;           // melee: the mech lost the round
    std::optional<std::int64_t> passed; // flow_react: the dice that passed the test
};

// luck.Guard: the answers of one unit's choice points, in order, and how many were read
// (ctx.guard while a unit runs under run_unit).
struct LuckGuard {
    std::vector<Answer> answers;
    std::size_t used = 0;
};

// luck.offer_lucky: the faces that stand after the pilot's side may spend its Lucky re-roll
// (a LuckyReroll event and fresh faces when it does). ``what`` is one of LUCKY_WHAT.
std::vector<int> offer_lucky(Ctx& ctx, const Mech& mech, std::string_view what,
                             std::span<const int> faces, bool wanted,
                             std::optional<std::int64_t> target = std::nullopt,
                             const LuckyInfo& info = {});

// luck.marksman_pick: the location a Marksman keeps of his two (better_location when equal or
// marksman="auto"). shielded: the locations protected for this shot.
Location marksman_pick(Ctx& ctx, const Mech& shooter, const Mech& target, Location first,
                       Location second, std::span<const Location> shielded);

// luck.lucky_melee is flow_melee.cpp's (it counts successes with the tables' success face).

// luck.watching is declared in flow.hpp (the loop reads it every unit).

// luck.run_unit: one engine unit (game._unit: ``action`` at the top frame, or a step when null),
// under a guard while a pilot may choose. prefix/answers: a paused unit being re-run (resume).
void run_unit(Ctx& ctx, const Action* action,
              const std::vector<std::vector<std::int64_t>>* prefix = nullptr,
              const std::vector<Answer>* answers = nullptr);

// luck.resume: answer the pause ``frame`` (on top) with ``action`` and re-run its unit.
// A pause that does not replay: StateError, the battle unchanged and the decision pending.
void resume(Ctx& ctx, FrameRef frame, const Action& action);

// luck.pause_step: a pause frame only waits for its decision (set again after a load).
void pause_step(Ctx& ctx, FrameRef frame);

// luck.pause_options: keep or re-roll; or one of the two locations.
std::vector<Action> pause_options(const Battle& battle, const RulesTables& rules, FrameRef frame);

// luck.lucky_advice / marksman_advice: the automatic answers of the NP AI and the tactician,
// read from the pause frame on top. kill_fraction: luck.KILL_FRACTION (RulesTables).
bool lucky_advice(const Battle& battle, double kill_fraction);
Location marksman_advice(const Battle& battle, const CombatTables& tables);

// luck.choice_in_roll: the automatic answer at a pause, always one of ``options`` (non-empty;
// ArgumentError("options") otherwise). rules: the tables of battle.options.rules.
Action choice_in_roll(const Battle& battle, const RulesTables& rules, std::span<const Action> options);

// luck.side_of: the side deciding at a pause frame.
Side side_of(const Battle& battle, const Frame& frame);

// The pause frame's handler (step = pause_step, act = resume, options = pause_options).
void register_luck(Procedures& procedures);

}  // namespace wargym::no_quarter
