// Mirror of envs/no_quarter/action_features.py; see action_features.hpp.
#include "action_features.hpp"

#include <algorithm>
#include <string>

#include "../../errors.hpp"
#include "../sight_movement/geometry.hpp"

namespace wargym::no_quarter {

namespace {

Rect rect_of(const Feature& f) { return {f.x0, f.y0, f.x1, f.y1}; }

// sight._inside over the features of the kinds flagged in `kinds`, in feature order
bool inside(const Battlefield& bf, const std::array<bool, 8>& kinds, Point p) {
    for (const Feature& f : bf.features) {
        if (kinds[static_cast<std::size_t>(f.kind)] && f.x0 <= p.x && p.x <= f.x1 && f.y0 <= p.y &&
            p.y <= f.y1) {
            return true;
        }
    }
    return false;
}

bool operable(const Mech& mech, std::size_t item) {
    return std::find(mech.inoperable.begin(), mech.inoperable.end(), static_cast<std::int64_t>(item)) ==
           mech.inoperable.end();
}

}  // namespace

// Mech.has_functioning_ews
bool has_functioning_ews(const Mech& mech, const FeatureTables& t) {
    const auto& items = mech.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (t.ews[static_cast<std::size_t>(items[i].item)] && operable(mech, i)) return true;
    }
    return false;
}

SightTerrain sight_terrain_of(const Battlefield& bf, const FeatureTables& tables) {
    SightTerrain t;
    const double band = tables.shore_band;
    for (const Feature& f : bf.features) {
        switch (f.kind) {
            case Terrain::building: t.buildings.push_back(rect_of(f)); break;
            case Terrain::woods: t.woods.push_back(rect_of(f)); break;
            case Terrain::hill:
                if (f.crest) {
                    t.hills.push_back({rect_of(f), true, f.crest->first, f.crest->second});
                } else {
                    t.hills.push_back({rect_of(f), false, {0.0, 0.0}, {0.0, 0.0}});
                }
                break;
            case Terrain::deep_water:  // Battlefield.index.deep_core
                if (f.x1 - f.x0 > 2 * band && f.y1 - f.y0 > 2 * band) {
                    t.deep_core.push_back({f.x0 + band, f.y0 + band, f.x1 - band, f.y1 - band});
                }
                break;
            default: break;
        }
        if (f.well_lit) t.well_lit.push_back(rect_of(f));
    }
    t.night = bf.night;
    t.inclement_weather = bf.inclement_weather;
    t.config = tables.sight;
    return t;
}

void check_feature_actions(const Battle& battle, std::span<const FeatureAction> table, std::int64_t n) {
    std::vector<bool> taken(static_cast<std::size_t>(n), false);
    for (const FeatureAction& a : table) {
        if (a.index < 0 || a.index >= n) {
            throw ArgumentError("actions", "index " + std::to_string(a.index) + " is not in 0.." +
                                               std::to_string(n - 1));
        }
        if (taken[static_cast<std::size_t>(a.index)]) {
            throw ArgumentError("actions", "index " + std::to_string(a.index) + " is listed twice");
        }
        taken[static_cast<std::size_t>(a.index)] = true;
        if (a.kind != FeatureActionKind::other && battle.mech(a.mech) == nullptr) {
            throw ArgumentError("actions", "mech " + std::to_string(a.mech) + " of index " +
                                               std::to_string(a.index) + " is not in the battle");
        }
    }
}

