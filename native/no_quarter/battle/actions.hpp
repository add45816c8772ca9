// Decision points and actions of a No Quarter battle (rules/no_quarter/battle/actions.py).
//
// DecisionKind/Decision: the pending decision. Every action dataclass of the reference is a
// plain struct here with the same fields in the same order, and `Action` is a std::variant of
// them in ACTION_CLASSES order (kActionNames gives each alternative's Python class name).
//
//   * equality: operator== compares the type and every field, as the frozen dataclass's
//     __eq__ does (floats as doubles: 0.0 == -0.0; an int heading of a Python action is
//     read as the float it equals, so Stay(1, 90) and Stay(1, 90.0) are one action, as in Python);
//   * ActionHash / action_hash(): a hash consistent with that equality (equal actions hash alike);
//     it is not Python's hash() value (that is salted per process for the str fields);
//   * action_to_json / action_from_json: actions.action_to_dict / action_from_dict as plain
//     JSON (serial.hpp's Json; the luck frames keep actions in that form): {"type": <class
//     name>, <fields in order>}, enums as their values, points as two-float lists, None as null;
//   * describe(): str(action), the rulebook words of each dataclass's __str__.
//
// Converting to and from the reference's Python objects (and dicts) lives in
// actions_bindings.hpp, so this header needs no Python.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "../../serial.hpp"
#include "../forces/vocab.hpp"
#include "../sight_movement/geometry.hpp"

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

// MeleeAttack (§18.3) is in forces/vocab.hpp.

// Points compare as the reference's (x, y) tuples do.
inline bool same_point(Point a, Point b) { return a.x == b.x && a.y == b.y; }

// -- the actions (one struct per dataclass; fields and defaults as in actions.py) -------------
struct ActivateGroup {  // activate the group led by `leader` (§14.0)
    std::int64_t leader = 0;
    bool operator==(const ActivateGroup&) const = default;
};
struct SkipGroup {  // do not activate the group led by `leader` this turn (§14.0)
    std::int64_t leader = 0;
    bool operator==(const SkipGroup&) const = default;
};
struct ChooseMech {  // `mech` of the active group acts next
    std::int64_t mech = 0;
    bool operator==(const ChooseMech&) const = default;
};
struct Move {  // a straight move to `to` (§15.2.1); reverse backs up (§15.2.2); jump (§10.6.1, D28)
    std::int64_t mech = 0;
    Point to{0.0, 0.0};
    bool reverse = false;
    bool jump = false;
    bool operator==(const Move& o) const {
        return mech == o.mech && same_point(to, o.to) && reverse == o.reverse && jump == o.jump;
    }
};
struct Stay {  // stay in place, optionally turning to `heading` (§15.0, §6.2.1)
    std::int64_t mech = 0;
    std::optional<double> heading;
    bool operator==(const Stay&) const = default;
};
struct FireFirst {  // take Active Fire before the action (ruling D6)
    std::int64_t mech = 0;
    bool operator==(const FireFirst&) const = default;
};
struct Charge {  // charge into melee with `target` (§18.2)
    std::int64_t mech = 0;
    std::int64_t target = 0;
    bool operator==(const Charge&) const = default;
};
struct AssignFire {  // fire item `weapon` of `mech` at mech `target` (§17.3, §17.4)
    std::int64_t mech = 0;
    std::int64_t weapon = 0;
    std::int64_t target = 0;
    bool operator==(const AssignFire&) const = default;
};
struct EndFire {  // finish assigning weapons (§17.4)
    std::int64_t mech = 0;
    bool operator==(const EndFire&) const = default;
};
struct FreeMove {  // the free In Sight move to `to`; none: stay put (§16.1.3)
    std::int64_t mech = 0;
    std::optional<Point> to;
    bool operator==(const FreeMove& o) const {
        return mech == o.mech && to.has_value() == o.to.has_value() &&
               (!to || same_point(*to, *o.to));
    }
};
struct FreeWill {  // a Star chooses to have passed `passed` d6 (§9.2)
    std::int64_t mech = 0;
    std::int64_t passed = 0;
    bool operator==(const FreeWill&) const = default;
};
struct DeclareMelee {  // punch or kick with `limb` for the coming melee round (§18.3)
    std::int64_t mech = 0;
    MeleeAttack attack{};
    Location limb{};
    bool operator==(const DeclareMelee&) const = default;
};
struct FightMech {  // an engaged mech fights `target` this activation (ruling D33)
    std::int64_t mech = 0;
    std::int64_t target = 0;
    bool operator==(const FightMech&) const = default;
};
struct FireAtBuilding {  // fire item `weapon` at building `feature` (§19.4.2 ruling)
    std::int64_t mech = 0;
    std::int64_t weapon = 0;
    std::int64_t feature = 0;
    bool operator==(const FireAtBuilding&) const = default;
};
struct AttackBuilding {  // punch or kick building `feature` with `limb` (§19.4.2 ruling)
    std::int64_t mech = 0;
    std::int64_t feature = 0;
    MeleeAttack attack{};
    Location limb{};
    bool operator==(const AttackBuilding&) const = default;
};
struct ExitTable {  // move off the table across `edge` (§22.0 rulings); any text, as in Python
    std::int64_t mech = 0;
    std::string edge;
    bool operator==(const ExitTable&) const = default;
};
struct ChooseObjective {  // the Attack objective, "destroy" or "break_through" (§22.2.1)
    std::string objective;
    bool operator==(const ChooseObjective&) const = default;
};
struct Face {  // end facing `heading` (none: keep it) with torso `twist` (§6.2, D2, D5)
    std::int64_t mech = 0;
    std::optional<double> heading;
    std::int64_t twist = 0;
    bool operator==(const Face&) const = default;
};
struct LuckyChoice {  // keep the roll or, reroll, spend Lucky on it (§9.6.4, D26)
    std::int64_t mech = 0;
    bool reroll = false;
    bool operator==(const LuckyChoice&) const = default;
};
struct ChooseLocation {  // a Marksman keeps `location` of his two hit locations (§9.6.4)
    std::int64_t mech = 0;
    Location location{};
    bool operator==(const ChooseLocation&) const = default;
};
struct LeadTeam {  // higher leader `mech` takes the group led by `group` (§12.2, D30)
    std::int64_t mech = 0;
    std::int64_t group = 0;
    bool operator==(const LeadTeam&) const = default;
};
struct LeadDone {  // higher leader `mech` takes no further group (§12.2)
    std::int64_t mech = 0;
    bool operator==(const LeadDone&) const = default;
};
struct SplitOff {  // `mech` leaves its group for this activation phase (§13.1)
    std::int64_t mech = 0;
    bool operator==(const SplitOff&) const = default;
};
struct KeepGroups {  // keep the groups as they are (§13.1)
    bool operator==(const KeepGroups&) const = default;
};

