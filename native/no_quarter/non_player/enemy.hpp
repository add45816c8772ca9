// Mirror of rules/no_quarter/non_player/enemy.py: the NP side's bookkeeping (NpPosture,
// NpObjective, MoveOrder, NpGroupState, NpOptions, the table rolls and NpActivation, NpContext)
// and its tables' rolls and movement goals (§22.1.6, §22.2.6, §22.3.1, §22.3.6, §22.3.7).
//
// The tables (np_tactics.yaml, enemy.tactics()) and the reference's literal margins come in as
// NpTables, built by wargym.native.no_quarter.enemy.np_tables(): no number of the rules is
// written here. NpContext's JSON (to_dict / from_dict, the reference's to_jsonable form) is
// read and written by enemy_bindings.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../../dice.hpp"
#include "../forces/vocab.hpp"
#include "../sight_movement/geometry.hpp"
#include "../sight_movement/sight.hpp"
#include "pef.hpp"

namespace wargym::no_quarter {

struct Battlefield;
struct RulesTables;

enum class NpPosture : std::uint8_t { patrol, defend, attack, withdraw };
inline constexpr Vocab<NpPosture, 4> kNpPosture{"NpPosture", {"patrol", "defend", "attack", "withdraw"}};
enum class NpObjective : std::uint8_t { destroy, break_through };
inline constexpr Vocab<NpObjective, 2> kNpObjective{"NpObjective", {"destroy", "break_through"}};
enum class MoveOrder : std::uint8_t { full, half, none };
inline constexpr Vocab<MoveOrder, 3> kMoveOrder{"MoveOrder", {"full", "half", "none"}};
// NpGroupState.after_beaten / PatrolReaction.after_beaten (a Literal in the reference)
enum class AfterBeaten : std::uint8_t { resume_patrol, withdraw, none };
inline constexpr Vocab<AfterBeaten, 3> kAfterBeaten{"after_beaten", {"resume_patrol", "withdraw", "none"}};
// NpOptions.awareness and NpOptions.unseen_defender
enum class NpAwareness : std::uint8_t { los, arc };
inline constexpr Vocab<NpAwareness, 2> kNpAwareness{"awareness", {"los", "arc"}};
enum class NpUnseenDefender : std::uint8_t { regain_los, hold };
inline constexpr Vocab<NpUnseenDefender, 2> kNpUnseenDefender{"unseen_defender", {"regain_los", "hold"}};
// MoveRoll.table
enum class NpMoveTable : std::uint8_t { defend, attack };
inline constexpr Vocab<NpMoveTable, 2> kNpMoveTable{"table", {"22.2.6", "22.3.7"}};
// enemy.Control (the attacker's control status, §22.3.1)
enum class NpControl : std::uint8_t { controls, contests, no_campaign };
inline constexpr Vocab<NpControl, 3> kNpControl{"Control", {"controls", "contests", "no_campaign"}};
// np_tactics.yaml pursuing_objective's choices (§22.3.6)
enum class NpPursuit : std::uint8_t { objective, flank_or_rear_within_range, any_within_range };
inline constexpr Vocab<NpPursuit, 3> kNpPursuit{
    "pursuing", {"objective", "flank_or_rear_within_range", "any_within_range"}};
// The table edges edge_point knows (its dict's keys, in order).
enum class NpEdge : std::uint8_t { north, south, east, west };
inline constexpr Vocab<NpEdge, 4> kNpEdge{"edge", {"north", "south", "east", "west"}};

// enemy.NpGroupState (§22.4); edges are kept as the reference's strings (checked on reading).
struct NpGroupState {
    NpPosture posture = NpPosture::attack;
    NpObjective objective = NpObjective::destroy;
    std::string own_edge = "north";
    std::string exit_edge = "south";
    std::vector<std::int64_t> exit_sections;
    AfterBeaten after_beaten = AfterBeaten::none;
    std::optional<std::int64_t> target;
    MoveOrder order = MoveOrder::none;
    std::optional<std::array<std::int64_t, 2>> activation;  // (turn, leader)
    bool operator==(const NpGroupState&) const = default;
};

// enemy.NpOptions: the readings of §22 (every default the digest's ruling).
struct NpOptions {
    NpAwareness awareness = NpAwareness::los;
    bool beaten_away_uses_range = true;
    NpUnseenDefender unseen_defender = NpUnseenDefender::regain_los;
    bool operator==(const NpOptions&) const = default;
};

struct PatrolReaction {  // 22.1.6
    std::vector<std::int64_t> faces;
    std::int64_t passes = 0;
    NpPosture posture = NpPosture::defend;
    AfterBeaten after_beaten = AfterBeaten::none;
    bool operator==(const PatrolReaction&) const = default;
};
struct MoveRoll {  // 22.2.6 or 22.3.7
    NpMoveTable table = NpMoveTable::defend;
    std::vector<std::int64_t> faces;
    std::int64_t passes = 0;
    MoveOrder order = MoveOrder::none;
    bool operator==(const MoveRoll&) const = default;
};
struct ObjectiveRoll {  // 22.3.1
    std::int64_t face = 0;
    NpControl control = NpControl::no_campaign;
    NpObjective objective = NpObjective::destroy;
    bool operator==(const ObjectiveRoll&) const = default;
};
struct PursuitRoll {  // 22.3.6
    std::vector<std::int64_t> faces;
    std::int64_t passes = 0;
    std::optional<std::int64_t> target;
    bool operator==(const PursuitRoll&) const = default;
};
struct NpActivation {  // everything rolled when an NP group activates (§22.4)
    std::int64_t team = 0;
    std::int64_t leader = 0;
    NpPosture posture = NpPosture::attack;
    bool beaten_away = false;
    std::optional<PursuitRoll> pursuit;
    std::optional<MoveRoll> move;
    bool operator==(const NpActivation&) const = default;
};

// enemy.NpContext: the NP memory kept across a battle. groups keeps the reference dict's
// insertion order (to_dict writes it so); teams without an entry use ``fallback`` (the
// reference's ``default``).
struct NpContext {
    std::vector<std::pair<std::int64_t, NpGroupState>> groups;
    NpGroupState fallback;
    std::vector<NpActivation> rolls;
    NpOptions options;

