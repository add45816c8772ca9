// Mirror of rules/no_quarter/battle/flow_mech.py (flow_mech.hpp).
#include "flow_mech.hpp"

#include "../battlefield/buildings.hpp"

#include <algorithm>
#include <string>

#include "../../errors.hpp"
#include "../sight_movement/facing.hpp"
#include "consequences.hpp"
#include "flow_fire.hpp"
#include "flow_mech_moves.hpp"
#include "flow_melee.hpp"
#include "flow_move.hpp"

namespace wargym::no_quarter {

using namespace move_detail;

namespace {

bool has_jump_jets(const Mech& mech) {
    const auto& items = mech.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].item == ItemType::jump_jets &&
            std::find(mech.inoperable.begin(), mech.inoperable.end(), static_cast<std::int64_t>(i)) ==
                mech.inoperable.end()) {
            return true;
        }
    }
    return false;
}

Mover mover_of(const Mech& mech) { return {mech.id, mech.pos, mech.heading, mech.speed, has_jump_jets(mech)}; }
MoveFrame move_frame_of(const MechFrame& frame) { return {frame.spent.value(), frame.moved}; }

// frame.get("turn", True)
bool turn_of(const Frame& frame) { return frame.has(FrameKey::turn) ? frame.as<MechFrame>().turn : true; }

// flow_mech._end_of_action: "face" where the side chooses the facing (D2, D5), else "after".
MechStage end_of_action(const Battle& battle, Frame& frame, bool turn) {
    if (!battle.options->choose_facing) return MechStage::after;
    frame.as<MechFrame>().turn = turn;
    frame.keys.set(FrameKey::turn);
    return MechStage::face;
}

}  // namespace

// flow_mech._can_fire_now
bool can_fire_now(const Battle& battle, const RulesTables& rules, const Mech& mech) {
    if (mech.fired_this_activation || !able_to_fire(mech) || !engaged_with(battle, mech).empty()) return false;
    const Scene scene = make_scene(battle, rules.sight);
    const std::vector<std::int64_t> weapons = operable_ranged_weapons(mech);
    for (const Mech* enemy : mechs_of(battle, other(mech.side))) {
        for (std::int64_t twist : rules.perception.twists) {
            for (std::int64_t w : weapons) {
                if (weapon_can_engage(scene, mech, static_cast<std::size_t>(w), *enemy, twist)) return true;
            }
        }
    }
    return can_fire_at_buildings(battle, rules, mech);
}

// flow_mech._can_fire_at_buildings
bool can_fire_at_buildings(const Battle& battle, const RulesTables& rules, const Mech& mech) {
    const std::vector<std::int64_t> weapons = operable_ranged_weapons(mech);
    for (std::int64_t feature : rated_buildings(battle)) {
        for (std::int64_t twist : rules.perception.twists) {
            for (std::int64_t w : weapons) {
                if (can_fire_at(battle, rules, mech, w, feature, twist)) return true;
            }
        }
    }
    return false;
}

// flow_mech.charge_targets
std::vector<std::int64_t> charge_targets(const Battle& battle, const RulesTables& rules, const Mech& mech,
                                         const MechFrame& frame) {
    if (mech.prone || mech.speed <= 0 || !engaged_with(battle, mech).empty()) return {};
    const double left = allowance(mover_of(mech), move_frame_of(frame));
    const double gap = rules.charge_stage_distance;
    const Scene scene = make_scene(battle, rules.sight);
    std::vector<std::int64_t> out;
    for (const Mech* enemy : mechs_of(battle, other(mech.side))) {
        if (distance(mech.pos, enemy->pos) - gap <= left + 1e-6 &&
            sees(scene, mech, *enemy) &&  // clear LOS within the front arc (§18.2, ruling D3)
            room_for_attacker(battle, rules, *enemy) && charge_stage(battle, rules, mech, *enemy, left)) {
            out.push_back(enemy->id);
        }
    }
    return out;
}

// flow_mech._limb_options
std::vector<DeclareMelee> limb_options(const Mech& mech) {
    std::vector<DeclareMelee> found;
    const std::pair<MeleeAttack, std::array<Location, 2>> kinds[] = {
        {MeleeAttack::punch, {Location::arm_l, Location::arm_r}},
        {MeleeAttack::kick, {Location::leg_l, Location::leg_r}}};
    for (const auto& [attack, limbs] : kinds) {
        for (Location limb : limbs) {
            if (std::find(mech.lost_limbs.begin(), mech.lost_limbs.end(), limb) == mech.lost_limbs.end()) {
                found.push_back({mech.id, attack, limb});
            }
        }
    }
    return found;
}

