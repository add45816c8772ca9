// What the movement mirrors read from a Battlefield (its index) and from the terrain, cover and
// move tables: MoveTerrain, built by the Python glue wargym.native.no_quarter.movement, so no
// rate, band or distance of the books is written down in C++ (movement_geometry.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "geometry.hpp"
#include "sight.hpp"

namespace wargym::no_quarter {

// The four table edges in terrain.EDGES order.
enum class Edge : std::uint8_t { north, south, east, west };
inline constexpr const char* kEdgeNames[4] = {"north", "south", "east", "west"};

// Numbers the movement reads from the reference's tables and modules, handed in by the glue.
struct MoveTables {
    double deep_water_inches_per_turn = 0.0;  // terrain_config() (§19.7.1: 2")
    bool road_per_inch = false;               // terrain_config().road_per_inch (ruling 19.8)
    bool behind_building_cover = false;       // cover_config() (§17.2)
    bool behind_mech_cover = false;
    double reverse_fraction = 0.0;            // flow_mech.REVERSE_FRACTION (§15.2.2, D23)
    double near = 0.0;                        // game.NEAR (one option per near point)
    double landing_step = 0.0;                // jump_landing.LANDING_STEP
    double bump_gap = 0.0;                    // bumping.BUMP_GAP (choice E5)
    double jump_backoff = 0.0;                // bumping.JUMP_BACKOFF
};

// One entry of Battlefield.index.half_speed; wet: its rectangle is a river's or deep water's.
struct HalfSpeed {
    Rect rect;
    double rate;
    bool wet;
};

struct MoveTerrain {
    double width = 36.0;
    double height = 36.0;
    std::vector<Rect> buildings;         // index.building_rects
    std::vector<HalfSpeed> half_speed;   // index.half_speed
    std::vector<Rect> deep_core;         // index.deep_core (open rectangles)
    std::vector<Rect> roads;             // index.roads' rectangles
    std::vector<Rect> concealing;        // sight._rects(bf, "concealing")
    std::vector<Rect> cover_moving;      // sight._rects(bf, "cover_moving")
    std::vector<Rect> cover_stationary;  // sight._rects(bf, "cover_stationary")
    SightTerrain sight;                  // for Duck Back's and the fog's lines of sight
    MoveTables tables;
};

// roads.Span: cost per inch over a parameter interval of a segment.
struct Span {
    double t0, t1, rate;
};

}  // namespace wargym::no_quarter
