// Mirror of rules/no_quarter/battle/flow_melee.py (flow_melee.hpp).
#include "flow_melee.hpp"

#include "flow_move.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "../../errors.hpp"
#include "../sight_movement/geometry.hpp"
#include "consequences.hpp"
#include "flow_charges.hpp"
#include "luck.hpp"
#include "melee.hpp"
#include "ranged_combat.hpp"

namespace wargym::no_quarter {

namespace {

using events::Ints;

Mech& mech_of(Battle& battle, std::int64_t id) { return const_cast<Mech&>(mech_at(battle, id, "battle.mechs")); }
const Mech& mech_of(const Battle& battle, std::int64_t id) { return mech_at(battle, id, "battle.mechs"); }

const RulesTables& rules_of(const Ctx& ctx) {
    if (!ctx.rules) throw NotPorted("the native handlers need Ctx.rules (forces/data.hpp RulesTables)");
    return *ctx.rules;
}

AttributeSet attribute_set(const Mech& mech) {
    AttributeSet out{};
    for (Attribute a : mech.record->pilot.attributes) out[static_cast<std::size_t>(a)] = true;
    return out;
}

Ints ints(const std::vector<int>& faces) { return Ints(faces.begin(), faces.end()); }

bool lost_limb(const Mech& mech, Location location) {
    return std::find(mech.lost_limbs.begin(), mech.lost_limbs.end(), location) != mech.lost_limbs.end();
}
bool inoperable(const Mech& mech, std::int64_t item) {
    return std::find(mech.inoperable.begin(), mech.inoperable.end(), item) != mech.inoperable.end();
}
std::int64_t armor_at(const Mech& mech, Location location) { return mech.armor[static_cast<std::size_t>(location)]; }

// Mech.has_jump_jets (§10.6.1).
bool has_jump_jets(const Mech& mech) {
    const auto& items = mech.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].item == ItemType::jump_jets && !inoperable(mech, static_cast<std::int64_t>(i))) return true;
    }
    return false;
}

// rules/dice.py successes: the d6 scoring success_face or less (§5.2; the glue reads it off
// dice.successes).
std::int64_t successes(const RulesTables& rules, const std::vector<int>& faces) {
    return std::count_if(faces.begin(), faces.end(), [&](int f) { return f <= rules.success_face; });
}

std::int64_t pass_count(const RulesTables& rules, const std::vector<int>& faces, std::int64_t target) {
    return passed_dice(faces.data(), faces.size(), target, rules.combat.pass_cap);
}

bool is_top(const Battle& battle, FrameRef ref) {
    if (battle.frames.empty()) return false;
    const FrameRef top = battle.frames.top_ref();
    return top.index == ref.index && top.serial == ref.serial;
}

ChargeFrame& charge(Ctx& ctx, FrameRef ref) { return ctx.edit(ref).as<ChargeFrame>(); }

// _move_start: where the charger's movement began, its activation's start if moving (D4).
Point move_start(const Battle& battle, const Mech& charger, const Frame& frame) {
    if (frame.has(FrameKey::start)) {
        const auto& s = frame.as<ChargeFrame>().start;
        return {s[0].value(), s[1].value()};
    }
    if (auto active = nearest_frame(battle, FrameKind::mech)) {
        const Frame& f = battle.frames[*active];
        if (f.as<MechFrame>().mech == charger.id && f.has(FrameKey::start)) {
            const auto& s = f.as<MechFrame>().start;
            return {s[0].value(), s[1].value()};  // an In Sight charge
        }
    }
    return charger.pos;
}

// _several_chargers: the In Sight whose winners' charges wait for each other (split).
std::optional<std::size_t> several_chargers(const Battle& battle) {
    if (battle.options->several_chargers != SeveralChargers::split) return std::nullopt;
    auto insight = nearest_frame(battle, FrameKind::insight);
    if (insight && battle.frames[*insight].has(FrameKey::stage) &&
        battle.frames[*insight].as<InsightFrame>().stage == InsightStage::act) {
        return insight;
    }
    return std::nullopt;
}

double gap_of(const RulesTables& rules) { return rules.charge_stage_distance; }

bool stopped(const Mech& charger) { return charger.removed.has_value() || charger.prone || charger.speed <= 0; }

// _goes_on: carrying on, standing, not engaged (rulings D8, D33).
bool goes_on(const Battle& battle, const Mech& charger) {
    return charger.status == Status::carry_on && !stopped(charger) && engaged_with(battle, charger).empty();
}

