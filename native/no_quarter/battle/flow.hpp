// The orchestrator's plumbing (rules/no_quarter/battle/flow.py: Ctx, push/pop, ask,
// nearest_frame, insight_frame) and the game loop's shape (game.py: _run, _act, _unit,
// MAX_STEPS_PER_CALL, HANDLERS), over the typed frames of frames.hpp.
//
// What is here and what is not. The loop runs exactly as game._run does, but every procedure
// it calls is a slot of Procedures that the helpers porting the rules fill in; an empty slot
// throws NotPorted naming the Python function it stands for. Missing today:
//   - every frame handler (game.HANDLERS: flow_turn TURN/PHASE/GROUP, flow_mech MECH,
//     flow_move INSIGHT, flow_fire FIRE, flow_react REACT, flow_melee CHARGE/MELEE,
//     flow_charges CHARGES, mission_play OBJECTIVE, np_flow PEFS, luck's pause): they need
//     the events, perception, movement and combat being ported by others;
//   - game._np_decides (np_choose: non_player/enemy_decide), np_flow.check_pefs,
//     mission_play.withdraw_np and mission_over, and the BattleEnded event of
//     game._eliminated (its test of the two sides is here);
//   (luck.run_unit's guard and luck.resume are luck.cpp's: act() calls them;)
//   - legal options (Handler.options): the actions are not mirrored yet.
// consequences.queue_tests and caused_by are here (pure frame work) until consequences.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../dice.hpp"
#include "actions.hpp"
#include "events.hpp"
#include "frames.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

struct RulesTables;  // forces/data.py NoQuarterRules, handed in by the glue (being ported)

// game.MAX_STEPS_PER_CALL (an engine safety valve, not a rule; a test checks the twin).
inline constexpr std::int64_t kMaxStepsPerCall = 100'000;

// A procedure of the reference that the native core does not have yet.
class NotPorted : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

// Where events go when someone asks for them (issue 16 req. 6: none are built otherwise).
// The events helper implements record() for its Event type; Ctx::emit calls it only when a
// sink is set.
class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void record(const events::Event& event) = 0;
};

// A sink that keeps every event, in order (what a caller asking for the events uses).
class EventList final : public EventSink {
public:
    std::vector<events::Event> events;
    void record(const events::Event& event) override { events.push_back(event); }
};

struct Ctx;

// flow.Handler: what each frame kind implements.
struct Handler {
    void (*step)(Ctx&, FrameRef) = nullptr;
    void (*act)(Ctx&, FrameRef, const Action&) = nullptr;
    // Handler.options(battle, rules, frame): the legal actions at the frame's decision (wave 2).
    std::vector<Action> (*options)(const Battle&, const RulesTables&, FrameRef) = nullptr;
    // Its units roll no die a pilot may choose about (no Lucky or Marksman pause can arise).
    bool luck_free = false;
};

// game.HANDLERS and the procedures game._run calls around them.
struct Procedures {
    std::array<Handler, kFrameKinds> handlers{};
    void (*np_decides)(Ctx&) = nullptr;                              // game._np_decides
    void (*check_pefs)(Ctx&) = nullptr;                              // np_flow.check_pefs
    void (*withdraw_np)(Ctx&) = nullptr;                             // mission_play.withdraw_np
    bool (*mission_over)(Ctx&) = nullptr;                            // mission_play.mission_over
    void (*battle_ended)(Ctx&, std::optional<Side>, const char*) = nullptr;  // emit(BattleEnded)
};

// flow.Ctx: one call into the engine.
struct Ctx {
    Ctx(Battle& b, Dice& d) : battle(b), dice(d) {}
    Battle& battle;
    Dice& dice;
    const RulesTables* rules = nullptr;
    const Procedures* procedures = nullptr;
    EventSink* sink = nullptr;  // off by default: no event is recorded
    std::uint64_t emitted = 0;  // len(ctx.log): events emitted so far, recorded or not
    // While a firing or a melee blow resolves, the tests it causes gather here (ctx.collecting).
    std::optional<std::vector<ReactEntry>> collecting;
    bool guarded = false;  // ctx.guard is not None: a unit under luck.run_unit (luck.cpp's GuardedCtx)
    // The tables of this call when the caller's were built for another battlefield, or a
    // building fell during it (rules points here then; battlefield/terrain_tables.hpp).
    std::shared_ptr<RulesTables> own_rules;

