// The reader of CombatTables (data_combat.hpp) from the plain dict that native/no_quarter/combat.py
// builds out of load_rules(options) (data_combat_reader.cpp). Every key must be present, every
// table complete (as forces/data_combat.py's loaders require); a bad spec raises
// NativeTypeError / NativeArgumentError naming its path (``tables.cells[2]``).
#pragma once

#include <nanobind/nanobind.h>

#include "data_combat.hpp"

namespace wargym::no_quarter {

CombatTables read_combat_tables(nanobind::handle spec);

}  // namespace wargym::no_quarter