// _charge_leg: one leg walked like any move (flow_move.walk: flames D27, In Sight §16.1.2).
std::pair<double, bool> charge_leg(Ctx& ctx, Mech& charger, Point to, const Mech& target) {
    return walk(ctx, charger.id, to, heading_to(to, target.pos), "charge");
}

// _free_point: a free point gap from the target, reachable in a straight line (D5).
std::optional<Point> free_point(const Battle& battle, const RulesTables& rules, const Mech& charger,
                                const Mech& target, double gap,
                                double allowance = std::numeric_limits<double>::infinity()) {
    std::vector<Body> others;
    for (const Body& b : bodies(battle)) {
        if (b.id != charger.id && b.id != target.id) others.push_back(b);
    }
    const double radius = battle.options->base_radius;
    const double base = heading_to(target.pos, charger.pos);
    for (int turn : {0, 20, -20, 40, -40, 60, -60, 90, -90}) {
        const double angle = radians(base + turn);
        const Point point{target.pos.x + gap * std::cos(angle), target.pos.y + gap * std::sin(angle)};
        if (point.x == charger.pos.x && point.y == charger.pos.y) return point;
        const std::array<Point, 2> path{charger.pos, point};
        if (!path_problem(rules.move, path, charger.id, others, radius, std::nullopt, false) &&
            path_cost(rules.move, path) <= allowance + 1e-6) {
            return point;
        }
    }
    return std::nullopt;
}

// _charge_test: the Charge into Melee test (§18.2.1); with fire, the target's fire follows.
ChargeOutcome charge_test(Ctx& ctx, FrameRef ref, Mech& charger, Mech& target, Aspect side_on, bool fire) {
    Battle& battle = ctx.battle;
    const RulesTables& rules = rules_of(ctx);
    std::vector<int> charger_faces = ctx.dice.roll(2);
    std::int64_t charger_passed = pass_count(rules, charger_faces, charger.rep);
    if (charger_passed < 2) {  // a Lucky charger may re-roll its test (D26)
        LuckyInfo info;  // passed=charger_passed: the pause frame keeps it (lucky_advice reads it)
        info.passed = charger_passed;
        charger_faces = offer_lucky(ctx, charger, "charge_test", charger_faces, true, target.id, info);
        charger_passed = pass_count(rules, charger_faces, charger.rep);
    }
    const auto insight = nearest_frame(battle, FrameKind::insight);
    if (insight && !battle.frames[*insight].has(FrameKey::charge_rolls)) {  // setdefault("charge_rolls", {})
        Frame& in = ctx.edit(battle.frames.ref(*insight));
        in.as<InsightFrame>().charge_rolls.clear();
        in.keys.set(FrameKey::charge_rolls);
    }
    auto cached = [&]() -> const std::vector<std::int64_t>* {
        if (!insight) return nullptr;
        return find_id(battle.frames[*insight].as<InsightFrame>().charge_rolls, target.id);
    };
    const bool reused = cached() != nullptr;
    bool cover = false;
    {
        const Scene scene = make_scene(battle, rules.sight);
        cover = in_cover_from(scene, rules.cover, charger, target);
    }
    const std::int64_t dice = charge_target_dice(rules.combat, cover, side_on);
    std::vector<int> rolled;
    if (const auto* c = cached()) {
        for (std::int64_t f : *c) rolled.push_back(static_cast<int>(f));
    }
    if (static_cast<std::int64_t>(rolled.size()) < dice) {
        for (int f : ctx.dice.roll(dice - static_cast<std::int64_t>(rolled.size()))) rolled.push_back(f);
    }
    auto head = [&](const std::vector<int>& v) {
        return std::vector<int>(v.begin(), v.begin() + std::min<std::int64_t>(dice, static_cast<std::int64_t>(v.size())));
    };
    const std::int64_t first = pass_count(rules, head(rolled), target.rep);
    if (!reused && first < 2) {  // a Lucky target may re-roll its one roll (D26)
        LuckyInfo info;  // passed=first, as the reference's offer_lucky call
        info.passed = first;
        rolled = offer_lucky(ctx, target, "charge_test", rolled, true, charger.id, info);
    }
    if (insight) {
        auto& rolls = ctx.edit(battle.frames.ref(*insight)).as<InsightFrame>().charge_rolls;
        std::vector<std::int64_t> keep(rolled.begin(), rolled.end());
        auto it = std::find_if(rolls.begin(), rolls.end(), [&](const auto& p) { return p.first == target.id; });
        if (it != rolls.end()) {
            it->second = std::move(keep);
        } else {
            rolls.emplace_back(target.id, std::move(keep));
        }
    }
    const std::vector<int> target_faces = head(rolled);
    const std::int64_t target_passed = pass_count(rules, target_faces, target.rep);
    const ChargeOutcome outcome = charge_outcome(rules.combat, charger_passed, target_passed);
    ctx.emit(events::ChargeTested{charger.id, target.id, ints(charger_faces), charger_passed, ints(target_faces),
                                  target_passed, dice,
                                  std::string(kChargeOutcome.values[static_cast<std::size_t>(outcome)]), reused});
    {
        Frame& f = ctx.edit(ref);
        f.as<ChargeFrame>().jump = outcome == ChargeOutcome::target_holds_fire && has_jump_jets(charger);
        f.keys.set(FrameKey::jump);
    }
    if (fire && outcome != ChargeOutcome::target_holds_fire && target.status != Status::leave_battlefield &&
        engaged_with(battle, target).empty()) {  // an engaged mech may not fire (ruling D33)
        ctx.push(fire_frame(target.id, FireMode::charge, std::nullopt, charger.id,
                            outcome == ChargeOutcome::target_rush_shot));
    }
    return outcome;
}