// buildings.in_contact
bool in_contact(const Battle& battle, const RulesTables& rules, const Mech& mech, std::int64_t feature) {
    const Feature& f = battle.battlefield->features.at(static_cast<std::size_t>(feature));
    const double reach = battle.options->base_radius + rules.building_contact_slack;
    return point_rect_distance(mech.pos, f.x0, f.y0, f.x1, f.y1) <= reach;
}

// flow_mech.mech_step
void mech_step(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    const std::int64_t id = battle.frames[ref.index].as<MechFrame>().mech;
    const Mech& mech = mech_at(battle, id, "battle.mechs");
    if (battle.frames[ref.index].as<MechFrame>().stage == MechStage::begin) {
        if (mech.removed || mech.status == Status::leave_battlefield) {
            ctx.pop(ref);
            return;
        }
        if (mech.status == Status::duck_back) ctx.emit(events::StatusChanged{id, Status::carry_on, "next activation"});
        if (mech.prone) {
            ctx.emit(events::StoodUp{id});  // the whole activation (§15.2.3)
            ctx.pop(ref);
            return;
        }
        const std::vector<std::int64_t> foes = engaged_with(battle, mech);
        if (!foes.empty()) {
            if (foes.size() == 1) {
                ctx.pop(ref);
                ctx.push(melee_frame(id, foes[0]));
            } else {
                ctx.edit(ref).as<MechFrame>().stage = MechStage::fight;
                ctx.ask(mech.side, DecisionKind::melee_target, id);
            }
            return;
        }
        Frame& f = ctx.edit(ref);
        f.as<MechFrame>().stage = MechStage::action;
        f.as<MechFrame>().start = {Num::real(mech.pos.x), Num::real(mech.pos.y)};  // a charge's aspect (D4)
        f.keys.set(FrameKey::start);
    }
    if (mech.removed || mech.status != Status::carry_on || mech.prone) {
        ctx.pop(ref);  // ducked back or worse: the activation ends (§15.2.4.1)
        return;
    }
    const MechStage stage = battle.frames[ref.index].as<MechFrame>().stage;
    if (stage == MechStage::face) {  // the final heading and twist (§6.2, D2, D5)
        ctx.ask(mech.side, DecisionKind::face, id);
        return;
    }
    if (stage == MechStage::action || stage == MechStage::continue_move) {
        ctx.ask(mech.side, stage == MechStage::action ? DecisionKind::mech_action : DecisionKind::continue_move, id);
        return;
    }
    if (stage == MechStage::after) {
        ctx.edit(ref).as<MechFrame>().stage = MechStage::end;
        if (can_fire_now(battle, rules_of(ctx), mech)) ctx.push(fire_frame(id, FireMode::active));
        return;
    }
    ctx.pop(ref);
}

// flow_mech.mech_options
std::vector<Action> mech_options(const Battle& battle, const RulesTables& rules, FrameRef ref) {
    const Frame& f = battle.frames[ref.index];
    const MechFrame& frame = f.as<MechFrame>();
    const Mech& mech = mech_at(battle, frame.mech, "battle.mechs");
    std::vector<Action> options;
    if (frame.stage == MechStage::fight) {
        for (std::int64_t foe : engaged_with(battle, mech)) options.emplace_back(FightMech{mech.id, foe});
        return options;
    }
    if (frame.stage == MechStage::face) {
        for (const FaceChoice& c : face_options(mech.heading, turn_of(f), rules.headings, rules.perception.twists)) {
            options.emplace_back(Face{mech.id, c.heading, c.twist});
        }
        return options;
    }
    if (frame.stage == MechStage::action && can_fire_now(battle, rules, mech)) options.emplace_back(FireFirst{mech.id});
    options.emplace_back(Stay{mech.id, std::nullopt});
    if (frame.stage == MechStage::action && !battle.options->choose_facing) {
        for (double h : rules.headings) {
            if (angle_between(h, mech.heading) > 1) options.emplace_back(Stay{mech.id, h});
        }
    }
    const std::vector<BaseAt> others = planning_bases_of(battle, rules, mech);
    const MoveSettings settings{battle.options->base_radius, battle.options->move_directions,
                                battle.options->move_fractions};
    for (const MoveOption& m : mech_moves(rules.move, mover_of(mech), move_frame_of(frame), others, settings)) {
        options.emplace_back(Move{m.mech, m.to, m.reverse, m.jump});
    }
    for (std::int64_t t : charge_targets(battle, rules, mech, frame)) options.emplace_back(Charge{mech.id, t});
    const bool engaged = !engaged_with(battle, mech).empty();
    if (!battle.mission.is_null() && !engaged) {
        throw NotPorted("not ported to the native core yet: mission_play.exit_options");
    }
    if (!engaged) {
        for (std::int64_t feature : rated_buildings(battle)) {
            if (!in_contact(battle, rules, mech, feature)) continue;
            for (const DeclareMelee& d : limb_options(mech)) {
                options.emplace_back(AttackBuilding{mech.id, feature, d.attack, d.limb});
            }
        }
    }
    return options;
}

