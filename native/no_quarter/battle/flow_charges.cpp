// Mirror of rules/no_quarter/battle/flow_charges.py (flow_charges.hpp).
#include "flow_charges.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "../../errors.hpp"
#include "melee.hpp"

namespace wargym::no_quarter {

namespace {

const Mech& mech_of(const Battle& battle, std::int64_t id) { return mech_at(battle, id, "battle.mechs"); }

// _ordered: targets in the order first charged; each target's chargers in §18.3.4 order.
std::vector<WaitingCharge> ordered(const Battle& battle, const std::vector<WaitingCharge>& entries) {
    Ids targets;
    for (const WaitingCharge& e : entries) {
        if (std::find(targets.begin(), targets.end(), e.target) == targets.end()) targets.push_back(e.target);
    }
    std::vector<WaitingCharge> out;
    for (std::int64_t target : targets) {
        // mine = {charger: entry}: the first insertion fixes the place, the last entry the value
        std::vector<std::pair<std::int64_t, const WaitingCharge*>> mine;
        for (const WaitingCharge& e : entries) {
            if (e.target != target) continue;
            auto it = std::find_if(mine.begin(), mine.end(), [&](const auto& p) { return p.first == e.charger; });
            if (it != mine.end()) {
                it->second = &e;
            } else {
                mine.emplace_back(e.charger, &e);
            }
        }
        std::vector<MeleeAttacker> attackers;
        for (const auto& [c, e] : mine) {
            const Mech& m = mech_of(battle, c);
            attackers.push_back({m.design().mech_class, m.rep});
        }
        for (std::size_t i : melee_attack_order(attackers)) out.push_back(*mine[i].second);
    }
    return out;
}

// _target_fire: one firing of the target at the chargers it may fire at (§18.2.1 steps 4-5).
void target_fire(Ctx& ctx, const std::vector<WaitingCharge>& entries) {
    const Battle& battle = ctx.battle;
    const Mech& target = mech_of(battle, entries.front().target);
    if (target.removed || target.status == Status::leave_battlefield || !able_to_fire(target) ||
        !engaged_with(battle, target).empty()) {
        return;
    }
    std::vector<const WaitingCharge*> at;
    for (const WaitingCharge& e : entries) {
        if (e.outcome != ChargeOutcome::target_holds_fire && !mech_of(battle, e.charger).removed) at.push_back(&e);
    }
    if (at.empty()) return;
    if (at.size() == 1) {  // one charger: every weapon that reaches it fires, as before
        ctx.push(fire_frame(target.id, FireMode::charge, std::nullopt, at.front()->charger,
                            at.front()->outcome == ChargeOutcome::target_rush_shot));
        return;
    }
    Ids chargers, rush_at;
    for (const WaitingCharge* e : at) {
        chargers.push_back(e->charger);
        if (e->outcome == ChargeOutcome::target_rush_shot) rush_at.push_back(e->charger);
    }
    Frame fire = fire_frame(target.id, FireMode::charge, chargers);
    fire.as<FireFrame>().rush_at = std::move(rush_at);
    fire.keys.set(FrameKey::rush_at);
    ctx.push(std::move(fire));
}

}  // namespace

bool start_waiting_charges(Ctx& ctx, FrameRef insight) {
    Frame& in = ctx.edit(insight);
    std::vector<WaitingCharge> waiting;
    if (in.has(FrameKey::charges)) waiting = std::move(in.as<InsightFrame>().charges);
    in.as<InsightFrame>().charges.clear();
    in.keys.erase(FrameKey::charges);  // insight.pop("charges", [])
    if (waiting.empty()) return false;
    ChargesFrame c;
    c.entries = ordered(ctx.battle, waiting);
    Frame f{{}, std::move(c)};
    for (FrameKey k : {FrameKey::kind, FrameKey::entries, FrameKey::fired}) f.keys.set(k);
    ctx.push(std::move(f));
    return true;
}

void charges_step(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    if (battle.frames[ref.index].as<ChargesFrame>().entries.empty()) {
        ctx.pop(ref);
        return;
    }
    const std::int64_t target = battle.frames[ref.index].as<ChargesFrame>().entries.front().target;
    {
        ChargesFrame& frame = ctx.edit(ref).as<ChargesFrame>();
        if (std::find(frame.fired.begin(), frame.fired.end(), target) == frame.fired.end()) {
            frame.fired.push_back(target);
            std::vector<WaitingCharge> mine;
            for (const WaitingCharge& e : frame.entries) {
                if (e.target == target) mine.push_back(e);
            }
            target_fire(ctx, mine);
            return;
        }
    }
    Frame& f = ctx.edit(ref);
    const bool picked = f.has(FrameKey::picked);
    f.keys.erase(FrameKey::picked);
    if (!picked && charges_options(battle, *ctx.rules, ref).size() > 1) {
        const auto& entries = battle.frames[ref.index].as<ChargesFrame>().entries;
        ctx.ask(mech_of(battle, entries.front().charger).side, DecisionKind::choose_mech);
        return;
    }
    ChargesFrame& frame = ctx.edit(ref).as<ChargesFrame>();
    const WaitingCharge entry = frame.entries.front();
    frame.entries.erase(frame.entries.begin());
    ChargeFrame c;
    c.charger = entry.charger;
    c.target = target;
    c.stage = ChargeStage::contact;
    c.jump = entry.jump;
    Frame contact{{}, std::move(c)};
    for (FrameKey k : {FrameKey::kind, FrameKey::charger, FrameKey::target, FrameKey::stage, FrameKey::jump}) {
        contact.keys.set(k);
    }
    ctx.push(std::move(contact));
}

std::vector<Action> charges_options(const Battle& battle, const RulesTables&, FrameRef ref) {
    const auto& entries = battle.frames[ref.index].as<ChargesFrame>().entries;
    if (entries.empty()) return {};
    Ids mine;
    for (const WaitingCharge& e : entries) {
        if (e.target == entries.front().target) mine.push_back(e.charger);
    }
    const Mech& head = mech_of(battle, mine.front());
    std::vector<Action> out{ChooseMech{mine.front()}};
    for (std::size_t i = 1; i < mine.size(); ++i) {
        const Mech& m = mech_of(battle, mine[i]);
        if (m.record->pilot.star || (m.design().mech_class == head.design().mech_class && m.rep == head.rep)) {
            out.push_back(ChooseMech{mine[i]});
        }
    }
    return out;
}

void charges_act(Ctx& ctx, FrameRef ref, const Action& action) {
    const std::vector<Action> options = charges_options(ctx.battle, *ctx.rules, ref);
    if (std::find(options.begin(), options.end(), action) == options.end()) {
        throw ArgumentError("action", "action: " + describe(action) + " is not a charger that may close now");
    }
    const std::int64_t mech = std::get<ChooseMech>(action).mech;
    Frame& f = ctx.edit(ref);
    auto& entries = f.as<ChargesFrame>().entries;
    auto chosen = std::find_if(entries.begin(), entries.end(), [&](const WaitingCharge& e) { return e.charger == mech; });
    WaitingCharge moved = *chosen;
    entries.erase(chosen);
    entries.insert(entries.begin(), std::move(moved));
    f.as<ChargesFrame>().picked = mech;
    f.keys.set(FrameKey::picked);
}

void register_charges(Procedures& procedures) {
    Handler& h = procedures.handlers[static_cast<std::size_t>(FrameKind::charges)];
    h.step = charges_step;
    h.act = charges_act;
    h.options = charges_options;
}

}  // namespace wargym::no_quarter