// charge_step's first part: stage and test (stages declare, staging).
void stage_and_test(Ctx& ctx, FrameRef ref, Mech& charger, Mech& target) {
    Battle& battle = ctx.battle;
    const RulesTables& rules = rules_of(ctx);
    const bool staging = charge(ctx, ref).stage == ChargeStage::staging;
    if (staging && !goes_on(battle, charger)) {
        ctx.pop(ref);  // ducked back, leaving, prone or engaged after the In Sight (D8)
        return;
    }
    const Point start = move_start(battle, charger, battle.frames[ref.index]);
    {
        Frame& f = ctx.edit(ref);
        if (!f.has(FrameKey::start)) {
            f.as<ChargeFrame>().start = {Num::real(start.x), Num::real(start.y)};
            f.keys.set(FrameKey::start);
        }
    }
    const Frame& f = battle.frames[ref.index];
    const double allowance = (f.has(FrameKey::allowance) ? f.as<ChargeFrame>().allowance.value()
                                                         : static_cast<double>(charger.speed)) -
                             (f.has(FrameKey::spent) ? f.as<ChargeFrame>().spent.value() : 0.0);
    std::optional<Point> stage = charge_stage(battle, rules, charger, target, allowance);
    if (!stage && staging) {
        ctx.pop(ref);  // the In Sight put the 3" point out of reach: the charge ends here
        return;
    }
    const Point to = stage.value_or(charger.pos);
    if (to.x != charger.pos.x || to.y != charger.pos.y) {
        charge(ctx, ref).stage = ChargeStage::staging;
        const auto [spent, paused] = charge_leg(ctx, charger, to, target);
        {
            Frame& g = ctx.edit(ref);
            const double before = g.has(FrameKey::spent) ? g.as<ChargeFrame>().spent.value() : 0.0;
            g.as<ChargeFrame>().spent = Num::real(before + spent);
            g.keys.set(FrameKey::spent);
        }
        if (paused || !is_top(battle, ref) || stopped(charger)) {
            if (is_top(battle, ref) && stopped(charger)) ctx.pop(ref);  // flames stopped it (D27)
            return;
        }
    }
    const Aspect side_on = aspect(target.pos, target.heading, start, to);
    ctx.emit(events::ChargeDeclared{charger.id, target.id, static_cast<events::Aspect>(side_on)});
    const auto waiting = several_chargers(battle);
    const FrameRef insight_ref = waiting ? battle.frames.ref(*waiting) : FrameRef{};
    const ChargeOutcome outcome = charge_test(ctx, ref, charger, target, side_on, !waiting);
    if (waiting) {  // the target's fire and the melee wait for the other winners
        const bool jump = battle.frames[ref.index].as<ChargeFrame>().jump;
        ctx.pop(ref);
        WaitingCharge entry;
        entry.charger = charger.id;
        entry.target = target.id;
        entry.outcome = outcome;
        entry.jump = jump;
        for (FrameKey k : {FrameKey::charger, FrameKey::target, FrameKey::outcome, FrameKey::jump}) entry.keys.set(k);
        Frame& in = ctx.edit(insight_ref);
        if (!in.has(FrameKey::charges)) {  // setdefault("charges", [])
            in.as<InsightFrame>().charges.clear();
            in.keys.set(FrameKey::charges);
        }
        in.as<InsightFrame>().charges.push_back(std::move(entry));
        return;
    }
    charge(ctx, ref).stage = ChargeStage::contact;
}

