// The batched native skirmish step (skirmish_batch.hpp): envs/no_quarter/batch.py's
// SkirmishBatch.step over solo.py's NoQuarterSkirmishEnv.step, core.py's _decide, _filter
// (encoding.seen_after), _observe, _mask_for and _terminal, and opponents.py's red players.
#include "../non_player/enemy_decide.hpp"
#include "skirmish_batch.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "../../errors.hpp"
#include "../battle/flow.hpp"
#include "../battlefield/terrain_tables.hpp"
#include "../forces/data.hpp"
#include "../battle/game.hpp"
#include "../non_player/np_events.hpp"
#include "../sight_movement/geometry.hpp"

namespace wargym::no_quarter {

namespace {

// Keeps every event of the plays of one step (core._filter's `events`).
class BatchEventSink final : public EventSink {
public:
    explicit BatchEventSink(std::vector<events::Event>& out) : out_(out) {}
    void record(const events::Event& event) override { out_.push_back(event); }

private:
    std::vector<events::Event>& out_;
};

// encoding._SIGHT_EVENTS
bool batch_sight_event(const events::Event& event) {
    return std::holds_alternative<events::MechMoved>(event) ||
           std::holds_alternative<events::MechRemoved>(event) ||
           std::holds_alternative<events::BuildingDestroyed>(event) ||
           std::holds_alternative<events::CriticalHit>(event) ||
           std::holds_alternative<events::ItemDisabled>(event) ||
           std::holds_alternative<events::MechsArrived>(event);
}

// native/no_quarter/encoding.py's feature_actions of one legal action at `index`
FeatureAction batch_feature_action(std::int64_t index, const Action& action) {
    FeatureAction out;
    out.index = index;
    std::visit(
        [&](const auto& a) {
            using T = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<T, Move>) {
                out.kind = FeatureActionKind::move;
                out.mech = a.mech;
                out.to = a.to;
            } else if constexpr (std::is_same_v<T, FreeMove>) {
                out.kind = FeatureActionKind::free_move;
                out.mech = a.mech;
                out.to = a.to;
            } else if constexpr (std::is_same_v<T, Stay>) {
                out.kind = FeatureActionKind::stay;
                out.mech = a.mech;
            } else if constexpr (std::is_same_v<T, FireFirst>) {
                out.kind = FeatureActionKind::fire_first;
                out.mech = a.mech;
            }
            // getattr(action, "target") when it is an int: Charge, AssignFire, FightMech
            if constexpr (std::is_same_v<T, Charge> || std::is_same_v<T, AssignFire> ||
                          std::is_same_v<T, FightMech>) {
                out.target = a.target;
            }
        },
        action);
    return out;
}

Ctx batch_ctx(SkirmishBatchEnv& e, EventSink* sink) {
    Ctx ctx(e.battle, e.dice);
    ctx.rules = e.tables;
    ctx.procedures = &game_procedures();
    ctx.sink = sink;
    return ctx;
}

}  // namespace

