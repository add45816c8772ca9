// Mirror of rules/no_quarter/battle/game.py's API (game.hpp).
#include "game.hpp"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "../forces/data.hpp"
#include "../sight_movement/bumping.hpp"
#include "flow_fire.hpp"
#include "flow_mech.hpp"
#include "flow_mech_moves.hpp"
#include "flow_melee.hpp"
#include "flow_react.hpp"
#include "flow_turn.hpp"
#include "luck.hpp"

namespace wargym::no_quarter {

namespace {

// emit(BattleEnded(winner, reason, battle.turn)) (game._eliminated, flow_turn.turn_step)
void battle_ended(Ctx& ctx, std::optional<Side> winner, const char* reason) {
    ctx.emit(events::BattleEnded{winner, reason, ctx.battle.turn});
}

const Procedures& procedures(const Ctx& ctx) { return ctx.procedures ? *ctx.procedures : game_procedures(); }

bool has_item(const Mech& m, ItemType kind) {  // Mech.has_jump_jets and the like: an operable item
    const auto& items = m.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].item == kind &&
            std::find(m.inoperable.begin(), m.inoperable.end(), static_cast<std::int64_t>(i)) == m.inoperable.end()) {
            return true;
        }
    }
    return false;
}

// flow_mech.move_problem over the core's movement mirror (bumping.planning_bodies).
std::optional<std::string> mech_move_problem(const Ctx& ctx, const MechFrame& frame, const Move& move) {
    const Battle& battle = ctx.battle;
    const Mech& m = mech_at(battle, frame.mech, "frame.mech");
    const MoveTerrain& t = ctx.rules->move;
    std::vector<Sighter> in_play;
    for (const Mech& other : battle.mechs) {
        if (other.removed) continue;
        const bool ews = has_item(other, ItemType::ews_1) || has_item(other, ItemType::ews_2);
        in_play.push_back({other.id, static_cast<int>(other.side), other.pos, ews,
                           other.status == Status::duck_back, other.hidden_from});
    }
    const BattleOptions& o = *battle.options;
    const std::vector<BaseAt> bases = all_bases(in_play, battle.wrecks, o.base_radius);
    const std::vector<BaseAt> others = planning_bodies(t, in_play, bases, m.id, static_cast<int>(m.side),
                                                       o.base_radius, o.unseen_bases == UnseenBases::bump);
    const Mover mover{m.id, m.pos, m.heading, m.speed, has_item(m, ItemType::jump_jets)};
    const MoveFrame mf{frame.spent.value(), frame.moved};
    return move_problem(t, mover, mf, others, o.base_radius, MoveOption{move.mech, move.to, move.reverse, move.jump});
}

}  // namespace

void register_game(Procedures& p) { p.battle_ended = &battle_ended; }

const Procedures& game_procedures() {
    static const Procedures table = [] {
        Procedures p;
        register_turn(p);   // flow_turn: turn, phase, group
        register_mech(p);   // flow_mech, flow_move: mech, insight
        register_fire(p);   // flow_fire: fire
        register_react(p);  // flow_react: react
        register_melee(p);  // flow_melee, flow_charges: charge, melee, charges
        register_luck(p);   // luck: pause
        register_game(p);   // game._eliminated's BattleEnded
        return p;
    }();
    return table;
}

std::vector<Action> distinct(const std::vector<Action>& options, double near) {
    std::vector<MoveOption> moves;
    for (const Action& a : options) {
        if (const auto* m = std::get_if<Move>(&a)) moves.push_back({m->mech, m->to, m->reverse, m->jump});
    }
    const std::vector<MoveOption> kept_moves = distinct_moves(moves, near);
    std::size_t next = 0;  // the kept moves are a subsequence of the moves, first of each kept
    std::vector<Action> kept;
    std::unordered_set<Action, ActionHash> others;
    for (const Action& a : options) {
        if (const auto* m = std::get_if<Move>(&a)) {
            if (next < kept_moves.size()) {
                const MoveOption& k = kept_moves[next];
                if (k.mech == m->mech && same_point(k.to, m->to) && k.reverse == m->reverse && k.jump == m->jump) {
                    ++next;
                    kept.push_back(a);
                }
            }
            continue;
        }
        if (!others.insert(a).second) continue;
        kept.push_back(a);
    }
    return kept;
}

std::vector<Action> legal_actions(const Ctx& ctx) {
    const Battle& battle = ctx.battle;
    if (battle.over || !battle.decision || battle.frames.empty()) return {};
    const auto kind = static_cast<std::size_t>(battle.frames.top().kind());
    const Handler& handler = procedures(ctx).handlers[kind];
    if (!handler.options) {
        throw NotPorted(std::string("not ported to the native core yet: the options of ") + kHandlerNames[kind]);
    }
    if (!ctx.rules) throw std::logic_error("the native game was run without its RulesTables");
    return distinct(handler.options(battle, *ctx.rules, battle.frames.top_ref()), ctx.rules->move.tables.near);
}

std::optional<std::string> illegal_because(const Ctx& ctx, const Action& action) {
    const Battle& battle = ctx.battle;
    if (battle.over) return describe(action) + ": the battle is over";
    if (!battle.decision) return describe(action) + ": no decision is pending";
    const std::vector<Action> options = legal_actions(ctx);
    if (std::find(options.begin(), options.end(), action) != options.end()) return std::nullopt;
    const Frame& frame = battle.frames.top();
    const bool mech_moves = frame.kind() == FrameKind::mech &&
                            std::any_of(options.begin(), options.end(),
                                        [](const Action& o) { return std::holds_alternative<Move>(o); });
    const auto* move = std::get_if<Move>(&action);
    if (move && mech_moves && move->mech == frame.as<MechFrame>().mech) {
        const std::optional<std::string> problem = mech_move_problem(ctx, frame.as<MechFrame>(), *move);  // any point
        if (!problem) return std::nullopt;
        return describe(action) + ": " + *problem;
    }
    std::string examples;
    for (std::size_t i = 0; i < options.size() && i < 3; ++i) {
        if (i) examples += ", ";
        examples += describe(options[i]);
    }
    return describe(action) + " is not legal at this " + std::string(kDecisionKind[battle.decision->kind]) +
           " decision of " + std::string(kSide[battle.decision->side]) + "; " + std::to_string(options.size()) +
           " legal options, e.g. " + examples;
}

void play(Ctx& ctx, const Action& action) {
    if (const auto problem = illegal_because(ctx, action)) throw IllegalAction(*problem);
    play_legal(ctx, action);
}

void play_legal(Ctx& ctx, const Action& action) {
    Battle& battle = ctx.battle;
    const FrameRef frame = battle.frames.top_ref();
    battle.decision.reset();
    act(ctx, frame, &action);
    run(ctx);
}

void advance(Ctx& ctx) { run(ctx); }

bool eliminated(Ctx& ctx) {
    bool blue = false, red = false;
    for (const Mech& m : ctx.battle.mechs) {
        if (!m.removed) (m.side == Side::blue ? blue : red) = true;
    }
    if (blue && red) return false;
    const std::optional<Side> winner = blue ? std::optional(Side::blue) : (red ? std::optional(Side::red) : std::nullopt);
    battle_ended(ctx, winner, "side eliminated");
    return true;
}

}  // namespace wargym::no_quarter
