// The set-up events of force creation (rules/no_quarter/forces/setup_events.py: FreeCompanyRaces,
// PilotCreated; §9, §10.8.1) as plain structs (native/events.hpp). Battle.apply writes nothing
// for them.
#pragma once

#include "../../events.hpp"
#include "vocab.hpp"

namespace wargym::no_quarter::events {

// -- forces/setup_events.py (§9, §10.8.1) ------------------------------------------------------
struct FreeCompanyRaces {
    optional<Side> side; Int race_face = 0; Int mixing_face = 0; optional<Int> count_face;
    Ints extra_faces; vector<Race> races; Ints members;
    NQ_EVENT(FreeCompanyRaces) {
        NQ_REQ(side) NQ_REQ(race_face) NQ_REQ(mixing_face) NQ_REQ(count_face) NQ_REQ(extra_faces)
        NQ_REQ(races) NQ_REQ(members)
    }
};
struct PilotCreated {
    optional<Int> mech; string name; Faction faction{}; bool star = false; Race race{};
    Ints race_faces; Int rep = 0; optional<Int> rep_face; vector<Pair> attribute_faces;
    vector<Attribute> rolled; vector<std::array<string, 2>> picks; vector<Attribute> attributes;
    NQ_EVENT(PilotCreated) {
        NQ_REQ(mech) NQ_REQ(name) NQ_REQ(faction) NQ_REQ(star) NQ_REQ(race) NQ_REQ(race_faces)
        NQ_REQ(rep) NQ_REQ(rep_face) NQ_REQ(attribute_faces) NQ_REQ(rolled) NQ_REQ(picks)
        NQ_REQ(attributes)
    }
};

}  // namespace wargym::no_quarter::events
