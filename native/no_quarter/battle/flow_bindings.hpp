// The bindings of the typed frames and the flow skeleton (flow_bindings.cpp), called by
// native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter {

// Declares the _core.no_quarter.flow submodule.
void bind_flow(nanobind::module_& g);

}  // namespace wargym::no_quarter
