// Decision points of a No Quarter battle (rules/no_quarter/battle/actions.py: DecisionKind,
// Decision). The actions themselves are not mirrored yet.
#pragma once

#include <cstdint>
#include <optional>

#include "../forces/vocab.hpp"

namespace wargym::no_quarter {

enum class DecisionKind : std::uint8_t {
    activate_group, choose_mech, mech_action, continue_move, assign_fire, free_move,
    charge_target, free_will, melee_declare, melee_target, choose_objective, face,
    lucky_reroll, marksman_location, lead_teams, split_group
};
inline constexpr Vocab<DecisionKind, 16> kDecisionKind{
    "DecisionKind",
    {"activate_group", "choose_mech", "mech_action", "continue_move", "assign_fire",
     "free_move", "charge_target", "free_will", "melee_declare", "melee_target",
     "choose_objective", "face", "lucky_reroll", "marksman_location", "lead_teams",
     "split_group"}};

// Who decides, what kind, about which mech (none: the side).
struct Decision {
    Side side{};
    DecisionKind kind{};
    std::optional<std::int64_t> mech;
};

}  // namespace wargym::no_quarter
