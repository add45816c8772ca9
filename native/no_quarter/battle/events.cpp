// state.py Battle.apply over the native Battle: one function per branch, in the reference's
// order, and the apply_to hooks of events.py (DuckedBack, TeamJoined, MechSplitOff) and of
// non_player/np_events.py. The NP and mission bookkeeping is plain JSON (serial.hpp's Json,
// immutable): a hook that changes it builds the changed object and shares the rest.
#include "events.hpp"

#include <algorithm>
#include <string>

#include "../../errors.hpp"

namespace wargym::no_quarter::events {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
    throw wargym::StateError(path, reason);
}

// battle.mechs[id] (a KeyError in the reference).
Mech& mech_of(Battle& b, Int id) {
    auto it = std::lower_bound(b.mechs.begin(), b.mechs.end(), id,
                               [](const Mech& m, Int key) { return m.id < key; });
    if (it == b.mechs.end() || it->id != id) fail("battle.mechs", "no mech with id " + std::to_string(id));
    return *it;
}

// dict[int, int] assignment: an existing key keeps its place, a new one goes last.
void set_key(std::vector<std::pair<Int, Int>>& map, Int key, Int value) {
    for (auto& [k, v] : map) {
        if (k == key) {
            v = value;
            return;
        }
    }
    map.emplace_back(key, value);
}

// losses[side] += n (a KeyError where the side has no entry, as in the reference).
void add_loss(Battle& b, Side side, Int n) {
    for (std::uint8_t i = 0; i < b.losses.size; ++i) {
        if (b.losses.keys[i] == side) {
            b.losses.values[i] += n;
            return;
        }
    }
    fail("battle.losses", std::string("no entry for side ") + std::string(kSide[side]));
}

template <class T>
bool contains(const std::vector<T>& items, const T& value) {
    return std::find(items.begin(), items.end(), value) != items.end();
}

// -- plain JSON, copy on write -----------------------------------------------------------------
const Json::Object& object_at(const Json& j, const std::string& path) {
    if (j.kind() != Json::Kind::object) fail(path, "expected an object");
    return j.as_object();
}

const Json& key_of(const Json& j, std::string_view key, const std::string& path) {
    for (const auto& [k, v] : object_at(j, path)) {
        if (k == key) return v;
    }
    fail(path, "missing key '" + std::string(key) + "'");
}

bool has_key(const Json& j, std::string_view key, const std::string& path) {
    for (const auto& kv : object_at(j, path)) {
        if (kv.first == key) return true;
    }
    return false;
}

// obj[key] = value on a copy of the object: an existing key keeps its place.
Json with_key(const Json& j, std::string_view key, Json value, const std::string& path) {
    Json::Object out = object_at(j, path);
    for (auto& [k, v] : out) {
        if (k == key) {
            v = std::move(value);
            return Json::object(std::move(out));
        }
    }
    out.emplace_back(std::string(key), std::move(value));
    return Json::object(std::move(out));
}

const Json::Array& array_at(const Json& j, const std::string& path) {
    if (j.kind() != Json::Kind::array) fail(path, "expected a list");
    return j.as_array();
}

// Python truth of a JSON value (for `a or b`).
bool truthy(const Json& j) {
    switch (j.kind()) {
        case Json::Kind::null: return false;
        case Json::Kind::boolean: return j.as_bool();
        case Json::Kind::integer: return j.as_int() != 0;
        case Json::Kind::real: return j.as_real() != 0.0;
        case Json::Kind::string: return !j.as_string().empty();
        case Json::Kind::array: return !j.as_array().empty();
        case Json::Kind::object: return !j.as_object().empty();
    }
    return false;
}

// Python `j == value` for an int (True == 1 and 3.0 == 3, as in Python).
bool equals_int(const Json& j, Int value) {
    switch (j.kind()) {
        case Json::Kind::boolean: return static_cast<Int>(j.as_bool()) == value;
        case Json::Kind::integer: return j.as_int() == value;
        case Json::Kind::real: return j.as_real() == static_cast<double>(value);
        default: return false;
    }
}

// Python `max(j, value)` for a number (the first of equals is kept).
Json max_with(const Json& j, Int value, const std::string& path) {
    switch (j.kind()) {
        case Json::Kind::boolean: return value > static_cast<Int>(j.as_bool()) ? Json::integer(value) : j;
        case Json::Kind::integer: return value > j.as_int() ? Json::integer(value) : j;
        case Json::Kind::real: return static_cast<double>(value) > j.as_real() ? Json::integer(value) : j;
        default: fail(path, "expected a number");
    }
}

