// Mirror of rules/no_quarter/forces/pilots.py's pilot generation (see pilots.hpp).
#include "pilots.hpp"

#include <algorithm>

#include "../../errors.hpp"

namespace wargym::no_quarter {

namespace {

// One die, as `(face,) = dice.roll(1)`.
std::int64_t roll_one(Dice& dice) { return dice.roll(1).at(0); }

template <class T>
const T& at_face(const std::vector<T>& row, std::int64_t face, const char* table) {
    if (face < 1 || static_cast<std::size_t>(face) > row.size()) {
        throw ArgumentError("tables", std::string(table) + " has no row for face " +
                                          std::to_string(face));
    }
    return row[static_cast<std::size_t>(face - 1)];
}

bool holds(const std::vector<Race>& races, Race r) {
    return std::find(races.begin(), races.end(), r) != races.end();
}

// roll_race(rules, faction, dice, company)
Race roll_race(const PilotTables& t, Faction faction, Dice& dice,
               const FreeCompanyRacesEvent* company, std::vector<std::int64_t>& faces) {
    const auto& fixed = t.faction_race[static_cast<std::size_t>(faction)];
    if (fixed) return *fixed;
    if (company != nullptr && !company->mixed()) return company->races.at(0);
    while (true) {
        const std::int64_t face = roll_one(dice);
        faces.push_back(face);
        const Race race = at_face(t.free_company_race_roll, face, "free_company_race_roll");
        if (company == nullptr || holds(company->races, race)) return race;
    }
}

// roll_rep(rules, faction, race, dice): table 9.4.2; Xeog pilots read the Xeog row.
std::int64_t roll_rep(const PilotTables& t, Faction faction, Race race, std::int64_t face) {
    const std::vector<std::int64_t>& row =
        race == Race::xeog ? t.pilot_rep_xeog : t.pilot_rep[static_cast<std::size_t>(faction)];
    return at_face(row, face, "pilot_rep");
}

// preference_rank(rules, attribute): Choice ranks above all (-1), then D35's list.
std::int64_t preference_rank(const PilotTables& t, Attribute a) {
    if (t.choose_any[static_cast<std::size_t>(a)]) return -1;
    const auto it = std::find(t.preference.begin(), t.preference.end(), a);
    if (it == t.preference.end()) {
        throw ArgumentError("tables", std::string(kAttribute[a]) +
                                          " is not in the attribute preference");
    }
    return it - t.preference.begin();
}

// _chosen_options(rules, exclude, star)
std::vector<Attribute> chosen_options(const PilotTables& t, const std::vector<Attribute>& exclude,
                                      bool star) {
    std::vector<Attribute> out;
    for (Attribute a : t.preference) {
        if (std::find(exclude.begin(), exclude.end(), a) != exclude.end()) continue;
        if (star && t.star_rerolls[static_cast<std::size_t>(a)]) continue;
        out.push_back(a);
    }
    return out;
}

// _Creation: one pilot's attribute rolls and D35's picks.
struct Creation {
    const PilotTables& t;
    Dice& dice;
    bool star;
    PilotCreatedEvent& event;

    Attribute roll_attribute() {
        while (true) {
            const std::vector<int> two = dice.roll(2);
            const std::int64_t first = two.at(0);
            const std::int64_t second = two.at(1);
            event.attribute_faces.emplace_back(first, second);
            const Attribute a = at_face(at_face(t.attribute_table, first, "attribute_table"),
                                        second, "attribute_table");
            if (!(star && t.star_rerolls[static_cast<std::size_t>(a)])) {
                event.rolled.push_back(a);
                return a;
            }
        }
    }

    // _Creation.ask with d35_chooser: the option of lowest preference rank (the first such).
    Attribute ask(const char* kind, const std::vector<Attribute>& options) {
        if (options.empty()) throw ArgumentError("tables", "no attribute to choose");
        if (options.size() == 1) return options[0];
        Attribute best = options[0];
        std::int64_t best_rank = preference_rank(t, best);
        for (std::size_t i = 1; i < options.size(); ++i) {
            const std::int64_t r = preference_rank(t, options[i]);
            if (r < best_rank) {
                best = options[i];
                best_rank = r;
            }
        }
        event.picks.emplace_back(kind, best);
        return best;
    }