// charge_step's second part: contact and the melee (stages contact, closing).
void close_in(Ctx& ctx, FrameRef ref, Mech& charger, Mech& target) {
    Battle& battle = ctx.battle;
    const RulesTables& rules = rules_of(ctx);
    if (charge(ctx, ref).stage == ChargeStage::closing && distance(charger.pos, target.pos) > gap_of(rules) + 1e-6) {
        ctx.pop(ref);  // the target moved away during the In Sight: no contact
        return;
    }
    if (stopped(charger) || !goes_on(battle, charger)) {
        ctx.pop(ref);  // stopped, ducked back, leaving or engaged: no contact
        return;
    }
    if (!room_for_attacker(battle, rules, target)) {
        ctx.pop(ref);  // three enemies already melee the target (§18.3.4)
        return;
    }
    const std::optional<Point> contact = free_point(battle, rules, charger, target, 2 * battle.options->base_radius);
    if (!contact) {
        ctx.pop(ref);  // no room beside the target: no contact (bases never overlap, D5)
        return;
    }
    if (contact->x != charger.pos.x || contact->y != charger.pos.y) {
        charge(ctx, ref).stage = ChargeStage::closing;
        const auto [spent, paused] = charge_leg(ctx, charger, *contact, target);
        (void)spent;
        if (paused || !is_top(battle, ref)) return;  // an In Sight on the way: go on after it
    }
    const Frame done = ctx.pop(ref);
    if (stopped(charger) || distance(charger.pos, *contact) > 1e-6) return;  // flames stopped it (D27)
    const bool jump = done.has(FrameKey::jump) && done.as<ChargeFrame>().jump;
    ctx.push(melee_frame(charger.id, target.id, jump));
}

MeleeFrame& melee(Ctx& ctx, FrameRef ref) { return ctx.edit(ref).as<MeleeFrame>(); }

// _melee_weapon: the best operable melee weapon's WV on limb (0 if none).
std::int64_t melee_weapon(const Mech& mech, Location limb) {
    std::int64_t best = 0;
    bool any = false;
    const auto& items = mech.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].item == ItemType::melee_weapon && items[i].location == limb &&
            !inoperable(mech, static_cast<std::int64_t>(i))) {
            best = any ? std::max(best, items[i].wv) : items[i].wv;
            any = true;
        }
    }
    return any ? best : 0;
}

const std::pair<MeleeAttack, Location>& declared(const MeleeFrame& frame, std::int64_t mech) {
    const auto* d = find_id(frame.decl, mech);
    if (!d) throw StateError("frame.decl", "the melee frame holds no declaration of mech " + std::to_string(mech));
    return *d;
}

// _dice_for
std::int64_t dice_for(const Ctx& ctx, const MeleeFrame& frame, const Mech& mech, const Mech& foe, bool jump) {
    const auto& [attack, limb] = declared(frame, mech.id);
    const bool weapon = attack == MeleeAttack::punch && melee_weapon(mech, limb) > 0;
    return melee_dice(rules_of(ctx).combat, mech.rep, mech.record->pilot.race, attribute_set(mech),
                      {weapon, foe.prone, jump, mech.status == Status::leave_battlefield});
}

// luck.lucky_melee: a mech that did not win the round may re-roll its dice, the attacker first
// (D26). It sits with the melee round, which alone calls it; luck.hpp's choice points do the rest.
std::pair<std::vector<int>, std::vector<int>> lucky_melee(Ctx& ctx, const Mech& attacker, const Mech& defender,
                                                          std::vector<int> a_faces, std::vector<int> d_faces) {
    const std::int64_t a_lead = successes(rules_of(ctx), a_faces) - successes(rules_of(ctx), d_faces);
    LuckyInfo a_info;
    a_info.lost = a_lead < 0;
    a_faces = offer_lucky(ctx, attacker, "melee", a_faces, a_lead <= 0, defender.id, a_info);
    const std::int64_t d_lead = successes(rules_of(ctx), d_faces) - successes(rules_of(ctx), a_faces);
    LuckyInfo d_info;
    d_info.lost = d_lead < 0;
    d_faces = offer_lucky(ctx, defender, "melee", d_faces, d_lead <= 0, attacker.id, d_info);
    return {std::move(a_faces), std::move(d_faces)};
}

