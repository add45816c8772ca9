// The part of rules/no_quarter/battlefield/sections.py the NP procedure reads (§0.2): the
// table-edge segments bordering sections, exit_point and exits_through (a break-through aimed
// at sections, Cestus V Mission 8). The nine-section grid is the reference's §0.2 formula.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../sight_movement/geometry.hpp"

namespace wargym::no_quarter {

// sections.EdgeSegment: ``edge`` from ``start`` to ``end`` along it.
struct EdgeSegment {
    std::string_view edge;
    double start = 0.0;
    double end = 0.0;
};

// sections.edge_segments: a section number outside 1-9 raises StateError("section") as
// section_rect does; width and height must be positive (StateError("table")).
std::vector<EdgeSegment> edge_segments(std::span<const std::int64_t> sections, double width, double height);
// sections.exit_point; an edge other than north/south/east/west raises StateError("edge").
Point exit_point(Point p, std::string_view edge, std::span<const std::int64_t> sections, double width,
                 double height, double margin);
// sections.exits_through (the same errors).
bool exits_through(Point p, std::string_view edge, std::span<const std::int64_t> sections, double width,
                   double height);

}  // namespace wargym::no_quarter
