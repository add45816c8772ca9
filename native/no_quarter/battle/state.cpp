// validity.check_battle's checks mirrored over the native Battle (see state.hpp).
#include "state.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "../../errors.hpp"

namespace wargym::no_quarter {

const Mech* Battle::mech(std::int64_t id) const {
    auto it = std::lower_bound(mechs.begin(), mechs.end(), id,
                               [](const Mech& m, std::int64_t key) { return m.id < key; });
    return (it != mechs.end() && it->id == id) ? &*it : nullptr;
}

namespace {

using std::to_string;

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
    throw wargym::StateError(path, reason);
}

std::string num(double v) {  // Python's f"{v:g}"
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

bool finite_point(Point p) { return std::isfinite(p.x) && std::isfinite(p.y); }

void check_table(const Battle& b, const StateLimits& lim) {
    const Battlefield& f = *b.battlefield;
    if (!(0 < f.width && f.width <= lim.max_table && 0 < f.height && f.height <= lim.max_table)) {
        fail("battle.battlefield", "sides above " + num(lim.max_table) + " inches");
    }
    if (static_cast<std::int64_t>(f.features.size()) > lim.max_features) {
        fail("battle.battlefield.features", "more than " + to_string(lim.max_features));
    }
    for (const auto& [key, armor] : b.building_armor) {
        const std::string where = "battle.building_armor." + to_string(key);
        if (key < 0 || key >= static_cast<std::int64_t>(f.features.size())) {
            fail(where, "no terrain feature " + to_string(key));
        }
        const Feature& feature = f.features[static_cast<std::size_t>(key)];
        const std::int64_t rated = feature.kind == Terrain::building ? feature.building_armor : 0;
        if (armor < 0 || armor > rated) {
            fail(where, to_string(armor) + " is outside 0.." + to_string(rated));
        }
    }
    if (static_cast<std::int64_t>(b.flames.size()) > lim.max_points) {
        fail("battle.flames", "more than " + to_string(lim.max_points) + " entries");
    }
    if (static_cast<std::int64_t>(b.wrecks.size()) > lim.max_points) {
        fail("battle.wrecks", "more than " + to_string(lim.max_points) + " entries");
    }
}

void check_options(const BattleOptions& o, const StateLimits& lim) {
    if (o.max_turns < 1 || o.max_turns > lim.max_turns) {
        fail("battle.options.max_turns",
             to_string(o.max_turns) + " is outside 1.." + to_string(lim.max_turns));
    }
    if (o.move_directions < 1 || o.move_directions > lim.max_directions) {
        fail("battle.options.move_directions", "outside 1.." + to_string(lim.max_directions));
    }
    const auto n = static_cast<std::int64_t>(o.move_fractions.size());
    bool ok = n >= 1 && n <= lim.max_fractions;
    for (double f : o.move_fractions) ok = ok && std::isfinite(f) && 0 < f && f <= 1;
    if (!ok) {
        fail("battle.options.move_fractions",
             "1.." + to_string(lim.max_fractions) + " numbers in (0, 1]");
    }
    if (!(std::isfinite(o.base_radius) && 0 < o.base_radius && o.base_radius <= 5)) {
        fail("battle.options.base_radius", "expected a number in (0, 5]");
    }
}

template <class T>
bool has_duplicates(const std::vector<T>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        for (std::size_t j = i + 1; j < values.size(); ++j) {
            if (values[i] == values[j]) return true;
        }
    }
    return false;
}

void check_mech(const Battle& b, const Mech& m, const StateLimits& lim) {
    const std::string where = "battle.mechs." + to_string(m.id);
    if (m.id < 0) fail(where + ".id", "negative id");
    const MechDesign& design = m.design();
    for (std::size_t i = 0; i < kLocations; ++i) {
        if (m.armor[i] < 0 || m.armor[i] > design.armor[i]) {
            fail(where + ".armor." + to_string(i), to_string(m.armor[i]) + " is outside 0.." +
                                                       to_string(design.armor[i]) + " (the design's)");
        }
    }
    const Battlefield& f = *b.battlefield;
    const bool on_table = 0 <= m.pos.x && m.pos.x <= f.width && 0 <= m.pos.y && m.pos.y <= f.height;
    if (!m.removed && !on_table) {
        fail(where + ".pos", "off the " + num(f.width) + "x" + num(f.height) + " table");
    }
    if (m.rep < 0 || m.rep > lim.max_rep) {
        fail(where + ".rep", to_string(m.rep) + " is outside 0.." + to_string(lim.max_rep));
    }
    if (m.speed < 0 || m.speed > design.speed) {
        fail(where + ".speed", to_string(m.speed) + " is outside 0.." + to_string(design.speed));
    }
    if (!(m.moved >= 0)) fail(where + ".moved", "expected a finite number >= 0");
    if (std::find(lim.twists.begin(), lim.twists.end(), m.twist) == lim.twists.end()) {
        fail(where + ".twist", to_string(m.twist) + " is not one of the torso twists");
    }
    const auto items = static_cast<std::int64_t>(design.items.size());
    for (std::size_t i = 0; i < m.inoperable.size(); ++i) {
        if (m.inoperable[i] < 0 || m.inoperable[i] >= items) {
            fail(where + ".inoperable." + to_string(i),
                 "item " + to_string(m.inoperable[i]) + " is outside 0.." + to_string(items - 1) +
                     " (the design's items)");
        }
    }
    if (has_duplicates(m.inoperable)) fail(where + ".inoperable", "an item listed twice");
    for (std::size_t i = 0; i < m.lost_limbs.size(); ++i) {
        if (std::find(lim.limbs.begin(), lim.limbs.end(), m.lost_limbs[i]) == lim.limbs.end()) {
            fail(where + ".lost_limbs." + to_string(i),
                 std::string(kLocation[m.lost_limbs[i]]) + " is not a limb");
        }
    }
    if (has_duplicates(m.lost_limbs)) fail(where + ".lost_limbs", "a limb listed twice");
    for (const auto* list : {&m.reaction_fired_at, &m.hidden_from}) {
        const char* name = list == &m.reaction_fired_at ? ".reaction_fired_at." : ".hidden_from.";
        for (std::size_t i = 0; i < list->size(); ++i) {
            if (!b.mech((*list)[i])) {
                fail(where + name + to_string(i), "unknown mech " + to_string((*list)[i]));
            }
        }
    }
}

void check_references(const Battle& b, const StateLimits& lim) {
    for (std::size_t i = 0; i < b.seen_pairs.size(); ++i) {
        const auto& [x, y] = b.seen_pairs[i];
        if (!b.mech(x) || !b.mech(y)) {
            fail("battle.seen_pairs." + to_string(i),
                 "unknown mech in (" + to_string(x) + ", " + to_string(y) + ")");
        }
    }
    for (const auto& [member, leader] : b.group_of) {
        if (!b.mech(member) || !b.mech(leader)) {
            fail("battle.group_of." + to_string(member),
                 "unknown mech in (" + to_string(member) + ", " + to_string(leader) + ")");
        }
    }
    for (std::uint8_t i = 0; i < b.home_edges.size; ++i) {
        const std::string& edge = b.home_edges.values[i];
        if (std::find(lim.edges.begin(), lim.edges.end(), edge) == lim.edges.end()) {
            fail("battle.home_edges." + std::string(kSide[b.home_edges.keys[i]]),
                 "not one of the table edges");
        }
    }
    for (std::uint8_t i = 0; i < b.losses.size; ++i) {
        const Side side = b.losses.keys[i];
        const std::int64_t lost = b.losses.values[i];
        std::int64_t had = 0;
        for (const Mech& m : b.mechs) had += m.side == side ? 1 : 0;
        if (lost < 0 || lost > had) {
            fail("battle.losses." + std::string(kSide[side]),
                 to_string(lost) + " is outside 0.." + to_string(had));
        }
    }
}

void check_turn(const Battle& b, const StateLimits& lim) {
    for (std::uint8_t i = 0; i < b.dice.size; ++i) {
        if (b.dice.values[i] < 1 || b.dice.values[i] > 6) {
            fail("battle.dice." + std::string(kSide[b.dice.keys[i]]),
                 to_string(b.dice.values[i]) + " is no d6 face");
        }
    }
    if (b.dice.size != 0 && b.dice.size != 2) fail("battle.dice", "expected both sides' dice or none");
    if (b.first_side && b.dice.size == 0) fail("battle.first_side", "set before any activation roll");
    if (static_cast<std::int64_t>(b.frames.size()) > lim.max_frames) {
        fail("battle.frames", "deeper than " + to_string(lim.max_frames) + " frames");
    }
    check_frames(b, lim);  // validity_parts.check_parts' frames (np and mission: not mirrored)
}

void check_decision(const Battle& b) {
    if (b.over) {
        if (b.decision) fail("battle.decision", "the battle is over but a decision is pending");
        return;
    }
    if (!b.decision) {
        const bool fresh = b.turn == 0 && b.frames.empty();
        if (!fresh) fail("battle.decision", "the battle is not over but no decision is pending");
        return;
    }
    if (b.frames.empty()) {
        fail("battle.frames", "a pending decision needs the rules' frame stack");
    }
    if (b.decision->mech) {
        const Mech* m = b.mech(*b.decision->mech);
        if (!m) fail("battle.decision.mech", "unknown mech " + to_string(*b.decision->mech));
        if (m->removed) fail("battle.decision.mech", "mech " + to_string(m->id) + " is off the table");
    }
}

}  // namespace

void check_battle(const Battle& b, const StateLimits& lim) {
    check_table(b, lim);
    check_options(*b.options, lim);
    if (b.turn < 0 || b.turn > b.options->max_turns + 1) {
        fail("battle.turn", to_string(b.turn) + " is outside 0.." + to_string(b.options->max_turns + 1));
    }
    if (static_cast<std::int64_t>(b.mechs.size()) > lim.max_mechs) {
        fail("battle.mechs", "more than " + to_string(lim.max_mechs) + " mechs");
    }
    for (const Mech& m : b.mechs) check_mech(b, m, lim);
    check_references(b, lim);
    check_turn(b, lim);
    check_decision(b);
}

}  // namespace wargym::no_quarter
