// Mirror of rules/no_quarter/battle/flow_react.py (flow_react.hpp).
#include "flow_react.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "../../errors.hpp"
#include "consequences.hpp"
#include "luck.hpp"
#include "ranged_combat.hpp"
#include "reaction.hpp"

namespace wargym::no_quarter {

namespace {

Mech& mech_of(Battle& battle, std::int64_t id) { return const_cast<Mech&>(mech_at(battle, id, "battle.mechs")); }
const Mech& mech_of(const Battle& battle, std::int64_t id) { return mech_at(battle, id, "battle.mechs"); }

const RulesTables& rules_of(const Ctx& ctx) {
    if (!ctx.rules) throw NotPorted("the native handlers need Ctx.rules (forces/data.hpp RulesTables)");
    return *ctx.rules;
}

bool contains(const Ids& v, std::int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

AttributeSet attribute_set(const Mech& mech) {
    AttributeSet out{};
    for (Attribute a : mech.record->pilot.attributes) out[static_cast<std::size_t>(a)] = true;
    return out;
}

std::string value_of(ReactionTest test) { return std::string(kReactionTest.values[static_cast<std::size_t>(test)]); }

// battle.group_of.get(mech, mech)
std::int64_t group_of(const Battle& battle, std::int64_t mech) {
    for (const auto& [member, leader] : battle.group_of) {
        if (member == mech) return leader;
    }
    return mech;
}

std::int64_t losses_of(const Battle& battle, Side side) {
    const std::int64_t* n = battle.losses.find(side);
    if (!n) throw StateError("battle.losses", "battle.losses has no entry for a side in play");
    return *n;
}

// _may_test: in play and not Leaving (a Leave result is permanent, §16.3.3).
bool may_test(const Mech& mech) { return !mech.removed && mech.status != Status::leave_battlefield; }

// Mech.weapons_out_of_action (§16.2) and Mech.damaged (ruling D31).
bool is_weapon(ItemType item) { return item != ItemType::jump_jets && item != ItemType::ews_1 && item != ItemType::ews_2; }
std::int64_t weapons_out_of_action(const Mech& mech) {
    std::int64_t n = 0;
    for (std::int64_t i : mech.inoperable) {
        if (is_weapon(mech.design().items.at(static_cast<std::size_t>(i)).item)) ++n;
    }
    return n;
}
bool damaged(const Mech& mech) {
    if (!mech.inoperable.empty()) return true;
    for (std::size_t i = 0; i < kLocations; ++i) {
        if (mech.armor[i] < mech.design().armor[i]) return true;
    }
    return false;
}

// _batch: the next batch (the first queued entry's test, every entry of that test in its
// group, merged per mech); the frame's entries lose those that may no longer test.
std::vector<ReactEntry> batch_of(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    ReactFrame& frame = ctx.edit(ref).as<ReactFrame>();
    std::vector<ReactEntry> entries;
    for (const ReactEntry& e : frame.entries) {
        if (may_test(mech_of(battle, e.mech))) entries.push_back(e);
    }
    frame.entries = entries;
    std::vector<ReactEntry> batch;
    if (entries.empty()) return batch;
    const ReactEntry& first = entries.front();
    const std::int64_t group = group_of(battle, first.mech);
    for (const ReactEntry& entry : entries) {
        if (entry.test != first.test || group_of(battle, entry.mech) != group) continue;
        auto merged = std::find_if(batch.begin(), batch.end(), [&](const ReactEntry& b) { return b.mech == entry.mech; });
        if (merged == batch.end()) {
            ReactEntry m;
            m.mech = entry.mech;
            m.test = entry.test;
            batch.push_back(std::move(m));
            merged = batch.end() - 1;
        }
        for (std::int64_t c : entry.causes) {
            if (!contains(merged->causes, c)) merged->causes.push_back(c);
        }
        for (std::int64_t c : entry.enemies) {
            if (!contains(merged->enemies, c)) merged->enemies.push_back(c);
        }
    }
    return batch;
}

bool is_star_choice(const Battle& battle, const Mech& mech) {
    return battle.options->star_free_will && mech.record->pilot.star;
}

// _threats: the causes (Fired On, Takes Damage), or for Mech Down the enemies that caused the
// loss, else every enemy with LOS to the tester (choice E8).
std::vector<const Mech*> threats_of(const Ctx& ctx, const Mech& mech, const ReactEntry& entry) {
    const Battle& battle = ctx.battle;
    const bool mech_down = entry.test == ReactionTest::mech_down;
    std::vector<const Mech*> found;
    for (std::int64_t i : mech_down ? entry.enemies : entry.causes) {
        const Mech& m = mech_of(battle, i);
        if (!m.removed) found.push_back(&m);
    }
    if (mech_down && found.empty()) {
        const Scene scene = make_scene(battle, rules_of(ctx).sight);
        for (const Mech* e : mechs_of(battle, other(mech.side))) {
            if (line_between(scene, *e, mech).visible) found.push_back(e);
        }
    }
    return found;
}

bool in_cover(const Ctx& ctx, const Mech& mech, const std::vector<const Mech*>& threats) {
    if (threats.empty()) return false;
    const Scene scene = make_scene(ctx.battle, rules_of(ctx).sight);
    return std::any_of(threats.begin(), threats.end(),
                       [&](const Mech* t) { return in_cover_from(scene, rules_of(ctx).cover, *t, mech); });
}

// _reaction_fire: Fire (or Rush Shot) at each cause that ordered it, once per enemy (D15).
void reaction_fire(Ctx& ctx, Mech& mech, const Ids& causes, const std::vector<ReactionResult>& results) {
    Battle& battle = ctx.battle;
    if (mech.prone || !engaged_with(battle, mech).empty()) return;  // D25, D33: counts as Carry On
    for (std::size_t i = 0; i < causes.size() && i < results.size(); ++i) {
        const ReactionResult result = results[i];
        if (result != ReactionResult::fire && result != ReactionResult::rush_shot) continue;
        const Mech& cause = mech_of(battle, causes[i]);
        if (cause.removed) continue;
        if (battle.options->reaction_fire_once_per_enemy && contains(mech.reaction_fired_at, cause.id)) continue;
        mech.reaction_fired_at.push_back(cause.id);
        ctx.push(fire_frame(mech.id, FireMode::reaction, std::nullopt, cause.id, result == ReactionResult::rush_shot));
    }
}

// _apply_result
void apply_result(Ctx& ctx, Mech& mech, ReactionTest test, const Ids& causes, const std::vector<const Mech*>& threats,
                  const std::vector<int>& faces, std::int64_t rep, std::int64_t passed, bool free_will,
                  std::optional<bool> cover) {
    Battle& battle = ctx.battle;
    const RulesTables& rules = rules_of(ctx);
    const AttributeSet attributes = attribute_set(mech);
    const bool nerves = attributes[static_cast<std::size_t>(Attribute::nerves_of_steel)];
    events::Flags outgunned, in_range;
    {
        const Scene scene = make_scene(battle, rules.sight);
        for (std::int64_t id : causes) {
            const Mech& c = mech_of(battle, id);
            outgunned.push_back(is_outgunned(rules.combat, mech.design().mech_class, c.design().mech_class, nerves));
            in_range.push_back(!c.removed && cause_in_range(scene, rules.perception, mech, c));
        }
    }
    std::vector<ReactionOutcome> outcomes;
    const bool was_damaged = damaged(mech);
    const Faction faction = mech.design().faction;
    if (causes.empty()) {
        outcomes.push_back(reaction_result(rules.combat, test, faction, passed, {false, false, was_damaged}, attributes));
    }
    for (std::size_t i = 0; i < causes.size(); ++i) {
        outcomes.push_back(
            reaction_result(rules.combat, test, faction, passed, {outgunned[i], in_range[i], was_damaged}, attributes));
    }
    std::vector<ReactionResult> results;
    std::int64_t rep_change = outcomes.front().rep_change;
    for (const ReactionOutcome& o : outcomes) {
        results.push_back(o.result);
        rep_change = std::min(rep_change, o.rep_change);
    }
    const ReactionResult final_ = worst_result(rules.combat, results);
    ctx.emit(events::ReactionTaken{mech.id, test, causes, events::Ints(faces.begin(), faces.end()), rep, passed,
                                   free_will, results, final_, rep_change, outgunned, in_range, cover,
                                   static_cast<std::int64_t>(faces.size())});
    const std::string reason = value_of(test) + " result";
    if (rep_change) ctx.emit(events::RepChanged{mech.id, mech.rep + rep_change, reason});
    const Mech* worst_cause = nullptr;
    for (std::size_t i = 0; i < causes.size() && i < results.size(); ++i) {
        if (results[i] == final_) {
            worst_cause = &mech_of(battle, causes[i]);
            break;
        }
    }
    if (!worst_cause && !causes.empty()) worst_cause = &mech_of(battle, causes.front());
    if (test == ReactionTest::mech_down) {  // away from the enemies, not the lost friend
        worst_cause = nullptr;
        double best = 0.0;
        for (const Mech* t : threats) {
            const double d = distance(t->pos, mech.pos);
            if (!worst_cause || d < best || (d == best && t->id < worst_cause->id)) {
                worst_cause = t;
                best = d;
            }
        }
    }
    if (final_ == ReactionResult::leave_battlefield) {
        Ids ids;
        for (const Mech* t : threats) ids.push_back(t->id);
        leave_battlefield(ctx, mech, reason, ids);
    } else if (final_ == ReactionResult::duck_back) {
        const Mech* away_from = worst_cause && !worst_cause->removed ? worst_cause : nullptr;
        duck_back(ctx, mech, away_from, reason);
    } else if (final_ == ReactionResult::fire || final_ == ReactionResult::rush_shot) {
        if (mech.status == Status::duck_back) ctx.emit(events::StatusChanged{mech.id, Status::carry_on, "ordered to fire"});
        reaction_fire(ctx, mech, causes, results);
    }
}

// _take_batch: one pooled roll for the batch (the most dice any roller needs), then each
// mech's reading of it (Lucky re-rolls), and its result carried out.
void take_batch(Ctx& ctx, const std::vector<ReactEntry>& batch, const IdMap<std::int64_t>& choices) {
    Battle& battle = ctx.battle;
    const RulesTables& rules = rules_of(ctx);
    const ReactionTest test = batch.front().test;
    IdMap<bool> cover;
    for (const ReactEntry& e : batch) {
        const Mech& m = mech_of(battle, e.mech);
        cover.emplace_back(m.id, in_cover(ctx, m, threats_of(ctx, m, e)));
    }
    IdMap<std::int64_t> needs;
    std::int64_t most = 0;
    for (const ReactEntry& e : batch) {
        if (find_id(choices, e.mech)) continue;
        const Mech& m = mech_of(battle, e.mech);
        const std::int64_t n =
            reaction_dice(rules.combat, test, m.design().faction, *find_id(cover, m.id), attribute_set(m));
        if (!find_id(needs, m.id)) needs.emplace_back(m.id, n);
        most = std::max(most, n);
    }
    const std::vector<int> pool = ctx.dice.roll(needs.empty() ? 0 : most);
    for (const ReactEntry& entry : batch) {
        Mech& mech = mech_of(battle, entry.mech);
        if (mech.removed) continue;
        const std::vector<const Mech*> threats = threats_of(ctx, mech, entry);
        const std::int64_t friendly = losses_of(battle, mech.side), enemy = losses_of(battle, other(mech.side));
        const std::int64_t rep = reaction_rep(rules.combat, mech.rep, weapons_out_of_action(mech),
                                              twice_as_many_friendly_losses(friendly, enemy));
        std::vector<int> faces;
        std::int64_t passed = 0;
        bool free_will = false;
        if (const std::int64_t* chosen = find_id(choices, mech.id)) {
            passed = *chosen;
            free_will = true;
        } else {
            faces = read_pooled_dice(pool, *find_id(needs, mech.id));
            passed = passed_dice(faces.data(), faces.size(), rep, rules.combat.pass_cap);
            if (passed == 0 && !faces.empty() && may_use_lucky(ctx, mech)) {
                std::vector<int> fresh = ctx.dice.roll(static_cast<std::int64_t>(faces.size()));
                ctx.emit(events::LuckyReroll{mech.id, value_of(test), events::Ints(faces.begin(), faces.end()),
                                             events::Ints(fresh.begin(), fresh.end())});
                faces = std::move(fresh);
                passed = passed_dice(faces.data(), faces.size(), rep, rules.combat.pass_cap);
            } else if (passed < 2) {  // lucky="choose": the pilot's side may re-roll (D26)
                LuckyInfo info;
                info.passed = passed;  // offer_lucky(..., passed=passed)
                std::vector<int> fresh =
                    offer_lucky(ctx, mech, value_of(test), faces, true, std::nullopt, info);
                if (fresh != faces) passed = passed_dice(fresh.data(), fresh.size(), rep, rules.combat.pass_cap);
                faces = std::move(fresh);
            }
        }
        apply_result(ctx, mech, test, entry.causes, threats, faces, rep, passed, free_will, *find_id(cover, mech.id));
    }
}

}  // namespace

void react_step(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    const std::vector<ReactEntry> batch = batch_of(ctx, ref);
    if (batch.empty()) {
        ctx.pop(ref);
        return;
    }
    {
        Frame& f = ctx.edit(ref);
        if (!f.has(FrameKey::free_will)) {  // frame.setdefault("free_will", {})
            f.as<ReactFrame>().free_will.clear();
            f.keys.set(FrameKey::free_will);
        }
    }
    for (const ReactEntry& entry : batch) {
        const Mech& mech = mech_of(battle, entry.mech);
        if (is_star_choice(battle, mech) && !find_id(ctx.edit(ref).as<ReactFrame>().free_will, mech.id)) {
            Frame& f = ctx.edit(ref);
            f.as<ReactFrame>().asking = mech.id;
            f.keys.set(FrameKey::asking);
            ctx.ask(mech.side, DecisionKind::free_will, mech.id);
            return;
        }
    }
    ReactFrame& frame = ctx.edit(ref).as<ReactFrame>();
    std::vector<ReactEntry> left;
    for (const ReactEntry& e : frame.entries) {
        const bool taken = std::any_of(batch.begin(), batch.end(),
                                       [&](const ReactEntry& b) { return e.mech == b.mech && e.test == b.test; });
        if (!taken) left.push_back(e);
    }
    frame.entries = std::move(left);
    const IdMap<std::int64_t> choices = std::move(frame.free_will);
    frame.free_will.clear();
    take_batch(ctx, batch, choices);
}

std::vector<Action> react_options(const Battle& battle, const RulesTables&, FrameRef ref) {
    const Frame& f = battle.frames[ref.index];
    if (!f.has(FrameKey::asking)) throw StateError("frame.asking", "the react frame asks no Star");
    const std::int64_t mech = f.as<ReactFrame>().asking;
    return {FreeWill{mech, 2}, FreeWill{mech, 1}, FreeWill{mech, 0}};
}

void react_act(Ctx& ctx, FrameRef ref, const Action& action) {
    const FreeWill* will = std::get_if<FreeWill>(&action);
    if (!will) throw ArgumentError("action", "action: a react frame takes a FreeWill");
    Frame& f = ctx.edit(ref);
    if (!f.has(FrameKey::free_will)) throw StateError("frame.free_will", "the react frame holds no free_will");
    auto& choices = f.as<ReactFrame>().free_will;
    auto it = std::find_if(choices.begin(), choices.end(), [&](const auto& p) { return p.first == will->mech; });
    if (it != choices.end()) {
        it->second = will->passed;
    } else {
        choices.emplace_back(will->mech, will->passed);
    }
    f.keys.erase(FrameKey::asking);
}

void register_react(Procedures& procedures) {
    Handler& h = procedures.handlers[static_cast<std::size_t>(FrameKind::react)];
    h.step = react_step;
    h.act = react_act;
    h.options = react_options;
}

}  // namespace wargym::no_quarter
