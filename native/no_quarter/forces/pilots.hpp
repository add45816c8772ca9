// Mirror of the pilot-derived numbers the battle flow reads (rules/no_quarter/forces/pilots.py,
// whose activation_rep is forces/data.py's): a group leader's activation Rep and the
// activation roll (§14.0). Pilot generation (§9) is the set-up's and not mirrored here.
// The modifiers come from activation.yaml through wargym.native.no_quarter.perception.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "vocab.hpp"

namespace wargym::no_quarter {

// kAttributes (len(Attribute)) is vocab.hpp's.

// records.ActivationRules' attribute modifiers, by Attribute (vocab order).
struct ActivationTables {
    std::array<std::int64_t, kAttributes> attribute_rep{};  // attribute_rep.get(a, 0)
    std::array<std::optional<std::int64_t>, kAttributes> only_when_group_size{};
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
