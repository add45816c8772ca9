// The bindings of the FIRE handler (flow_fire_bindings.cpp), called by native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter {

// Declares _core.no_quarter.fire: FireTables, fire_unit, fire_options.
void bind_fire(nanobind::module_& g);

struct RulesTables;
// The native rule tables behind a FireTables object (rules_tables(bf)); anything else raises
// NativeTypeError naming ``name``. For binding files that cannot include forces/data.hpp.
const RulesTables& rules_tables_arg(nanobind::handle h, const char* name);

}  // namespace wargym::no_quarter
