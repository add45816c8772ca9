// The rules orchestrator's frames (rules/no_quarter/battle/flow.py: Frame) as typed structs.
//
// The reference keeps its frame stack as plain JSON dicts, one kind per procedure
// (game.HANDLERS: turn, phase, group, mech, insight, fire, react, charge, melee, charges,
// objective, pefs, pause). Here each kind is a struct holding every key any reference code
// writes into that kind of frame (flow_turn.py, flow_mech.py, flow_move.py, flow_fire.py,
// flow_react.py, flow_melee.py, flow_charges.py, luck.py, consequences.py, group_orders.py,
// non_player/np_flow.py, mission/mission_play.py), with the reference's types: ints stay ints,
// the few float keys (``spent``, ``allowance``, ``start``) remember whether the document held
// an int there (validity_parts.number() accepts both and the reference writes back what it read).
//
// Key order. A Python dict keeps insertion order, so a frame's keys come out of to_dict() in
// the order the rules added them, and a key popped and set again moves to the end. Each frame
// (and each nested record: reaction test entries, waiting charges) carries a KeyOrder: the keys
// present, in insertion order. Setting a key (KeyOrder::set) keeps its place or appends it,
// erasing one (KeyOrder::erase) is dict.pop. An optional key is present exactly when it is in
// the order; its struct field holds its value then and is ignored otherwise. Object-valued
// keys (insight ``opponents``/``charge_rolls``, react ``free_will``, melee ``decl``) are
// IdMaps: (mech id, value) pairs in insertion order.
//
// The stack (FrameStack) is shared between clones at two levels, copy on write: a clone shares
// the whole stack (Battle::clone() bumps one reference count: one cache line, as the plain-JSON
// frames did), the first change copies the list of frame pointers, and a frame is copied only
// when that clone changes it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "../../serial.hpp"
#include "../forces/records.hpp"
#include "../forces/vocab.hpp"

namespace wargym::no_quarter {

// -- the frame kinds and their value vocabularies ----------------------------------------------
enum class FrameKind : std::uint8_t {
    turn, phase, group, mech, insight, fire, react, charge, melee, charges, objective, pefs, pause
};
inline constexpr std::size_t kFrameKinds = 13;
inline constexpr Vocab<FrameKind, kFrameKinds> kFrameKind{
    "frame kind",
    {"turn", "phase", "group", "mech", "insight", "fire", "react", "charge", "melee", "charges",
     "objective", "pefs", "pause"}};

// ReactionTest and MeleeAttack are in forces/vocab.hpp, ChargeOutcome in forces/records.hpp.

// The stages (and modes) each kind's handler writes: validity_parts._frame_kinds' one_of lists.
enum class TurnStage : std::uint8_t { done };
inline constexpr Vocab<TurnStage, 1> kTurnStage{"turn stage", {"done"}};
enum class PhaseStage : std::uint8_t { start, lead, split, choose };
inline constexpr Vocab<PhaseStage, 4> kPhaseStage{"phase stage", {"start", "lead", "split", "choose"}};
enum class MechStage : std::uint8_t { begin, fight, action, continue_move, face, after, end };
inline constexpr Vocab<MechStage, 7> kMechStage{
    "mech stage", {"begin", "fight", "action", "continue", "face", "after", "end"}};
enum class InsightStage : std::uint8_t { free, roll, act, done };
inline constexpr Vocab<InsightStage, 4> kInsightStage{"insight stage", {"free", "roll", "act", "done"}};
enum class FireMode : std::uint8_t { active, in_sight, reaction, charge };
inline constexpr Vocab<FireMode, 4> kFireMode{"fire mode", {"active", "in_sight", "reaction", "charge"}};
enum class ChargeStage : std::uint8_t { declare, staging, contact, closing };
inline constexpr Vocab<ChargeStage, 4> kChargeStage{
    "charge stage", {"declare", "staging", "contact", "closing"}};
enum class MeleeStage : std::uint8_t { declare };
inline constexpr Vocab<MeleeStage, 1> kMeleeStage{"melee stage", {"declare"}};
enum class PauseUnit : std::uint8_t { step, act };
inline constexpr Vocab<PauseUnit, 2> kPauseUnit{"pause unit", {"step", "act"}};
enum class PauseStage : std::uint8_t { lucky, marksman };
inline constexpr Vocab<PauseStage, 2> kPauseStage{"pause stage", {"lucky", "marksman"}};
// luck.LUCKY_WHAT (a frozenset there; this order is the module's listing)
enum class LuckyWhat : std::uint8_t {
    to_hit, hit_location, damage, fired_on, takes_damage, mech_down, pilot_test, melee, charge_test
};
inline constexpr Vocab<LuckyWhat, 9> kLuckyWhat{
    "LUCKY_WHAT",
    {"to_hit", "hit_location", "damage", "fired_on", "takes_damage", "mech_down", "pilot_test",
     "melee", "charge_test"}};

// -- keys ------------------------------------------------------------------------------------
// Every key any frame (or nested record) holds; one id per name, whatever the kind.
#define WARGYM_FRAME_KEYS(X)                                                                      \
    X(kind) X(stage) X(side) X(groups) X(done) X(pefs) X(leaders) X(asking) X(members) X(acted)   \
    X(mech) X(spent) X(moved) X(fired) X(start) X(turn) X(mover) X(group) X(enemy_groups) X(free) \
    X(winners) X(opponents) X(deferred) X(next) X(charging) X(charge_options) X(charge_rolls)     \
    X(charges) X(shooter) X(mode) X(targets) X(cause) X(rush) X(assigned) X(twist) X(rush_at)     \
    X(entries) X(free_will) X(charger) X(target) X(allowance) X(jump) X(picked) X(attacker)       \
    X(defender) X(decl) X(ties) X(order) X(unit) X(action) X(rolls) X(answers) X(what) X(faces)   \
    X(choices) X(passed) X(shielded_hit) X(lost) X(shielded) X(test) X(causes) X(enemies)         \
    X(outcome)

enum class FrameKey : std::uint8_t {
#define WARGYM_KEY_ENUM(k) k,
    WARGYM_FRAME_KEYS(WARGYM_KEY_ENUM)
#undef WARGYM_KEY_ENUM
    count_
};
inline constexpr std::size_t kFrameKeys = static_cast<std::size_t>(FrameKey::count_);
static_assert(kFrameKeys <= 64, "KeySet is a 64-bit mask");
extern const std::array<const char*, kFrameKeys> kFrameKeyNames;

using KeySet = std::uint64_t;
constexpr KeySet key_bit(FrameKey k) { return KeySet{1} << static_cast<unsigned>(k); }

// The keys of one dict in insertion order (at most N).
template <std::size_t N>
struct KeyOrder {
    std::uint8_t n = 0;
    std::array<FrameKey, N> keys{};

