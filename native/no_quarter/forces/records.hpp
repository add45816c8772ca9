// The immutable records a No Quarter battle holds (rules/no_quarter/forces/records.py):
// mounted items, mech designs and pilots. Plain structs; a Mech shares its records with its
// clones (as the reference's frozen dataclasses are shared).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vocab.hpp"

namespace wargym::no_quarter {

// records.py ChargeOutcome (§18.1): what a charged mech does, by its value.
enum class ChargeOutcome : std::uint8_t { target_holds_fire, target_fires, target_rush_shot };
inline constexpr Vocab<ChargeOutcome, 3> kChargeOutcome{
    "ChargeOutcome", {"no_fire", "fire", "rush_shot"}};

// ONE physical weapon or item on a mech (MountedItem, ruling D21).
struct MountedItem {
    ItemType item{};
    Location location{};
    std::int64_t wv = 0;
    std::optional<std::int64_t> range;  // None: melee weapon or misc item
    std::int64_t target = 0;
    std::int64_t impact = 0;
    std::string label;
    bool operator==(const MountedItem&) const = default;
};

// A mech as designed (MechDesign, §10.0); armour in Location order.
struct MechDesign {
    std::string id;
    std::string name;
    Faction faction{};
    std::int64_t mech_class = 0;
    std::int64_t speed = 0;
    std::array<std::int64_t, kLocations> armor{};
    std::vector<MountedItem> items;
    std::vector<std::string> notes;
    std::int64_t capacity = 0;
    std::int64_t ews_bonus = 0;
    bool operator==(const MechDesign&) const = default;
};

// A pilot (Pilot, §9.0): random attributes only; the racial one is implied by the race.
struct Pilot {
    std::string name;
    Faction faction{};
    Race race{};
    std::int64_t rep = 0;
    bool star = false;
    std::vector<Attribute> attributes;
    bool operator==(const Pilot&) const = default;
};

}  // namespace wargym::no_quarter