    // context.groups.get(team, context.default)
    const NpGroupState& state_of(std::int64_t team) const;
    // context.groups[team] = state (an existing key keeps its place)
    void set_state(std::int64_t team, NpGroupState state);
    bool operator==(const NpContext&) const = default;
};

// np_tactics.yaml (enemy.Tactics), rows by dice passed (0, 1, 2), and the literals of
// enemy.py / enemy_decide.py / sections.py / sight.py the NP procedure reads (handed in by the
// glue from the reference's signatures and bodies, never written here).
struct NpTables {
    std::array<std::pair<NpPosture, AfterBeaten>, 3> patrol{};       // patrol_reaction
    std::array<MoveOrder, 3> defend{};                               // defend_movement
    std::array<std::array<std::array<int, 2>, 2>, 3> objective{};    // [Control][NpObjective] = (lo, hi)
    std::array<NpPursuit, 3> pursuing{};                             // pursuing_objective
    double distraction_range = 0.0;                                  // distraction_range_in
    double flank_bearing = 0.0;                                      // flank_bearing_deg
    std::array<MoveOrder, 3> attack{};                               // attack_movement
    double beaten_range = 0.0;                                       // beaten_away_range_in
    double withdrawal_snap = 0.0;                                    // withdrawal_cover_snap_in
    std::int64_t pass_cap = 0;                 // rules.dice.PASS_CAP (passed_dice's cap, §5.1)
    double edge_margin = 0.0;                  // edge_point's default margin
    double reached_tolerance = 0.0;            // reached_edge's default tolerance
    double exit_margin = 0.0;                  // sections.exit_point's default margin
    double sight_base_radius = 0.0;            // sight()'s default base_radius (covered, defend_goal)
    std::int64_t snap_steps_per_inch = 0;      // fighting_withdrawal_move: range(-int(snap * 2), ...)
    double snap_step = 0.0;                    // fighting_withdrawal_move: i * 0.5
    double snap_table_margin = 0.0;            // fighting_withdrawal_move: bf.is_on_table(q, 0.5)
    double reach_slack = 0.0;                  // enemy_decide._mech_action: reach + 1e-6
    int goal_round_digits = 0;                 // defend_goal: round(point_segment_distance, 6)
    std::string default_home_edge;             // _group_distance: home_edges.get(.., "south")
};

// rules/dice.py passed_dice(faces, target, tables.pass_cap)
std::int64_t np_passed(const NpTables& tables, std::span<const int> faces, std::int64_t target);

// -- table rolls -------------------------------------------------------------------------------
PatrolReaction np_patrol_reaction(const NpTables& tables, Dice& dice, std::int64_t morale);
MoveRoll np_defend_move(const NpTables& tables, Dice& dice, std::int64_t leader_rep);
MoveRoll np_attack_move(const NpTables& tables, Dice& dice, std::int64_t leader_rep);
ObjectiveRoll secret_objective(const NpTables& tables, Dice& dice, NpControl control);
// Ruling 22.3.6; group must not be empty (ArgumentError("group")).
bool on_flank_or_rear(const NpTables& tables, std::span<const Spotter> group, Point enemy);
PursuitRoll pursue_objective(const NpTables& tables, Dice& dice, std::int64_t leader_rep,
                             std::span<const Spotter> group, std::span<const Spotter> enemies);

// -- movement goals ----------------------------------------------------------------------------
// edge_point: an unknown edge raises ArgumentError("edge") (the reference: KeyError).
Point edge_point(const Battlefield& bf, Point pos, std::string_view edge, double margin);
bool reached_edge(const Battlefield& bf, Point pos, std::string_view edge, double tolerance);
// The goal of a fighting withdrawal (§22.1.6 ruling); cover as pef.covered sees it.
Point fighting_withdrawal_move(const NpTables& tables, const RulesTables& rules, const Battlefield& bf,
                               Point pos, double reach, std::string_view own_edge,
                               std::optional<Point> viewer, std::span<const Body> bodies);
// Ruling 22.2.6: the reachable spot between the enemy and the own edge to take (none: no such).
std::optional<Point> defend_goal(const NpTables& tables, const RulesTables& rules, const Battlefield& bf,
                                 std::span<const Point> candidates, Point enemy, std::string_view own_edge,
                                 Point origin, std::span<const Body> bodies, std::int64_t mover, bool ews,
                                 std::int64_t target);

}  // namespace wargym::no_quarter
