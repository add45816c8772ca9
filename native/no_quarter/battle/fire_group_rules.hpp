// The leader and perception tables of a GroupRules handle (perception_bindings.hpp), read in a
// file of their own: pilots.hpp (through perception_bindings.hpp) and data_combat.hpp both
// define kAttributes, so no file may include both.
#pragma once

#include <nanobind/nanobind.h>

#include "../sight_movement/perception.hpp"

namespace wargym::no_quarter {

// perception_args::rules(h)'s leaders and perception (NativeTypeError "groups" otherwise).
void read_group_rules(nanobind::handle h, LeaderTables& leaders, PerceptionTables& perception);

}  // namespace wargym::no_quarter