    bool has(FrameKey k) const {
        for (std::uint8_t i = 0; i < n; ++i) {
            if (keys[i] == k) return true;
        }
        return false;
    }
    void set(FrameKey k) {  // d[k] = ...: keeps its place, or appends it
        if (has(k)) return;
        if (n == N) throw std::logic_error("a frame holds more keys than its kind has");
        keys[n++] = k;
    }
    void erase(FrameKey k) {  // d.pop(k, None)
        for (std::uint8_t i = 0; i < n; ++i) {
            if (keys[i] == k) {
                std::copy(keys.begin() + i + 1, keys.begin() + n, keys.begin() + i);
                --n;
                return;
            }
        }
    }
    const FrameKey* begin() const { return keys.data(); }
    const FrameKey* end() const { return keys.data() + n; }
    bool operator==(const KeyOrder& o) const {
        return n == o.n && std::equal(begin(), end(), o.begin());
    }
};

// One kind's schema: validity_parts._frame_kinds' (required keys, optional keys); "kind" is
// required of every frame.
struct FrameSchema {
    KeySet required = 0;
    KeySet optional = 0;
};
extern const std::array<FrameSchema, kFrameKinds> kFrameSchemas;
inline constexpr FrameSchema kEntrySchema{key_bit(FrameKey::mech) | key_bit(FrameKey::test) | key_bit(FrameKey::causes),
                                          key_bit(FrameKey::enemies)};
inline constexpr FrameSchema kWaitingSchema{
    key_bit(FrameKey::charger) | key_bit(FrameKey::target) | key_bit(FrameKey::jump) | key_bit(FrameKey::outcome), 0};

// -- values ------------------------------------------------------------------------------------
using Ids = std::vector<std::int64_t>;

// A number the reference keeps as the document gave it: a float, or an int (number() accepts
// both; the reference's own writes are floats).
struct Num {
    bool is_int = false;
    std::int64_t i = 0;
    double d = 0.0;
    static Num real(double v) { return Num{false, 0, v}; }
    static Num integer(std::int64_t v) { return Num{true, v, 0.0}; }
    double value() const { return is_int ? static_cast<double>(i) : d; }  // float(x)
    bool operator==(const Num& o) const {
        return is_int == o.is_int && (is_int ? i == o.i : (d == o.d && std::signbit(d) == std::signbit(o.d)));
    }
};
using NumPoint = std::array<Num, 2>;  // [x, y]

// (mech id, value) pairs of a dict keyed by str(id), in insertion order.
template <class V>
using IdMap = std::vector<std::pair<std::int64_t, V>>;

template <class V>
const V* find_id(const IdMap<V>& map, std::int64_t id) {
    for (const auto& [k, v] : map) {
        if (k == id) return &v;
    }
    return nullptr;
}

// A queued reaction test (consequences.queue_tests): {"mech", "test", "causes"[, "enemies"]}.
struct ReactEntry {
    KeyOrder<4> keys;
    std::int64_t mech = 0;
    ReactionTest test{};
    Ids causes;
    Ids enemies;  // Mech Down: the enemies that caused the loss (consequences.caused_by)
    bool operator==(const ReactEntry&) const = default;
};

// A charge that waits for the other In Sight winners (flow_melee.charge_step, §18.2.1 step 5).
struct WaitingCharge {
    KeyOrder<4> keys;
    std::int64_t charger = 0;
    std::int64_t target = 0;
    bool jump = false;
    ChargeOutcome outcome{};
    bool operator==(const WaitingCharge&) const = default;
};

// A fire assignment: [weapon, target] or [weapon, feature, "building"] (flow_fire.fire_act).
struct Assignment {
    std::int64_t weapon = 0;
    std::int64_t target = 0;  // a mech id, or a feature index when building
    bool building = false;
    bool operator==(const Assignment&) const = default;
};

// A pause's answer so far: a Lucky re-roll (bool) or a Marksman location (luck.resume).
struct Answer {
    bool is_location = false;
    bool reroll = false;
    Location location{};
    bool operator==(const Answer&) const = default;
};

// -- the frames ----------------------------------------------------------------------------------
struct TurnFrame {  // {"kind": "turn"[, "stage": "done"]} (game._run, flow_turn.turn_step)
    TurnStage stage{};
    bool operator==(const TurnFrame&) const = default;
};
struct PhaseFrame {  // flow_turn.turn_step / phase_step, group_orders
    Side side{};
    PhaseStage stage{};
    std::vector<Ids> groups;
    std::vector<std::int64_t> done;
    bool pefs = false;
    Ids leaders;
    std::int64_t asking = 0;
    bool operator==(const PhaseFrame&) const = default;
};
struct GroupFrame {  // flow_turn.phase_act
    Side side{};
    Ids members;
    Ids acted;
    bool operator==(const GroupFrame&) const = default;
};
struct MechFrame {  // flow_mech.mech_frame
    std::int64_t mech = 0;
    MechStage stage{};
    Num spent = Num::real(0.0);
    bool moved = false;
    bool fired = false;
    NumPoint start{};
    bool turn = false;
    bool operator==(const MechFrame&) const = default;
};
struct InsightFrame {  // flow.insight_frame, flow_move.insight_step
    Side side{};
    std::int64_t mover = 0;
    std::int64_t group = 0;
    Ids enemy_groups;
    InsightStage stage{};
    std::optional<Ids> free;
    Ids winners;
    IdMap<Ids> opponents;
    std::vector<ReactEntry> deferred;
    std::int64_t next = 0;
    std::int64_t charging = 0;
    Ids charge_options;
    IdMap<std::vector<std::int64_t>> charge_rolls;
    std::vector<WaitingCharge> charges;
    bool operator==(const InsightFrame&) const = default;
};
struct FireFrame {  // flow_fire.fire_frame
    std::int64_t shooter = 0;
    FireMode mode{};
    std::optional<Ids> targets;
    std::optional<std::int64_t> cause;
    bool rush = false;
    std::vector<Assignment> assigned;
    std::optional<std::int64_t> twist;
    Ids rush_at;
    bool operator==(const FireFrame&) const = default;
};
struct ReactFrame {  // consequences.queue_tests, flow_react
    std::vector<ReactEntry> entries;
    IdMap<std::int64_t> free_will;
    std::int64_t asking = 0;
    bool operator==(const ReactFrame&) const = default;
};
struct ChargeFrame {  // flow_melee.charge_frame, flow_charges.charges_step
    std::int64_t charger = 0;
    std::int64_t target = 0;
    ChargeStage stage{};
    Num allowance;
    NumPoint start{};
    bool jump = false;
    Num spent;
    bool operator==(const ChargeFrame&) const = default;
};
struct MeleeFrame {  // flow_melee.melee_frame
    std::int64_t attacker = 0;
    std::int64_t defender = 0;
    bool jump = false;
    IdMap<std::pair<MeleeAttack, Location>> decl;
    MeleeStage stage{};
    std::int64_t ties = 0;
    bool operator==(const MeleeFrame&) const = default;
};
struct ChargesFrame {  // flow_charges.start_waiting_charges
    std::vector<WaitingCharge> entries;
    Ids fired;
    std::int64_t picked = 0;
    bool operator==(const ChargesFrame&) const = default;
};
struct ObjectiveFrame {  // mission_play.new_mission
    bool operator==(const ObjectiveFrame&) const = default;
};
struct PefsFrame {  // flow_turn.phase_step, np_flow
    std::optional<std::vector<std::int64_t>> order;
    bool operator==(const PefsFrame&) const = default;
};
struct PauseFrame {  // luck.run_unit (a choice inside a roll, E21)
    PauseUnit unit{};
    Json action;  // null, or an actions.action_to_dict() object (actions are not mirrored yet)
    std::vector<std::vector<std::int64_t>> rolls;
    std::vector<Answer> answers;
    PauseStage stage{};
    std::int64_t mech = 0;
    LuckyWhat what{};
    std::vector<std::int64_t> faces;
    std::optional<std::int64_t> target;
    std::vector<Location> choices;
    std::int64_t passed = 0;
    bool shielded_hit = false;
    bool lost = false;
    std::vector<Location> shielded;
    bool operator==(const PauseFrame&) const = default;
};

// The body's index is the FrameKind.
using FrameBody = std::variant<TurnFrame, PhaseFrame, GroupFrame, MechFrame, InsightFrame, FireFrame,
                               ReactFrame, ChargeFrame, MeleeFrame, ChargesFrame, ObjectiveFrame,
                               PefsFrame, PauseFrame>;

struct Frame {
    KeyOrder<15> keys;  // "kind" included, where the document put it
    FrameBody body;

