// rules/no_quarter/battle/luck.py (luck.hpp): Lucky and Marksman by re-execution (E21).
//
// The guard. The reference swaps ctx.dice for a recorder and sets ctx.guard; flow.hpp's Ctx
// holds its dice by reference, so run_unit runs the unit with a second Ctx (GuardedCtx, below)
// over the same battle: its dice are the recorder, it carries the guard, and its events go to a
// buffer that reaches the caller's sink only when the unit ends without a pause (the
// reference deletes a paused unit's events from ctx.log; "events of the unit appear once").
#include "luck.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <variant>

#include "../../errors.hpp"
#include "../forces/data.hpp"
#include "ranged_combat.hpp"

namespace wargym::no_quarter {

namespace {

bool has_attribute(const Mech& mech, Attribute a) {
    const auto& attributes = mech.record->pilot.attributes;
    return std::find(attributes.begin(), attributes.end(), a) != attributes.end();
}

const Mech& mech_by_id(const Battle& battle, std::int64_t id) {
    const Mech* m = battle.mech(id);
    if (!m) throw std::out_of_range("no mech " + std::to_string(id));  // battle.mechs[id]: KeyError
    return *m;
}

// luck._ChoicePendingError: the pause frame's ask (stage, mech, what, faces, target, choices, info).
struct ChoicePending {
    PauseFrame ask;
    KeyOrder<15> info_keys;  // the **info keys (or "shielded"), in the order given
};

// luck._Recorder: replay ``prefix`` first, then roll ``live``; every roll is kept.
class Recorder final : public Dice {
public:
    Recorder(Dice& live, const std::vector<std::vector<std::int64_t>>* prefix) : live_(live), prefix_(prefix) {}
    std::vector<int> roll(std::int64_t n) override {
        std::vector<int> out;
        if (prefix_ && rolls.size() < prefix_->size()) {
            const auto& faces = (*prefix_)[rolls.size()];
            if (static_cast<std::int64_t>(faces.size()) != n) {
                throw wargym::StateError("battle.frames", "a paused roll does not replay (" + std::to_string(faces.size()) +
                                                              " dice kept, " + std::to_string(n) + " rolled)");
            }
            out.assign(faces.begin(), faces.end());
        } else {
            out = live_.roll(n);
        }
        rolls.emplace_back(out.begin(), out.end());
        return out;
    }
    std::vector<std::vector<std::int64_t>> rolls;

private:
    Dice& live_;
    const std::vector<std::vector<std::int64_t>>* prefix_;
};

class BufferSink final : public EventSink {
public:
    void record(const events::Event& event) override { events.push_back(event); }
    std::vector<events::Event> events;
};

// The Ctx a guarded unit runs with (ctx.guarded is true exactly for these).
struct GuardedCtx : Ctx {
    GuardedCtx(Battle& b, Dice& d) : Ctx(b, d) {}
    LuckGuard guard;
};

// luck._answer: the next answer under a guard; none outside one (the automatic answer).
const Answer* answer(Ctx& ctx, ChoicePending&& ask) {
    if (!ctx.guarded) return nullptr;
    LuckGuard& guard = static_cast<GuardedCtx&>(ctx).guard;
    if (guard.used < guard.answers.size()) return &guard.answers[guard.used++];
    throw std::move(ask);
}

Frame pause_frame(const Action* action, std::vector<std::vector<std::int64_t>> rolls, std::vector<Answer> answers,
                  ChoicePending&& ask) {
    PauseFrame p = std::move(ask.ask);
    p.unit = action ? PauseUnit::act : PauseUnit::step;  // luck.unit_spec
    p.action = action ? action_to_json(*action) : Json();
    p.rolls = std::move(rolls);
    p.answers = std::move(answers);
    Frame f{{}, std::move(p)};
    for (FrameKey k : {FrameKey::kind, FrameKey::unit, FrameKey::action, FrameKey::rolls, FrameKey::answers,
                       FrameKey::stage, FrameKey::mech, FrameKey::what, FrameKey::faces, FrameKey::target,
                       FrameKey::choices}) {
        f.keys.set(k);
    }
    for (std::uint8_t i = 0; i < ask.info_keys.n; ++i) f.keys.set(ask.info_keys.keys[i]);
    return f;
}

DecisionKind pause_kind(PauseStage stage) {
    return stage == PauseStage::lucky ? DecisionKind::lucky_reroll : DecisionKind::marksman_location;
}

// FunctionHandler.act without act_fn (game._act answers a pause with resume before this).
void pause_act(Ctx&, FrameRef, const Action&) { throw std::runtime_error("frame pause takes no decisions"); }

void pause_step_slot(Ctx& ctx, FrameRef frame) { pause_step(ctx, frame); }

}  // namespace

// luck.offer_lucky
std::vector<int> offer_lucky(Ctx& ctx, const Mech& mech, std::string_view what, std::span<const int> faces,
                             bool wanted, std::optional<std::int64_t> target, const LuckyInfo& info) {
    std::vector<int> out(faces.begin(), faces.end());
    if (!wanted || faces.empty() || ctx.battle.options->lucky != Lucky::choose || mech.lucky_used ||
        !has_attribute(mech, Attribute::lucky)) {
        return out;
    }
    if (!ctx.guarded) return out;  // _answer is None: the faces are kept
    ChoicePending ask;
    ask.ask.stage = PauseStage::lucky;
    ask.ask.mech = mech.id;
    const std::optional<LuckyWhat> kind = kLuckyWhat.find(what);
    if (!kind) throw std::invalid_argument("offer_lucky: not one of LUCKY_WHAT: " + std::string(what));
    ask.ask.what = *kind;
    ask.ask.faces.assign(faces.begin(), faces.end());
    ask.ask.target = target;
    if (info.passed) { ask.ask.passed = *info.passed; ask.info_keys.set(FrameKey::passed); }
    if (info.shielded_hit) { ask.ask.shielded_hit = *info.shielded_hit; ask.info_keys.set(FrameKey::shielded_hit); }
    if (info.lost) { ask.ask.lost = *info.lost; ask.info_keys.set(FrameKey::lost); }
    const Answer* a = answer(ctx, std::move(ask));
    if (!a || (!a->is_location && !a->reroll)) return out;  // `not answer`: a location is a true str
    std::vector<int> fresh = ctx.dice.roll(static_cast<std::int64_t>(faces.size()));
    ctx.emit(events::LuckyReroll{mech.id, std::string(what), events::Ints(faces.begin(), faces.end()),
                                 events::Ints(fresh.begin(), fresh.end())});
    return fresh;
}

// luck.marksman_pick
Location marksman_pick(Ctx& ctx, const Mech& shooter, const Mech& target, Location first, Location second,
                       std::span<const Location> shielded) {
    const Location automatic = better_location(ctx.rules->combat, first, second);
    if (first == second || ctx.battle.options->marksman != Marksman::choose) return automatic;
    if (!ctx.guarded) return automatic;
    ChoicePending ask;
    ask.ask.stage = PauseStage::marksman;
    ask.ask.mech = shooter.id;
    ask.ask.what = LuckyWhat::hit_location;
    ask.ask.target = target.id;
    ask.ask.choices = {first, second};
    for (Location c : ask.ask.choices) {
        if (std::find(shielded.begin(), shielded.end(), c) != shielded.end()) ask.ask.shielded.push_back(c);
    }
    ask.info_keys.set(FrameKey::shielded);
    const Answer* a = answer(ctx, std::move(ask));
    if (!a->is_location) {  // Location(True): not a location
        throw std::invalid_argument(std::string(a->reroll ? "True" : "False") + " is not a valid Location");
    }
    return a->location;
}

// luck.run_unit
void run_unit(Ctx& ctx, const Action* action, const std::vector<std::vector<std::int64_t>>* prefix,
              const std::vector<Answer>* answers) {
    Battle& battle = ctx.battle;
    if (ctx.guarded || (!prefix && !watching(battle))) {
        game_unit(ctx, action);
        return;
    }
    Battle before = battle.clone();
    Recorder recorder(ctx.dice, prefix);
    BufferSink buffer;
    GuardedCtx inner(battle, recorder);
    inner.rules = ctx.rules;
    inner.procedures = ctx.procedures;
    inner.sink = ctx.sink ? &buffer : nullptr;
    inner.emitted = ctx.emitted;
    inner.collecting = ctx.collecting;
    inner.guarded = true;
    if (answers) inner.guard.answers = *answers;
    try {
        game_unit(inner, action);
    } catch (ChoicePending& pause) {
        battle = std::move(before);  // the battle as before the unit; its events are dropped
        const Side side = mech_by_id(battle, pause.ask.mech).side;
        const DecisionKind kind = pause_kind(pause.ask.stage);
        const std::int64_t mech = pause.ask.mech;
        ctx.push(pause_frame(action, std::move(recorder.rolls), std::move(inner.guard.answers), std::move(pause)));
        ctx.ask(side, kind, mech);
        return;
    }
    ctx.emitted = inner.emitted;
    ctx.collecting = std::move(inner.collecting);
    if (inner.own_rules) {  // a building fell in the unit (a paused unit's rubble is undone with it)
        if (ctx.own_rules) {
            *ctx.own_rules = *inner.own_rules;  // in place: the caller's references see the rubble
        } else {
            ctx.own_rules = std::move(inner.own_rules);
            ctx.rules = ctx.own_rules.get();
        }
    }
    if (ctx.sink) {
        for (const events::Event& e : buffer.events) ctx.sink->record(e);
    }
}

// luck.resume
void resume(Ctx& ctx, FrameRef frame, const Action& action) {
    Battle& battle = ctx.battle;
    Battle before = battle.clone();
    Frame popped = ctx.pop(frame);
    const PauseFrame& pause = popped.as<PauseFrame>();
    std::vector<Answer> answers = pause.answers;
    Answer a;
    if (const auto* lucky = std::get_if<LuckyChoice>(&action)) {
        a.reroll = lucky->reroll;
    } else if (const auto* loc = std::get_if<ChooseLocation>(&action)) {
        a.is_location = true;
        a.location = loc->location;
    } else {
        throw ArgumentError("action", "a pause takes a LuckyChoice or a ChooseLocation");
    }
    answers.push_back(a);
    const std::uint64_t emitted = ctx.emitted;
    try {
        std::optional<Action> again;
        if (!pause.action.is_null()) again = action_from_json(pause.action);
        run_unit(ctx, again ? &*again : nullptr, &pause.rolls, &answers);
    } catch (const wargym::StateError&) {  // a pause frame that does not replay: no change
        battle = std::move(before);
        ctx.emitted = emitted;
        pause_step(ctx, battle.frames.top_ref());  // the decision stays pending
        throw;
    }
}

// luck.pause_step
void pause_step(Ctx& ctx, FrameRef frame) {
    const PauseFrame& p = ctx.battle.frames[frame.index].as<PauseFrame>();
    ctx.ask(mech_by_id(ctx.battle, p.mech).side, pause_kind(p.stage), p.mech);
}

// luck.pause_options
std::vector<Action> pause_options(const Battle& battle, const RulesTables&, FrameRef frame) {
    const PauseFrame& p = battle.frames[frame.index].as<PauseFrame>();
    if (p.stage == PauseStage::lucky) return {LuckyChoice{p.mech, false}, LuckyChoice{p.mech, true}};
    std::vector<Action> out;
    for (Location c : p.choices) out.emplace_back(ChooseLocation{p.mech, c});
    return out;
}

// luck.lucky_advice
bool lucky_advice(const Battle& battle, double kill_fraction) {
    const Frame& f = battle.frames.top();
    const PauseFrame& p = f.as<PauseFrame>();
    switch (p.what) {
        case LuckyWhat::fired_on:
        case LuckyWhat::takes_damage:
        case LuckyWhat::mech_down:
        case LuckyWhat::charge_test: return (f.has(FrameKey::passed) ? p.passed : 1) == 0;
        case LuckyWhat::pilot_test: return true;  // offered only when failed
        case LuckyWhat::to_hit: {
            if (!p.target) return false;
            const Mech& target = mech_by_id(battle, *p.target);
            std::int64_t left = 0, full = 0;
            for (std::int64_t v : target.armor) left += v;
            for (std::int64_t v : target.design().armor) full += v;
            return static_cast<double>(left) <= kill_fraction * static_cast<double>(full);
        }
        case LuckyWhat::hit_location: return f.has(FrameKey::shielded_hit) && p.shielded_hit;
        case LuckyWhat::melee: return f.has(FrameKey::lost) && p.lost;
        case LuckyWhat::damage: return false;
    }
    return false;
}

// luck.marksman_advice: min over the choices by (shielded, armour left, preference).
Location marksman_advice(const Battle& battle, const CombatTables& tables) {
    const Frame& f = battle.frames.top();
    const PauseFrame& p = f.as<PauseFrame>();
    const Mech& target = mech_by_id(battle, p.target.value_or(-1));
    const auto key = [&](Location loc) {
        const bool shielded = f.has(FrameKey::shielded) &&
                              std::find(p.shielded.begin(), p.shielded.end(), loc) != p.shielded.end();
        const auto i = static_cast<std::size_t>(loc);
        return std::tuple<bool, std::int64_t, int>(shielded, target.armor[i], tables.marksman_rank[i]);
    };
    if (p.choices.empty()) throw std::invalid_argument("min() arg is an empty sequence");
    Location best = p.choices.front();
    for (Location c : p.choices) {
        if (key(c) < key(best)) best = c;
    }
    return best;
}

// luck.choice_in_roll
Action choice_in_roll(const Battle& battle, const RulesTables& rules, std::span<const Action> options) {
    if (options.empty()) throw ArgumentError("options", "no legal option at the pause");
    const PauseFrame& p = battle.frames.top().as<PauseFrame>();
    Action wanted = p.stage == PauseStage::lucky
                        ? Action(LuckyChoice{p.mech, lucky_advice(battle, rules.lucky_kill_fraction)})
                        : Action(ChooseLocation{p.mech, marksman_advice(battle, rules.combat)});
    return std::find(options.begin(), options.end(), wanted) != options.end() ? wanted : options.front();
}

// luck.side_of
Side side_of(const Battle& battle, const Frame& frame) {
    return mech_by_id(battle, frame.as<PauseFrame>().mech).side;
}

void register_luck(Procedures& procedures) {
    Handler& h = procedures.handlers[static_cast<std::size_t>(FrameKind::pause)];
    h.step = pause_step_slot;
    h.act = pause_act;
    h.options = pause_options;
}

}  // namespace wargym::no_quarter
