// rules/no_quarter/non_player/np_events.py's apply_to hooks over the native Battle: the PEF
// markers, NP groups and counters of battle.np and the weather and outcome of battle.mission
// (plain JSON, changed copy on write), and the mechs that arrive (§20, §22, §23).
#include "np_events.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "../battle/events_edit.hpp"

namespace wargym::no_quarter::events {

using namespace detail;

void apply(Battle& b, const PefPlaced& e) {
    const Json& np = np_of(b);
    Json::Array pefs = array_at(key_of(np, "pefs", "battle.np"), "battle.np.pefs");
    pefs.push_back(Json::object({{"id", Json::integer(e.pef)},
                                 {"pos", point_json(e.pos)},
                                 {"building", e.building ? Json::integer(*e.building) : Json()}}));
    Json out = with_key(np, "pefs", Json::array(std::move(pefs)), "battle.np");
    out = with_key(out, "next_pef", max_with(key_of(out, "next_pef", "battle.np"), e.pef + 1, "battle.np.next_pef"),
                   "battle.np");
    if (e.building) {
        const Json::Array& used = array_at(key_of(out, "used_buildings", "battle.np"), "battle.np.used_buildings");
        const bool known = std::any_of(used.begin(), used.end(), [&](const Json& u) { return equals_int(u, *e.building); });
        if (!known) {
            Json::Array more = used;
            more.push_back(Json::integer(*e.building));
            out = with_key(out, "used_buildings", Json::array(std::move(more)), "battle.np");
        }
    }
    b.np = std::move(out);
}

void apply(Battle& b, const PefMoved& e) {
    const Json& np = np_of(b);
    const Json::Array& pefs = array_at(key_of(np, "pefs", "battle.np"), "battle.np.pefs");
    Json::Array moved = pefs;
    bool changed = false;
    for (Json& marker : moved) {
        if (equals_int(key_of(marker, "id", "battle.np.pefs"), e.pef)) {
            if (e.path.empty()) fail("PefMoved.path", "an empty path has no last point");
            marker = with_key(marker, "pos", point_json(e.path.back()), "battle.np.pefs");
            changed = true;
        }
    }
    if (changed) b.np = with_key(np, "pefs", Json::array(std::move(moved)), "battle.np");
}

void apply(Battle& b, const PefResolved& e) {
    const Json& np = np_of(b);
    Json::Array kept;
    for (const Json& marker : array_at(key_of(np, "pefs", "battle.np"), "battle.np.pefs")) {
        if (!equals_int(key_of(marker, "id", "battle.np.pefs"), e.pef)) kept.push_back(marker);
    }
    Json out = with_key(np, "pefs", Json::array(std::move(kept)), "battle.np");
    out = with_key(out, "keep_lowest_two", Json::boolean(e.next_keep_lowest_two), "battle.np");
    const Json& contact = key_of(out, "contact_so_far", "battle.np");
    if (!truthy(contact)) out = with_key(out, "contact_so_far", Json::boolean(e.result == "contact"), "battle.np");
    b.np = std::move(out);
}

// The mechs are created and form one group (§23.8.5 ruling). An id already in play is
// replaced in its place (a dict assignment); a new one takes its place in id order (the
// native Battle keeps its mechs sorted; the reference's dict puts it last).
void apply(Battle& b, const MechsArrived& e) {
    for (const ArrivingMech& m : e.mechs) {
        Mech mech;
        mech.id = m.id;
        mech.side = e.side;
        mech.record = std::make_shared<const MechRecord>(
            MechRecord{m.design.id + " #" + std::to_string(m.id), m.design, m.pilot});
        mech.rep = m.pilot.rep;
        mech.armor = m.design.armor;
        mech.speed = m.design.speed;
        mech.pos = m.pos;
        mech.heading = m.heading;
        mech.team = e.team;
        mech.rank = m.rank;
        auto it = std::lower_bound(b.mechs.begin(), b.mechs.end(), m.id,
                                   [](const Mech& x, Int key) { return x.id < key; });
        if (it != b.mechs.end() && it->id == m.id) *it = std::move(mech);
        else b.mechs.insert(it, std::move(mech));
    }
    if (e.mechs.empty()) fail("MechsArrived.mechs", "no mech arrived, so no leader");
    const Int leader = e.mechs.front().id;
    for (const ArrivingMech& m : e.mechs) set_key(b.group_of, m.id, leader);
    if (b.np.is_null()) return;
    const Int n = static_cast<Int>(e.mechs.size());
    Json np = with_key(b.np, "next_team", max_with(key_of(b.np, "next_team", "battle.np"), e.team + 1, "battle.np.next_team"),
                       "battle.np");
    const Json& np_side = key_of(np, "side", "battle.np");
    if (np_side.kind() == Json::Kind::string && np_side.as_string() == kSide[e.side]) {
        np = with_key(np, "revealed", plus(key_of(np, "revealed", "battle.np"), n, "battle.np.revealed"), "battle.np");
    } else if (has_key(np, "player_mechs_fielded", "battle.np")) {  // the player's fielded force (§22.0)
        np = with_key(np, "player_mechs_fielded",
                      plus(key_of(np, "player_mechs_fielded", "battle.np"), n, "battle.np.player_mechs_fielded"),
                      "battle.np");
    }
    b.np = std::move(np);
}

void apply(Battle& b, const NpGroupSet& e) {
    const Json& np = np_of(b);
    const Json& groups = key_of(np, "groups", "battle.np");
    b.np = with_key(np, "groups", with_key(groups, std::to_string(e.team), e.state, "battle.np.groups"), "battle.np");
}

void apply(Battle& b, const WeatherChanged& e) {
    Battlefield field = *b.battlefield;
    field.night = e.night;
    field.inclement_weather = e.inclement;
    b.battlefield = std::make_shared<const Battlefield>(std::move(field));
    if (!b.mission.is_null()) b.mission = with_key(b.mission, "weather", e.weather, "battle.mission");
}

void apply(Battle& b, const MissionEnded& e) {
    if (b.mission.is_null()) return;
    Json outcome = Json::object({{"status", Json::string(e.status)}, {"reason", Json::string(e.reason)}});
    b.mission = with_key(b.mission, "outcome", std::move(outcome), "battle.mission");
}

}  // namespace wargym::no_quarter::events
