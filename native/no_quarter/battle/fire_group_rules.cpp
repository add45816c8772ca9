// read_group_rules (fire_group_rules.hpp).
#include "fire_group_rules.hpp"

#include "../sight_movement/perception_bindings.hpp"

namespace wargym::no_quarter {

void read_group_rules(nanobind::handle h, LeaderTables& leaders, PerceptionTables& perception) {
    const GroupRules& rules = perception_args::rules(h);
    leaders = rules.leaders;
    perception = rules.perception;
}

}  // namespace wargym::no_quarter
