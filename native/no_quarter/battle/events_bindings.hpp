// The bindings of the native events (events_bindings.cpp), called by native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter::events {

// Declares the events submodule of no_quarter: Event, apply, type_names, vocabulary.
void bind_events(nanobind::module_& g);

}  // namespace wargym::no_quarter::events
