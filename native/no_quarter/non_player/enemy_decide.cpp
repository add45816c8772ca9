// Mirror of rules/no_quarter/non_player/enemy_decide.py (§22.4, §20.5): known_enemies,
// roll_group, np_decide and its helpers, in the reference's order of operations, iteration
// orders and tie-breaks (min/max keep the first of equal keys).
#include "enemy_decide.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <variant>

#include "../../errors.hpp"
#include "../battle/luck.hpp"
#include "../battlefield/sections.hpp"
#include "../forces/data.hpp"
#include "../sight_movement/facing.hpp"
#include "../sight_movement/perception.hpp"
#include "../sight_movement/pyfloat.hpp"

namespace wargym::no_quarter {

namespace {

bool np_point_before(Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

std::int64_t np_group_of(const Battle& battle, std::int64_t id) {  // battle.group_of.get(id, id)
    for (const auto& [member, leader] : battle.group_of) {
        if (member == id) return leader;
    }
    return id;
}

// _members(battle, leader) or [battle.mechs[leader]]
std::vector<const Mech*> np_group(const Battle& battle, std::int64_t leader) {
    const Mech& head = mech_at(battle, leader, "leader");
    std::vector<const Mech*> out;
    for (const Mech* m : mechs_of(battle, head.side)) {
        if (np_group_of(battle, m->id) == leader) out.push_back(m);
    }
    if (out.empty()) out.push_back(&head);
    return out;
}

Spotter np_spot(const Mech& m) { return {m.id, m.pos, m.team, has_functioning_ews(m), facing(m)}; }

bool np_arcs(const NpContext& context) { return context.options.awareness == NpAwareness::arc; }

std::vector<const Mech*> np_known(const Scene& scene, Side side, bool arcs) {
    const Battle& battle = scene.battle;
    const std::vector<const Mech*> own = mechs_of(battle, side);
    std::vector<const Mech*> found;
    for (const Mech* enemy : mechs_of(battle, other(side))) {
        for (const Mech* mech : own) {
            if (arcs && !in_arc(mech->pos, facing(*mech), enemy->pos)) continue;
            if (line_between(scene, *mech, *enemy).visible) {
                found.push_back(enemy);
                break;
            }
        }
    }
    return found;
}

// Ruling 22.1.6: no player mech within 12" of the group nor in its LOS (§22.1.6).
bool np_beaten_away(const Scene& scene, const NpTables& tables, const std::vector<const Mech*>& group,
                    const std::vector<const Mech*>& seen, const NpContext& context) {
    const std::vector<const Mech*> player = mechs_of(scene.battle, other(group[0]->side));
    const std::vector<const Mech*>& pool = context.options.beaten_away_uses_range ? player : seen;
    bool near = false;
    for (const Mech* p : pool) {
        for (const Mech* m : group) {
            if (distance(p->pos, m->pos) <= tables.beaten_range + kEps) {
                near = true;
                break;
            }
        }
        if (near) break;
    }
    bool in_los = false;
    for (const Mech* m : group) {
        for (const Mech* p : seen) {
            if (line_between(scene, *m, *p).visible) {
                in_los = true;
                break;
            }
        }
        if (in_los) break;
    }
    return !near && !in_los;
}

NpGroupState np_roll_group(const Scene& scene, const NpTables& tables, std::int64_t leader, NpContext& context,
                           Dice& dice) {
    const Battle& battle = scene.battle;
    const std::vector<const Mech*> group = np_group(battle, leader);
    const Mech& head = mech_at(battle, leader, "leader");
    const std::int64_t team = head.team;
    NpGroupState state = context.state_of(team);
    const std::int64_t rep = head.rep;
    const std::vector<const Mech*> seen = np_known(scene, group[0]->side, np_arcs(context));
    bool beaten = false;
    if ((state.posture == NpPosture::defend || state.posture == NpPosture::patrol) &&
        state.after_beaten != AfterBeaten::none) {
        beaten = np_beaten_away(scene, tables, group, seen, context);
        if (beaten) {
            const bool withdraw = state.after_beaten == AfterBeaten::withdraw;
            state.posture = withdraw ? NpPosture::withdraw : NpPosture::defend;
            state.after_beaten = AfterBeaten::none;
        }
    }
    std::optional<PursuitRoll> pursuit;
    std::optional<MoveRoll> move;
    MoveOrder order = MoveOrder::full;
    if (state.posture == NpPosture::attack) {
        std::vector<Spotter> own;
        for (const Mech* m : group) own.push_back(np_spot(*m));
        std::vector<Spotter> enemies;
        for (const Mech* e : seen) enemies.push_back(np_spot(*e));
        pursuit = pursue_objective(tables, dice, rep, own, enemies);
        move = np_attack_move(tables, dice, rep);
        order = move->order;
    } else if (state.posture == NpPosture::withdraw) {
        order = MoveOrder::full;
    } else {
        move = np_defend_move(tables, dice, rep);
        order = move->order;
    }
    state.order = order;
    state.target = pursuit ? pursuit->target : std::nullopt;
    state.activation = std::array<std::int64_t, 2>{battle.turn, leader};
    context.set_state(team, state);
    context.rolls.push_back({team, leader, state.posture, beaten, pursuit, move});
    return state;
}

double np_group_distance(const Scene& scene, const NpTables& tables, std::int64_t leader,
                         const std::vector<const Mech*>& seen) {
    const Battle& battle = scene.battle;
    const std::vector<const Mech*> group = np_group(battle, leader);
    bool any = false;
    double best = 0.0;
    if (!seen.empty()) {
        for (const Mech* m : group) {
            for (const Mech* e : seen) {
                const double d = distance(m->pos, e->pos);
                if (!any || d < best) best = d;
                any = true;
            }
        }
        return best;
    }
    const std::string* found = battle.home_edges.find(other(group[0]->side));
    const std::string& edge = found != nullptr ? *found : tables.default_home_edge;
    for (const Mech* m : group) {
        const double d = distance(m->pos, edge_point(*battle.battlefield, m->pos, edge, 0.0));
        if (!any || d < best) best = d;
        any = true;
    }
    return best;
}

Action np_activate(const Scene& scene, const NpTables& tables, const std::vector<Action>& options,
                   NpContext& context, Dice& dice) {
    const Battle& battle = scene.battle;
    std::vector<std::int64_t> leaders;
    for (const Action& o : options) {
        if (const auto* a = std::get_if<ActivateGroup>(&o)) leaders.push_back(a->leader);
    }
    if (leaders.empty()) return options[0];
    const Side side = mech_at(battle, leaders[0], "options").side;
    const std::vector<const Mech*> seen = np_known(scene, side, np_arcs(context));
    // min(leaders, key=(-_group_distance, -rep, i))
    bool any = false;
    std::int64_t chosen = 0;
    double best_d = 0.0;
    std::int64_t best_rep = 0;
    for (const std::int64_t i : leaders) {
        const double d = -np_group_distance(scene, tables, i, seen);
        const std::int64_t rep = -mech_at(battle, i, "options").rep;
        if (!any || d < best_d || (d == best_d && (rep < best_rep || (rep == best_rep && i < chosen)))) {
            any = true;
            chosen = i;
            best_d = d;
            best_rep = rep;
        }
    }
    np_roll_group(scene, tables, chosen, context, dice);
    return ActivateGroup{chosen};
}

const Mech* np_nearest(const Mech& mech, const std::vector<const Mech*>& pool) {
    const Mech* best = nullptr;
    double best_d = 0.0;
    for (const Mech* e : pool) {
        const double d = distance(mech.pos, e->pos);
        if (best == nullptr || d < best_d || (d == best_d && e->id < best->id)) {
            best = e;
            best_d = d;
        }
    }
    return best;
}

std::vector<Body> np_others(const Scene& scene, std::int64_t mover) {
    std::vector<Body> out;
    for (const Body& b : scene.bodies) {
        if (b.id != mover) out.push_back(b);
    }
    return out;
}

// Where the mech's movement order sends it (§22.1.6, §22.2.6, §22.3.6-§22.3.7 rulings).
std::optional<Point> np_goal(const Scene& scene, const RulesTables& rules, const NpTables& tables, const Mech& mech,
                             const NpGroupState& state, const std::vector<const Mech*>& seen, double reach,
                             const std::vector<const Move*>& moves, const NpOptions& options) {
    const Battle& battle = scene.battle;
    const Battlefield& bf = *battle.battlefield;
    const Mech* nearest = np_nearest(mech, seen);
    if (state.posture == NpPosture::withdraw) {
        std::optional<Point> view;
        if (nearest != nullptr) view = nearest->pos;
        const std::vector<Body> others = np_others(scene, mech.id);
        return fighting_withdrawal_move(tables, rules, bf, mech.pos, reach, state.own_edge, view, others);
    }
    if (state.posture == NpPosture::attack) {
        if (state.target) {
            // by_id = {e.id: e for e in seen}: the last of equal ids (ids are unique)
            for (const Mech* e : seen) {
                if (e->id == *state.target) return e->pos;
            }
        }
        if (state.objective == NpObjective::break_through) {
            if (!state.exit_sections.empty()) {  // Cestus V Mission 8: head for section 7 (8.0.1)
                return exit_point(mech.pos, state.exit_edge, state.exit_sections, bf.width, bf.height,
                                  tables.exit_margin);
            }
            return edge_point(bf, mech.pos, state.exit_edge, tables.edge_margin);
        }
        if (nearest != nullptr) return nearest->pos;
        const std::string* home = battle.home_edges.find(other(mech.side));
        return edge_point(bf, mech.pos, home != nullptr ? *home : state.exit_edge, tables.edge_margin);
    }
    if (nearest == nullptr && options.unseen_defender == NpUnseenDefender::regain_los) {
        nearest = np_nearest(mech, mechs_of(battle, other(mech.side)));  // ruling 22.2.6 (E17)
    }
    if (nearest == nullptr) return std::nullopt;
    const std::vector<Body> others = np_others(scene, mech.id);
    std::vector<Point> candidates;
    for (const Move* m : moves) candidates.push_back(m->to);
    const std::optional<Point> spot =
        defend_goal(tables, rules, bf, candidates, nearest->pos, state.own_edge, mech.pos, others, mech.id,
                    has_functioning_ews(mech), nearest->id);
    if (spot) return spot;
    bool any = false;
    double top = 0.0;  // max(ranges, default=0)
    for (const std::int64_t w : operable_ranged_weapons(mech)) {
        const auto& item = mech.design().items.at(static_cast<std::size_t>(w));
        const double r = item.range ? static_cast<double>(*item.range) : 0.0;  // range or 0
        if (!any || r > top) top = r;
        any = true;
    }
    const Point base = edge_point(bf, nearest->pos, state.own_edge, 0.0);
    return step_toward(nearest->pos, base, pymin(top, distance(nearest->pos, base)));
}

double np_turn_gap(double a, double b) {
    const double diff = pymod(std::fabs(a - b), 360.0);
    return pymin(diff, 360.0 - diff);
}

// A group breaking through leaves across its exit edge once within reach (§22.3.1).
const ExitTable* np_exit(const Battle& battle, const std::vector<Action>& options, const Mech& mech,
                         const NpGroupState& state, const std::vector<const Mech*>& seen, double reach) {
    if (state.posture != NpPosture::attack || state.objective != NpObjective::break_through) return nullptr;
    if (state.target) {
        for (const Mech* e : seen) {
            if (e->id == *state.target) return nullptr;
        }
    }
    const Battlefield& bf = *battle.battlefield;
    for (const Action& option : options) {
        const auto* leave = std::get_if<ExitTable>(&option);
        if (leave == nullptr || leave->edge != state.exit_edge) continue;
        if (!state.exit_sections.empty() &&
            !exits_through(mech.pos, leave->edge, state.exit_sections, bf.width, bf.height)) {
            continue;  // not through the sections it is aimed at (Mission 8: section 7)
        }
        const Point edge = edge_point(bf, mech.pos, leave->edge, 0.0);
        if (distance(mech.pos, edge) <= reach + kEps) return leave;
    }
    return nullptr;
}

bool np_offered(const std::vector<Action>& options, const Action& a) {
    return std::find(options.begin(), options.end(), a) != options.end();
}

Action np_mech_action(const Scene& scene, const RulesTables& rules, const NpTables& tables,
                      const std::vector<Action>& options, NpContext& context, Dice& dice, const Mech& mech) {
    const Battle& battle = scene.battle;
    const std::int64_t leader = np_group_of(battle, mech.id);
    NpGroupState state = context.state_of(mech.team);
    const std::array<std::int64_t, 2> now{battle.turn, leader};
    if (!state.activation || *state.activation != now) {
        state = np_roll_group(scene, tables, leader, context, dice);
    }
    const Action fire = FireFirst{mech.id};
    if (np_offered(options, fire)) return fire;
    const Action stay = Stay{mech.id, std::nullopt};
    if (mech.fired_this_activation) return stay;
    const std::vector<const Mech*> seen = np_known(scene, mech.side, np_arcs(context));
    if (state.order == MoveOrder::none) {
        const Mech* nearest = np_nearest(mech, seen);
        if (nearest != nullptr) {
            const double want = heading_to(mech.pos, nearest->pos);
            const Stay* best = nullptr;
            double best_gap = 0.0;
            for (const Action& o : options) {
                const auto* s = std::get_if<Stay>(&o);
                if (s == nullptr || !s->heading) continue;
                const double g = np_turn_gap(*s->heading, want);
                if (best == nullptr || g < best_gap) {
                    best = s;
                    best_gap = g;
                }
            }
            if (best != nullptr && best_gap < np_turn_gap(mech.heading, want)) return *best;
        }
        return stay;
    }
    double spent = 0.0;
    if (!battle.frames.empty()) {
        const Frame& frame = battle.frames.top();
        if (frame.kind() == FrameKind::mech && frame.has(FrameKey::spent)) {
            spent = frame.as<MechFrame>().spent.value();
        }
    }
    const double fraction = state.order == MoveOrder::full ? 1.0 : 0.5;
    const double reach = pymax(0.0, static_cast<double>(mech.speed) * fraction - spent);
    std::vector<const Move*> moves;
    for (const Action& o : options) {
        const auto* m = std::get_if<Move>(&o);
        if (m != nullptr && !m->reverse && distance(mech.pos, m->to) <= reach + tables.reach_slack) {
            moves.push_back(m);
        }
    }
    if (const ExitTable* leave = np_exit(battle, options, mech, state, seen, reach)) return *leave;
    if (moves.empty()) return stay;
    const std::optional<Point> goal = np_goal(scene, rules, tables, mech, state, seen, reach, moves, context.options);
    if (!goal) return stay;
    const Move* best = nullptr;
    double best_d = 0.0;
    for (const Move* m : moves) {
        const double d = distance(m->to, *goal);
        if (best == nullptr || d < best_d || (d == best_d && np_point_before(m->to, best->to))) {
            best = m;
            best_d = d;
        }
    }
    if (distance(best->to, *goal) < distance(mech.pos, *goal) - kEps) return *best;
    return stay;
}

double np_damage(const Mech& mech) {
    std::int64_t now = 0;
    for (const std::int64_t a : mech.armor) now += a;
    std::int64_t full = 0;
    for (const std::int64_t a : mech.design().armor) full += a;
    return static_cast<double>(now) / static_cast<double>(std::max<std::int64_t>(1, full));
}

}  // namespace

std::vector<const Mech*> known_enemies(const Battle& battle, const RulesTables& rules, Side side, bool arcs) {
    const Scene scene = make_scene(battle, rules.sight);
    return np_known(scene, side, arcs);
}

NpGroupState roll_group(const Battle& battle, const RulesTables& rules, const NpTables& tables,
                        std::int64_t leader, NpContext& context, Dice& dice) {
    const Scene scene = make_scene(battle, rules.sight);
    return np_roll_group(scene, tables, leader, context, dice);
}

Action np_decide(const Battle& battle, const RulesTables& rules, const NpTables& tables,
                 const std::vector<Action>& options, NpContext& context, Dice& dice) {
    if (!battle.decision || options.empty()) {
        throw ArgumentError("battle", "np_decide needs a pending decision with legal options");
    }
    const DecisionKind kind = battle.decision->kind;
    const Mech* mech = battle.decision->mech ? &mech_at(battle, *battle.decision->mech, "battle") : nullptr;
    const Scene scene = make_scene(battle, rules.sight);
    switch (kind) {
        case DecisionKind::activate_group:
            return np_activate(scene, tables, options, context, dice);
        case DecisionKind::choose_mech: {
            const ChooseMech* best = nullptr;
            for (const Action& o : options) {
                const auto* c = std::get_if<ChooseMech>(&o);
                if (c != nullptr && (best == nullptr || c->mech < best->mech)) best = c;
            }
            return best != nullptr ? Action{*best} : options[0];
        }
        case DecisionKind::lead_teams:
        case DecisionKind::split_group:
            // never asked of the rules' NP side (its groups are its Teams, §22, E19)
            for (const Action& o : options) {
                if (std::holds_alternative<KeepGroups>(o) || std::holds_alternative<LeadDone>(o)) return o;
            }
            return options[0];
        default:
            break;
    }
    if (mech == nullptr) return options[0];
    switch (kind) {
        case DecisionKind::mech_action:
        case DecisionKind::continue_move:
            return np_mech_action(scene, rules, tables, options, context, dice, *mech);
        case DecisionKind::assign_fire: {
            const AssignFire* best = nullptr;
            double bd = 0.0, bdmg = 0.0;
            for (const Action& o : options) {
                const auto* s = std::get_if<AssignFire>(&o);
                if (s == nullptr) continue;
                const Mech& target = mech_at(battle, s->target, "options");
                const double d = distance(mech->pos, target.pos);
                const double dmg = np_damage(target);
                if (best == nullptr || d < bd ||
                    (d == bd && (dmg < bdmg || (dmg == bdmg && (s->target < best->target ||
                                                                (s->target == best->target && s->weapon < best->weapon)))))) {
                    best = s;
                    bd = d;
                    bdmg = dmg;
                }
            }
            return best != nullptr ? Action{*best} : options.back();
        }
        case DecisionKind::face: {  // toward the nearest enemy it knows of, else as it is (D2)
            const std::vector<const Mech*> seen = np_known(scene, mech->side, np_arcs(context));
            const Mech* near = np_nearest(*mech, seen);
            if (near == nullptr) {  // facing.keep_facing
                const Action keep = Face{mech->id, std::nullopt, mech->twist};
                return np_offered(options, keep) ? keep : options[0];
            }
            std::vector<FaceChoice> faces;  // facing.face_toward
            std::vector<const Face*> listed;
            for (const Action& o : options) {
                if (const auto* f = std::get_if<Face>(&o)) {
                    faces.push_back({f->heading, f->twist});
                    listed.push_back(f);
                }
            }
            const std::optional<std::size_t> i = face_toward(faces, mech->pos, mech->heading, near->pos);
            return i ? Action{*listed[*i]} : options[0];
        }
        case DecisionKind::free_move: {
            const Action hold = FreeMove{mech->id, std::nullopt};
            return np_offered(options, hold) ? hold : options[0];
        }
        case DecisionKind::charge_target: {
            const Charge* best = nullptr;
            double bd = 0.0;
            for (const Action& o : options) {
                const auto* c = std::get_if<Charge>(&o);
                if (c == nullptr) continue;
                const double d = distance(mech->pos, mech_at(battle, c->target, "options").pos);
                if (best == nullptr || d < bd || (d == bd && c->target < best->target)) {
                    best = c;
                    bd = d;
                }
            }
            return best != nullptr ? Action{*best} : options[0];
        }
        case DecisionKind::free_will: {
            const FreeWill* best = nullptr;
            for (const Action& o : options) {
                const auto* f = std::get_if<FreeWill>(&o);
                if (f != nullptr && (best == nullptr || f->passed > best->passed)) best = f;
            }
            return best != nullptr ? Action{*best} : options[0];
        }
        case DecisionKind::melee_declare: {
            // max(limbs, key=(armor_at(limb), -limbs.index(o))): the first of the strongest
            const DeclareMelee* best = nullptr;
            std::int64_t top = 0;
            for (const Action& o : options) {
                const auto* d = std::get_if<DeclareMelee>(&o);
                if (d == nullptr) continue;
                const std::int64_t a = mech->armor[static_cast<std::size_t>(d->limb)];
                if (best == nullptr || a > top) {
                    best = d;
                    top = a;
                }
            }
            return best != nullptr ? Action{*best} : options[0];
        }
        case DecisionKind::melee_target: {
            const FightMech* best = nullptr;
            double bdmg = 0.0;
            for (const Action& o : options) {
                const auto* f = std::get_if<FightMech>(&o);
                if (f == nullptr) continue;
                const double dmg = np_damage(mech_at(battle, f->target, "options"));
                if (best == nullptr || dmg < bdmg || (dmg == bdmg && f->target < best->target)) {
                    best = f;
                    bdmg = dmg;
                }
            }
            return best != nullptr ? Action{*best} : options[0];
        }
        case DecisionKind::lucky_reroll:
        case DecisionKind::marksman_location:
            return choice_in_roll(battle, rules, options);  // D26, §9.6.4: luck.py's documented rules
        default:
            return options[0];
    }
}

}  // namespace wargym::no_quarter