// opponents.scripted_opponent
Action scripted_opponent_choice(const Battle& battle, const std::vector<Action>& options,
                                ObservationEncoder& encoder) {
    if (!battle.decision || options.empty()) throw ArgumentError("battle", "no decision is pending");
    for (const Action& o : options) {
        if (std::holds_alternative<ActivateGroup>(o)) return o;
    }
    for (const Action& o : options) {
        if (std::holds_alternative<FireFirst>(o)) return o;
    }
    if (!battle.decision->mech) return options.front();
    const Mech* mech = battle.mech(*battle.decision->mech);
    if (mech == nullptr) throw ArgumentError("battle", "the deciding mech is not in the battle");
    // visible_enemies' frozenset, iterated in id order (the encoder lists them so)
    const std::vector<std::int64_t> seen = encoder.visible_enemies(battle, mech->side);
    const Action* best_shot = nullptr;
    double best_d = 0.0;
    std::int64_t best_w = 0;
    for (const Action& o : options) {
        const auto* shot = std::get_if<AssignFire>(&o);
        if (shot == nullptr) continue;
        const double d = distance(mech->pos, battle.mech(shot->target)->pos);
        if (best_shot == nullptr || d < best_d || (d == best_d && shot->weapon < best_w)) {
            best_shot = &o;
            best_d = d;
            best_w = shot->weapon;
        }
    }
    if (best_shot != nullptr) return *best_shot;
    bool any_move = false;
    for (const Action& o : options) {
        const auto* m = std::get_if<Move>(&o);
        any_move = any_move || (m != nullptr && !m->reverse);
    }
    if (!seen.empty() && any_move) {
        const Mech* nearest = nullptr;
        double near_d = 0.0;
        for (std::int64_t id : seen) {
            const Mech* enemy = battle.mech(id);
            const double d = distance(mech->pos, enemy->pos);
            if (nearest == nullptr || d < near_d) {
                nearest = enemy;
                near_d = d;
            }
        }
        const Point goal = nearest->pos;
        const Action* best = nullptr;
        double best_move = 0.0;
        for (const Action& o : options) {
            const auto* m = std::get_if<Move>(&o);
            if (m == nullptr || m->reverse) continue;
            const double d = distance(m->to, goal);
            if (best == nullptr || d < best_move) {
                best = &o;
                best_move = d;
            }
        }
        return *best;
    }
    return options.front();
}

SkirmishBatchCore::SkirmishBatchCore(std::int64_t num_envs, ActionCodec codec, EncoderConfig encoder,
                                     BatchOpponent opponent, std::int64_t max_episode_steps)
    : codec_(std::move(codec)), opponent_(opponent), max_steps_(max_episode_steps) {
    if (num_envs < 1) throw ArgumentError("num_envs", "expected at least one env");
    if (max_episode_steps < 1) throw ArgumentError("max_episode_steps", "expected at least 1");
    size_ = encoder.size;
    n_ = codec_.n();
    encoder.reach_cache_size = std::min(encoder.reach_cache_size, kBatchReachCacheSize);
    envs_.resize(static_cast<std::size_t>(num_envs));
    for (SkirmishBatchEnv& e : envs_) e.encoder = std::make_unique<ObservationEncoder>(encoder);
}

bool SkirmishBatchCore::stale(const SkirmishBatchEnv& e) const {
    return e.battle.battlefield.get() != e.tables_for;
}

bool SkirmishBatchCore::refresh_tables(SkirmishBatchEnv& e) {
    if (!e.tables || !e.tables->terrain_numbers.present) return !stale(e);
    const Battlefield* now = e.battle.battlefield.get();
    if (!(e.tables->terrain_of && e.tables->terrain_of.get() == now)) {
        auto own = std::make_shared<RulesTables>(*e.tables);
        build_battlefield_tables(*own, e.battle.battlefield);
        e.own_tables = std::move(own);
        e.tables = e.own_tables.get();
    }
    e.tables_for = now;
    return true;
}

void SkirmishBatchCore::set_tables(std::int64_t i, const RulesTables* tables) {
    SkirmishBatchEnv& e = envs_.at(static_cast<std::size_t>(i));
    e.own_tables.reset();
    e.tables = tables;
    e.tables_for = e.battle.battlefield.get();
    refresh_tables(e);
}

void SkirmishBatchCore::begin(SkirmishBatchEnv& e, BatchEpisodeStart episode) {
    e.battle = std::move(episode.battle);
    e.own_tables.reset();
    e.tables = episode.tables;
    e.tables_for = e.battle.battlefield.get();
    refresh_tables(e);
    e.dice = NumpyDice(episode.dice);
    e.opponent = NumpyDice(episode.opponent);
    e.np_context = NpContext{};  // make_opponent: a fresh NpContext per reset
    e.steps = 0;
    e.seen.clear();
    e.has_legal = false;
    e.starting = true;
    e.stage = SkirmishBatchEnv::Stage::advance;
    e.before = e.battle.clone();  // begin_log's start: the battle before advance
    e.events.clear();
}

void SkirmishBatchCore::start(std::int64_t i, BatchEpisodeStart episode) {
    SkirmishBatchEnv& e = envs_.at(static_cast<std::size_t>(i));
    began_.clear();
    buf_.status[i] = kBatchReady;
    buf_.started[i] = 0;
    begin(e, std::move(episode));
    run(i);
}

