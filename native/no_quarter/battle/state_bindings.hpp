// The bindings of the native battle state (state_bindings.cpp), called by native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter {

// Declares Battle, StateLimits, vocabulary() and STATE_VERSION in the no_quarter submodule.
void bind_state(nanobind::module_& g);

}  // namespace wargym::no_quarter