// _melee_round
void melee_round(Ctx& ctx, FrameRef ref, Mech& attacker, Mech& defender) {
    const RulesTables& rules = rules_of(ctx);
    const MeleeFrame snapshot = ctx.battle.frames[ref.index].as<MeleeFrame>();
    const bool jump = snapshot.jump;
    const std::int64_t a_dice = dice_for(ctx, snapshot, attacker, defender, jump);
    const std::int64_t d_dice = dice_for(ctx, snapshot, defender, attacker, false);
    std::vector<int> a_rolled = ctx.dice.roll(a_dice);
    std::vector<int> d_rolled = ctx.dice.roll(d_dice);
    auto [a_faces, d_faces] = lucky_melee(ctx, attacker, defender, std::move(a_rolled), std::move(d_rolled));  // D26
    const std::int64_t a_succ = successes(rules_of(ctx), a_faces), d_succ = successes(rules_of(ctx), d_faces);
    Mech* winner = a_succ == d_succ ? nullptr : (a_succ > d_succ ? &attacker : &defender);
    const std::int64_t margin = a_succ > d_succ ? a_succ - d_succ : d_succ - a_succ;
    ctx.emit(events::MeleeRound{attacker.id, defender.id, ints(a_faces), a_succ, ints(d_faces), d_succ,
                                winner ? std::optional<std::int64_t>(winner->id) : std::nullopt, margin});
    if (!winner) {
        MeleeFrame& f = melee(ctx, ref);
        f.ties += 1;  // refight at once with the same declarations (§18.3 step 3)
        if (f.ties >= kMaxTiedRounds || (a_dice <= 0 && d_dice <= 0)) ctx.pop(ref);
        return;
    }
    melee(ctx, ref).ties = 0;
    Mech& loser = winner == &attacker ? defender : attacker;
    const auto [attack, limb] = declared(snapshot, winner->id);
    const bool jumping = jump && winner == &attacker;
    const MeleeAttack column = jumping ? MeleeAttack::punch : attack;
    const int face = ctx.dice.roll(1).at(0);
    const Location location = melee_hit_location(rules.combat, face, column, jumping);
    const bool shielded = lost_limb(loser, location);  // a blown-off arm: a protected hit (D19)
    ctx.emit(events::HitLocated{loser.id, Ints{face}, location, shielded, {}});
    if (shielded) {  // no effect, like a damage roll passing 0d6: a new round at once (E15)
        MeleeFrame& f = melee(ctx, ref);
        f.jump = false;
        f.decl.clear();
        return;
    }
    const std::int64_t damage = limb_damage(std::max<std::int64_t>(0, armor_at(*winner, limb)),
                                            attack == MeleeAttack::punch ? melee_weapon(*winner, limb) : 0);
    const std::vector<int> faces = ctx.dice.roll(2);
    const std::int64_t before = armor_at(loser, location);
    const DamageOutcome outcome = melee_damage(rules.combat, Faces2{faces.at(0), faces.at(1)}, margin, damage, before);
    ctx.emit(events::DamageRolled{loser.id, location, events::Pair{faces[0], faces[1]}, margin, outcome.passed, before,
                                  outcome.armor_after, outcome.critical, true, outcome.armor_loss});
    melee(ctx, ref).jump = false;
    if (outcome.refight) {  // pass 0: straight into a new round, fresh declarations (D33)
        melee(ctx, ref).decl.clear();
        return;
    }
    ctx.pop(ref);
    ctx.collecting.emplace();
    if (outcome.critical) critical_hit(ctx, loser, location);
    std::vector<ReactEntry> collected = std::move(*ctx.collecting);
    ctx.collecting.reset();
    std::vector<ReactEntry>& entries = caused_by(collected, Ids{winner->id});
    if (outcome.armor_loss > 0 && !loser.removed) {
        entries.insert(entries.begin(), react_entry(loser.id, ReactionTest::takes_damage, Ids{winner->id}));
    }
    queue_tests(ctx, std::move(entries));
}

}  // namespace

