// The bindings of the FIRE handler (flow_fire_bindings.cpp), called by native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter {

// Declares _core.no_quarter.fire: FireTables, fire_unit, fire_options.
void bind_fire(nanobind::module_& g);

}  // namespace wargym::no_quarter
