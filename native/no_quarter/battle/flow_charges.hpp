// Mirror of rules/no_quarter/battle/flow_charges.py: several chargers against one target in an
// In Sight (§18.2.1 step 5, §18.3.4, ruling D33; BattleOptions.several_chargers="split"): the
// CHARGES frame's handler (charges_step, charges_options, charges_act), registered by
// register_charges (register_melee calls it too).
#pragma once

#include <vector>

#include "../forces/data.hpp"
#include "actions.hpp"
#include "flow.hpp"

namespace wargym::no_quarter {

// flow_charges.start_waiting_charges: after the last winner acted, resolve the charges that
// waited in the In Sight frame at `insight` (true if any did).
bool start_waiting_charges(Ctx& ctx, FrameRef insight);

// flow_charges.charges_step: the next target's split fire, else the next charger's contact.
void charges_step(Ctx& ctx, FrameRef frame);
// flow_charges.charges_options: who closes next on the current target (§18.3.4).
std::vector<Action> charges_options(const Battle& battle, const RulesTables& rules, FrameRef frame);
// flow_charges.charges_act: the chosen charger closes next (wargym::ArgumentError("action")
// where the reference raises IllegalActionError).
void charges_act(Ctx& ctx, FrameRef frame, const Action& action);

void register_charges(Procedures& procedures);

}  // namespace wargym::no_quarter
