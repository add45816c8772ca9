// The reference's action objects (rules/no_quarter/battle/actions.py) <-> the core's Action
// (actions.hpp), for every binding file that takes or returns actions. native/bindings.cpp
// calls bind_actions(); the errors thrown here (errors.hpp) go through its one translator.
#pragma once

#include <nanobind/nanobind.h>

#include <string>
#include <vector>

#include "actions.hpp"

namespace wargym::no_quarter {

// Loads the reference's action classes and the MeleeAttack/Location members (idempotent;
// bind_actions calls it at import, so the functions below can be used afterwards).
void init_actions();

// A reference action object (an ActivateGroup, Move, ...) as the core's Action. `name` names
// the argument in errors: not an action class: ArgumentTypeError; a field of the wrong type
// (a bool for an int, a str for a float, ...) ArgumentTypeError "<name>.<field>"; a bad value
// (an int beyond int64, a non-finite float, a point that is not two numbers) ArgumentError.
// An int heading or point reads as the float it equals (Stay(1, 90) == Stay(1, 90.0) in Python).
Action action_from_py(nanobind::handle action, const std::string& name = "action");
// A list or tuple of reference actions ("<name>[i]" in errors).
std::vector<Action> actions_from_py(nanobind::handle actions, const std::string& name);
// The reference action object equal to `a` (a new instance of its dataclass).
nanobind::object action_to_py(const Action& a);
// A Python list of reference action objects.
nanobind::list actions_to_py(const std::vector<Action>& actions);
// actions.action_to_dict(a): {"type": name, fields...}, the same keys, values and types.
nanobind::object action_to_dict_py(const Action& a);
// actions.action_from_dict(data): the errors of actions_read.hpp, named from `name`.
Action action_from_dict_py(nanobind::handle data, const std::string& name = "action");

// Declares action_to_dict, action_from_dict, action_round_trip, action_hash, action_equal,
// action_str and ACTION_TYPES in the no_quarter submodule.
void bind_actions(nanobind::module_& g);

}  // namespace wargym::no_quarter
