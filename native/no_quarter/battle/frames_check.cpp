// validity_parts.py's checks of the frame stack (_frame_kinds, _check_frame, _check_asking)
// over the typed frames. The reader (frames_io.cpp) already refused what a typed frame cannot
// hold: unknown kinds or keys, missing keys, wrong types, values outside a stage's or enum's
// vocabulary. Here: mech ids that resolve, counters and numbers in range, points on the table,
// feature indexes, d6 faces, list sizes, the phase's groups, the pause's pilot, the shooter's
// items, and the pending decision asked by the top frame. Paths are validity's
// (battle.frames.2.opponents.4.0).
//
// Not mirrored: a pause frame's "action" is checked as JSON only (actions.action_from_dict,
// with every action's fields, is not mirrored yet).
#include <cstdio>
#include <string>

#include "../../errors.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

namespace {

// validity_parts._pause_kind's literal bounds (test_frames_agreement checks each boundary
// against the reference).
constexpr std::size_t kMostPauseDice = 64;
constexpr std::size_t kMostPauseRolls = 4096;
constexpr std::size_t kMostPauseAnswers = 64;
constexpr std::size_t kMostChoices = 2;

using std::to_string;

[[noreturn]] void fail(const std::string& where, const std::string& reason) {
    throw wargym::StateError(where, reason);
}

std::string g(double v) {  // f"{v:g}"
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string repr(const Num& n) {
    if (n.is_int) return to_string(n.i);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", n.d);
    return buf;
}

class Checker {
public:
    Checker(const Battle& b, const StateLimits& lim) : b_(b), max_count_(lim.max_count) {}

    void mech(std::int64_t id, const std::string& where) const {
        if (!b_.mech(id)) fail(where, to_string(id) + " is no mech's id");
    }
    void mechs(const Ids& ids, const std::string& where) const {
        most(ids.size(), static_cast<std::size_t>(max_count_), where);
        for (std::size_t i = 0; i < ids.size(); ++i) mech(ids[i], where + "." + to_string(i));
    }
    void count(std::int64_t v, const std::string& where, std::int64_t low = 0, std::int64_t high = -1) const {
        if (high < 0) high = max_count_;
        if (v < low || v > high) {
            fail(where, to_string(v) + " is not an integer in " + to_string(low) + ".." + to_string(high));
        }
    }
    void counts(const std::vector<std::int64_t>& vs, const std::string& where) const {
        most(vs.size(), static_cast<std::size_t>(max_count_), where);
        for (std::size_t i = 0; i < vs.size(); ++i) count(vs[i], where + "." + to_string(i));
    }
    void number(const Num& n, const std::string& where, double low = 0, double high = -1) const {
        if (high < 0) high = static_cast<double>(max_count_);
        const double v = n.value();
        if (!(low <= v && v <= high)) {
            fail(where, repr(n) + " is not a number in " + g(low) + ".." + g(high));
        }
    }
    void point(const NumPoint& p, const std::string& where) const {
        number(p[0], where + ".0", 0, b_.battlefield->width);
        number(p[1], where + ".1", 0, b_.battlefield->height);
    }
    void feature(std::int64_t v, const std::string& where) const {
        if (v < 0 || v >= static_cast<std::int64_t>(b_.battlefield->features.size())) {
            fail(where, to_string(v) + " is no terrain feature");
        }
    }
    void dice(const std::vector<std::int64_t>& faces, const std::string& where, std::size_t at_most) const {
        most(faces.size(), at_most, where);
        for (std::size_t i = 0; i < faces.size(); ++i) {
            if (faces[i] < 1 || faces[i] > 6) {
                fail(where + "." + to_string(i), to_string(faces[i]) + " is not one of [1, 2, 3, 4, 5, 6]");
            }
        }
    }
    static void most(std::size_t n, std::size_t at_most, const std::string& where) {
        if (n > at_most) fail(where, "more than " + to_string(at_most) + " entries");
    }
    template <class V, class F>
    void id_map(const IdMap<V>& map, const std::string& where, F&& value) const {
        for (const auto& [id, v] : map) {
            const std::string field = where + "." + to_string(id).substr(0, 20);
            mech(id, field);
            value(v, field);
        }
    }
    void entry(const ReactEntry& e, const std::string& where) const {
        for (FrameKey k : e.keys) {
            const std::string at = where + "." + kFrameKeyNames[static_cast<std::size_t>(k)];
            if (k == FrameKey::mech) mech(e.mech, at);
            if (k == FrameKey::causes) mechs(e.causes, at);
            if (k == FrameKey::enemies) mechs(e.enemies, at);
        }
    }
    void entries(const std::vector<ReactEntry>& es, const std::string& where) const {
        most(es.size(), static_cast<std::size_t>(max_count_), where);
        for (std::size_t i = 0; i < es.size(); ++i) entry(es[i], where + "." + to_string(i));
    }
    void waiting(const std::vector<WaitingCharge>& ws, const std::string& where) const {
        most(ws.size(), static_cast<std::size_t>(max_count_), where);
        for (std::size_t i = 0; i < ws.size(); ++i) {
            for (FrameKey k : ws[i].keys) {
                const std::string at = where + "." + to_string(i) + "." + kFrameKeyNames[static_cast<std::size_t>(k)];
                if (k == FrameKey::charger) mech(ws[i].charger, at);
                if (k == FrameKey::target) mech(ws[i].target, at);
            }
        }
    }

    void frame(const Frame& f, std::size_t index) const;

private:
    void body(const TurnFrame&, FrameKey, const std::string&) const {}
    void body(const ObjectiveFrame&, FrameKey, const std::string&) const {}
    void body(const PhaseFrame& p, FrameKey k, const std::string& at) const {
        if (k == FrameKey::groups) {
            most(p.groups.size(), static_cast<std::size_t>(max_count_), at);
            for (std::size_t i = 0; i < p.groups.size(); ++i) mechs(p.groups[i], at + "." + to_string(i));
        }
        if (k == FrameKey::done) counts(p.done, at);
        if (k == FrameKey::leaders) mechs(p.leaders, at);
        if (k == FrameKey::asking) mech(p.asking, at);
    }
    void body(const GroupFrame& gr, FrameKey k, const std::string& at) const {
        if (k == FrameKey::members) mechs(gr.members, at);
        if (k == FrameKey::acted) mechs(gr.acted, at);
    }
    void body(const MechFrame& m, FrameKey k, const std::string& at) const {
        if (k == FrameKey::mech) mech(m.mech, at);
        if (k == FrameKey::spent) number(m.spent, at);
        if (k == FrameKey::start) point(m.start, at);
    }
    void body(const InsightFrame& s, FrameKey k, const std::string& at) const {
        switch (k) {
            case FrameKey::mover: mech(s.mover, at); break;
            case FrameKey::group: mech(s.group, at); break;
            case FrameKey::enemy_groups: mechs(s.enemy_groups, at); break;
            case FrameKey::free: if (s.free) mechs(*s.free, at); break;
            case FrameKey::winners: mechs(s.winners, at); break;
            case FrameKey::opponents: id_map(s.opponents, at, [&](const Ids& v, const std::string& w) { mechs(v, w); }); break;
            case FrameKey::deferred: entries(s.deferred, at); break;
            case FrameKey::next: mech(s.next, at); break;
            case FrameKey::charging: mech(s.charging, at); break;
            case FrameKey::charge_options: mechs(s.charge_options, at); break;
            case FrameKey::charge_rolls:
                id_map(s.charge_rolls, at, [&](const std::vector<std::int64_t>& v, const std::string& w) {
                    dice(v, w, static_cast<std::size_t>(max_count_));
                });
                break;
            case FrameKey::charges: waiting(s.charges, at); break;
            default: break;
        }
    }
    void body(const FireFrame& f, FrameKey k, const std::string& at) const {
        switch (k) {
            case FrameKey::shooter: mech(f.shooter, at); break;
            case FrameKey::targets: if (f.targets) mechs(*f.targets, at); break;
            case FrameKey::cause: if (f.cause) mech(*f.cause, at); break;
            case FrameKey::assigned:
                most(f.assigned.size(), static_cast<std::size_t>(max_count_), at);
                for (std::size_t i = 0; i < f.assigned.size(); ++i) {
                    const std::string w = at + "." + to_string(i);
                    count(f.assigned[i].weapon, w + ".0");
                    if (f.assigned[i].building) feature(f.assigned[i].target, w + ".1");
                    else mech(f.assigned[i].target, w + ".1");
                }
                break;
            case FrameKey::twist:
                if (f.twist && *f.twist != -90 && *f.twist != 0 && *f.twist != 90) {
                    fail(at, to_string(*f.twist) + " is not one of [-90, 0, 90]");
                }
                break;
            case FrameKey::rush_at: mechs(f.rush_at, at); break;
            default: break;
        }
    }
    void body(const ReactFrame& r, FrameKey k, const std::string& at) const {
        if (k == FrameKey::entries) entries(r.entries, at);
        if (k == FrameKey::free_will) {
            id_map(r.free_will, at, [](std::int64_t v, const std::string& w) {
                if (v < 0 || v > 2) fail(w, to_string(v) + " is not one of [0, 1, 2]");
            });
        }
        if (k == FrameKey::asking) mech(r.asking, at);
    }
    void body(const ChargeFrame& c, FrameKey k, const std::string& at) const {
        if (k == FrameKey::charger) mech(c.charger, at);
        if (k == FrameKey::target) mech(c.target, at);
        if (k == FrameKey::allowance) number(c.allowance, at);
        if (k == FrameKey::start) point(c.start, at);
        if (k == FrameKey::spent) number(c.spent, at);
    }
    void body(const MeleeFrame& m, FrameKey k, const std::string& at) const {
        if (k == FrameKey::attacker) mech(m.attacker, at);
        if (k == FrameKey::defender) mech(m.defender, at);
        if (k == FrameKey::decl) id_map(m.decl, at, [](const auto&, const std::string&) {});
        if (k == FrameKey::ties) count(m.ties, at);
    }
    void body(const ChargesFrame& c, FrameKey k, const std::string& at) const {
        if (k == FrameKey::entries) waiting(c.entries, at);
        if (k == FrameKey::fired) mechs(c.fired, at);
        if (k == FrameKey::picked) mech(c.picked, at);
    }
    void body(const PefsFrame& p, FrameKey k, const std::string& at) const {
        if (k == FrameKey::order && p.order) counts(*p.order, at);
    }
    void body(const PauseFrame& p, FrameKey k, const std::string& at) const {
        switch (k) {
            case FrameKey::rolls:
                most(p.rolls.size(), kMostPauseRolls, at);
                for (std::size_t i = 0; i < p.rolls.size(); ++i) dice(p.rolls[i], at + "." + to_string(i), kMostPauseDice);
                break;
            case FrameKey::answers: most(p.answers.size(), kMostPauseAnswers, at); break;
            case FrameKey::mech: mech(p.mech, at); break;
            case FrameKey::faces: dice(p.faces, at, kMostPauseDice); break;
            case FrameKey::target: if (p.target) mech(*p.target, at); break;
            case FrameKey::choices: most(p.choices.size(), kMostChoices, at); break;
            case FrameKey::passed: count(p.passed, at, 0, 2); break;
            case FrameKey::shielded: most(p.shielded.size(), kMostChoices, at); break;
            default: break;
        }
    }

    const Battle& b_;
    std::int64_t max_count_;
};

void Checker::frame(const Frame& f, std::size_t index) const {
    const std::string where = "battle.frames." + to_string(index);
    for (FrameKey k : f.keys) {
        const std::string at = where + "." + kFrameKeyNames[static_cast<std::size_t>(k)];
        std::visit([&](const auto& body_) { body(body_, k, at); }, f.body);
    }
    if (f.kind() == FrameKind::phase) {  // groups formed (§14.0)
        const PhaseFrame& p = f.as<PhaseFrame>();
        if (p.stage != PhaseStage::start) {
            for (FrameKey k : {FrameKey::groups, FrameKey::done}) {
                const std::string name = kFrameKeyNames[static_cast<std::size_t>(k)];
                if (!f.has(k)) fail(where + "." + name, "a phase past its start needs '" + name + "'");
            }
            for (std::size_t i = 0; i < p.done.size(); ++i) {
                if (p.done[i] >= static_cast<std::int64_t>(p.groups.size())) {
                    fail(where + ".done." + to_string(i), "group " + to_string(p.done[i]) + " is not one of the phase's");
                }
            }
        }
    }
    if (f.kind() == FrameKind::pause) {
        const PauseFrame& p = f.as<PauseFrame>();
        const Mech* m = b_.mech(p.mech);
        const std::string_view stage = kPauseStage[p.stage];
        bool has = false;
        for (Attribute a : m->record->pilot.attributes) has = has || kAttribute[a] == stage;
        if (index + 1 != b_.frames.size() || !has) {
            fail(where, "a " + std::string(stage) + " pause needs the top frame and that pilot");
        }
    }
    if (f.kind() == FrameKind::fire) {
        const FireFrame& fire = f.as<FireFrame>();
        const auto items = static_cast<std::int64_t>(b_.mech(fire.shooter)->design().items.size());
        for (std::size_t i = 0; i < fire.assigned.size(); ++i) {
            if (fire.assigned[i].weapon >= items) {
                fail(where + ".assigned." + to_string(i) + ".0",
                     "item " + to_string(fire.assigned[i].weapon) + " is outside 0.." + to_string(items - 1) +
                         " (the shooter's items)");
            }
        }
    }
}

// validity_parts.ASKING: per decision kind, the frames that ask it (kind, stages or any, the key
// naming the mech).
struct Asker {
    FrameKind kind;
    int stage;  // -1: any stage; else the stage enum's value
    std::optional<FrameKey> key;
};

std::vector<Asker> askers(DecisionKind d) {
    using DK = DecisionKind;
    using FK = FrameKind;
    auto st = [](auto e) { return static_cast<int>(e); };
    switch (d) {
        case DK::activate_group: return {{FK::phase, st(PhaseStage::choose), std::nullopt}};
        case DK::lead_teams: return {{FK::phase, st(PhaseStage::lead), FrameKey::asking}};
        case DK::split_group: return {{FK::phase, st(PhaseStage::split), std::nullopt}};
        case DK::choose_mech:
            return {{FK::group, -1, std::nullopt}, {FK::insight, st(InsightStage::act), std::nullopt},
                    {FK::charges, -1, std::nullopt}};
        case DK::mech_action: return {{FK::mech, st(MechStage::action), FrameKey::mech}};
        case DK::continue_move: return {{FK::mech, st(MechStage::continue_move), FrameKey::mech}};
        case DK::face: return {{FK::mech, st(MechStage::face), FrameKey::mech}};
        case DK::melee_target: return {{FK::mech, st(MechStage::fight), FrameKey::mech}};
        case DK::assign_fire: return {{FK::fire, -1, FrameKey::shooter}};
        case DK::free_move: return {{FK::insight, st(InsightStage::free), std::nullopt}};
        case DK::charge_target: return {{FK::insight, st(InsightStage::act), FrameKey::charging}};
        case DK::free_will: return {{FK::react, -1, FrameKey::asking}};
        case DK::melee_declare: return {{FK::melee, -1, std::nullopt}};
        case DK::choose_objective: return {{FK::objective, -1, std::nullopt}};
        case DK::lucky_reroll: return {{FK::pause, st(PauseStage::lucky), FrameKey::mech}};
        case DK::marksman_location: return {{FK::pause, st(PauseStage::marksman), FrameKey::mech}};
    }
    return {};
}

// The frame's "stage" as its enum's value, or -2 when the frame has none.
int stage_of(const Frame& f) {
    if (!f.has(FrameKey::stage)) return -2;
    return std::visit(
        [](const auto& body) -> int {
            if constexpr (requires { body.stage; }) return static_cast<int>(body.stage);
            else return -2;
        },
        f.body);
}

std::string stage_name(const Frame& f) {
    switch (f.kind()) {
        case FrameKind::turn: return std::string(kTurnStage[f.as<TurnFrame>().stage]);
        case FrameKind::phase: return std::string(kPhaseStage[f.as<PhaseFrame>().stage]);
        case FrameKind::mech: return std::string(kMechStage[f.as<MechFrame>().stage]);
        case FrameKind::insight: return std::string(kInsightStage[f.as<InsightFrame>().stage]);
        case FrameKind::charge: return std::string(kChargeStage[f.as<ChargeFrame>().stage]);
        case FrameKind::melee: return std::string(kMeleeStage[f.as<MeleeFrame>().stage]);
        case FrameKind::pause: return std::string(kPauseStage[f.as<PauseFrame>().stage]);
        default: return "";
    }
}

// top.get(key): the mech id a frame's key holds, or None.
std::optional<std::int64_t> mech_at(const Frame& f, FrameKey key) {
    if (!f.has(key)) return std::nullopt;
    switch (key) {
        case FrameKey::asking:
            if (f.kind() == FrameKind::phase) return f.as<PhaseFrame>().asking;
            return f.as<ReactFrame>().asking;
        case FrameKey::mech:
            if (f.kind() == FrameKind::mech) return f.as<MechFrame>().mech;
            return f.as<PauseFrame>().mech;
        case FrameKey::shooter: return f.as<FireFrame>().shooter;
        case FrameKey::charging: return f.as<InsightFrame>().charging;
        default: return std::nullopt;
    }
}

void check_asking(const Battle& b) {
    const Decision& d = *b.decision;
    const Frame& top = b.frames.top();
    const std::string where = "battle.frames." + to_string(b.frames.size() - 1);
    for (const Asker& a : askers(d.kind)) {
        if (top.kind() != a.kind || (a.stage != -1 && stage_of(top) != a.stage)) continue;
        if (a.key && mech_at(top, *a.key) != d.mech) {
            const std::string about = d.mech ? to_string(*d.mech) : "None";
            fail(where + "." + kFrameKeyNames[static_cast<std::size_t>(*a.key)],
                 "the pending decision is about mech " + about);
        }
        if (d.kind == DecisionKind::free_move) {
            const auto& free = top.as<InsightFrame>().free;
            if (!free || free->empty()) fail(where + ".free", "a free move is pending but no mech may make it");
        }
        return;
    }
    const std::string stage = top.has(FrameKey::stage) ? " at stage '" + stage_name(top) + "'" : "";
    fail(where, "a " + std::string(kFrameKind[top.kind()]) + " frame" + stage + " does not ask the pending " +
                    std::string(kDecisionKind[d.kind]));
}

}  // namespace

void check_frames(const Battle& b, const StateLimits& lim) {
    const Checker checker(b, lim);
    for (std::size_t i = 0; i < b.frames.size(); ++i) checker.frame(b.frames[i], i);
    if (b.decision && !b.frames.empty()) check_asking(b);
}

}  // namespace wargym::no_quarter