// action_features.action_features
void action_features(const Battle& battle, const SightTerrain& terrain, const FeatureTables& t,
                     std::span<const FeatureAction> table, std::int64_t n,
                     std::span<const std::int64_t> seen, float* out) {
    std::fill(out, out + kFeatureRows * static_cast<std::size_t>(n), 0.0F);
    if (table.empty()) return;
    const auto at = [&](std::size_t row, std::int64_t index) -> float& {
        return out[row * static_cast<std::size_t>(n) + static_cast<std::size_t>(index)];
    };
    std::vector<std::int64_t> ids(seen.begin(), seen.end());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::vector<const Mech*> foes;  // sorted(seen), in the battle and in play
    for (std::int64_t i : ids) {
        const Mech* m = battle.mech(i);
        if (m != nullptr && !m->removed) foes.push_back(m);
    }
    const Battlefield& bf = *battle.battlefield;
    const std::optional<Side> viewer =
        battle.decision ? std::optional<Side>(battle.decision->side) : std::nullopt;
    const double radius = battle.options->base_radius;
    // perception.bodies, then: own mechs, enemies in sight and wrecks block lines
    std::vector<Body> known;
    for (const Mech& m : battle.mechs) {
        if (m.removed) continue;
        if (std::binary_search(ids.begin(), ids.end(), m.id) || (viewer && m.side == *viewer)) {
            known.push_back({m.id, m.pos.x, m.pos.y, radius});
        }
    }
    for (std::size_t i = 0; i < battle.wrecks.size(); ++i) {
        known.push_back({-1000 - static_cast<std::int64_t>(i), battle.wrecks[i].x, battle.wrecks[i].y, radius});
    }
    std::vector<std::pair<std::int64_t, double>> reach_of;  // mech -> longest operable range
    for (const FeatureAction& action : table) {
        std::optional<Point> point;
        const Mech* mech = action.kind == FeatureActionKind::other ? nullptr : battle.mech(action.mech);
        switch (action.kind) {
            case FeatureActionKind::move: point = action.to; break;
            case FeatureActionKind::free_move: point = action.to ? *action.to : mech->pos; break;
            case FeatureActionKind::stay:
            case FeatureActionKind::fire_first: point = mech->pos; break;
            case FeatureActionKind::other: break;
        }
        if (point) {
            const Point p = *point;
            at(0, action.index) = inside(bf, t.concealing, p) ? 1.0F : 0.0F;  // is_concealed
            if (!foes.empty()) {
                std::vector<double> gaps;
                for (const Mech* foe : foes) gaps.push_back(distance(p, foe->pos));
                at(1, action.index) = static_cast<float>(
                    std::min(1.0, *std::min_element(gaps.begin(), gaps.end()) / t.table_size));
                auto known_reach = std::find_if(reach_of.begin(), reach_of.end(),
                                                [&](const auto& e) { return e.first == mech->id; });
                if (known_reach == reach_of.end()) {
                    double longest = 0.0;  // max((float(range or 0) ...), default=0.0)
                    bool any = false;
                    const auto& items = mech->design().items;
                    for (std::size_t w = 0; w < items.size(); ++w) {
                        if (!t.ranged[static_cast<std::size_t>(items[w].item)] || !operable(*mech, w)) continue;
                        const double r = static_cast<double>(items[w].range ? *items[w].range : 0);
                        if (!any || r > longest) longest = r;
                        any = true;
                    }
                    reach_of.emplace_back(mech->id, longest);
                    known_reach = reach_of.end() - 1;
                }
                const double reach = known_reach->second;
                std::int64_t within = 0;
                for (double g : gaps) within += g <= reach;
                at(2, action.index) =
                    static_cast<float>(static_cast<double>(within) / static_cast<double>(gaps.size()));
                const bool moved = action.kind == FeatureActionKind::move ||
                                   action.kind == FeatureActionKind::free_move || mech->moved > 0;
                std::int64_t exposed = 0, covered = 0;
                for (const Mech* foe : foes) {
                    const SightResult line = sight(terrain, foe->pos, p, foe->id, mech->id, known,
                                                   has_functioning_ews(*foe, t), radius);
                    if (!line.visible) continue;
                    ++exposed;
                    // sight.in_cover (§17.2, D12)
                    const bool cover = (t.behind_building_cover && line.building_blocked_lines > 0) ||
                                       (t.behind_mech_cover && line.mech_blocked_lines > 0) ||
                                       inside(bf, moved ? t.cover_moving : t.cover_stationary, p);
                    covered += cover;
                }
                const auto count = static_cast<double>(foes.size());
                at(4, action.index) = static_cast<float>(static_cast<double>(exposed) / count);
                at(5, action.index) = static_cast<float>(static_cast<double>(covered) / count);
            } else {
                at(1, action.index) = 1.0F;
            }
        }
        if (action.target) {
            const Mech* enemy = battle.mech(*action.target);
            if (enemy != nullptr) {
                std::int64_t now = 0, total = 0;
                for (std::size_t i = 0; i < kLocations; ++i) {
                    now += enemy->armor[i];
                    total += enemy->design().armor[i];
                }
                at(3, action.index) = static_cast<float>(
                    1.0 - static_cast<double>(now) / static_cast<double>(std::max<std::int64_t>(1, total)));
            }
        }
    }
}

}  // namespace wargym::no_quarter
