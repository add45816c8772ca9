// The No Quarter events (rules/no_quarter/battle/events.py) as plain structs, the one variant
// of every class of NO_QUARTER_EVENTS (these, non_player/np_events.hpp's and
// forces/setup_events.hpp's), and Battle.apply, the one writer of the game state proper, over
// the native Battle.
//
// An event is a cheap value: its fields and nothing else. JSON is built only when asked
// (to_json, events_json.cpp), so the flow can emit every event, apply it, and keep it only
// when its EventSink is on. to_json gives exactly the reference's Event.to_dict():
// {"type": <class name>, ...fields in field order}, tuples as lists, enums as their values,
// ints and floats apart. from_json reads the registry's documents (NO_QUARTER_EVENTS.from_dict)
// as rules/serial.py's from_jsonable does: fields with a default may be left out, unknown ones
// are refused, every refusal is a wargym::StateError whose path names the field
// (MechMoved.path[0][1]).
//
// Each struct lists its fields through `each` in the Python dataclass's order (native/events.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "../../events.hpp"
#include "../../serial.hpp"
#include "../forces/records.hpp"
#include "../forces/setup_events.hpp"
#include "../forces/vocab.hpp"
#include "../non_player/np_events.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

namespace events {

// The vocab.py enums events hold: forces/vocab.hpp's. Aspect (front, flank, rear) is still
// events' own until the events and geometry.hpp's Aspect are unified.
using no_quarter::MeleeAttack;  // forces/vocab.hpp
using no_quarter::ReactionResult;
using no_quarter::ReactionTest;
enum class Aspect : std::uint8_t { front, flank, rear };

using no_quarter::kMeleeAttack;
using no_quarter::kReactionResult;
using no_quarter::kReactionTest;
inline constexpr Vocab<Aspect, 3> kAspect{"Aspect", {"front", "flank", "rear"}};


// -- battle/events.py (§14-§19) ----------------------------------------------------------------
struct TurnStarted {
    Int turn = 0;
    NQ_EVENT(TurnStarted) { NQ_REQ(turn) }
};
struct ActivationRolled {
    Int blue = 0; Int red = 0; vector<Pair> rerolled; Side first{};
    NQ_EVENT(ActivationRolled) { NQ_REQ(blue) NQ_REQ(red) NQ_REQ(rerolled) NQ_REQ(first) }
};
struct GroupsFormed {
    Side side{}; vector<Ints> groups; Ints leaders;
    NQ_EVENT(GroupsFormed) { NQ_REQ(side) NQ_REQ(groups) NQ_REQ(leaders) }
};
struct LeaderAppointed {
    Int mech = 0; string rank; Int replaces = 0;  // rank: a Rank value, as text (as the reference)
    NQ_EVENT(LeaderAppointed) { NQ_REQ(mech) NQ_REQ(rank) NQ_REQ(replaces) }
};
struct GroupActivated {
    Side side{}; Int leader = 0; Ints members; Int activation_rep = 0; Int die = 0;
    NQ_EVENT(GroupActivated) { NQ_REQ(side) NQ_REQ(leader) NQ_REQ(members) NQ_REQ(activation_rep) NQ_REQ(die) }
};
struct GroupSkipped {
    Side side{}; Int leader = 0; bool eligible = false;
    NQ_EVENT(GroupSkipped) { NQ_REQ(side) NQ_REQ(leader) NQ_REQ(eligible) }
};
struct MechMoved {
    Int mech = 0; Points path; double heading = 0.0; double cost = 0.0; double inches = 0.0;
    string kind; bool jumped = false;
    NQ_EVENT(MechMoved) {
        NQ_REQ(mech) NQ_REQ(path) NQ_REQ(heading) NQ_REQ(cost) NQ_REQ(inches) NQ_REQ(kind) NQ_OPT(jumped)
    }
};
struct MechFaced {
    Int mech = 0; double heading = 0.0; Int twist = 0;
    NQ_EVENT(MechFaced) { NQ_REQ(mech) NQ_REQ(heading) NQ_REQ(twist) }
};
struct MoveBlocked {
    Int mech = 0; Int blocker = 0; Point planned; Point at;
    NQ_EVENT(MoveBlocked) { NQ_REQ(mech) NQ_REQ(blocker) NQ_REQ(planned) NQ_REQ(at) }
};
struct MechLeftTable {
    Int mech = 0; string edge;
    NQ_EVENT(MechLeftTable) { NQ_REQ(mech) NQ_REQ(edge) }
};
struct StoodUp {
    Int mech = 0;
    NQ_EVENT(StoodUp) { NQ_REQ(mech) }
};
struct InSightTaken {
    Int moving_leader = 0; Ints moving_faces; Int moving_successes = 0; Int nonmoving_leader = 0;
    Ints nonmoving_faces; Int nonmoving_successes = 0; bool moving_wins = false;
    NQ_EVENT(InSightTaken) {
        NQ_REQ(moving_leader) NQ_REQ(moving_faces) NQ_REQ(moving_successes) NQ_REQ(nonmoving_leader)
        NQ_REQ(nonmoving_faces) NQ_REQ(nonmoving_successes) NQ_REQ(moving_wins)
    }
};
struct InSightAction {
    Int mech = 0; string action;
    NQ_EVENT(InSightAction) { NQ_REQ(mech) NQ_REQ(action) }
};
struct ShotFired {
    Int shooter = 0; Int weapon = 0; Int target = 0; Int face = 0; Int rep = 0; Int total = 0;
    Int target_index = 0; bool rush_shot = false; bool shooter_fast = false;
    bool target_fast = false; bool target_in_cover = false; bool target_prone = false;
    bool hit = false; Ints rerolled;
    NQ_EVENT(ShotFired) {
        NQ_REQ(shooter) NQ_REQ(weapon) NQ_REQ(target) NQ_REQ(face) NQ_REQ(rep) NQ_REQ(total)
        NQ_REQ(target_index) NQ_REQ(rush_shot) NQ_REQ(shooter_fast) NQ_REQ(target_fast)
        NQ_REQ(target_in_cover) NQ_REQ(target_prone) NQ_REQ(hit) NQ_OPT(rerolled)
    }
};
struct HitLocated {
    Int target = 0; Ints faces; Location location{}; bool protected_ = false;
    vector<Location> alternatives;
    static constexpr std::string_view kType = "HitLocated";
    template <class S, class F>
    static void each(S& s, F&& f) {  // "protected" is a C++ keyword
        NQ_REQ(target) NQ_REQ(faces) NQ_REQ(location) f("protected", s.protected_, false);
        NQ_OPT(alternatives)
    }
};
struct DamageRolled {
    Int target = 0; Location location{}; Pair faces{}; Int versus = 0; Int passed = 0;
    Int armor_before = 0; Int armor_after = 0; bool critical = false; bool melee = false;
    Int damage = 0;
    NQ_EVENT(DamageRolled) {
        NQ_REQ(target) NQ_REQ(location) NQ_REQ(faces) NQ_REQ(versus) NQ_REQ(passed)
        NQ_REQ(armor_before) NQ_REQ(armor_after) NQ_REQ(critical) NQ_REQ(melee) NQ_OPT(damage)
    }
};
struct CriticalHit {
    Int mech = 0; Location location{}; string kind; Ints faces; optional<Int> item_lost;
    Ints items_lost; Int speed_after = 0; optional<Removal> removal; optional<Int> armor;
    Ints candidates;
    NQ_EVENT(CriticalHit) {
        NQ_REQ(mech) NQ_REQ(location) NQ_REQ(kind) NQ_REQ(faces) NQ_REQ(item_lost) NQ_REQ(items_lost)
        NQ_REQ(speed_after) NQ_REQ(removal) NQ_OPT(armor) NQ_OPT(candidates)
    }
};
struct PilotTested {
    Int mech = 0; Int face = 0; Int rep = 0; bool passed = false; bool knocked_down = false;
    Int rep_after = 0; bool resilient_used = false; Ints rerolled;
    NQ_EVENT(PilotTested) {
        NQ_REQ(mech) NQ_REQ(face) NQ_REQ(rep) NQ_REQ(passed) NQ_REQ(knocked_down) NQ_REQ(rep_after)
        NQ_REQ(resilient_used) NQ_OPT(rerolled)
    }
};
struct MechRemoved {
    Int mech = 0; Removal reason{}; Side side{}; Int mech_class = 0;
    NQ_EVENT(MechRemoved) { NQ_REQ(mech) NQ_REQ(reason) NQ_REQ(side) NQ_REQ(mech_class) }
};
struct CheatedDeath {
    Int mech = 0; Int rep_after = 0; string via;
    NQ_EVENT(CheatedDeath) { NQ_REQ(mech) NQ_REQ(rep_after) NQ_REQ(via) }
};
struct ReactionTaken {
    Int mech = 0; ReactionTest test{}; Ints causes; Ints faces; Int rep = 0; Int passed = 0;
    bool free_will = false; vector<ReactionResult> results; ReactionResult result{};
    Int rep_change = 0; Flags outgunned; Flags in_range; optional<bool> in_cover;
    optional<Int> dice;
    NQ_EVENT(ReactionTaken) {
        NQ_REQ(mech) NQ_REQ(test) NQ_REQ(causes) NQ_REQ(faces) NQ_REQ(rep) NQ_REQ(passed)
        NQ_REQ(free_will) NQ_REQ(results) NQ_REQ(result) NQ_REQ(rep_change) NQ_REQ(outgunned)
        NQ_REQ(in_range) NQ_OPT(in_cover) NQ_OPT(dice)
    }
};
struct StatusChanged {
    Int mech = 0; Status status{}; string reason;
    NQ_EVENT(StatusChanged) { NQ_REQ(mech) NQ_REQ(status) NQ_REQ(reason) }
};
struct RepChanged {
    Int mech = 0; Int rep = 0; string reason;
    NQ_EVENT(RepChanged) { NQ_REQ(mech) NQ_REQ(rep) NQ_REQ(reason) }
};
struct ChargeDeclared {
    Int charger = 0; Int target = 0; Aspect aspect{};
    NQ_EVENT(ChargeDeclared) { NQ_REQ(charger) NQ_REQ(target) NQ_REQ(aspect) }
};
struct ChargeTested {
    Int charger = 0; Int target = 0; Ints charger_faces; Int charger_passed = 0;
    Ints target_faces; Int target_passed = 0; Int target_dice = 0; string outcome;
    bool reused_target_roll = false;
    NQ_EVENT(ChargeTested) {
        NQ_REQ(charger) NQ_REQ(target) NQ_REQ(charger_faces) NQ_REQ(charger_passed)
        NQ_REQ(target_faces) NQ_REQ(target_passed) NQ_REQ(target_dice) NQ_REQ(outcome)
        NQ_REQ(reused_target_roll)
    }
};
struct MeleeDeclared {
    Int mech = 0; MeleeAttack attack{}; Location limb{};
    NQ_EVENT(MeleeDeclared) { NQ_REQ(mech) NQ_REQ(attack) NQ_REQ(limb) }
};
struct MeleeRound {
    Int attacker = 0; Int defender = 0; Ints attacker_faces; Int attacker_successes = 0;
    Ints defender_faces; Int defender_successes = 0; optional<Int> winner; Int margin = 0;
    NQ_EVENT(MeleeRound) {
        NQ_REQ(attacker) NQ_REQ(defender) NQ_REQ(attacker_faces) NQ_REQ(attacker_successes)
        NQ_REQ(defender_faces) NQ_REQ(defender_successes) NQ_REQ(winner) NQ_REQ(margin)
    }
};
struct ItemDisabled {
    Int mech = 0; Ints items; string reason;
    NQ_EVENT(ItemDisabled) { NQ_REQ(mech) NQ_REQ(items) NQ_REQ(reason) }
};
struct FlameLaid {
    Int shooter = 0; Point start; Point end;
    NQ_EVENT(FlameLaid) { NQ_REQ(shooter) NQ_REQ(start) NQ_REQ(end) }
};
struct FlameCrossed {
    Int mech = 0; Int flame = 0;
    NQ_EVENT(FlameCrossed) { NQ_REQ(mech) NQ_REQ(flame) }
};
struct BuildingDamaged {
    Int feature = 0; Int attacker = 0; Ints faces; Int versus = 0; Int passed = 0;
    Int armor_before = 0; Int armor_after = 0; bool melee = false; Ints melee_faces;
    Ints damage_faces; optional<Location> limb; optional<MeleeAttack> attack;
    Int weapon_value = 0; Int damage = 0;
    NQ_EVENT(BuildingDamaged) {
        NQ_REQ(feature) NQ_REQ(attacker) NQ_REQ(faces) NQ_REQ(versus) NQ_REQ(passed)
        NQ_REQ(armor_before) NQ_REQ(armor_after) NQ_REQ(melee) NQ_OPT(melee_faces)
        NQ_OPT(damage_faces) NQ_OPT(limb) NQ_OPT(attack) NQ_OPT(weapon_value) NQ_OPT(damage)
    }
};
struct BuildingDestroyed {
    Int feature = 0;
    NQ_EVENT(BuildingDestroyed) { NQ_REQ(feature) }
};
struct FiringStarted {
    Int shooter = 0; string mode; optional<Int> cause; Int twist = 0; Ints weapons;
    NQ_EVENT(FiringStarted) { NQ_REQ(shooter) NQ_REQ(mode) NQ_REQ(cause) NQ_REQ(twist) NQ_REQ(weapons) }
};
struct FiringEnded {
    Int shooter = 0; string mode; Int shots = 0;
    NQ_EVENT(FiringEnded) { NQ_REQ(shooter) NQ_REQ(mode) NQ_REQ(shots) }
};
struct LuckyReroll {
    Int mech = 0; string what; Ints old; Ints new_;
    static constexpr std::string_view kType = "LuckyReroll";
    template <class S, class F>
    static void each(S& s, F&& f) {  // "new" is a C++ keyword
        NQ_REQ(mech) NQ_REQ(what) NQ_REQ(old) f("new", s.new_, false);
    }
};
struct DuckedBack {
    Int mech = 0; Int cause = 0; bool in_cover = false;
    NQ_EVENT(DuckedBack) { NQ_REQ(mech) NQ_REQ(cause) NQ_REQ(in_cover) }
};
struct TeamJoined {
    Side side{}; Int leader = 0; Ints joined; Ints members;
    NQ_EVENT(TeamJoined) { NQ_REQ(side) NQ_REQ(leader) NQ_REQ(joined) NQ_REQ(members) }
};
struct MechSplitOff {
    Side side{}; Int mech = 0; vector<Ints> groups; Ints leaders;
    NQ_EVENT(MechSplitOff) { NQ_REQ(side) NQ_REQ(mech) NQ_REQ(groups) NQ_REQ(leaders) }
};
struct BattleEnded {
    optional<Side> winner; string reason; Int turn = 0;
    NQ_EVENT(BattleEnded) { NQ_REQ(winner) NQ_REQ(reason) NQ_REQ(turn) }
};

// Every class of NO_QUARTER_EVENTS, in the registry's list order (NP, set-up, battle).
using Event = std::variant<
    PefPlaced, PefMoved, PefResolved, MechsArrived, NpGroupSet, NpTableRolled,
    ReinforcementChecked, WeatherChanged, MechWithdrew, MissionEnded, FreeCompanyRaces,
    PilotCreated, TurnStarted, ActivationRolled, GroupsFormed, LeaderAppointed, GroupActivated,
    GroupSkipped, MechMoved, MechFaced, MoveBlocked, MechLeftTable, StoodUp, InSightTaken,
    InSightAction, ShotFired, HitLocated, DamageRolled, CriticalHit, PilotTested, MechRemoved,
    CheatedDeath, ReactionTaken, StatusChanged, RepChanged, ChargeDeclared, ChargeTested,
    MeleeDeclared, MeleeRound, ItemDisabled, FlameLaid, FlameCrossed, BuildingDamaged,
    BuildingDestroyed, FiringStarted, FiringEnded, LuckyReroll, DuckedBack, TeamJoined,
    MechSplitOff, BattleEnded>;

// The class name of the event (Event.to_dict()["type"]).
std::string_view type_name(const Event& event);
// Every event class name, in the variant's order.
std::vector<std::string_view> type_names();

// -- state.py Battle.apply: the one writer ----------------------------------------------------
// One overload per event class that changes the battle (Battle.apply's branches, the
// apply_to hooks of DuckedBack, TeamJoined, MechSplitOff and of the NP events); an event
// of any other class leaves the battle as it is. A reference that the Python would fail on
// (an unknown mech id, a missing NP key, an empty path) throws wargym::StateError.
void apply(Battle& battle, const Event& event);
void apply(Battle& battle, const MechMoved& e);
void apply(Battle& battle, const MechFaced& e);
void apply(Battle& battle, const DamageRolled& e);
void apply(Battle& battle, const CriticalHit& e);
void apply(Battle& battle, const ItemDisabled& e);
void apply(Battle& battle, const PilotTested& e);
void apply(Battle& battle, const StoodUp& e);
void apply(Battle& battle, const MechRemoved& e);
void apply(Battle& battle, const CheatedDeath& e);
void apply(Battle& battle, const StatusChanged& e);
void apply(Battle& battle, const RepChanged& e);
void apply(Battle& battle, const FlameLaid& e);
void apply(Battle& battle, const BuildingDamaged& e);
void apply(Battle& battle, const BuildingDestroyed& e);
void apply(Battle& battle, const LuckyReroll& e);
void apply(Battle& battle, const TurnStarted& e);
void apply(Battle& battle, const ActivationRolled& e);
void apply(Battle& battle, const GroupsFormed& e);
void apply(Battle& battle, const LeaderAppointed& e);
void apply(Battle& battle, const MechLeftTable& e);
void apply(Battle& battle, const BattleEnded& e);
void apply(Battle& battle, const DuckedBack& e);
void apply(Battle& battle, const TeamJoined& e);
void apply(Battle& battle, const MechSplitOff& e);
// The classes without a branch or hook: the battle is unchanged (events only: a struct that
// is no event does not compile here).
template <class E>
    requires requires { E::kType; }
void apply(Battle&, const E&) {}

// Mech.lost (state.py): destroyed, inoperable, Cheated Death or given Leave the Battlefield.
bool lost(const Mech& mech);

// -- JSON (events_json.cpp) --------------------------------------------------------------------
// Event.to_dict() as a Json value: {"type": <class name>, ...fields}.
Json to_json(const Event& event);
// NO_QUARTER_EVENTS.from_dict: a document of to_json's shape; StateError names a bad field.
Event from_json(const Json& document);

}  // namespace events
}  // namespace wargym::no_quarter
