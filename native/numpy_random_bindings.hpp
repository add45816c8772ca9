// The numpy Generator mirror's bindings (numpy_random_bindings.cpp); the state-dict converters
// are shared with the set-up's bindings.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "numpy_random.hpp"

namespace wargym {

// rng.bit_generator.state (a PCG64 dict) -> Pcg64State; bad input raises naming ``name``.
Pcg64State pcg64_state_from_dict(nanobind::handle value, const std::string& name);
nanobind::dict pcg64_state_to_dict(const Pcg64State& state);
// Declares _core.NumpyGenerator.
void bind_numpy_random(nanobind::module_& m);

}  // namespace wargym
