// Mirror of rules/no_quarter/battle/flow_react.py: reaction tests in play — shared group rolls
// (§16.2.1, ruling D16), Star Free Will (§9.2), each mech reading every cause from the same dice
// with the worst result applying (§16.2.2), and the results carried out (Duck Back, Leave the
// Battlefield through consequences.hpp; Fire and Rush Shot push reaction fire, ruling D15).
// The REACT frame's handler (react_step, react_options, react_act), registered by register_react.
#pragma once

#include <vector>

#include "../forces/data.hpp"
#include "actions.hpp"
#include "flow.hpp"

namespace wargym::no_quarter {

// flow_react.react_step: take the next batch of tests, asking Stars for Free Will first.
void react_step(Ctx& ctx, FrameRef frame);
// flow_react.react_options: the asked Star chooses to have passed 2, 1 or 0 d6 (§9.2).
std::vector<Action> react_options(const Battle& battle, const RulesTables& rules, FrameRef frame);
// flow_react.react_act: record the Star's choice (a FreeWill action).
void react_act(Ctx& ctx, FrameRef frame, const Action& action);

// REACT's slot of game.HANDLERS (step, act, options).
void register_react(Procedures& procedures);

}  // namespace wargym::no_quarter
