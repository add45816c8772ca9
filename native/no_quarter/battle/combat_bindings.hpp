// The bindings of the combat resolvers (combat_bindings.cpp), called by native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter {

// Declares the submodule _core.no_quarter.combat: CombatTables, the resolvers of
// ranged_combat.py, reaction.py and melee.py, flow.roll_index and combat_vocabulary().
void bind_combat(nanobind::module_& g);

}  // namespace wargym::no_quarter