    // _Creation.attributes: §9.6.1-4.
    std::vector<Attribute> attributes(Race race) {
        const std::int64_t rolls = t.random_attribute_rolls[static_cast<std::size_t>(race)];
        std::vector<Attribute> candidates;  // dict.fromkeys: first occurrences, in order
        for (std::int64_t i = 0; i < rolls; ++i) {
            const Attribute a = roll_attribute();
            if (std::find(candidates.begin(), candidates.end(), a) == candidates.end()) {
                candidates.push_back(a);
            }
        }
        std::vector<Attribute> ranked = candidates;
        std::stable_sort(ranked.begin(), ranked.end(), [this](Attribute a, Attribute b) {
            return preference_rank(t, a) < preference_rank(t, b);
        });
        Attribute first = ask("keep_better", ranked);
        if (t.choose_any[static_cast<std::size_t>(first)]) {
            first = ask("choice", chosen_options(t, {}, star));
        }
        if (!star) return {first};
        const Attribute second = ask("star_second", chosen_options(t, {first}, true));
        return {first, second};
    }
};

}  // namespace

std::optional<FreeCompanyRacesEvent> roll_company_races(const PilotTables& t, Faction faction,
                                                        Dice& dice, std::optional<Side> side,
                                                        std::vector<std::int64_t> members) {
    if (t.faction_race[static_cast<std::size_t>(faction)] ||
        t.free_company_races != FreeCompanyRaces::company) {
        return std::nullopt;
    }
    const std::vector<Race>& table = t.free_company_race_roll;
    FreeCompanyRacesEvent e;
    e.side = side;
    e.members = std::move(members);
    e.race_face = roll_one(dice);
    e.mixing_face = roll_one(dice);
    e.races.push_back(at_face(table, e.race_face, "free_company_race_roll"));
    if (std::find(t.mixed_faces.begin(), t.mixed_faces.end(), e.mixing_face) != t.mixed_faces.end()) {
        const std::int64_t count_face = roll_one(dice);
        e.count_face = count_face;
        std::vector<Race> every;  // dict.fromkeys(table)
        for (Race r : table) {
            if (!holds(every, r)) every.push_back(r);
        }
        const std::int64_t wanted = at_face(t.race_count, count_face, "free_company_mixing");
        if (wanted >= static_cast<std::int64_t>(every.size())) {
            for (Race r : every) {
                if (!holds(e.races, r)) e.races.push_back(r);
            }
        }
        while (static_cast<std::int64_t>(e.races.size()) < wanted) {
            const std::int64_t face = roll_one(dice);
            e.extra_faces.push_back(face);
            const Race r = at_face(table, face, "free_company_race_roll");
            if (!holds(e.races, r)) e.races.push_back(r);
        }
    }
    return e;
}

std::pair<Pilot, PilotCreatedEvent> new_pilot_logged(const PilotTables& t, Faction faction,
                                                     Dice& dice, bool star, bool use_attributes,
                                                     const std::string& name,
                                                     const FreeCompanyRacesEvent* company,
                                                     std::optional<std::int64_t> mech) {
    PilotCreatedEvent event;
    event.mech = mech;
    event.name = name;
    event.faction = faction;
    event.star = star;
    const Race race = roll_race(t, faction, dice, company, event.race_faces);
    event.race = race;
    if (star) {
        event.rep = t.star_rep;
    } else {
        const std::int64_t face = roll_one(dice);
        event.rep_face = face;
        event.rep = roll_rep(t, faction, race, face);
    }
    if (use_attributes) {
        Creation creation{t, dice, star, event};
        event.attributes = creation.attributes(race);
    }
    Pilot pilot{name, faction, race, event.rep, star, event.attributes};
    return {std::move(pilot), std::move(event)};
}

// data.activation_rep (pilots.py re-exports it).
std::int64_t activation_rep(const ActivationTables& tables, std::int64_t rep,
                            std::span<const Attribute> attributes, std::int64_t group_size) {
    std::int64_t total = rep;
    std::array<bool, kAttribute.size> counted{};  // set(attributes): each attribute once
    for (Attribute attribute : attributes) {
        const auto i = static_cast<std::size_t>(attribute);
        if (counted[i]) continue;
        counted[i] = true;
        const auto& only = tables.only_when_group_size[i];
        if (!only || *only == group_size) total += tables.attribute_rep[i];
    }
    return total;
}

}  // namespace wargym::no_quarter