// flow_mech.mech_act
void mech_act(Ctx& ctx, FrameRef ref, const Action& action) {
    Battle& battle = ctx.battle;
    const std::int64_t id = battle.frames[ref.index].as<MechFrame>().mech;
    const Mech& mech = mech_at(battle, id, "battle.mechs");
    if (const auto* a = std::get_if<FightMech>(&action)) {
        ctx.pop(ref);
        ctx.push(melee_frame(id, a->target));
    } else if (std::get_if<FireFirst>(&action)) {
        ctx.push(fire_frame(id, FireMode::active));
    } else if (const auto* stay = std::get_if<Stay>(&action)) {
        if (stay->heading) ctx.emit(events::MechFaced{id, py_mod360(*stay->heading), mech.twist});
        // staying turns freely; stopping a paused move turns unless it reversed or jumped
        Frame& f = ctx.edit(ref);
        const bool turn = f.as<MechFrame>().stage == MechStage::action || turn_of(f);
        f.as<MechFrame>().stage = end_of_action(battle, f, turn);
    } else if (const auto* face = std::get_if<Face>(&action)) {
        Frame& f = ctx.edit(ref);
        f.keys.erase(FrameKey::turn);
        f.as<MechFrame>().stage = MechStage::after;
        turn_to(ctx, id, *face);
    } else if (std::get_if<ExitTable>(&action)) {
        throw NotPorted("not ported to the native core yet: mission_play.exit_table");
    } else if (const auto* building = std::get_if<AttackBuilding>(&action)) {
        strike_building(ctx, mech, building->feature, building->attack, building->limb);
        ctx.edit(ref).as<MechFrame>().stage = MechStage::after;
    } else if (const auto* charge = std::get_if<Charge>(&action)) {
        const Frame done = ctx.pop(ref);
        const MechFrame& frame = done.as<MechFrame>();
        const std::array<double, 2> at = done.has(FrameKey::start)
                                             ? std::array<double, 2>{frame.start[0].value(), frame.start[1].value()}
                                             : std::array<double, 2>{mech.pos.x, mech.pos.y};
        ctx.push(charge_frame(id, charge->target, allowance(mover_of(mech), move_frame_of(frame)), at));
    } else if (const auto* move = std::get_if<Move>(&action)) {
        // a reverse keeps its facing (§15.2.2); a jump lands facing as before (§10.6.1, D28)
        const bool keep = move->reverse || move->jump;
        const double heading = keep ? mech.heading : heading_to(mech.pos, move->to);
        const char* kind = move->reverse ? "reverse" : (move->jump ? "jump" : "voluntary");
        bool goes_on = false;
        {
            Frame& f = ctx.edit(ref);
            goes_on = f.as<MechFrame>().stage == MechStage::continue_move;  // after an In Sight pause (D8)
            f.as<MechFrame>().moved = true;
        }
        const auto [spent, interrupted] = walk(ctx, id, move->to, heading, kind, move->jump, true, goes_on);
        Frame& f = ctx.edit(ref);
        MechFrame& fr = f.as<MechFrame>();
        fr.spent = Num::real(fr.spent.value() + spent);
        if (move->reverse) fr.spent = Num::real(static_cast<double>(mech_at(battle, id, "battle.mechs").speed));
        fr.turn = !keep;
        f.keys.set(FrameKey::turn);
        fr.stage = interrupted ? MechStage::continue_move : end_of_action(battle, f, !keep);
    } else {
        throw std::logic_error("mech_act: not an option of the mech frame");
    }
}

namespace {
std::vector<Action> mech_options_slot(const Battle& b, const RulesTables& r, FrameRef f) { return mech_options(b, r, f); }
}  // namespace

void register_mech(Procedures& procedures) {
    Handler& m = procedures.handlers[static_cast<std::size_t>(FrameKind::mech)];
    m.step = mech_step;
    m.act = mech_act;
    m.options = mech_options_slot;
    Handler& i = procedures.handlers[static_cast<std::size_t>(FrameKind::insight)];
    i.step = insight_step;
    i.act = insight_act;
    i.options = insight_options;
}

}  // namespace wargym::no_quarter
