// Mirror of rules/no_quarter/battlefield/battlefield_gen.py: the skirmish's seeded scatter of
// terrain (generate_battlefield) and the deployment positions along an edge
// (deployment_points, rulings D1, D5), drawing from numpy's Generator (numpy_random.hpp) as the
// reference does, value for value.
//
// The terrain table (terrain_tables.terrain_config(): building sizes and armour ratings, road
// width, deep-water shore band) is handed in as TerrainGenTables by the Python glue
// (native/no_quarter/setup.py). The scatter's own shape numbers (feature counts and sizes, the
// 0.4 chance of a strip, 40 tries) are battlefield_gen.py's literals, not the book's: they are
// named below as kGen* and checked by the agreement tests.
#pragma once

#include "../sight_movement/pyfloat.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../numpy_random.hpp"
#include "../sight_movement/geometry.hpp"
#include "terrain.hpp"

namespace wargym::no_quarter {

// What battlefield_gen.py reads from terrain_config() (§19.4.1, §19.4.2, §19.7.1, §19.8).
struct TerrainGenTables {
    std::vector<std::int64_t> building_armors;  // sorted(cfg.building_armor.values())
    double building_max_w = 0.0;                // cfg.building_max_size
    double building_max_h = 0.0;
    double road_width = 0.0;                    // cfg.road_width
    double deep_water_shore_band = 0.0;         // cfg.deep_water_shore_band (Battlefield.index)
};

// Python's round(x, ndigits) is sight_movement/pyfloat.hpp's pyround.

// generate_battlefield(rng, width=, height=, n_features=, night=, inclement_weather=).
// Throws StateError("n_features") for a negative count, as the reference does.
Battlefield generate_battlefield(NumpyGenerator& rng, const TerrainGenTables& tables,
                                 double width = 36.0, double height = 36.0,
                                 std::optional<std::int64_t> n_features = std::nullopt,
                                 bool night = false, bool inclement_weather = false);

// deployment_points(bf, edge, n, rng, radius=, depth=): n legal, non-overlapping base centres
// within depth of the edge. Throws StateError when they do not fit, ArgumentError("edge") for
// an edge not in EDGES.
std::vector<Point> deployment_points(const Battlefield& bf, const TerrainGenTables& tables,
                                     const std::string& edge, std::int64_t n,
                                     NumpyGenerator& rng, double radius = 0.5,
                                     double depth = 6.0);

}  // namespace wargym::no_quarter
