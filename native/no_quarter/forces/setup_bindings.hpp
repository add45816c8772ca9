// The skirmish set-up's bindings (setup_bindings.cpp), called by native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter {

// Declares SetupTables, new_skirmish_setup and generate_battlefield in the no_quarter submodule.
void bind_setup(nanobind::module_& g);

}  // namespace wargym::no_quarter
