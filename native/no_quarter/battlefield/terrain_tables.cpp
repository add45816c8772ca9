// The battlefield's derived tables (terrain_tables.hpp): Battlefield.index and the glue's
// sight / cover / move / protection tables, built from the native battle's Feature list.
#include "terrain_tables.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "../forces/data.hpp"

namespace wargym::no_quarter {

namespace {

Rect rect_of(const Feature& f) { return {f.x0, f.y0, f.x1, f.y1}; }

bool same_rect(const Rect& a, const Rect& b) { return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1; }

bool terrain_same_point(Point a, Point b) { return a.x == b.x && a.y == b.y; }

bool same_feature(const Feature& a, const Feature& b) {
    if (a.kind != b.kind || a.x0 != b.x0 || a.y0 != b.y0 || a.x1 != b.x1 || a.y1 != b.y1 ||
        a.building_armor != b.building_armor || a.well_lit != b.well_lit || a.crest.has_value() != b.crest.has_value()) {
        return false;
    }
    return !a.crest || (terrain_same_point(a.crest->first, b.crest->first) && terrain_same_point(a.crest->second, b.crest->second));
}

std::size_t kind_index(Terrain kind) { return static_cast<std::size_t>(kind); }

}  // namespace

bool same_battlefield(const Battlefield& a, const Battlefield& b) {
    if (&a == &b) return true;
    if (a.width != b.width || a.height != b.height || a.night != b.night ||
        a.inclement_weather != b.inclement_weather || a.features.size() != b.features.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.features.size(); ++i) {
        if (!same_feature(a.features[i], b.features[i])) return false;
    }
    return true;
}

// Battlefield.index, then sight_terrain / cover_terrain / move_terrain / fire_tables' rectangles.
void build_battlefield_tables(RulesTables& tables, std::shared_ptr<const Battlefield> field) {
    const Battlefield& bf = *field;
    const TerrainNumbers& n = tables.terrain_numbers;
    const double band = n.deep_water_shore_band;
    std::vector<Rect> buildings, woods, rivers, deep, deep_core, roads, well_lit;
    std::vector<Rect> concealing, cover_moving, cover_stationary;
    std::vector<Hill> hills;
    for (const Feature& f : bf.features) {  // by_kind: each kind's features in table order
        const Rect r = rect_of(f);
        switch (f.kind) {
            case Terrain::building: buildings.push_back(r); break;
            case Terrain::woods: woods.push_back(r); break;
            case Terrain::hill:
                hills.push_back({r, f.crest.has_value(), f.crest ? f.crest->first : Point{0.0, 0.0},
                                 f.crest ? f.crest->second : Point{0.0, 0.0}});
                break;
            case Terrain::river: rivers.push_back(r); break;
            case Terrain::deep_water:
                deep.push_back(r);
                // index.deep_core: the water beyond the shore band, where it has any
                if (f.x1 - f.x0 > 2 * band && f.y1 - f.y0 > 2 * band) {
                    deep_core.push_back({f.x0 + band, f.y0 + band, f.x1 - band, f.y1 - band});
                }
                break;
            case Terrain::road: roads.push_back(r); break;
            default: break;
        }
        if (f.well_lit) well_lit.push_back(r);
        const std::size_t k = kind_index(f.kind);
        if (n.concealing[k]) concealing.push_back(r);           // sight._rects(bf, "concealing")
        if (n.cover_moving[k]) cover_moving.push_back(r);       // sight._rects(bf, "cover_moving")
        if (n.cover_stationary[k]) cover_stationary.push_back(r);  // sight._rects(bf, "cover_stationary")
    }
    // index.half_speed: every non-building feature that costs more than 1 per inch; wet: its
    // rectangle is a river's or deep water's (movement.move_terrain)
    std::vector<HalfSpeed> half;
    for (const Feature& f : bf.features) {
        const double cost = n.cost_per_inch[kind_index(f.kind)];
        if (f.kind == Terrain::building || !(cost > 1.0)) continue;
        const Rect r = rect_of(f);
        const auto same = [&](const Rect& w) { return same_rect(w, r); };
        const bool wet = std::any_of(rivers.begin(), rivers.end(), same) || std::any_of(deep.begin(), deep.end(), same);
        half.push_back({r, cost, wet});
    }

    SightTerrain& s = tables.sight;  // its config stays
    s.buildings = buildings;
    s.hills = hills;
    s.woods = woods;
    s.deep_core = deep_core;
    s.well_lit = well_lit;
    s.night = bf.night;
    s.inclement_weather = bf.inclement_weather;

    CoverTerrain& c = tables.cover;  // its behind_* flags stay
    c.concealing = concealing;
    c.cover_moving = cover_moving;
    c.cover_stationary = cover_stationary;

    MoveTerrain& m = tables.move;  // its MoveTables stay
    m.width = bf.width;
    m.height = bf.height;
    m.buildings = std::move(buildings);
    m.half_speed = std::move(half);
    m.deep_core = std::move(deep_core);
    m.roads = std::move(roads);
    m.concealing = std::move(concealing);
    m.cover_moving = std::move(cover_moving);
    m.cover_stationary = std::move(cover_stationary);
    m.sight = s;

    ProtectionTables& p = tables.protection;  // its location sets and band stay
    p.hills = std::move(hills);
    p.rivers = std::move(rivers);
    p.deep = std::move(deep);

    tables.terrain_of = std::move(field);
}

}  // namespace wargym::no_quarter
