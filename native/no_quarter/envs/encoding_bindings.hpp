// The bindings of the native observation encoder (encoding_bindings.cpp), called by native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace wargym::no_quarter {

// Declares the submodule no_quarter.encoding (ObservationEncoder) in the no_quarter submodule.
void bind_encoding(nanobind::module_& g);

}  // namespace wargym::no_quarter
