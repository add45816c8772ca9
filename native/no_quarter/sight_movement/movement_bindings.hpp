// The bindings of the No Quarter movement mirrors (movement_bindings.cpp and
// battle/flow_mech_moves_bindings.cpp), called by native/bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

namespace wargym::no_quarter {

struct MoveTerrain;

// Declares the submodule no_quarter.movement: MoveTerrain, the geometry of
// movement_geometry.py, jump_landing.py, and (bind_flow_mech_moves) the move options.
void bind_movement(nanobind::module_& g);
// The move options, move_problem, planning_bodies and bump of a native Battle.
void bind_flow_mech_moves(nanobind::module_& m);
// The MoveTerrain a handle holds; NativeTypeError naming the argument otherwise.
const MoveTerrain& move_terrain_arg(nanobind::handle h, const std::string& name);

}  // namespace wargym::no_quarter
