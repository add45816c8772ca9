// envs/no_quarter/codec.py on the native Battle: each function names its Python twin and does
// the same float operations in the same order (Python's float %, round() and round(x, 3)
// included), so indices, nominal points and headings agree bit for bit.
#include "codec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <variant>

namespace wargym::no_quarter {

namespace {

constexpr double kMirrorTurn = 180.0;  // battle_slots: red's view is turned by half a circle

template <class... F>
struct Overload : F... {
    using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

// Python's float x % y (float_rem): the result has the sign of y.
double pymod(double x, double y) {
    double mod = std::fmod(x, y);
    if (mod != 0.0) {
        if ((y < 0) != (mod < 0)) mod += y;
    } else {
        mod = std::copysign(0.0, y);
    }
    return mod;
}

// Python's int(round(x)): round half to even.
std::int64_t pyround(double x) { return static_cast<std::int64_t>(std::nearbyint(x)); }

// Python's round(x, 3): the correctly rounded decimal (half-even on exact ties), read back.
double round3(double x) {
    char buffer[400];
    std::snprintf(buffer, sizeof buffer, "%.3f", x);
    return std::strtod(buffer, nullptr);
}

// Python's a % b for ints with b > 0.
std::int64_t pyimod(std::int64_t a, std::int64_t b) {
    const std::int64_t r = a % b;
    return r < 0 ? r + b : r;
}

std::string tuple_repr(const std::vector<std::int64_t>& ids) {
    std::string out = "(";
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
    return out + (ids.size() == 1 ? ",)" : ")");
}

[[noreturn]] void not_in_tuple(const char* argument) {
    throw CodecError(argument, "tuple.index(x): x not in tuple");
}

// codec._slot
std::int64_t slot_of(const std::vector<std::int64_t>& ids, std::int64_t ident, std::int64_t limit) {
    const auto it = std::find(ids.begin(), ids.end(), ident);
    if (it == ids.end()) {
        throw CodecError("action", std::to_string(ident) + " has no slot among " + tuple_repr(ids));
    }
    const auto slot = static_cast<std::int64_t>(it - ids.begin());
    if (slot >= limit) {
        throw CodecError("action", "slot " + std::to_string(slot) + " of " + std::to_string(ident) +
                                       " is beyond the codec's maximum " + std::to_string(limit));
    }
    return slot;
}

// codec._id
std::int64_t id_of(const std::vector<std::int64_t>& ids, std::int64_t slot, const char* what) {
    if (slot >= static_cast<std::int64_t>(ids.size())) {
        throw CodecError("index", std::string("there is no ") + what + " in slot " + std::to_string(slot));
    }
    return ids[static_cast<std::size_t>(slot)];
}

template <class T, class V>
std::int64_t index_in(const std::vector<T>& items, const V& value) {
    const auto it = std::find(items.begin(), items.end(), value);
    if (it == items.end()) not_in_tuple("action");
    return static_cast<std::int64_t>(it - items.begin());
}

// codec._decision
const Decision& decision_of(const Battle& battle, const char* argument) {
    if (!battle.decision || battle.over) throw CodecError(argument, "no decision is pending");
    return *battle.decision;
}

// codec._allowance: Speed less what the mech frame on top has spent.
double allowance(const Battle& battle, const Mech& mech) {
    double spent = 0.0;
    if (!battle.frames.empty() && battle.frames.top().kind() == FrameKind::mech) {
        spent = battle.frames.top().as<MechFrame>().spent.value();  // float(frame["spent"])
    }
    const double left = static_cast<double>(mech.speed) - spent;
    return left > 0.0 ? left : 0.0;  // max(0.0, left)
}

// codec._point
Point point_at(const Mech& mech, double angle, double reach) {
    const double rad = radians(angle);
    const double x = mech.pos.x + reach * std::cos(rad);
    const double y = mech.pos.y + reach * std::sin(rad);
    return {round3(x), round3(y)};
}

const Mech& mech_of(const Battle& battle, std::int64_t id) {
    const Mech* m = battle.mech(id);
    if (!m) throw ArgumentError("action", "mech " + std::to_string(id) + " is not in the battle");
    return *m;
}

}  // namespace

bool same_rules(const RulesOptions& a, const RulesOptions& b) {
    return a.zhuh_zhuh_restriction == b.zhuh_zhuh_restriction && a.gun_medium_stats == b.gun_medium_stats &&
           a.strict_mounting == b.strict_mounting && a.pdf_c4_target == b.pdf_c4_target &&
           a.free_company_races == b.free_company_races;
}

Slots battle_slots(const Battle& battle, Side viewer, bool mirror) {
    Slots s;
    s.viewer = viewer;
    for (const Mech& m : battle.mechs) (m.side == viewer ? s.own : s.enemy).push_back(m.id);  // id order
    const auto& features = battle.battlefield->features;
    for (std::size_t i = 0; i < features.size(); ++i) {
        std::int64_t armor = 1;  // building_armor.get(i, 1)
        for (const auto& [feature, value] : battle.building_armor) {
            if (feature == static_cast<std::int64_t>(i)) armor = value;
        }
        if (features[i].kind == Terrain::building || armor <= 0) s.buildings.push_back(static_cast<std::int64_t>(i));
    }
    s.turn = (mirror && viewer == Side::red) ? kMirrorTurn : 0.0;
    return s;
}

std::vector<std::int64_t> ranged_weapons(const MechDesign& design) {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < design.items.size(); ++i) {
        const ItemType it = design.items[i].item;  // vocab.ItemType.is_ranged_weapon
        const bool misc = it == ItemType::jump_jets || it == ItemType::ews_1 || it == ItemType::ews_2;
        if (!misc && it != ItemType::melee_weapon) out.push_back(static_cast<std::int64_t>(i));
    }
    return out;
}

ActionCodec::ActionCodec(CodecTables tables) : t_(std::move(tables)) {
    auto positive = [](std::int64_t v, const char* name) {
        if (v < 1) throw ArgumentError(std::string("codec.") + name, "expected a positive count, got " + std::to_string(v));
    };
    positive(t_.max_mechs, "max_mechs");
    positive(t_.max_weapons, "max_weapons");
    positive(t_.directions, "directions");
    positive(t_.headings, "headings");
    positive(t_.free_directions, "free_directions");
    positive(t_.free_reaches, "free_reaches");
    if (t_.max_buildings < 0) throw ArgumentError("codec.max_buildings", "expected a count >= 0");
    if (t_.fractions.empty()) throw ArgumentError("codec.fractions", "expected at least one move fraction");
    if (t_.limbs.empty() || t_.edges.empty() || t_.twists.empty()) {
        throw ArgumentError("codec", "the LIMBS, EDGES and TWISTS slot lists may not be empty");
    }
    // ActionCodec.__init__'s sizes: the glue hands them in; they must be the ones the other
    // tables imply, or a decoded slot could index past a list.
    const std::int64_t m = t_.max_mechs, d = t_.directions, w = t_.max_weapons, nb = t_.max_buildings;
    const auto f = static_cast<std::int64_t>(t_.fractions.size());
    const auto len = [](const auto& v) { return static_cast<std::int64_t>(v.size()); };
    const std::array<std::int64_t, kBlocks> expected{
        1, m, m, m, 1, 1 + t_.headings, d * f, d * f, d, m, w * m, w * nb, 1,
        1 + t_.free_directions * t_.free_reaches, len(t_.free_will), len(t_.limbs), m,
        nb * len(t_.limbs), len(t_.edges), len(t_.objectives), (1 + t_.headings) * len(t_.twists),
        m, 1, m, 1, len(t_.lucky_choices), len(t_.location_slots)};
    for (std::size_t b = 0; b < kBlocks; ++b) {
        if (t_.sizes[b] != expected[b]) {
            throw ArgumentError("codec.sizes", std::string(kBlockNames[b]) + ": size " + std::to_string(t_.sizes[b]) +
                                                   ", but the tables give " + std::to_string(expected[b]));
        }
    }
    std::int64_t start = 0;
    for (std::size_t b = 0; b < kBlocks; ++b) {
        if (t_.sizes[b] < 0) throw ArgumentError("codec.sizes", std::string(kBlockNames[b]) + ": a negative size");
        t_.offsets[b] = start;
        start += t_.sizes[b];
    }
    t_.n = start;
    for (const RulesReach& r : t_.reach) {
        if (static_cast<std::int64_t>(r.reach.size()) != t_.free_reaches) {
            throw ArgumentError("codec.free_reach", "expected FREE_REACHES distances");
        }
    }
}

const std::vector<double>* ActionCodec::free_reach(const Battle& battle) const {
    for (const RulesReach& r : t_.reach) {
        if (same_rules(r.rules, battle.options->rules)) return &r.reach;
    }
    return nullptr;
}

const std::vector<double>& ActionCodec::reach_of(const Battle& battle) const {
    const auto* reach = free_reach(battle);
    if (!reach) throw ArgumentError("battle", "the codec was handed no free_reach() for this battle's rules options");
    return *reach;
}

Slots ActionCodec::slots(const Battle& battle, std::optional<Side> viewer) const {
    const Side side = viewer ? *viewer : decision_of(battle, "battle").side;
    return battle_slots(battle, side, t_.mirror);
}

std::int64_t ActionCodec::dir_slot(double angle, const Slots& slots, std::int64_t count) const {
    const double step = 360.0 / static_cast<double>(count);
    return pyimod(pyround(pymod(angle + slots.turn, 360.0) / step), count);
}

double ActionCodec::angle(std::int64_t k, const Slots& slots, std::int64_t count) const {
    return pymod(static_cast<double>(k) * 360.0 / static_cast<double>(count) - slots.turn, 360.0);
}

std::int64_t ActionCodec::encode(const Action& action, const Battle& battle, const Slots* slots) const {
    const Decision& decision = decision_of(battle, "battle");
    if (slots) return encode_with(action, battle, decision, *slots);
    return encode_with(action, battle, decision, battle_slots(battle, decision.side, t_.mirror));
}

// ActionCodec._encode
std::int64_t ActionCodec::encode_with(const Action& action, const Battle& battle, const Decision& decision,
                                      const Slots& slots) const {
    const std::int64_t m = t_.max_mechs;
    if (const auto* a = std::get_if<ActivateGroup>(&action)) return off(Block::activate) + slot_of(slots.own, a->leader, m);
    if (const auto* a = std::get_if<SkipGroup>(&action)) return off(Block::skip) + slot_of(slots.own, a->leader, m);
    if (const auto* a = std::get_if<ChooseMech>(&action)) return off(Block::choose) + slot_of(slots.own, a->mech, m);
    if (const auto* a = std::get_if<ChooseObjective>(&action)) return off(Block::objective) + index_in(t_.objectives, a->objective);
    if (const auto* a = std::get_if<SplitOff>(&action)) return off(Block::split) + slot_of(slots.own, a->mech, m);
    if (std::holds_alternative<KeepGroups>(action)) return off(Block::keep_groups);
    const std::int64_t mech_id = *action_mech(action);
    const Mech& mech = mech_of(battle, mech_id);
    if (decision.mech && mech_id != *decision.mech) {
        throw CodecError("action", describe(action) + ": not the mech of the decision (" +
                                       std::to_string(*decision.mech) + ")");
    }
    const std::int64_t nlimbs = static_cast<std::int64_t>(t_.limbs.size());
    return std::visit(
        Overload{
            [&](const FireFirst&) { return off(Block::fire_first); },
            [&](const Stay& a) {
                if (!a.heading) return off(Block::stay);
                return off(Block::stay) + 1 + dir_slot(*a.heading, slots, t_.headings);
            },
            [&](const Move& a) { return encode_move(a, battle, mech, slots); },
            [&](const Charge& a) { return off(Block::charge) + slot_of(slots.enemy, a.target, m); },
            [&](const AssignFire& a) {
                const std::int64_t w = slot_of(ranged_weapons(mech.design()), a.weapon, t_.max_weapons);
                return off(Block::assign_fire) + w * m + slot_of(slots.enemy, a.target, m);
            },
            [&](const FireAtBuilding& a) {
                const std::int64_t w = slot_of(ranged_weapons(mech.design()), a.weapon, t_.max_weapons);
                const std::int64_t b = slot_of(slots.buildings, a.feature, t_.max_buildings);
                return off(Block::fire_building) + w * t_.max_buildings + b;
            },
            [&](const EndFire&) { return off(Block::end_fire); },
            [&](const FreeMove& a) {
                if (!a.to) return off(Block::free_move);
                const double dx = a.to->x - mech.pos.x, dy = a.to->y - mech.pos.y;
                const std::int64_t k = dir_slot(degrees(std::atan2(dy, dx)), slots, t_.free_directions);
                const std::vector<double>& reach = reach_of(battle);
                const double dist = pyhypot(dx, dy);
                std::int64_t r = 0;  // min(range(FREE_REACHES), key=...): the first smallest
                double best = std::abs(reach[0] - dist);
                for (std::int64_t j = 1; j < t_.free_reaches; ++j) {
                    const double gap = std::abs(reach[static_cast<std::size_t>(j)] - dist);
                    if (gap < best) best = gap, r = j;
                }
                return off(Block::free_move) + 1 + k * t_.free_reaches + r;
            },
            [&](const FreeWill& a) { return off(Block::free_will) + index_in(t_.free_will, a.passed); },
            [&](const DeclareMelee& a) {
                return off(Block::declare_melee) + index_in(t_.limbs, std::pair{a.attack, a.limb});
            },
            [&](const FightMech& a) { return off(Block::fight) + slot_of(slots.enemy, a.target, m); },
            [&](const AttackBuilding& a) {
                const std::int64_t b = slot_of(slots.buildings, a.feature, t_.max_buildings);
                return off(Block::attack_building) + b * nlimbs + index_in(t_.limbs, std::pair{a.attack, a.limb});
            },
            [&](const ExitTable& a) {  // codec._edge_slot
                const auto edges = static_cast<std::int64_t>(t_.edges.size());
                return off(Block::exit) + pyimod(index_in(t_.edges, a.edge) + (slots.turn != 0.0 ? 2 : 0), edges);
            },
            [&](const Face& a) {
                const std::int64_t h = a.heading ? 1 + dir_slot(*a.heading, slots, t_.headings) : 0;
                const auto it = std::find(t_.twists.begin(), t_.twists.end(), a.twist);
                if (it == t_.twists.end()) {
                    std::string twists = tuple_repr(t_.twists);
                    throw CodecError("action", describe(action) + ": the twist is not one of " + twists);
                }
                const auto nt = static_cast<std::int64_t>(t_.twists.size());
                return off(Block::face) + h * nt + static_cast<std::int64_t>(it - t_.twists.begin());
            },
            [&](const LeadTeam& a) { return off(Block::lead) + slot_of(slots.own, a.group, m); },
            [&](const LeadDone&) { return off(Block::lead_done); },
            [&](const LuckyChoice& a) { return off(Block::lucky) + index_in(t_.lucky_choices, a.reroll); },
            [&](const ChooseLocation& a) { return off(Block::marksman) + index_in(t_.location_slots, a.location); },
            [&](const auto&) -> std::int64_t { throw CodecError("action", "unknown action " + describe(action)); },
        },
        action);
}

// ActionCodec._encode_move
std::int64_t ActionCodec::encode_move(const Move& action, const Battle& battle, const Mech& mech,
                                      const Slots& slots) const {
    const double dx = action.to.x - mech.pos.x, dy = action.to.y - mech.pos.y;
    const std::int64_t k = dir_slot(degrees(std::atan2(dy, dx)), slots, t_.directions);
    if (action.reverse) return off(Block::reverse) + k;
    const double allow = allowance(battle, mech);
    const double dist = pyhypot(dx, dy);
    const auto nf = static_cast<std::int64_t>(t_.fractions.size());
    std::int64_t j = nf - 1;
    for (std::int64_t i = 0; i < nf; ++i) {
        if (t_.fractions[static_cast<std::size_t>(i)] * allow >= dist - t_.tol) {
            j = i;
            break;
        }
    }
    return off(action.jump ? Block::jump : Block::move) + k * nf + j;
}

std::pair<Block, std::int64_t> ActionCodec::block_of(std::int64_t index) const {
    for (std::size_t b = kBlocks; b-- > 0;) {
        if (index >= t_.offsets[b]) {
            if (index - t_.offsets[b] >= t_.sizes[b]) break;
            return {static_cast<Block>(b), index - t_.offsets[b]};
        }
    }
    throw CodecError("index", "index " + std::to_string(index) + " is outside 0.." + std::to_string(t_.n - 1));
}

ActionCodec::Table ActionCodec::table(const Battle& battle, std::span<const Action> legal, const Slots* slots) const {
    Table out;
    if (legal.empty()) return out;
    const Decision& decision = decision_of(battle, "battle");
    const Slots own = slots ? Slots{} : battle_slots(battle, decision.side, t_.mirror);
    const Slots& s = slots ? *slots : own;
    std::vector<bool> taken(static_cast<std::size_t>(t_.n), false);
    for (std::size_t i = 0; i < legal.size(); ++i) {
        std::int64_t index;
        try {
            index = encode_with(legal[i], battle, decision, s);
        } catch (const CodecError&) {
            ++out.clashes;  // beyond the codec's maxima: not offered
            continue;
        }
        if (taken[static_cast<std::size_t>(index)]) {
            ++out.clashes;
            continue;
        }
        taken[static_cast<std::size_t>(index)] = true;
        out.entries.emplace_back(index, i);
    }
    return out;
}

void ActionCodec::mask(const Battle& battle, std::span<const Action> legal, std::span<std::int8_t> out,
                       const Slots* slots) const {
    std::fill(out.begin(), out.end(), std::int8_t{0});
    if (!battle.decision || battle.over) return;
    for (const auto& [index, position] : table(battle, legal, slots).entries) {
        out[static_cast<std::size_t>(index)] = 1;
    }
}

Action ActionCodec::decode(std::int64_t index, const Battle& battle, std::span<const Action> legal,
                           const Slots* slots) const {
    for (const auto& [i, position] : table(battle, legal, slots).entries) {
        if (i == index) return legal[position];
    }
    return nominal(index, battle, slots);
}

// ActionCodec._nominal
Action ActionCodec::nominal(std::int64_t index, const Battle& battle, const Slots* slots_in) const {
    const auto [block, k] = block_of(index);
    if (block == Block::wait) throw CodecError("index", "index 0 is the wait action (Parallel env only)");
    const Decision& decision = decision_of(battle, "battle");
    const Slots own = slots_in ? Slots{} : battle_slots(battle, decision.side, t_.mirror);
    const Slots& slots = slots_in ? *slots_in : own;
    const std::int64_t m = t_.max_mechs;
    switch (block) {
        case Block::activate: return ActivateGroup{id_of(slots.own, k, "own mech")};
        case Block::skip: return SkipGroup{id_of(slots.own, k, "own mech")};
        case Block::choose: return ChooseMech{id_of(slots.own, k, "own mech")};
        case Block::objective: return ChooseObjective{t_.objectives[static_cast<std::size_t>(k)]};
        case Block::split: return SplitOff{id_of(slots.own, k, "own mech")};
        case Block::keep_groups: return KeepGroups{};
        default: break;
    }
    if (!decision.mech) {
        throw CodecError("index", std::string(kBlockNames[static_cast<std::size_t>(block)]) + " needs a mech, but the " +
                                      std::string(kDecisionKind[decision.kind]) + " decision has none");
    }
    const Mech& mech = mech_of(battle, *decision.mech);
    const auto nlimbs = static_cast<std::int64_t>(t_.limbs.size());
    const auto nt = static_cast<std::int64_t>(t_.twists.size());
    switch (block) {
        case Block::fire_first: return FireFirst{mech.id};
        case Block::stay:
            return Stay{mech.id, k == 0 ? std::nullopt : std::optional<double>(angle(k - 1, slots, t_.headings))};
        case Block::move:
        case Block::jump:
        case Block::reverse: return nominal_move(block, k, battle, mech, slots);
        case Block::charge: return Charge{mech.id, id_of(slots.enemy, k, "enemy mech")};
        case Block::assign_fire: {
            const std::int64_t weapon = id_of(ranged_weapons(mech.design()), k / m, "weapon");
            return AssignFire{mech.id, weapon, id_of(slots.enemy, k % m, "enemy mech")};
        }
        case Block::fire_building: {
            const std::int64_t weapon = id_of(ranged_weapons(mech.design()), k / t_.max_buildings, "weapon");
            const std::int64_t feature = id_of(slots.buildings, k % t_.max_buildings, "building");
            return FireAtBuilding{mech.id, weapon, feature};
        }
        case Block::end_fire: return EndFire{mech.id};
        case Block::free_move: {
            if (k == 0) return FreeMove{mech.id, std::nullopt};
            const double a = angle((k - 1) / t_.free_reaches, slots, t_.free_directions);
            const double reach = reach_of(battle)[static_cast<std::size_t>((k - 1) % t_.free_reaches)];
            return FreeMove{mech.id, point_at(mech, a, reach)};
        }
        case Block::free_will: return FreeWill{mech.id, t_.free_will[static_cast<std::size_t>(k)]};
        case Block::declare_melee: {
            const auto& [attack, limb] = t_.limbs[static_cast<std::size_t>(k)];
            return DeclareMelee{mech.id, attack, limb};
        }
        case Block::fight: return FightMech{mech.id, id_of(slots.enemy, k, "enemy mech")};
        case Block::exit: {
            const auto edges = static_cast<std::int64_t>(t_.edges.size());
            return ExitTable{mech.id, t_.edges[static_cast<std::size_t>(pyimod(k + (slots.turn != 0.0 ? 2 : 0), edges))]};
        }
        case Block::face: {
            const std::int64_t h = k / nt, tw = k % nt;
            const std::optional<double> heading =
                h == 0 ? std::nullopt : std::optional<double>(angle(h - 1, slots, t_.headings));
            return Face{mech.id, heading, t_.twists[static_cast<std::size_t>(tw)]};
        }
        case Block::lead: return LeadTeam{mech.id, id_of(slots.own, k, "own mech")};
        case Block::lead_done: return LeadDone{mech.id};
        case Block::lucky: return LuckyChoice{mech.id, t_.lucky_choices[static_cast<std::size_t>(k)]};
        case Block::marksman: return ChooseLocation{mech.id, t_.location_slots[static_cast<std::size_t>(k)]};
        default: {  // attack_building
            const std::int64_t feature = id_of(slots.buildings, k / nlimbs, "building");
            const auto& [attack, limb] = t_.limbs[static_cast<std::size_t>(k % nlimbs)];
            return AttackBuilding{mech.id, feature, attack, limb};
        }
    }
}

// ActionCodec._nominal_move
Move ActionCodec::nominal_move(Block block, std::int64_t k, const Battle& battle, const Mech& mech,
                               const Slots& slots) const {
    const double allow = allowance(battle, mech);
    if (block == Block::reverse) {
        const double a = angle(k, slots, t_.directions);
        const double back = static_cast<double>(mech.speed) * t_.reverse_fraction;
        const double reach = back < allow ? back : allow;  // min(allowance, speed * REVERSE_FRACTION)
        return Move{mech.id, point_at(mech, a, reach), true, false};
    }
    const auto nf = static_cast<std::int64_t>(t_.fractions.size());
    const double a = angle(k / nf, slots, t_.directions);
    return Move{mech.id, point_at(mech, a, allow * t_.fractions[static_cast<std::size_t>(k % nf)]), false,
                block == Block::jump};
}

}  // namespace wargym::no_quarter
