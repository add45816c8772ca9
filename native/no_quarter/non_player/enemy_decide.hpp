// Mirror of rules/no_quarter/non_player/enemy_decide.py: the NP side's answer to each engine
// decision, following the 22.4 procedure (§22.4, §20.5). np_decide returns one of the legal
// options; it rolls the activating group's tactics (22.2.6, or 22.3.6 then 22.3.7) on ``dice``
// and keeps them in the NpContext, as the reference does. The tables come in as data
// (NpTables from the glue, RulesTables of the battle: sight, cover, the table's terrain).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "../../dice.hpp"
#include "../battle/actions.hpp"
#include "../battle/state.hpp"
#include "enemy.hpp"

namespace wargym::no_quarter {

struct RulesTables;

// enemy_decide.known_enemies: enemy mechs any mech of ``side`` has LOS to (arcs: only in a
// front arc), in id order (§16.1.1, §22.4).
std::vector<const Mech*> known_enemies(const Battle& battle, const RulesTables& rules, Side side, bool arcs);

// enemy_decide.roll_group: roll the activating group's tactics and store them in ``context``
// (§22.4 step 3). leader must be a mech of the battle (ArgumentError("leader")).
NpGroupState roll_group(const Battle& battle, const RulesTables& rules, const NpTables& tables,
                        std::int64_t leader, NpContext& context, Dice& dice);

// enemy_decide.np_decide: the option the NP procedure prescribes at battle.decision (§22.4,
// §20.5); always an element of ``options``. No pending decision or no options: ArgumentError
// (the reference's RulesError). ``context`` is changed as the reference changes it (a group's
// rolls stored, the activation logged); the faces come from ``dice``.
Action np_decide(const Battle& battle, const RulesTables& rules, const NpTables& tables,
                 const std::vector<Action>& options, NpContext& context, Dice& dice);

}  // namespace wargym::no_quarter
