// The table and its terrain as a battle state holds them (rules/no_quarter/battlefield/
// terrain.py: Feature, Battlefield). The derived indexes (per-kind lists, sight rectangles)
// are built elsewhere (sight_movement/sight.hpp's SightTerrain).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "../forces/vocab.hpp"
#include "../sight_movement/geometry.hpp"

namespace wargym::no_quarter {

// One terrain piece: an axis-aligned rectangle of one kind (§19, Appendix A).
struct Feature {
    Terrain kind{};
    double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
    std::int64_t building_armor = 0;             // buildings: 2-5, or 0 if not rated
    std::optional<std::pair<Point, Point>> crest;  // hills: the crest segment
    bool well_lit = false;
};

struct Battlefield {
    double width = 36.0;
    double height = 36.0;
    std::vector<Feature> features;
    bool night = false;
    bool inclement_weather = false;
};

}  // namespace wargym::no_quarter
