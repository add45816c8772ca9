// Mirror of rules/no_quarter/forces/pilots.py: the activation Rep the battle flow reads
// (activation_rep, may_activate; the modifiers come from activation.yaml through
// wargym.native.no_quarter.perception) and the pilot generation as the set-up plays it (§9,
// §10.8.1, E25): a Free Company's races (roll_company_races) and each pilot's race, Rep and
// random attributes (new_pilot_logged with D35's chooser: the skirmish's forces have none of
// their own). Every die comes from a wargym::Dice, the same faces in the same order, and the
// set-up events (setup_events.py: FreeCompanyRaces, PilotCreated) are plain records.
//
// The tables (table 9.4.2's Rep rows, the race and mixing rolls, the attribute table, D35's
// preference list, ...) come from forces/data.load_rules through the Python glue as PilotTables.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../../dice.hpp"
#include "../battle/state.hpp"
#include "records.hpp"
#include "vocab.hpp"

namespace wargym::no_quarter {

// What pilot generation reads from NoQuarterRules, indexed by the C++ enums.
struct PilotTables {
    std::array<std::optional<Race>, kFaction.size> faction_race{};  // None: rolled (Free Company)
    // rules.pilot_rep by row: a faction's value, or "xeog"; a missing row is an empty vector
    std::array<std::vector<std::int64_t>, kFaction.size> pilot_rep{};
    std::vector<std::int64_t> pilot_rep_xeog;
    std::int64_t star_rep = 0;
    std::vector<Race> free_company_race_roll;     // by face - 1
    std::vector<std::int64_t> mixed_faces;        // free_company_mixing.mixed_faces
    std::vector<std::int64_t> race_count;         // free_company_mixing.race_count, by face - 1
    std::vector<std::vector<Attribute>> attribute_table;  // [first - 1][second - 1]
    std::array<bool, kAttribute.size> star_rerolls{};     // rules.effect(a).star_rerolls
    std::array<bool, kAttribute.size> choose_any{};       // rules.effect(a).choose_any
    std::vector<Attribute> preference;            // rules.attribute_preference (D35)
    std::array<std::int64_t, kRace.size> random_attribute_rolls{};  // racial[race]
    FreeCompanyRaces free_company_races = FreeCompanyRaces::company;  // rules.options
};

// setup_events.FreeCompanyRaces (§10.8.1, E25).
struct FreeCompanyRacesEvent {
    std::optional<Side> side;
    std::int64_t race_face = 0;
    std::int64_t mixing_face = 0;
    std::optional<std::int64_t> count_face;
    std::vector<std::int64_t> extra_faces;
    std::vector<Race> races;
    std::vector<std::int64_t> members;
    bool mixed() const { return races.size() > 1; }
};

// setup_events.PilotCreated (§9).
struct PilotCreatedEvent {
    std::optional<std::int64_t> mech;
    std::string name;
    Faction faction{};
    bool star = false;
    Race race{};
    std::vector<std::int64_t> race_faces;
    std::int64_t rep = 0;
    std::optional<std::int64_t> rep_face;
    std::vector<std::pair<std::int64_t, std::int64_t>> attribute_faces;
    std::vector<Attribute> rolled;
    std::vector<std::pair<std::string, Attribute>> picks;  // (PickKind value, attribute)
    std::vector<Attribute> attributes;
};

// roll_company_races(rules, faction, dice, side=, members=): nullopt (no die) unless the
// faction's race is rolled and free_company_races is "company".
std::optional<FreeCompanyRacesEvent> roll_company_races(const PilotTables& t, Faction faction,
                                                        Dice& dice, std::optional<Side> side,
                                                        std::vector<std::int64_t> members);

// new_pilot_logged(rules, faction, dice, star=, use_attributes=, name=, chooser=None,
// company=, mech=): race, Rep (Stars: star_rep), then the attributes picked by D35.
std::pair<Pilot, PilotCreatedEvent> new_pilot_logged(const PilotTables& t, Faction faction,
                                                     Dice& dice, bool star, bool use_attributes,
                                                     const std::string& name,
                                                     const FreeCompanyRacesEvent* company,
                                                     std::optional<std::int64_t> mech);

// -- the activation Rep (§14.0) ---------------------------------------------------------------
// records.ActivationRules' attribute modifiers, by Attribute (vocab order).
struct ActivationTables {
    std::array<std::int64_t, kAttribute.size> attribute_rep{};  // attribute_rep.get(a, 0)
    std::array<std::optional<std::int64_t>, kAttribute.size> only_when_group_size{};
};

// data.activation_rep (re-exported by pilots.py): Rep plus each distinct attribute's
// modifier, those with only_when_group_size only in a group of that size (§14.0).
std::int64_t activation_rep(const ActivationTables& tables, std::int64_t rep,
                            std::span<const Attribute> attributes, std::int64_t group_size);

// pilots.may_activate: the leader's activation Rep >= the side's die (§14.0).
inline bool may_activate(std::int64_t leader_activation_rep, std::int64_t side_die) {
    return leader_activation_rep >= side_die;
}

}  // namespace wargym::no_quarter