bool room_for_attacker(const Battle& battle, const RulesTables& rules, const Mech& target) {
    std::int64_t charging = 0;
    if (auto insight = nearest_frame(battle, FrameKind::insight)) {
        const Frame& f = battle.frames[*insight];
        if (f.has(FrameKey::charges)) {
            for (const WaitingCharge& c : f.as<InsightFrame>().charges) charging += c.target == target.id ? 1 : 0;
        }
    }
    const auto taken = static_cast<std::int64_t>(engaged_with(battle, target).size()) + charging;
    return taken < rules.max_attackers_per_target;
}

bool mid_charge(const Battle& battle, std::int64_t mech_id) {
    for (std::size_t i = 0; i < battle.frames.size(); ++i) {
        const Frame& f = battle.frames[i];
        if (f.kind() != FrameKind::charge) continue;
        const ChargeFrame& c = f.as<ChargeFrame>();
        if (c.charger == mech_id && (c.stage == ChargeStage::staging || c.stage == ChargeStage::closing)) return true;
    }
    return false;
}

std::optional<Point> charge_stage(const Battle& battle, const RulesTables& rules, const Mech& charger,
                                  const Mech& target, double allowance) {
    const double gap = gap_of(rules);
    if (distance(charger.pos, target.pos) <= gap) return charger.pos;
    return free_point(battle, rules, charger, target, gap, allowance);
}

void charge_step(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    const ChargeFrame& frame = battle.frames[ref.index].as<ChargeFrame>();
    Mech& charger = mech_of(battle, frame.charger);
    Mech& target = mech_of(battle, frame.target);
    if (charger.removed || target.removed) {
        ctx.pop(ref);
        return;
    }
    if (frame.stage == ChargeStage::declare || frame.stage == ChargeStage::staging) {
        stage_and_test(ctx, ref, charger, target);
    } else {
        close_in(ctx, ref, charger, target);
    }
}

std::vector<Action> melee_options(const Battle& battle, const RulesTables&, FrameRef ref) {
    const MeleeFrame& frame = battle.frames[ref.index].as<MeleeFrame>();
    const std::int64_t who = find_id(frame.decl, frame.attacker) ? frame.defender : frame.attacker;
    const Mech& mech = mech_of(battle, who);
    std::vector<Action> out;
    for (const auto& [attack, limbs] : {std::pair{MeleeAttack::punch, std::array{Location::arm_l, Location::arm_r}},
                                        std::pair{MeleeAttack::kick, std::array{Location::leg_l, Location::leg_r}}}) {
        for (Location limb : limbs) {
            if (!lost_limb(mech, limb)) out.push_back(DeclareMelee{mech.id, attack, limb});
        }
    }
    return out;
}

void melee_act(Ctx& ctx, FrameRef ref, const Action& action) {
    const DeclareMelee* d = std::get_if<DeclareMelee>(&action);
    if (!d) throw ArgumentError("action", "action: a melee frame takes a DeclareMelee");
    auto& decl = melee(ctx, ref).decl;
    auto it = std::find_if(decl.begin(), decl.end(), [&](const auto& p) { return p.first == d->mech; });
    if (it != decl.end()) {
        it->second = {d->attack, d->limb};
    } else {
        decl.emplace_back(d->mech, std::pair{d->attack, d->limb});
    }
    ctx.emit(events::MeleeDeclared{d->mech, d->attack, d->limb});
}

void melee_step(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    const MeleeFrame& frame = battle.frames[ref.index].as<MeleeFrame>();
    Mech& attacker = mech_of(battle, frame.attacker);
    Mech& defender = mech_of(battle, frame.defender);
    if (attacker.removed || defender.removed) {
        ctx.pop(ref);
        return;
    }
    for (const Mech* mech : {&attacker, &defender}) {
        if (!find_id(frame.decl, mech->id)) {
            ctx.ask(mech->side, DecisionKind::melee_declare, mech->id);
            return;
        }
    }
    melee_round(ctx, ref, attacker, defender);
}

void register_melee(Procedures& procedures) {
    Handler& c = procedures.handlers[static_cast<std::size_t>(FrameKind::charge)];
    c.step = charge_step;
    Handler& m = procedures.handlers[static_cast<std::size_t>(FrameKind::melee)];
    m.step = melee_step;
    m.act = melee_act;
    m.options = melee_options;
    register_charges(procedures);
}

}  // namespace wargym::no_quarter