// actions.Action, alternatives in actions.ACTION_CLASSES order.
using Action = std::variant<ActivateGroup, SkipGroup, ChooseMech, Move, Stay, FireFirst, Charge,
                            AssignFire, EndFire, FreeMove, FreeWill, DeclareMelee, FightMech,
                            FireAtBuilding, AttackBuilding, ExitTable, ChooseObjective, Face,
                            LuckyChoice, ChooseLocation, LeadTeam, LeadDone, SplitOff, KeepGroups>;
inline constexpr std::size_t kActionTypes = std::variant_size_v<Action>;
// Each alternative's Python class name (ACTION_CLASSES's keys), by variant index.
inline constexpr std::string_view kActionNames[kActionTypes] = {
    "ActivateGroup", "SkipGroup", "ChooseMech", "Move", "Stay", "FireFirst", "Charge",
    "AssignFire", "EndFire", "FreeMove", "FreeWill", "DeclareMelee", "FightMech",
    "FireAtBuilding", "AttackBuilding", "ExitTable", "ChooseObjective", "Face", "LuckyChoice",
    "ChooseLocation", "LeadTeam", "LeadDone", "SplitOff", "KeepGroups"};

// type(action).__name__
inline std::string_view action_type(const Action& a) { return kActionNames[a.index()]; }
// The variant index of a class name, or none (ACTION_CLASSES.get(name)).
std::optional<std::size_t> action_index(std::string_view name);
// The mech an action concerns (its `mech` field); none for ActivateGroup, SkipGroup,
// ChooseObjective and KeepGroups, which have no `mech` field.
std::optional<std::int64_t> action_mech(const Action& a);

// A hash consistent with operator== (0.0 and -0.0 hash alike).
std::size_t action_hash(const Action& a);
struct ActionHash {
    std::size_t operator()(const Action& a) const { return action_hash(a); }
};

// str(action): each dataclass's __str__ ("mech 3 moves to (4.0, 5.5)").
std::string describe(const Action& a);

// actions.action_to_dict as plain JSON: {"type": name, fields...}.
Json action_to_json(const Action& a);
// actions.action_from_dict of plain JSON. `where` names the value in errors ("action"): a
// wrong type throws ArgumentTypeError, a bad value (no "type", an unknown type or field, a
// missing field, a bad enum value, a list of the wrong length, a number out of the int64 or
// finite double range) ArgumentError; the argument is the field's path ("action.to[1]").
Action action_from_json(const Json& data, const std::string& where = "action");

}  // namespace wargym::no_quarter
