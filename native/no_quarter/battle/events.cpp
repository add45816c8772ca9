// state.py Battle.apply over the native Battle: one function per branch, in the reference's
// order, and the apply_to hooks of events.py (DuckedBack, TeamJoined, MechSplitOff); those of
// non_player/np_events.py are in non_player/np_events.cpp. The NP and mission bookkeeping is
// plain JSON (serial.hpp's Json, immutable): a branch that changes it builds the changed object
// and shares the rest (events_edit.hpp).
#include "events.hpp"

#include <algorithm>
#include <string>

#include "../../errors.hpp"
#include "events_edit.hpp"

namespace wargym::no_quarter::events {

namespace {

using namespace detail;

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
