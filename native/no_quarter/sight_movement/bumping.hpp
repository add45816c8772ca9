// Mirror of rules/no_quarter/sight_movement/bumping.py: the bases a side plans its moves
// around (BattleOptions.unseen_bases, choice E5) and where a move stops on an unseen one.
//
// Plain inputs only (no sight.hpp here): the battle-reading bindings include this header next
// to battle/state.hpp, whose vocabulary also names a Side. The mechs in play come in as
// Sighter rows, the wrecks as points.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "geometry.hpp"

namespace wargym::no_quarter {

struct MoveTerrain;  // movement_geometry.hpp

// terrain.Body as the battle's mechs and wrecks give it.
struct BaseAt {
    std::int64_t id;
    double x, y, radius;
};

// What the fog reads of a mech in play (perception.line_between, hidden_pair).
struct Sighter {
    std::int64_t id = 0;
    int side = 0;  // vocab Side's index
    Point pos{0.0, 0.0};
    bool ews = false;        // Mech.has_functioning_ews
    bool duck_back = false;  // status is DUCK_BACK
    std::vector<std::int64_t> hidden_from;
};

// perception._bodies: every mech in play (in id order), then wreck i as id -1000 - i.
std::vector<BaseAt> all_bases(std::span<const Sighter> in_play, std::span<const Point> wrecks,
                              double radius);
// bumping.enemies_in_sight: the enemies of side some mech of side has a line of sight to.
std::vector<std::int64_t> enemies_in_sight(const MoveTerrain& t, std::span<const Sighter> in_play,
                                           std::span<const BaseAt> bases, int side, double radius);
// bumping.known_bodies (bump: false means unseen_bases == "block": every base).
std::vector<BaseAt> known_bodies(const MoveTerrain& t, std::span<const Sighter> in_play,
                                 std::span<const BaseAt> bases, int side, double radius, bool bump);
// bumping.planning_bodies: known_bodies without the mover.
std::vector<BaseAt> planning_bodies(const MoveTerrain& t, std::span<const Sighter> in_play,
                                    std::span<const BaseAt> bases, std::int64_t mover, int side,
                                    double radius, bool bump);

// MoveTerrain::tables.jump_backoff (for callers without movement_geometry.hpp).
double move_jump_backoff(const MoveTerrain& t);

struct Bump {
    Point to;
    std::int64_t base;
};
// bumping.bump: where a planned move of mover (of side, at start) to `to` stops on an unseen
// base; fog: unseen_bases == "bump".
std::optional<Bump> bump(const MoveTerrain& t, std::span<const Sighter> in_play,
                         std::span<const BaseAt> bases, std::int64_t mover, int side, Point start,
                         Point to, bool jump, double radius, bool fog);

}  // namespace wargym::no_quarter
