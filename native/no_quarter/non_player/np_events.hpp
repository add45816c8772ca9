// The events of the solo-play enemy (rules/no_quarter/non_player/np_events.py: PEFs, NP groups,
// reinforcements, weather, the mission's end; §20, §22, §23) as plain structs (native/events.hpp),
// and the Battle.apply hooks of those that change the battle.
#pragma once

#include "../../events.hpp"
#include "../../serial.hpp"
#include "../battle/state.hpp"
#include "../forces/records.hpp"
#include "../forces/vocab.hpp"

namespace wargym::no_quarter::events {

// -- non_player/np_events.py (§20, §22, §23) ---------------------------------------------------
struct PefPlaced {
    Int pef = 0; Point pos; optional<Int> face; optional<Int> section; bool hidden = false;
    optional<Int> building;
    NQ_EVENT(PefPlaced) { NQ_REQ(pef) NQ_REQ(pos) NQ_REQ(face) NQ_REQ(section) NQ_REQ(hidden) NQ_REQ(building) }
};
struct PefMoved {
    Int pef = 0; Ints faces; Int passes = 0; Points path; optional<Int> toward;
    NQ_EVENT(PefMoved) { NQ_REQ(pef) NQ_REQ(faces) NQ_REQ(passes) NQ_REQ(path) NQ_REQ(toward) }
};
struct PefResolved {
    Int pef = 0; Ints triggering; Ints faces; Ints kept; Int passes = 0; string result;
    bool last_pef_rule = false; optional<Int> contact_face; Int enemies = 0;
    bool next_keep_lowest_two = false;
    NQ_EVENT(PefResolved) {
        NQ_REQ(pef) NQ_REQ(triggering) NQ_REQ(faces) NQ_REQ(kept) NQ_REQ(passes) NQ_REQ(result)
        NQ_REQ(last_pef_rule) NQ_REQ(contact_face) NQ_REQ(enemies) NQ_REQ(next_keep_lowest_two)
    }
};
// np_events.ArrivingMech: one mech entering play (a record inside MechsArrived, not an event).
struct ArrivingMech {
    Int id = 0; MechDesign design; Pilot pilot; Point pos; double heading = 0.0;
    optional<Rank> rank; optional<Int> block; Ints pilot_faces;
    NQ_EVENT(ArrivingMech) {
        NQ_REQ(id) NQ_REQ(design) NQ_REQ(pilot) NQ_REQ(pos) NQ_REQ(heading) NQ_REQ(rank)
        NQ_OPT(block) NQ_OPT(pilot_faces)
    }
};
struct MechsArrived {
    Side side{}; Int team = 0; string reason; vector<ArrivingMech> mechs; Ints class_faces;
    vector<Ints> class_dice;
    NQ_EVENT(MechsArrived) {
        NQ_REQ(side) NQ_REQ(team) NQ_REQ(reason) NQ_REQ(mechs) NQ_OPT(class_faces) NQ_OPT(class_dice)
    }
};
struct NpGroupSet {
    Int team = 0; Json state = Json::object({}); string reason;  // state: dict[str, Any]
    NQ_EVENT(NpGroupSet) { NQ_REQ(team) NQ_REQ(state) NQ_REQ(reason) }
};
struct NpTableRolled {
    string table; optional<Int> team; Ints faces; optional<Int> passes; string result;
    optional<Int> group_leader; optional<Int> target;
    NQ_EVENT(NpTableRolled) {
        NQ_REQ(table) NQ_REQ(team) NQ_REQ(faces) NQ_REQ(passes) NQ_REQ(result) NQ_OPT(group_leader)
        NQ_OPT(target)
    }
};
struct ReinforcementChecked {
    Side side{}; Ints faces; Int passes = 0; Ints table_faces; optional<Int> score; string unit;
    Int mechs = 0;
    NQ_EVENT(ReinforcementChecked) {
        NQ_REQ(side) NQ_REQ(faces) NQ_REQ(passes) NQ_REQ(table_faces) NQ_REQ(score) NQ_REQ(unit)
        NQ_REQ(mechs)
    }
};
struct WeatherChanged {
    Ints faces; Json weather = Json::object({}); bool night = false; bool inclement = false;
    NQ_EVENT(WeatherChanged) { NQ_REQ(faces) NQ_REQ(weather) NQ_REQ(night) NQ_REQ(inclement) }
};
struct MechWithdrew {
    Int mech = 0; string edge;
    NQ_EVENT(MechWithdrew) { NQ_REQ(mech) NQ_REQ(edge) }
};
struct MissionEnded {
    string status; string reason; Int turn = 0;
    NQ_EVENT(MissionEnded) { NQ_REQ(status) NQ_REQ(reason) NQ_REQ(turn) }
};

// The apply_to hooks (non_player/np_events.cpp): the NP and mission bookkeeping (battle.np,
// battle.mission, plain JSON) and the new mechs. NpTableRolled, ReinforcementChecked and
// MechWithdrew have none: the battle is unchanged.
void apply(Battle& battle, const PefPlaced& e);
void apply(Battle& battle, const PefMoved& e);
void apply(Battle& battle, const PefResolved& e);
void apply(Battle& battle, const MechsArrived& e);
void apply(Battle& battle, const NpGroupSet& e);
void apply(Battle& battle, const WeatherChanged& e);
void apply(Battle& battle, const MissionEnded& e);

}  // namespace wargym::no_quarter::events