    FrameKind kind() const { return static_cast<FrameKind>(body.index()); }
    template <class T>
    T& as() { return std::get<T>(body); }
    template <class T>
    const T& as() const { return std::get<T>(body); }
    bool has(FrameKey k) const { return keys.has(k); }
    bool operator==(const Frame&) const = default;
};

// The frame constructors of the reference, keys in its order.
Frame turn_frame();                                                       // game._run
Frame phase_frame(Side side);                                             // flow_turn.turn_step
Frame group_frame(Side side, Ids members);                                // flow_turn.phase_act
Frame mech_frame(std::int64_t mech);                                      // flow_mech.mech_frame
Frame insight_frame(std::int64_t mover, Side side, Ids enemy_groups);     // flow.insight_frame
Frame fire_frame(std::int64_t shooter, FireMode mode, std::optional<Ids> targets = std::nullopt,
                 std::optional<std::int64_t> cause = std::nullopt, bool rush = false);  // flow_fire
Frame charge_frame(std::int64_t charger, std::int64_t target, std::optional<double> allowance = std::nullopt,
                   std::optional<std::array<double, 2>> start = std::nullopt);  // flow_melee
Frame melee_frame(std::int64_t attacker, std::int64_t defender, bool jump_attack = false);  // flow_melee
Frame react_frame(std::vector<ReactEntry> entries);                      // consequences.queue_tests
ReactEntry react_entry(std::int64_t mech, ReactionTest test, Ids causes);  // {"mech", "test", "causes"}

// The stack: shared between clones, copied when a clone changes it (copy on write, above).
// A frame keeps its position while on the stack; each push gets a new serial number, so a
// FrameRef (position, serial) names one pushed frame exactly (flow.Ctx.pop's identity check).
struct FrameRef {
    std::uint32_t index = 0;
    std::uint32_t serial = 0;
};

class FrameStack {
public:
    std::size_t size() const { return stack_ ? stack_->size() : 0; }
    bool empty() const { return size() == 0; }
    const Frame& operator[](std::size_t i) const { return *(*stack_)[i].frame; }
    // The top frame; an empty stack (a hostile check=False document) raises StateError.
    const Frame& top() const {
        if (empty()) throw_empty();
        return *stack_->back().frame;
    }
    FrameRef top_ref() const;
    FrameRef ref(std::size_t i) const;
    bool is_live(FrameRef r) const {
        return r.index < size() && (*stack_)[r.index].serial == r.serial;
    }
    // The frame for writing: copied first if a clone shares it.
    Frame& edit(std::size_t i);
    Frame& edit(FrameRef r) { return edit(r.index); }
    FrameRef push(Frame f);
    Frame pop_top();
    bool operator==(const FrameStack& o) const;
    // Whether a clone shares frame ``i`` (for tests: copy on write at work).
    bool shares(std::size_t i) const {
        return stack_.use_count() > 1 || (*stack_)[i].frame.use_count() > 1;
    }

private:
    [[noreturn]] static void throw_empty();
    struct Slot {
        std::shared_ptr<Frame> frame;
        std::uint32_t serial = 0;
    };
    std::vector<Slot>& own();  // the list for writing: copied first if a clone shares it
    std::shared_ptr<std::vector<Slot>> stack_;  // null: no frame
    std::uint32_t next_serial_ = 1;
};

struct Battle;
struct StateLimits;
// validity_parts' checks of the frames (_frame_kinds, _check_frame, _check_asking) over the
// typed stack; frames.cpp lists what is not mirrored. Throws wargym::StateError naming the
// field as validity_parts does (battle.frames.2.opponents.4.0).
void check_frames(const Battle& battle, const StateLimits& limits);

}  // namespace wargym::no_quarter
