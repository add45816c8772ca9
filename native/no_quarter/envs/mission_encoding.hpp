// Mirror of envs/no_quarter/mission_encoding.py's mission globals and PEF markers
// ("nq-obs-v4" = "nq-obs-v3" + MISSION_FIELDS): mission_features() and pef_markers(), read
// from the battle state's plain-JSON mission and NP parts. The names, scales and edges come
// from the reference module through the glue (MissionTables).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../battle/state.hpp"

namespace wargym::no_quarter {

struct MissionTables {
    std::vector<std::string> kinds;       // MISSION_KINDS
    std::vector<std::string> objectives;  // OBJECTIVES
    std::vector<std::int64_t> sections;   // SECTIONS
    std::vector<std::string> edges;       // codec.EDGES (viewer frame)
    std::vector<std::vector<std::int64_t>> player_exits;  // PLAYER_EXITS[kind] as EDGES indices
    std::string far, home;                // the unmirrored viewer's far and home edges
    std::int64_t mirror_edges = 0;        // the edge turn of a mirrored red viewer (2)
    double turn_scale = 0, pef_scale = 0, morale_scale = 0;
    std::int64_t fields = 0;              // len(MISSION_FIELDS)
};

// mission_encoding.mission_features: writes tables.fields values (all 0 outside a mission).
// A mission or NP part without the fields the reference reads throws ArgumentError("battle").
void mission_features(const Battle& battle, Side viewer, std::int64_t max_mechs, bool mirror,
                      const MissionTables& tables, float* out);

// mission_encoding.pef_markers: the PEF markers' positions (none without NP data).
std::vector<Point> pef_markers(const Battle& battle);

}  // namespace wargym::no_quarter