// Python `j + n` for a number.
Json plus(const Json& j, Int n, const std::string& path) {
    switch (j.kind()) {
        case Json::Kind::boolean: return Json::integer(static_cast<Int>(j.as_bool()) + n);
        case Json::Kind::integer: return Json::integer(j.as_int() + n);
        case Json::Kind::real: return Json::real(j.as_real() + static_cast<double>(n));
        default: fail(path, "expected a number");
    }
}

Json point_json(Point p) { return Json::array({Json::real(p.x), Json::real(p.y)}); }

const Json& np_of(const Battle& b) {
    if (b.np.is_null()) fail("battle.np", "the battle has no NP bookkeeping");
    return b.np;
}

// zip(groups, leaders, strict=True): every pair is written, then unequal lengths are refused.
void set_groups(Battle& b, const std::vector<Ints>& groups, const Ints& leaders, const char* type) {
    const std::size_t n = std::min(groups.size(), leaders.size());
    for (std::size_t i = 0; i < n; ++i) {
        for (Int member : groups[i]) set_key(b.group_of, member, leaders[i]);
    }
    if (groups.size() != leaders.size()) {
        fail(std::string(type) + ".leaders", "groups and leaders differ in length");
    }
}

}  // namespace

bool lost(const Mech& m) {
    if (m.status == Status::leave_battlefield) return true;
    return m.removed.has_value() && *m.removed != Removal::left_table;
}

// -- Battle.apply's branches -------------------------------------------------------------------
void apply(Battle& b, const MechMoved& e) {
    Mech& mech = mech_of(b, e.mech);
    if (e.path.empty()) fail("MechMoved.path", "an empty path has no last point");
    mech.pos = e.path.back();
    mech.heading = e.heading;
    mech.moved += e.inches;
    if (e.kind == "duck_back") mech.twist = 0;
    if (!b.np.is_null()) {  // a move may reveal a PEF (§20.3)
        const Json& due = key_of(b.np, "check_due", "battle.np");
        if (!truthy(due)) {
            const Json& np_side = key_of(b.np, "side", "battle.np");
            const bool other = np_side.kind() != Json::Kind::string || np_side.as_string() != kSide[mech.side];
            b.np = with_key(b.np, "check_due", Json::boolean(other), "battle.np");
        }
    }
}

void apply(Battle& b, const MechFaced& e) {
    Mech& mech = mech_of(b, e.mech);
    mech.heading = e.heading;
    mech.twist = e.twist;
}

void apply(Battle& b, const DamageRolled& e) {
    mech_of(b, e.target).armor[static_cast<std::size_t>(e.location)] = e.armor_after;
}

void apply(Battle& b, const CriticalHit& e) {
    Mech& mech = mech_of(b, e.mech);
    mech.speed = e.speed_after;
    for (Int item : e.items_lost) {
        if (!contains(mech.inoperable, item)) mech.inoperable.push_back(item);
    }
    if ((e.kind == "arm_blown_off" || e.kind == "leg_blown_off") && !contains(mech.lost_limbs, e.location)) {
        mech.lost_limbs.push_back(e.location);
    }
}

void apply(Battle& b, const ItemDisabled& e) {
    Mech& mech = mech_of(b, e.mech);
    for (Int item : e.items) {
        if (!contains(mech.inoperable, item)) mech.inoperable.push_back(item);
    }
}

void apply(Battle& b, const PilotTested& e) {
    Mech& mech = mech_of(b, e.mech);
    mech.rep = e.rep_after;
    mech.prone = mech.prone || e.knocked_down;
    mech.resilient_used = mech.resilient_used || e.resilient_used;
}

void apply(Battle& b, const StoodUp& e) { mech_of(b, e.mech).prone = false; }

void apply(Battle& b, const MechRemoved& e) {
    Mech& mech = mech_of(b, e.mech);
    const bool was_lost = lost(mech);
    mech.removed = e.reason;
    add_loss(b, mech.side, lost(mech) && !was_lost ? 1 : 0);  // counted once (§16.2)
    if (b.options->leave_wrecks && e.reason != Removal::left_table) b.wrecks.push_back(mech.pos);
}

void apply(Battle& b, const CheatedDeath& e) {
    Mech& mech = mech_of(b, e.mech);
    mech.rep = e.rep_after;
    mech.hard_as_nails_used = mech.hard_as_nails_used || e.via == "hard_as_nails";
}