void SkirmishBatchCore::step(std::span<const std::int64_t> actions) {
    if (static_cast<std::int64_t>(actions.size()) != size()) throw ArgumentError("actions", "one action per env");
    began_.clear();
    for (std::size_t k = 0; k < envs_.size(); ++k) {
        SkirmishBatchEnv& e = envs_[k];
        const auto i = static_cast<std::int64_t>(k);
        buf_.status[i] = kBatchReady;
        buf_.started[i] = 0;
        if (e.stage != SkirmishBatchEnv::Stage::idle) throw ArgumentError("batch", "env " + std::to_string(i) + " has work pending: resume it first");
        // core._decide: the legal action of the codec index, played for blue
        e.before = e.battle.clone();
        e.events.clear();
        e.starting = false;
        if (!e.battle.over) {
            BatchEventSink sink(e.events);
            Ctx ctx = batch_ctx(e, &sink);
            if (!e.has_legal) e.legal = legal_actions(ctx);
            e.has_legal = false;
            const Action action = codec_.decode(actions[k], e.battle, e.legal);
            const std::int64_t a = actions[k];
            if (a >= 0 && a < n_ && buf_.masks[i * n_ + a]) {
                play_legal(ctx, action);  // a masked-in index decodes to one of the legal actions
            } else {
                play(ctx, action);  // checked: IllegalAction names it
            }
        }
        e.stage = SkirmishBatchEnv::Stage::red;
        run(i);
    }
}

void SkirmishBatchCore::resume(std::span<const std::int64_t> which) {
    began_.clear();
    for (std::int64_t i : which) {
        if (i < 0 || i >= size()) throw ArgumentError("which", "no env " + std::to_string(i));
        buf_.status[i] = kBatchReady;
        run(i);
    }
}

Action SkirmishBatchCore::red_choice(SkirmishBatchEnv& e, const std::vector<Action>& options) {
    switch (opponent_) {
        case BatchOpponent::random:
            // options[int(rng.integers(len(options)))]
            return options.at(static_cast<std::size_t>(
                e.opponent.generator().integers(0, static_cast<std::int64_t>(options.size()))));
        case BatchOpponent::scripted:
            return scripted_opponent_choice(e.battle, options, *e.encoder);
        case BatchOpponent::rules:  // opponents.rules_opponent: np_decide(battle, options, context, RandomDice(rng))
            if (!has_np_tables_) throw ArgumentError("np_tables", "the rules opponent needs set_np_tables first");
            return np_decide(e.battle, *e.tables, np_tables_, options, e.np_context, e.opponent);
    }
    throw ArgumentError("opponent", "unknown opponent");
}

void SkirmishBatchCore::update_seen(SkirmishBatchEnv& e) {
    // encoding.seen_after over the step's events, from `before`
    std::ptrdiff_t last = -1;
    for (std::size_t k = 0; k < e.events.size(); ++k) {
        if (batch_sight_event(e.events[k])) last = static_cast<std::ptrdiff_t>(k);
    }
    if (last < 0) {
        if (e.starting) e.seen = e.encoder->visible_enemies(e.before, Side::blue);  // fresh
        return;
    }
    for (std::ptrdiff_t k = 0; k <= last; ++k) events::apply(e.before, e.events[static_cast<std::size_t>(k)]);
    e.seen = e.encoder->visible_enemies(e.before, Side::blue);
}

// core._observe(BLUE) and _mask_for(BLUE) into one row of each array
void SkirmishBatchCore::write_rows(SkirmishBatchEnv& e, float* obs, std::int8_t* mask) {
    const Battle& b = e.battle;
    const bool deciding = b.decision && !b.over && b.decision->side == Side::blue;
    std::vector<FeatureAction> table;
    e.has_legal = false;
    if (deciding) {
        Ctx ctx = batch_ctx(e, nullptr);
        e.legal = legal_actions(ctx);
        e.has_legal = true;
        const std::vector<Action>& legal = e.legal;
        codec_.mask(b, legal, std::span<std::int8_t>(mask, static_cast<std::size_t>(n_)));
        if (e.encoder->config().action_features) {
            for (const auto& [index, position] : codec_.table(b, legal).entries) {
                table.push_back(batch_feature_action(index, legal[position]));
            }
        }
    } else {
        std::memset(mask, 0, static_cast<std::size_t>(n_));
    }
    const EncoderConfig& k = e.encoder->config();
    const EncoderSlots slots = battle_slots(b, Side::blue, k.mirror, k.mirror_turn);
    e.encoder->encode(b, Side::blue, e.seen, slots, {}, table,
                      std::span<float>(obs, static_cast<std::size_t>(size_)));
}

