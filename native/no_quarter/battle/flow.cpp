// The orchestrator's plumbing and the game loop's shape (flow.hpp; rules/no_quarter/battle/
// flow.py and game.py).
#include "flow.hpp"

#include <algorithm>
#include <string>

#include "../../errors.hpp"
#include "../battlefield/terrain_tables.hpp"
#include "../forces/data.hpp"
#include "luck.hpp"

namespace wargym::no_quarter {

const std::array<const char*, kFrameKinds> kHandlerNames{
    "flow_turn.TURN (turn_step)",
    "flow_turn.PHASE (phase_step, phase_act)",
    "flow_turn.GROUP (group_step, group_act)",
    "flow_mech.MECH (mech_step, mech_act)",
    "flow_move.INSIGHT (insight_step, insight_act)",
    "flow_fire.FIRE (fire_step, fire_act)",
    "flow_react.REACT (react_step, react_act)",
    "flow_melee.CHARGE (charge_step)",
    "flow_melee.MELEE (melee_step, melee_act)",
    "flow_charges.CHARGES (charges_step, charges_act)",
    "mission_play.OBJECTIVE",
    "np_flow.PEFS",
    "luck (pause_step; resume)",
};

Frame Ctx::pop(FrameRef frame) {
    FrameStack& frames = battle.frames;
    if (frames.empty()) throw std::out_of_range("pop from empty list");
    const bool same = frames.is_live(frame) && frame.index + 1 == frames.size();
    const std::string expected = frames.is_live(frame) ? std::string(kFrameKind[frames[frame.index].kind()]) : "a finished frame";
    Frame top = frames.pop_top();
    if (!same) {
        throw std::runtime_error("frame stack corrupted: popped " + std::string(kFrameKind[top.kind()]) + ", not " +
                                 expected);
    }
    return top;
}

std::optional<std::size_t> nearest_frame(const Battle& battle, FrameKind kind) {
    for (std::size_t i = battle.frames.size(); i-- > 0;) {
        if (battle.frames[i].kind() == kind) return i;
    }
    return std::nullopt;
}

bool watching(const Battle& battle) {
    const BattleOptions& opts = *battle.options;
    const bool lucky = opts.lucky == Lucky::choose;
    const bool marksman = opts.marksman == Marksman::choose;
    if (!(lucky || marksman)) return false;
    for (const Mech& mech : battle.mechs) {
        const auto& attributes = mech.record->pilot.attributes;
        if (mech.removed || attributes.empty()) continue;
        const auto has = [&](Attribute a) { return std::find(attributes.begin(), attributes.end(), a) != attributes.end(); };
        if (marksman && has(Attribute::marksman)) return true;
        if (lucky && !mech.lucky_used && has(Attribute::lucky)) return true;
    }
    return false;
}

void queue_tests(Ctx& ctx, std::vector<ReactEntry> entries) {
    if (entries.empty()) return;
    FrameStack& frames = ctx.battle.frames;
    const std::optional<std::size_t> insight = nearest_frame(ctx.battle, FrameKind::insight);
    auto append = [&](std::vector<ReactEntry>& to) {
        to.insert(to.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
    };
    if (ctx.collecting) {
        append(*ctx.collecting);  // a firing or blow being resolved gathers them
    } else if (insight && frames[*insight].as<InsightFrame>().stage == InsightStage::act) {
        Frame& f = frames.edit(*insight);  // after all winners acted (§16.1.6)
        f.keys.set(FrameKey::deferred);    // setdefault
        append(f.as<InsightFrame>().deferred);
    } else if (!frames.empty() && frames.top().kind() == FrameKind::react) {
        append(frames.edit(frames.size() - 1).as<ReactFrame>().entries);
    } else {
        ctx.push(react_frame(std::move(entries)));
    }
}

std::vector<ReactEntry>& caused_by(std::vector<ReactEntry>& entries, const Ids& enemies) {
    for (ReactEntry& entry : entries) {
        const bool none = !entry.keys.has(FrameKey::enemies) || entry.enemies.empty();
        if (entry.test == ReactionTest::mech_down && none) {
            entry.enemies = enemies;
            entry.keys.set(FrameKey::enemies);
        }
    }
    return entries;
}

namespace {

const Procedures& procedures(const Ctx& ctx) {
    static const Procedures none;
    return ctx.procedures ? *ctx.procedures : none;
}

template <class F>
F need(F slot, const char* python) {
    if (!slot) throw NotPorted(std::string("not ported to the native core yet: ") + python);
    return slot;
}

// Python truthiness of a plain JSON value (np.get("external", False), np["check_due"]).
bool truthy(const Json& j) {
    switch (j.kind()) {
        case Json::Kind::null: return false;
        case Json::Kind::boolean: return j.as_bool();
        case Json::Kind::integer: return j.as_int() != 0;
        case Json::Kind::real: return j.as_real() != 0.0;
        case Json::Kind::string: return !j.as_string().empty();
        case Json::Kind::array: return !j.as_array().empty();
        case Json::Kind::object: return !j.as_object().empty();
    }
    return false;
}

const Json* member(const Json& object, const char* key) {
    for (const auto& [k, v] : object.as_object()) {
        if (k == key) return &v;
    }
    return nullptr;
}

const Json& required(const Json& object, const char* key) {
    const Json* v = member(object, key);
    if (!v) throw wargym::StateError(std::string("battle.np.") + key, "missing");
    return *v;
}

// game._eliminated: a side with no mech in play ends the battle.
bool eliminated(Ctx& ctx) {
    bool blue = false, red = false;
    for (const Mech& m : ctx.battle.mechs) {
        if (m.removed) continue;
        (m.side == Side::blue ? blue : red) = true;
    }
    if (blue && red) return false;
    const std::optional<Side> winner = blue ? std::optional(Side::blue) : (red ? std::optional(Side::red) : std::nullopt);
    need(procedures(ctx).battle_ended, "events.BattleEnded (game._eliminated)")(ctx, winner, "side eliminated");
    return true;
}

}  // namespace

// Ctx(battle, dice, rules_of(battle)): the reference's queries read the battle's own
// battlefield (its index); tables built for another one are rebuilt for it first.
void Ctx::use_rules(const RulesTables& tables) {
    rules = &tables;
    own_rules.reset();
    if (!tables.terrain_numbers.present) return;  // tables without the numbers: as given
    if (tables.terrain_of && same_battlefield(*tables.terrain_of, *battle.battlefield)) return;
    own_rules = std::make_shared<RulesTables>(tables);
    build_battlefield_tables(*own_rules, battle.battlefield);
    rules = own_rules.get();
}

// Battle.apply's ``geometry_cache = None`` after the battlefield changed (state.rubble).
void Ctx::terrain_changed() {
    if (!rules || !rules->terrain_numbers.present) return;  // nothing to rebuild them with
    if (!own_rules) own_rules = std::make_shared<RulesTables>(*rules);
    build_battlefield_tables(*own_rules, battle.battlefield);
    rules = own_rules.get();
}

// game._unit: the top frame's handler steps it or carries out ``action``.
void game_unit(Ctx& ctx, const Action* action) {
    const FrameRef top = ctx.battle.frames.top_ref();
    const auto kind = static_cast<std::size_t>(ctx.battle.frames.top().kind());
    const Handler& handler = procedures(ctx).handlers[kind];
    if (!action) {
        need(handler.step, kHandlerNames[kind])(ctx, top);
    } else {
        need(handler.act, kHandlerNames[kind])(ctx, top, *action);
    }
}

// game._act: a pause's answer re-runs its unit (luck.resume); every unit runs under
// luck.run_unit, which guards it while a pilot may choose inside a roll.
void act(Ctx& ctx, FrameRef frame, const Action* action) {
    if (action && ctx.battle.frames[frame.index].kind() == FrameKind::pause) {
        resume(ctx, frame, *action);
        return;
    }
    run_unit(ctx, action);
}

void run(Ctx& ctx) {
    Battle& battle = ctx.battle;
    const Procedures& p = procedures(ctx);
    std::optional<std::uint64_t> judged;
    for (std::int64_t i = 0; i < kMaxStepsPerCall; ++i) {
        if (battle.over) return;
        if (battle.decision) {
            if (battle.np.is_null()) return;
            const Json& side = required(battle.np, "side");
            const Json* external = member(battle.np, "external");
            const bool np_side = side.kind() == Json::Kind::string && side.as_string() == kSide[battle.decision->side];
            if (!np_side || (external && truthy(*external))) return;  // a seat outside the rules decides
            need(p.np_decides, "game._np_decides (non_player.enemy_decide.np_choose)")(ctx);
            continue;
        }
        if (!battle.np.is_null()) {
            if (truthy(required(battle.np, "check_due"))) {
                need(p.check_pefs, "np_flow.check_pefs")(ctx);  // PEFs resolve when seen (§20.3)
                continue;
            }
            need(p.withdraw_np, "mission_play.withdraw_np")(ctx);
        }
        if (!battle.mission.is_null()) {
            if (judged != ctx.emitted && need(p.mission_over, "mission_play.mission_over")(ctx)) return;
            judged = ctx.emitted;
        } else if (eliminated(ctx)) {
            return;
        }
        if (battle.frames.empty()) ctx.push(turn_frame());
        act(ctx, battle.frames.top_ref(), nullptr);
    }
    throw std::runtime_error("the rules did not reach a decision point; this is an engine bug");
}

// flow.roll_index (flow.hpp).
RolledIndex roll_index(wargym::Dice& dice, std::int64_t count) {
    if (count <= 0) throw ArgumentError("count", "nothing to choose from");
    if (count > kRollIndexMaxCount) {
        throw ArgumentError("count", "roll_index picks among at most " +
                                         std::to_string(kRollIndexMaxCount) + " items, got " +
                                         std::to_string(count));
    }
    RolledIndex out;
    if (count == 1) return out;
    while (true) {
        if (count <= 6) {
            const int face = dice.roll(1).at(0);
            out.faces.push_back(face);
            if (face <= count) {
                out.index = face - 1;
                return out;
            }
        } else {
            const std::vector<int> two = dice.roll(2);
            const int first = two.at(0);
            const int second = two.at(1);
            out.faces.push_back(first);
            out.faces.push_back(second);
            const std::int64_t value = (first - 1) * 6 + (second - 1);
            if (value < count * (36 / count)) {
                out.index = value % count;
                return out;
            }
        }
    }
}

}  // namespace wargym::no_quarter