void apply(Battle& b, const StatusChanged& e) {
    Mech& mech = mech_of(b, e.mech);
    const bool was_lost = lost(mech);
    if (mech.status != Status::leave_battlefield) mech.status = e.status;  // Leave is permanent (§16.3.3)
    if (lost(mech) && !was_lost) add_loss(b, mech.side, 1);  // lost from the moment (§16.3.3)
    mech.hidden_from.clear();  // a new status ends the last Duck Back's cover (§15.2.4.1)
}

void apply(Battle& b, const RepChanged& e) { mech_of(b, e.mech).rep = e.rep; }

void apply(Battle& b, const FlameLaid& e) {
    b.flames.push_back({e.start, e.end});
    mech_of(b, e.shooter).flamer_fired_turn = true;
}

void apply(Battle& b, const BuildingDamaged& e) { set_key(b.building_armor, e.feature, e.armor_after); }

// state.py rubble(): the building becomes rough ground (§19.4.2 ruling); a negative index
// counts from the end, as a Python list index does.
void apply(Battle& b, const BuildingDestroyed& e) {
    const Int n = static_cast<Int>(b.battlefield->features.size());
    const Int i = e.feature < 0 ? e.feature + n : e.feature;
    if (i < 0 || i >= n) fail("BuildingDestroyed.feature", "no feature " + std::to_string(e.feature));
    Battlefield field = *b.battlefield;
    const Feature old = field.features[static_cast<std::size_t>(i)];
    Feature rough;
    rough.kind = Terrain::rough;
    rough.x0 = old.x0;
    rough.y0 = old.y0;
    rough.x1 = old.x1;
    rough.y1 = old.y1;
    field.features[static_cast<std::size_t>(i)] = rough;
    b.battlefield = std::make_shared<const Battlefield>(std::move(field));
}

void apply(Battle& b, const LuckyReroll& e) { mech_of(b, e.mech).lucky_used = true; }

void apply(Battle& b, const TurnStarted& e) {
    b.turn = e.turn;
    for (Mech& mech : b.mechs) {
        mech.moved = 0.0;
        mech.flamer_fired_turn = false;
    }
}

void apply(Battle& b, const ActivationRolled& e) {
    b.dice = {};
    b.dice.insert(Side::blue, e.blue);
    b.dice.insert(Side::red, e.red);
    b.first_side = e.first;
}

void apply(Battle& b, const GroupsFormed& e) { set_groups(b, e.groups, e.leaders, "GroupsFormed"); }

void apply(Battle& b, const LeaderAppointed& e) {
    const auto rank = kRank.find(e.rank);
    if (!rank) fail("LeaderAppointed.rank", "'" + e.rank + "' is not a valid Rank");
    mech_of(b, e.mech).rank = *rank;
}

void apply(Battle& b, const MechLeftTable& e) {
    if (b.mission.is_null()) return;
    const Json& edges = key_of(b.mission, "exit_edges", "battle.mission");
    b.mission = with_key(b.mission, "exit_edges",
                         with_key(edges, std::to_string(e.mech), Json::string(e.edge), "battle.mission.exit_edges"),
                         "battle.mission");
}

void apply(Battle& b, const BattleEnded& e) {
    b.over = true;
    b.winner = e.winner;
    b.end_reason = e.reason;
}

// -- the apply_to hooks of events.py ------------------------------------------------------------
void apply(Battle& b, const DuckedBack& e) {
    Mech& mech = mech_of(b, e.mech);
    mech.hidden_from.clear();
    if (e.in_cover) mech.hidden_from.push_back(e.cause);
}

void apply(Battle& b, const TeamJoined& e) {
    for (Int member : e.members) set_key(b.group_of, member, e.leader);
}

void apply(Battle& b, const MechSplitOff& e) { set_groups(b, e.groups, e.leaders, "MechSplitOff"); }

// -- the apply_to hooks of np_events.py ---------------------------------------------------------
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

void apply(Battle& b, const Event& event) {
    std::visit([&](const auto& e) { apply(b, e); }, event);
}

std::string_view type_name(const Event& event) {
    return std::visit([](const auto& e) { return std::remove_cvref_t<decltype(e)>::kType; }, event);
}

namespace {
template <std::size_t... I>
std::vector<std::string_view> names_of(std::index_sequence<I...>) {
    return {std::variant_alternative_t<I, Event>::kType...};
}
}  // namespace

std::vector<std::string_view> type_names() {
    return names_of(std::make_index_sequence<std::variant_size_v<Event>>{});
}

}  // namespace wargym::no_quarter::events