void SkirmishBatchCore::run(std::int64_t i) {
    using Stage = SkirmishBatchEnv::Stage;
    SkirmishBatchEnv& e = envs_[static_cast<std::size_t>(i)];
    float* obs = buf_.obs + i * size_;
    std::int8_t* mask = buf_.masks + i * n_;
    while (true) {
        switch (e.stage) {
            case Stage::idle:
                return;
            case Stage::advance: {  // begin_log: game.advance to the first decision
                BatchEventSink sink(e.events);
                Ctx ctx = batch_ctx(e, &sink);
                advance(ctx);
                e.stage = Stage::red;
                break;
            }
            case Stage::red: {  // solo._opponent_plays
                const Battle& b = e.battle;
                if (b.over || !b.decision || b.decision->side != Side::red) {
                    e.stage = Stage::finish;
                    break;
                }
                if (stale(e) && !refresh_tables(e)) {
                    buf_.status[i] = kBatchNeedsTables;
                    return;
                }
                BatchEventSink sink(e.events);
                Ctx ctx = batch_ctx(e, &sink);
                const std::vector<Action> options = legal_actions(ctx);
                const Action choice = red_choice(e, options);
                play_legal(ctx, choice);  // every opponent picks one of the options
                break;
            }
            case Stage::finish: {
                if (!e.battle.over && stale(e) && !refresh_tables(e)) {  // the mask lists the legal actions
                    buf_.status[i] = kBatchNeedsTables;
                    return;
                }
                update_seen(e);
                e.stage = Stage::idle;
                const Battle& b = e.battle;
                if (e.starting) {  // solo.reset: redraw a battle that is over already
                    if (b.over) {
                        buf_.status[i] = kBatchNeedsRedraw;
                        return;
                    }
                    write_rows(e, obs, mask);
                    buf_.deciding_side[i] = b.decision ? static_cast<std::int8_t>(b.decision->side) : -1;
                    buf_.episode_steps[i] = 0;
                    return;
                }
                // batch.py's step: reward, termination, truncation, SAME_STEP auto-reset
                e.steps += 1;
                const bool terminated = b.over;
                const bool truncated = e.steps >= max_steps_;
                double reward = 0.0;  // core._terminal(BLUE)
                if (b.over && b.winner) reward = *b.winner == Side::blue ? 1.0 : -1.0;
                buf_.rewards[i] = reward;
                buf_.terminations[i] = terminated;
                buf_.truncations[i] = truncated;
                if (terminated || truncated) {
                    write_rows(e, buf_.final_obs + i * size_, buf_.final_masks + i * n_);
                    BatchFinalInfo& info = e.final_info;
                    info.present = true;
                    info.turn = b.turn;
                    info.decision = b.decision && !b.over ? std::optional<DecisionKind>(b.decision->kind) : std::nullopt;
                    info.over = b.over;
                    info.winner = b.winner;
                    info.reason = b.end_reason;
                    e.steps = 0;
                    buf_.episode_steps[i] = 0;
                    if (!e.next) throw ArgumentError("batch", "env " + std::to_string(i) + " has no prepared set-up");
                    BatchEpisodeStart next = std::move(*e.next);
                    e.next.reset();
                    begin(e, std::move(next));
                    buf_.started[i] = 1;
                    began_.push_back(i);
                    break;
                }
                buf_.episode_steps[i] = e.steps;
                write_rows(e, obs, mask);
                buf_.deciding_side[i] = b.over || !b.decision ? -1 : static_cast<std::int8_t>(b.decision->side);
                return;
            }
        }
    }
}

}  // namespace wargym::no_quarter
