// Mirror of rules/no_quarter/battle/flow_turn.py and of group_orders.py's step/act functions
// (flow_turn.hpp).
#include "flow_turn.hpp"

#include "consequences.hpp"
#include "flow_move.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "../../errors.hpp"
#include "../forces/data.hpp"
#include "../forces/pilots.hpp"
#include "../sight_movement/perception.hpp"
#include "group_orders.hpp"
#include "melee.hpp"

namespace wargym::no_quarter {

namespace {

const RulesTables& tables(const Ctx& ctx) {
    if (!ctx.rules) throw std::logic_error("the native flow was run without its RulesTables");
    return *ctx.rules;
}

Scene scene_of(const Ctx& ctx) { return make_scene(ctx.battle, tables(ctx).move.sight); }

[[noreturn]] void not_ported(const std::string& python) {
    throw NotPorted("not ported to the native core yet: " + python);
}

const Json* member(const Json& object, const char* key) {
    if (object.kind() != Json::Kind::object) return nullptr;
    for (const auto& [k, v] : object.as_object()) {
        if (k == key) return &v;
    }
    return nullptr;
}

// battle.np is not None and np["side"] == side.value
bool np_side(const Battle& battle, Side side) {
    if (battle.np.is_null()) return false;
    const Json* s = member(battle.np, "side");
    if (!s) throw StateError("battle.np.side", "missing");
    return s->kind() == Json::Kind::string && s->as_string() == kSide[side];
}

// Python truthiness of mission.get("cestus") (cestus_play.cestus_of).
bool cestus_mission(const Battle& battle) {
    const Json* c = member(battle.mission, "cestus");
    if (!c) return false;
    switch (c->kind()) {
        case Json::Kind::null: return false;
        case Json::Kind::boolean: return c->as_bool();
        case Json::Kind::integer: return c->as_int() != 0;
        case Json::Kind::real: return c->as_real() != 0.0;
        case Json::Kind::string: return !c->as_string().empty();
        case Json::Kind::array: return !c->as_array().empty();
        case Json::Kind::object: return !c->as_object().empty();
    }
    return false;
}

// cestus_play.troll_check: nothing outside a Cestus V mission.
void troll_check(const Ctx& ctx) {
    if (ctx.battle.mission.is_null() || !cestus_mission(ctx.battle)) return;
    not_ported("cestus_play.troll_check (a Cestus V mission)");
}

bool acting_now(const Mech& m) { return !m.removed && m.status != Status::leave_battlefield; }

const Mech& mech_of(const Battle& battle, std::int64_t id) { return mech_at(battle, id, "mech"); }

PhaseFrame& phase(Ctx& ctx, FrameRef ref) { return ctx.edit(ref).as<PhaseFrame>(); }

std::int64_t side_die(const Battle& battle, Side side) {
    const std::int64_t* die = battle.dice.find(side);
    if (!die) throw StateError(std::string("battle.dice.") + std::string(kSide[side]), "missing");
    return *die;
}

Frame pefs_frame() {  // {"kind": "pefs", "order": None}
    Frame f;
    f.keys.set(FrameKey::kind);
    f.keys.set(FrameKey::order);
    f.body = PefsFrame{};
    return f;
}

Action to_action(const GroupOption& o) {
    switch (o.kind) {
        case GroupOption::Kind::lead_team: return LeadTeam{o.mech, o.group};
        case GroupOption::Kind::lead_done: return LeadDone{o.mech};
        case GroupOption::Kind::split_off: return SplitOff{o.mech};
        case GroupOption::Kind::keep_groups: break;
    }
    return KeepGroups{};
}

std::vector<Action> to_actions(const std::vector<GroupOption>& options) {
    std::vector<Action> out;
    out.reserve(options.size());
    for (const GroupOption& o : options) out.push_back(to_action(o));
    return out;
}

// flow_turn._live_groups
std::vector<std::pair<std::size_t, Ids>> live_groups(const Battle& battle, const PhaseFrame& frame) {
    std::vector<std::pair<std::size_t, Ids>> out;
    for (std::size_t index = 0; index < frame.groups.size(); ++index) {
        const auto i = static_cast<std::int64_t>(index);
        if (std::find(frame.done.begin(), frame.done.end(), i) != frame.done.end()) continue;
        Ids members;
        for (std::int64_t id : frame.groups[index]) {
            if (acting_now(mech_of(battle, id))) members.push_back(id);
        }
        if (!members.empty()) out.emplace_back(index, std::move(members));
    }
    return out;
}

// flow_turn._ready
Ids ready(const Battle& battle, const GroupFrame& frame) {
    Ids out;
    for (std::int64_t id : frame.members) {
        if (std::find(frame.acted.begin(), frame.acted.end(), id) != frame.acted.end()) continue;
        if (acting_now(mech_of(battle, id))) out.push_back(id);
    }
    return out;
}

}  // namespace

// -- turn -------------------------------------------------------------------------------------
void turn_step(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    if (!battle.mission.is_null()) {
        not_ported("mission_play (mission_over, on_activation_roll, on_turn_rolled) in a mission's turn");
    }
    if (battle.frames[ref.index].has(FrameKey::stage)) {  // "done"
        ctx.pop(ref);
        return;
    }
    if (battle.turn >= battle.options->max_turns) {
        ctx.emit(events::BattleEnded{std::nullopt, "turn limit", battle.turn});
        return;
    }
    ctx.emit(events::TurnStarted{battle.turn + 1});
    std::vector<std::array<std::int64_t, 2>> rerolls;
    int blue = 0, red = 0;
    while (true) {
        const std::vector<int> faces = ctx.dice.roll(2);
        blue = faces.at(0);
        red = faces.at(1);
        if (blue != red) break;
        rerolls.push_back({blue, red});  // doubles: re-roll both (§14.0)
    }
    const Side first = blue > red ? Side::blue : Side::red;
    ctx.emit(events::ActivationRolled{blue, red, rerolls, first});
    // on_activation_roll: nothing without a mission; on_turn_rolled: reinforcements on a 7
    if (!battle.np.is_null() && blue + red == 7) not_ported("np_flow.check_reinforcements (§23.8.3)");
    Frame& frame = ctx.edit(ref);
    frame.keys.set(FrameKey::stage);
    frame.as<TurnFrame>().stage = TurnStage::done;
    ctx.push(phase_frame(other(first)));
    ctx.push(phase_frame(first));
}

// -- side phase -------------------------------------------------------------------------------
void phase_step(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    const Side side = phase(ctx, ref).side;
    const PhaseStage stage = phase(ctx, ref).stage;
    if (stage == PhaseStage::start) {
        battle.active_side = side;
        battle.seen_pairs.clear();  // In Sight pairs reset per activation phase (ruling D8)
        for (Mech& mech : battle.mechs) {
            if (!mech.removed && mech.side == side) mech.fired_this_activation = false;  // D6
        }
        for (Side s : {side, other(side)}) {
            const Scene scene = scene_of(ctx);
            Groups groups = form_groups(scene, tables(ctx).leaders, s);
            Ids leaders;
            for (const auto& g : groups) leaders.push_back(group_leader(battle, g));
            ctx.emit(events::GroupsFormed{s, groups, leaders});
            if (s == side) {
                Frame& f = ctx.edit(ref);
                f.keys.set(FrameKey::groups);
                f.as<PhaseFrame>().groups = std::move(groups);
            }
        }
        Ids leaving;
        for (const Mech& mech : battle.mechs) {
            if (!mech.removed && mech.side == side && mech.status == Status::leave_battlefield) leaving.push_back(mech.id);
        }
        for (std::int64_t id : leaving) {
            if (mech_of(battle, id).prone) ctx.emit(events::StoodUp{id});  // then it leaves (D25)
            leave_move(ctx, move_detail::mech_ref(ctx.battle, id));  // every activation phase until off the table (D10)
        }
        const PhaseStage next = first_stage(battle, side);  // voluntary group orders first (§12.2, §13.1)
        phase(ctx, ref).stage = next;
        if (next == PhaseStage::lead) {
            Ids leaders = higher_leaders(battle, side);
            Frame& f = ctx.edit(ref);
            f.keys.set(FrameKey::leaders);
            f.as<PhaseFrame>().leaders = std::move(leaders);
        }
        Frame& f = ctx.edit(ref);
        f.keys.set(FrameKey::done);
        f.as<PhaseFrame>().done.clear();
        return;
    }
    if (stage == PhaseStage::lead) {
        lead_step(ctx, ref);
        return;
    }
    if (stage == PhaseStage::split) {
        split_step(ctx, ref);
        return;
    }
    if (top_tier(ctx, phase(ctx, ref)).empty()) {
        const Frame& f = battle.frames[ref.index];
        const bool pefs = f.has(FrameKey::pefs) && f.as<PhaseFrame>().pefs;
        if (np_side(battle, side) && !pefs) {
            Frame& e = ctx.edit(ref);
            e.keys.set(FrameKey::pefs);
            e.as<PhaseFrame>().pefs = true;  // the PEFs move after the NP groups (§22.4)
            ctx.push(pefs_frame());
            return;
        }
        ctx.pop(ref);
        return;
    }
    ctx.ask(side, DecisionKind::activate_group);
}

std::vector<TierGroup> top_tier(const Ctx& ctx, const PhaseFrame& frame) {
    const Battle& battle = ctx.battle;
    const std::int64_t die = side_die(battle, frame.side);
    std::vector<TierGroup> eligible;
    for (auto& [index, members] : live_groups(battle, frame)) {
        const Mech& leader = mech_of(battle, group_leader(battle, members));  // _activation_rep
        const auto& attributes = leader.record->pilot.attributes;
        const std::int64_t rep = activation_rep(tables(ctx).activation, leader.rep, attributes,
                                                static_cast<std::int64_t>(members.size()));
        if (rep >= die) eligible.push_back({index, std::move(members), rep});
    }
    if (eligible.empty() || np_side(battle, frame.side)) return eligible;  // NP: all (§22.4, E17)
    std::int64_t best = eligible.front().rep;
    for (const TierGroup& g : eligible) best = std::max(best, g.rep);
    std::vector<TierGroup> out;
    for (TierGroup& g : eligible) {
        if (g.rep == best) out.push_back(std::move(g));
    }
    return out;
}

std::vector<Action> phase_options(const Ctx& ctx, const Frame& f) {
    const PhaseFrame& frame = f.as<PhaseFrame>();
    const Battle& battle = ctx.battle;
    if (frame.stage == PhaseStage::lead) {
        if (!f.has(FrameKey::asking)) throw StateError("frame.asking", "missing at a lead_teams decision");
        return to_actions(lead_options(scene_of(ctx), tables(ctx).leaders, frame.groups, frame.asking));
    }
    if (frame.stage == PhaseStage::split) return to_actions(split_options(battle, frame.groups));
    std::vector<Action> options;
    for (const TierGroup& g : top_tier(ctx, frame)) {
        const std::int64_t leader = group_leader(battle, g.members);
        options.push_back(ActivateGroup{leader});
        const bool prone = std::any_of(g.members.begin(), g.members.end(),
                                       [&](std::int64_t i) { return mech_of(battle, i).prone; });
        if (!prone) options.push_back(SkipGroup{leader});
    }
    return options;
}

void phase_act(Ctx& ctx, FrameRef ref, const Action& action) {
    if (std::holds_alternative<LeadTeam>(action) || std::holds_alternative<LeadDone>(action)) {
        lead_act(ctx, ref, action);
        return;
    }
    if (std::holds_alternative<SplitOff>(action) || std::holds_alternative<KeepGroups>(action)) {
        split_act(ctx, ref, action);
        return;
    }
    Battle& battle = ctx.battle;
    const Side side = phase(ctx, ref).side;
    const auto* activate = std::get_if<ActivateGroup>(&action);
    const auto* skip = std::get_if<SkipGroup>(&action);
    if (!activate && !skip) throw std::logic_error("phase_act: not a phase action: " + describe(action));
    const std::int64_t chosen = activate ? activate->leader : skip->leader;
    for (TierGroup& g : top_tier(ctx, phase(ctx, ref))) {
        if (group_leader(battle, g.members) != chosen) continue;
        phase(ctx, ref).done.push_back(static_cast<std::int64_t>(g.index));
        if (skip) {
            ctx.emit(events::GroupSkipped{side, chosen, true});
            return;
        }
        ctx.emit(events::GroupActivated{side, chosen, g.members, g.rep, side_die(battle, side)});
        for (Mech& mech : battle.mechs) mech.reaction_fired_at.clear();  // D15: per group activation
        ctx.push(group_frame(side, std::move(g.members)));
        if (side == Side::blue) troll_check(ctx);  // Mission 2 (2.0.6 ruling)
        return;
    }
}

// -- group orders (group_orders.py) --------------------------------------------------------------
void lead_step(Ctx& ctx, FrameRef ref) {
    const PhaseFrame& frame = phase(ctx, ref);
    const Side side = frame.side;
    LeadNext next = lead_next(scene_of(ctx), tables(ctx).leaders, frame.groups, frame.leaders);
    Frame& f = ctx.edit(ref);
    PhaseFrame& p = f.as<PhaseFrame>();
    p.leaders = std::move(next.leaders);
    if (next.asking) {
        f.keys.set(FrameKey::asking);
        p.asking = *next.asking;
        ctx.ask(side, DecisionKind::lead_teams, *next.asking);
        return;
    }
    f.keys.erase(FrameKey::asking);
    f.keys.erase(FrameKey::leaders);
    p.asking = 0;
    p.leaders.clear();
    p.stage = next.stage;
}

void lead_act(Ctx& ctx, FrameRef ref, const Action& action) {
    if (std::holds_alternative<LeadDone>(action)) {
        Ids& leaders = phase(ctx, ref).leaders;
        if (leaders.empty()) throw std::out_of_range("pop from empty list");
        leaders.erase(leaders.begin());
        return;
    }
    const auto* team = std::get_if<LeadTeam>(&action);
    if (!team) throw std::logic_error("lead_act: not a LeadTeam or LeadDone: " + describe(action));
    const Side side = phase(ctx, ref).side;
    LeadMerge merge = lead_merge(ctx.battle, phase(ctx, ref).groups, team->mech, team->group);
    phase(ctx, ref).groups = std::move(merge.groups);
    ctx.emit(events::TeamJoined{side, merge.leader, merge.joined, merge.merged});
}

void split_step(Ctx& ctx, FrameRef ref) {
    PhaseFrame& frame = phase(ctx, ref);
    if (!split_options(ctx.battle, frame.groups).empty()) {
        ctx.ask(frame.side, DecisionKind::split_group);
        return;
    }
    frame.stage = PhaseStage::choose;
}

void split_act(Ctx& ctx, FrameRef ref, const Action& action) {
    if (std::holds_alternative<KeepGroups>(action)) {
        phase(ctx, ref).stage = PhaseStage::choose;
        return;
    }
    const auto* off = std::get_if<SplitOff>(&action);
    if (!off) throw std::logic_error("split_act: not a SplitOff or KeepGroups: " + describe(action));
    const Side side = phase(ctx, ref).side;
    SplitResult split = split_off(scene_of(ctx), tables(ctx).leaders, phase(ctx, ref).groups, off->mech);
    phase(ctx, ref).groups = std::move(split.groups);
    ctx.emit(events::MechSplitOff{side, off->mech, split.parts, split.leaders});
}

// -- group --------------------------------------------------------------------------------------
std::vector<Action> group_options(const Ctx& ctx, const Frame& f) {
    const Battle& battle = ctx.battle;
    const Ids ids = ready(battle, f.as<GroupFrame>());
    std::vector<Ids> engaged;
    for (std::int64_t id : ids) engaged.push_back(engaged_with(battle, mech_of(battle, id)));
    std::vector<Action> allowed;
    for (std::size_t a = 0; a < ids.size(); ++a) {
        const Mech& mech = mech_of(battle, ids[a]);
        const Ids& foes = engaged[a];
        std::vector<MeleeAttacker> contenders{{mech.design().mech_class, mech.rep}};
        for (std::size_t b = 0; b < ids.size(); ++b) {
            if (b == a) continue;
            const bool shared = std::any_of(engaged[b].begin(), engaged[b].end(), [&](std::int64_t e) {
                return std::find(foes.begin(), foes.end(), e) != foes.end();
            });
            if (shared) {
                const Mech& rival = mech_of(battle, ids[b]);
                contenders.push_back({rival.design().mech_class, rival.rep});
            }
        }
        if (!foes.empty() && contenders.size() > 1) {
            const std::vector<std::size_t> order = melee_attack_order(contenders);
            if (order.front() != 0 && !mech.record->pilot.star) continue;  // bigger first; Stars choose (§18.3.4)
        }
        allowed.push_back(ChooseMech{ids[a]});
    }
    return allowed;
}

void group_step(Ctx& ctx, FrameRef ref) {
    const std::vector<Action> options = group_options(ctx, ctx.battle.frames[ref.index]);
    if (options.empty()) {
        ctx.pop(ref);
        return;
    }
    if (options.size() == 1) {
        group_act(ctx, ref, options.front());
        return;
    }
    ctx.ask(ctx.battle.frames[ref.index].as<GroupFrame>().side, DecisionKind::choose_mech);
}

void group_act(Ctx& ctx, FrameRef ref, const Action& action) {
    const auto* choice = std::get_if<ChooseMech>(&action);
    if (!choice) throw std::logic_error("group_act: not a ChooseMech: " + describe(action));
    ctx.edit(ref).as<GroupFrame>().acted.push_back(choice->mech);
    ctx.push(mech_frame(choice->mech));
}

namespace {

// Options never roll: the dice of an options call refuse to.
class NoDice final : public Dice {
public:
    std::vector<int> roll(std::int64_t) override {
        throw std::logic_error("legal options rolled a die: an engine bug");
    }
};

// Handler.options' signature (battle, rules, frame) over the Ctx-taking option functions here.
// The battle is only read: Ctx holds a mutable reference, so the const is cast away for it.
template <std::vector<Action> (*Options)(const Ctx&, const Frame&)>
std::vector<Action> options_of(const Battle& battle, const RulesTables& rules, FrameRef ref) {
    NoDice dice;
    Ctx ctx(const_cast<Battle&>(battle), dice);
    ctx.rules = &rules;
    return Options(ctx, battle.frames[ref.index]);
}

}  // namespace

void register_turn(Procedures& p) {
    p.handlers[static_cast<std::size_t>(FrameKind::turn)] = Handler{&turn_step, nullptr, nullptr, true};
    p.handlers[static_cast<std::size_t>(FrameKind::phase)] =
        Handler{&phase_step, &phase_act, &options_of<&phase_options>, true};
    p.handlers[static_cast<std::size_t>(FrameKind::group)] =
        Handler{&group_step, &group_act, &options_of<&group_options>, true};
    // (luck_free: the activation dice and the group orders are no roll a pilot chooses about;
    // a Leaving mech's move, which could be, is NotPorted)
}

}  // namespace wargym::no_quarter
