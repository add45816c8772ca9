// The bindings of the REACT, CHARGE, MELEE and CHARGES handlers (flow_melee_bindings.cpp),
// called by native/bindings.cpp after bind_fire (they take its FireTables).
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter {

// Declares _core.no_quarter.melee_flow: with_charge_numbers, unit, options.
void bind_melee_flow(nanobind::module_& g);

}  // namespace wargym::no_quarter
