// Bindings of perception, leaders, pilots (perception_bindings.cpp) and of the group orders
// (battle/group_orders_bindings.cpp) in _core.no_quarter.perception; native/bindings.cpp calls
// bind_perception(). The argument converters below are shared by the two files.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../battle/state.hpp"
#include "../forces/leaders.hpp"
#include "../forces/pilots.hpp"
#include "perception.hpp"

namespace wargym::no_quarter {

// Every rule number perception, leaders and pilots read (built by the glue from load_rules).
struct GroupRules {
    LeaderTables leaders;
    ActivationTables activation;
    PerceptionTables perception;
};

void bind_perception(nanobind::module_& g);
void bind_group_orders(nanobind::module_& p);  // battle/group_orders_bindings.cpp
void bind_leaders(nanobind::module_& p);       // forces/leaders_bindings.cpp

namespace perception_args {
Battle& battle(nanobind::handle h);
const SightTerrain& terrain(nanobind::handle h);
const GroupRules& rules(nanobind::handle h);
std::int64_t integer(nanobind::handle h, const std::string& name);
const Mech& mech(const Battle& battle, nanobind::handle h, const std::string& name);
Side side(nanobind::handle h, const std::string& name);
std::vector<std::int64_t> ids(nanobind::handle h, const std::string& name);
Groups groups(nanobind::handle h, const std::string& name);
std::string text(nanobind::handle h, const std::string& name);
// A list or tuple of exactly n items (the glue hands tables over in vocabulary order).
std::vector<nanobind::handle> fixed_list(nanobind::handle h, const std::string& name, std::size_t n);
std::int64_t at_least_one(nanobind::handle h, const std::string& name);
nanobind::list int_list(const std::vector<std::int64_t>& values);
nanobind::list groups_list(const Groups& groups);
}  // namespace perception_args

}  // namespace wargym::no_quarter
