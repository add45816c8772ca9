// Mirror of the choices of rules/no_quarter/sight_movement/facing.py (§6.2, §6.2.1, D2, D5):
// the Face options and the built-in players' choice among them. HEADINGS and TWISTS come from
// the reference (facing.HEADINGS, perception.TWISTS) through the bindings. turn_to (which
// starts an In Sight) belongs to the flow and is not mirrored here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "geometry.hpp"

namespace wargym::no_quarter {

// actions.Face without the mech: heading nullopt keeps the leg heading.
struct FaceChoice {
    std::optional<double> heading;
    std::int64_t twist;
};

// facing.face_options: keep the heading, or (turn) face each other heading; with every twist.
std::vector<FaceChoice> face_options(double heading, bool turn, std::span<const double> headings,
                                     std::span<const std::int64_t> twists);
// facing.face_toward: the index of the face whose firing arc points closest to `point`
// (ties: no twist, then keeping the heading, then the first listed); nullopt when none.
std::optional<std::size_t> face_toward(std::span<const FaceChoice> faces, Point pos,
                                       double heading, Point point);

}  // namespace wargym::no_quarter