    // Ctx(battle, dice, rules): ``tables``, their battlefield tables rebuilt for the battle's
    // battlefield first if they were built for another one (terrain_tables.hpp).
    void use_rules(const RulesTables& tables);
    // Battle.apply's cache reset for a battlefield that changed (BuildingDestroyed: the
    // building is rubble): the battlefield tables are rebuilt, in place once they are the
    // call's own, so every reference to *rules taken since sees the rubble.
    void terrain_changed();

    // Ctx.emit: apply ``event`` (one of events.hpp's structs) to the battle (events::apply,
    // Battle.apply's branch for it) and record it if a sink is set.
    template <class E>
    void emit(const E& event) {
        events::apply(battle, event);
        if constexpr (std::is_same_v<E, events::BuildingDestroyed>) terrain_changed();
        ++emitted;
        if (sink) sink->record(events::Event{event});
    }
    // Ctx.push: start a sub-procedure on top of the stack.
    FrameRef push(Frame frame) { return battle.frames.push(std::move(frame)); }
    // Ctx.pop: finish ``frame``, which must be on top (the top is popped either way, as in
    // the reference; std::runtime_error "frame stack corrupted" otherwise).
    Frame pop(FrameRef frame);
    // Ctx.ask: stop at a decision point.
    void ask(Side side, DecisionKind kind, std::optional<std::int64_t> mech = std::nullopt) {
        battle.decision = Decision{side, kind, mech};
    }
    // The frame for writing (copied first if a clone shares it).
    Frame& edit(FrameRef frame) { return battle.frames.edit(frame); }
};

// flow.nearest_frame: the topmost frame of ``kind``, if any (its position).
std::optional<std::size_t> nearest_frame(const Battle& battle, FrameKind kind);

// luck.watching: whether a pilot in play may still make a choice inside a roll.
bool watching(const Battle& battle);

// consequences.queue_tests: deferred on an In Sight being resolved, else a react frame.
void queue_tests(Ctx& ctx, std::vector<ReactEntry> entries);
// consequences.caused_by: mark the Mech Down tests with the enemies that caused the loss.
std::vector<ReactEntry>& caused_by(std::vector<ReactEntry>& entries, const Ids& enemies);

// game._run: run the rules up to the next decision (or the end).
void run(Ctx& ctx);
// game._unit: the top frame's handler steps it (action null) or carries out ``action``.
void game_unit(Ctx& ctx, const Action* action);
// game._act: one engine unit, ``action`` at ``frame``'s decision, or (nullptr) a step.
void act(Ctx& ctx, FrameRef frame, const Action* action);

// -- flow.roll_index (ruling D24) ------------------------------------------------------------
// The most items roll_index picks from: beyond 36 the reference's 2d6 reading (count * (36 //
// count) == 0) never accepts a roll, so the binding refuses the count instead of looping.
inline constexpr std::int64_t kRollIndexMaxCount = 36;

struct RolledIndex {
    std::int64_t index = 0;
    std::vector<int> faces;  // every face rolled, re-rolls included
};

// roll_index: one of count items uniformly with d6 rolls (ruling D24): one d6 with re-rolls for
// up to six items, 2d6 read as 36 outcomes beyond that. count 1..kRollIndexMaxCount (else
// ArgumentError("count")); consumes exactly the faces the reference consumes, in its order.
RolledIndex roll_index(wargym::Dice& dice, std::int64_t count);

// The Python twin of each frame kind's handler (for NotPorted messages).
extern const std::array<const char*, kFrameKinds> kHandlerNames;

}  // namespace wargym::no_quarter
