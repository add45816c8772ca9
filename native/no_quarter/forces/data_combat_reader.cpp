// Reads CombatTables from the glue's plain dict (data_combat_reader.hpp). The layout of the dict
// is native/no_quarter/combat.py's combat_spec(); the checks mirror forces/data_combat.py's.
#include "data_combat_reader.hpp"

#include <climits>
#include <set>
#include <tuple>
#include <string>
#include <string_view>
#include <vector>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"

namespace nb = nanobind;

namespace wargym::no_quarter {

namespace {

const std::set<std::string> kKeys = {
    "pass_cap", "ranged_rows", "ranged_rep_modifiers", "crack_shot_ignores", "hit_location",
    "marksman_preference", "ranged_damage", "critical_armor_le_0", "critical_armor_ge_1",
    "chest_roll", "pilot_test_rep_modifiers", "outgunned_by", "never_outgunned",
    "in_sight_dice_per_rep", "in_sight_tie_winner", "in_sight_enemy_concealed_dice",
    "in_sight_race_dice", "in_sight_attribute_dice", "in_sight_bonus_successes", "reaction_dice",
    "per_weapon_out_of_action_rep", "twice_as_many_friendly_losses_rep", "in_cover_dice",
    "star_army_row_dice", "fired_on_total_dice", "severity", "cells", "duck_back_becomes",
    "fired_on_duck_back_becomes", "charge_dice_each", "charge_in_cover", "charge_aspect",
    "charge_results", "melee_dice_per_rep", "one_hand_melee_weapon", "attacking_prone_opponent",
    "jump_attack", "leaving_battlefield", "melee_race", "melee_attribute", "jump_attack_column",
    "melee_hit_location", "melee_damage"};

[[noreturn]] void fail(const std::string& path, const std::string& why) { throw ArgumentError(path, why); }

std::int32_t i32(nb::handle h, const std::string& path) {
    PyObject* o = h.ptr();
    if (!PyLong_Check(o) || PyBool_Check(o)) wrong_type(path, "an integer", h);
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || v < INT32_MIN || v > INT32_MAX) {
        fail(path, "expected an integer in 32 bits, got " + short_repr(h));
    }
    return static_cast<std::int32_t>(v);
}

bool boolean(nb::handle h, const std::string& path) {
    if (!PyBool_Check(h.ptr())) wrong_type(path, "True or False", h);
    return h.ptr() == Py_True;
}

std::string_view text(nb::handle h, const std::string& path) {
    if (!PyUnicode_Check(h.ptr())) wrong_type(path, "a string", h);
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
    if (!data) {
        PyErr_Clear();
        fail(path, "expected valid text");
    }
    return {data, static_cast<std::size_t>(size)};
}

template <class E, std::size_t N>
E value_of(nb::handle h, const Vocab<E, N>& vocab, const std::string& path) {
    const auto found = vocab.find(text(h, path));
    if (!found) fail(path, std::string("expected a ") + vocab.name + " value, got " + short_repr(h));
    return *found;
}

nb::dict as_dict(nb::handle h, const std::string& path) {
    if (!PyDict_Check(h.ptr())) wrong_type(path, "a dict", h);
    return nb::borrow<nb::dict>(h);
}

std::vector<nb::handle> as_list(nb::handle h, const std::string& path) {
    PyObject* o = h.ptr();
    if (!PyList_Check(o) && !PyTuple_Check(o)) wrong_type(path, "a list", h);
    std::vector<nb::handle> out;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    for (Py_ssize_t i = 0; i < n; ++i) out.emplace_back(PySequence_Fast_GET_ITEM(o, i));
    return out;
}

std::string at(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }
std::string at(const std::string& path, std::string_view key) { return path + "." + std::string(key); }

// A {value: int} map over an enum; values left out read 0 (the reference's .get(key, 0)).
template <class E, std::size_t N>
std::array<std::int32_t, N> int_map(nb::handle h, const Vocab<E, N>& vocab, const std::string& path) {
    std::array<std::int32_t, N> out{};
    for (auto [k, v] : as_dict(h, path)) {
        const E e = value_of(k, vocab, path + " key");
        out[static_cast<std::size_t>(e)] = i32(v, at(path, text(k, path)));
    }
    return out;
}

// A {value: enum value} map that must name every key of ``vocab`` exactly once.
template <class K, std::size_t N, class V, std::size_t M>
std::array<V, N> full_map(nb::handle h, const Vocab<K, N>& keys, const Vocab<V, M>& values,
                          const std::string& path) {
    std::array<V, N> out{};
    const nb::dict d = as_dict(h, path);
    if (d.size() != N) fail(path, "expected one entry per " + std::string(keys.name));
    for (auto [k, v] : d) {
        const K key = value_of(k, keys, path + " key");
        out[static_cast<std::size_t>(key)] = value_of(v, values, at(path, text(k, path)));
    }
    return out;
}

// A {face or total: value} map keyed by the integers lo..hi, every one exactly once.
template <class V, std::size_t M, std::size_t S>
void int_keyed(nb::handle h, int lo, int hi, const Vocab<V, M>& values, std::array<V, S>& out,
               const std::string& path) {
    const nb::dict d = as_dict(h, path);
    if (static_cast<int>(d.size()) != hi - lo + 1) {
        fail(path, "expected the keys " + std::to_string(lo) + ".." + std::to_string(hi));
    }
    for (auto [k, v] : d) {
        const std::int32_t key = i32(k, path + " key");
        if (key < lo || key > hi) fail(path, "expected the keys " + std::to_string(lo) + ".." + std::to_string(hi));
        out[static_cast<std::size_t>(key)] = value_of(v, values, at(path, std::to_string(key)));
    }
}

std::uint8_t conditions(nb::handle h, const std::string& path) {
    std::uint8_t mask = 0;
    const auto items = as_list(h, path);
    for (std::size_t i = 0; i < items.size(); ++i) {
        mask |= static_cast<std::uint8_t>(1U << static_cast<unsigned>(value_of(items[i], kRangedCondition, at(path, i))));
    }
    return mask;
}

std::optional<std::int32_t> opt_i32(nb::handle h, const std::string& path) {
    if (h.is_none()) return std::nullopt;
    return i32(h, path);
}

std::optional<ReactionResult> opt_result(nb::handle h, const std::string& path) {
    if (h.is_none()) return std::nullopt;
    return value_of(h, kReactionResult, path);
}

std::vector<RangedRow> ranged_rows(nb::handle h, const std::string& path) {
    std::vector<RangedRow> rows;
    const auto items = as_list(h, path);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string p = at(path, i);
        const auto f = as_list(items[i], p);
        if (f.size() != 6) fail(p, "expected (low, high, result, shooter_missed_if, target_missed_if, index)");
        RangedRow row;
        row.low = opt_i32(f[0], at(p, 0));
        row.high = opt_i32(f[1], at(p, 1));
        if (!f[2].is_none()) {
            const std::string_view r = text(f[2], at(p, 2));
            if (r != "hit" && r != "miss") fail(at(p, 2), "expected 'hit', 'miss' or None");
            row.hit = r == "hit";
        }
        row.shooter_missed_if = conditions(f[3], at(p, 3));
        row.target_missed_if = conditions(f[4], at(p, 4));
        row.target_index_at_least = opt_i32(f[5], at(p, 5));
        rows.push_back(row);
    }
    // load_ranged_combat: the rows tile every total
    if (rows.empty() || rows.front().low || rows.back().high) {
        fail(path, "first row must be open below (total_max), last open above");
    }
    for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
        if (!rows[i].high || !rows[i + 1].low || std::int64_t{*rows[i + 1].low} != std::int64_t{*rows[i].high} + 1) {
            fail(path, "gap or overlap between rows " + std::to_string(i) + " and " + std::to_string(i + 1));
        }
    }
    return rows;
}

std::array<DamageRow, kPassRows> damage_rows(nb::handle h, std::int32_t cap, std::string_view loss_name,
                                             const std::string& path) {
    std::array<DamageRow, kPassRows> out{};
    const nb::dict d = as_dict(h, path);
    const std::string rows = "expected the rows 0.." + std::to_string(cap) + " (dice passed)";
    if (static_cast<std::int64_t>(d.size()) != std::int64_t{cap} + 1) fail(path, rows);
    for (auto [k, v] : d) {
        const std::int32_t passed = i32(k, path + " key");
        if (passed < 0 || passed > cap) fail(path, rows);
        const std::string p = at(path, std::to_string(passed));
        const auto f = as_list(v, p);
        if (f.size() != 6) fail(p, "expected (passed, armor_loss, doubles, armor_le_0, duck_back, refight)");
        DamageRow row;
        row.passed = i32(f[0], at(p, 0));
        if (PyUnicode_Check(f[1].ptr())) {
            if (text(f[1], at(p, 1)) != loss_name) fail(at(p, 1), "expected '" + std::string(loss_name) + "' or an integer");
        } else {
            row.fixed_loss = i32(f[1], at(p, 1));
        }
        row.critical_on_doubles = boolean(f[2], at(p, 2));
        row.critical_on_armor_le_0 = boolean(f[3], at(p, 3));
        row.duck_back = boolean(f[4], at(p, 4));
        row.refight = boolean(f[5], at(p, 5));
        out[static_cast<std::size_t>(passed)] = row;
    }
    return out;
}

void read_cells(nb::handle h, CombatTables& t, const std::string& path) {
    const nb::dict d = as_dict(h, path);
    constexpr std::size_t rows = kFactions - 1;  // every faction but the ISS (data_combat.FACTION_ROWS)
    const auto cells = kReactionTests * rows * static_cast<std::size_t>(t.pass_cap + 1);
    if (d.size() != cells) fail(path, "expected a cell per test, faction row and dice passed");
    std::set<std::tuple<int, int, int>> seen;
    for (auto [k, v] : d) {
        const std::string p = path + "[" + short_repr(k) + "]";
        const auto key = as_list(k, p + " key");
        if (key.size() != 3) fail(p, "expected a key (test, faction, passed)");
        const ReactionTest test = value_of(key[0], kReactionTest, p);
        const Faction faction = value_of(key[1], kFaction, p);
        const std::int32_t passed = i32(key[2], p);
        if (faction == Faction::iss) fail(p, "the ISS reads the Star Army row");
        if (passed < 0 || passed > t.pass_cap) fail(p, "expected dice passed 0.." + std::to_string(t.pass_cap));
        seen.insert({static_cast<int>(test), static_cast<int>(faction), passed});
        const auto f = as_list(v, p);
        if (f.size() != 5) fail(p, "expected (otherwise, outgunned, in_range, if_damaged, rep_change)");
        ReactionCell cell;
        cell.otherwise = value_of(f[0], kReactionResult, at(p, 0));
        cell.outgunned = opt_result(f[1], at(p, 1));
        cell.in_range = opt_result(f[2], at(p, 2));
        cell.if_damaged = opt_result(f[3], at(p, 3));
        cell.rep_change = i32(f[4], at(p, 4));
        t.cells[static_cast<std::size_t>(test)][static_cast<std::size_t>(faction)][static_cast<std::size_t>(passed)] = cell;
    }
    if (seen.size() != cells) fail(path, "expected a cell per test, faction row and dice passed");
}

template <std::size_t N>
std::array<std::optional<ReactionResult>, N> result_map(nb::handle h, const std::string& path) {
    std::array<std::optional<ReactionResult>, N> out{};
    for (auto [k, v] : as_dict(h, path)) {
        const Attribute a = value_of(k, kAttribute, path + " key");
        out[static_cast<std::size_t>(a)] = value_of(v, kReactionResult, at(path, text(k, path)));
    }
    return out;
}

}  // namespace

CombatTables read_combat_tables(nb::handle spec) {
    const std::string root = "tables";
    const nb::dict d = as_dict(spec, root);
    for (auto [k, v] : d) {
        if (!PyUnicode_Check(k.ptr()) || !kKeys.count(std::string(text(k, root)))) {
            fail(root, "unknown key " + short_repr(k));
        }
    }
    for (const std::string& key : kKeys) {
        if (!d.contains(key.c_str())) fail(at(root, key), "missing");
    }
    const auto get = [&](const char* key) { return nb::handle(d[key]); };
    const auto path = [&](const char* key) { return at(root, key); };
    CombatTables t;
    t.pass_cap = i32(get("pass_cap"), path("pass_cap"));
    if (t.pass_cap < 0 || static_cast<std::size_t>(t.pass_cap) >= kPassRows) {
        fail(path("pass_cap"), "expected 0.." + std::to_string(kPassRows - 1) + " (the rows the core has room for)");
    }
    t.ranged_rows = ranged_rows(get("ranged_rows"), path("ranged_rows"));
    t.ranged_rep_modifiers = int_map(get("ranged_rep_modifiers"), kAttribute, path("ranged_rep_modifiers"));
    t.crack_shot_ignores = conditions(get("crack_shot_ignores"), path("crack_shot_ignores"));
    int_keyed(get("hit_location"), 2, 12, kLocation, t.hit_location, path("hit_location"));
    {
        const auto prefs = as_list(get("marksman_preference"), path("marksman_preference"));
        std::array<bool, kLocations> ranked{};
        if (prefs.size() != kLocations) fail(path("marksman_preference"), "must rank every location exactly once");
        for (std::size_t i = 0; i < prefs.size(); ++i) {
            const auto l = static_cast<std::size_t>(value_of(prefs[i], kLocation, at(path("marksman_preference"), i)));
            if (ranked[l]) fail(path("marksman_preference"), "must rank every location exactly once");
            ranked[l] = true;
            t.marksman_rank[l] = static_cast<std::uint8_t>(i);
        }
    }
    t.ranged_damage = damage_rows(get("ranged_damage"), t.pass_cap, "impact", path("ranged_damage"));
    t.critical_armor_le_0 = full_map(get("critical_armor_le_0"), kLocation, kCriticalKind, path("critical_armor_le_0"));
    t.critical_armor_ge_1 = full_map(get("critical_armor_ge_1"), kLocation, kCriticalKind, path("critical_armor_ge_1"));
    int_keyed(get("chest_roll"), 1, 6, kRemoval, t.chest_roll, path("chest_roll"));
    t.pilot_test_rep_modifiers = int_map(get("pilot_test_rep_modifiers"), kAttribute, path("pilot_test_rep_modifiers"));
    {
        const std::string p = path("outgunned_by");
        const nb::dict by = as_dict(get("outgunned_by"), p);
        if (by.size() != 5) fail(p, "expected the tester classes 1..5");
        for (auto [k, v] : by) {
            const std::int32_t tester = i32(k, p + " key");
            if (tester < 1 || tester > 5) fail(p, "expected the tester classes 1..5");
            const auto causes = as_list(v, at(p, std::to_string(tester)));
            for (std::size_t i = 0; i < causes.size(); ++i) {
                const std::int32_t cause = i32(causes[i], at(at(p, std::to_string(tester)), i));
                if (cause < 1 || cause > 5) fail(at(at(p, std::to_string(tester)), i), "expected a class 1..5");
                t.outgunned_by[static_cast<std::size_t>(tester)][static_cast<std::size_t>(cause)] = true;
            }
        }
    }
    {
        const auto never = as_list(get("never_outgunned"), path("never_outgunned"));
        for (std::size_t i = 0; i < never.size(); ++i) {
            t.never_outgunned[static_cast<std::size_t>(value_of(never[i], kAttribute, at(path("never_outgunned"), i)))] = true;
        }
    }
    t.in_sight_dice_per_rep = i32(get("in_sight_dice_per_rep"), path("in_sight_dice_per_rep"));
    {
        const std::string_view tie = text(get("in_sight_tie_winner"), path("in_sight_tie_winner"));
        if (tie != "moving" && tie != "non_moving") fail(path("in_sight_tie_winner"), "expected 'moving' or 'non_moving'");
        t.in_sight_tie_to_moving = tie == "moving";
    }
    t.in_sight_enemy_concealed_dice = i32(get("in_sight_enemy_concealed_dice"), path("in_sight_enemy_concealed_dice"));
    t.in_sight_race_dice = int_map(get("in_sight_race_dice"), kRace, path("in_sight_race_dice"));
    t.in_sight_attribute_dice = int_map(get("in_sight_attribute_dice"), kAttribute, path("in_sight_attribute_dice"));
    t.in_sight_bonus_successes = int_map(get("in_sight_bonus_successes"), kItemType, path("in_sight_bonus_successes"));
    t.reaction_dice = i32(get("reaction_dice"), path("reaction_dice"));
    t.per_weapon_out_of_action_rep = i32(get("per_weapon_out_of_action_rep"), path("per_weapon_out_of_action_rep"));
    t.twice_as_many_friendly_losses_rep =
        i32(get("twice_as_many_friendly_losses_rep"), path("twice_as_many_friendly_losses_rep"));
    t.in_cover_dice = int_map(get("in_cover_dice"), kReactionTest, path("in_cover_dice"));
    t.star_army_row_dice = int_map(get("star_army_row_dice"), kReactionTest, path("star_army_row_dice"));
    for (auto [k, v] : as_dict(get("fired_on_total_dice"), path("fired_on_total_dice"))) {
        const Attribute a = value_of(k, kAttribute, path("fired_on_total_dice") + " key");
        t.fired_on_total_dice[static_cast<std::size_t>(a)] = i32(v, at(path("fired_on_total_dice"), text(k, "")));
    }
    {
        const std::string p = path("severity");
        const auto order = as_list(get("severity"), p);
        std::array<bool, 3> ranked{};
        if (order.size() != 3) fail(p, "must rank carry_on, duck_back and leave_battlefield");
        for (std::size_t i = 0; i < order.size(); ++i) {
            const auto s = static_cast<std::size_t>(status_of(value_of(order[i], kReactionResult, at(p, i))));
            if (ranked[s]) fail(p, "must rank carry_on, duck_back and leave_battlefield");
            ranked[s] = true;
            t.severity_rank[s] = static_cast<std::uint8_t>(i);
        }
    }
    read_cells(get("cells"), t, path("cells"));
    t.duck_back_becomes = result_map<kAttributes>(get("duck_back_becomes"), path("duck_back_becomes"));
    t.fired_on_duck_back_becomes =
        result_map<kAttributes>(get("fired_on_duck_back_becomes"), path("fired_on_duck_back_becomes"));
    t.charge_dice_each = i32(get("charge_dice_each"), path("charge_dice_each"));
    t.charge_in_cover = i32(get("charge_in_cover"), path("charge_in_cover"));
    {
        const std::string p = path("charge_aspect");
        if (as_dict(get("charge_aspect"), p).size() != kAspects) fail(p, "expected one entry per Aspect");
        t.charge_aspect = int_map(get("charge_aspect"), kAspect, p);
    }
    {
        const std::string p = path("charge_results");
        const nb::dict r = as_dict(get("charge_results"), p);
        const char* keys[] = {"charger_passed_more", "target_passed_more", "same_number"};
        ChargeOutcome* slots[] = {&t.charger_passed_more, &t.target_passed_more, &t.same_number};
        if (r.size() != 3) fail(p, "expected charger_passed_more, target_passed_more and same_number");
        for (std::size_t i = 0; i < 3; ++i) {
            if (!r.contains(keys[i])) fail(at(p, keys[i]), "missing");
            *slots[i] = value_of(r[keys[i]], kChargeOutcome, at(p, keys[i]));
        }
    }
    t.melee_dice_per_rep = i32(get("melee_dice_per_rep"), path("melee_dice_per_rep"));
    t.one_hand_melee_weapon = i32(get("one_hand_melee_weapon"), path("one_hand_melee_weapon"));
    t.attacking_prone_opponent = i32(get("attacking_prone_opponent"), path("attacking_prone_opponent"));
    t.jump_attack = i32(get("jump_attack"), path("jump_attack"));
    t.leaving_battlefield = i32(get("leaving_battlefield"), path("leaving_battlefield"));
    t.melee_race = int_map(get("melee_race"), kRace, path("melee_race"));
    t.melee_attribute = int_map(get("melee_attribute"), kAttribute, path("melee_attribute"));
    t.jump_attack_column = value_of(get("jump_attack_column"), kMeleeAttack, path("jump_attack_column"));
    {
        const std::string p = path("melee_hit_location");
        const nb::dict faces = as_dict(get("melee_hit_location"), p);
        if (faces.size() != 6) fail(p, "expected the faces 1..6");
        for (auto [k, v] : faces) {
            const std::int32_t face = i32(k, p + " key");
            if (face < 1 || face > 6) fail(p, "expected the faces 1..6");
            t.melee_hit_location[static_cast<std::size_t>(face)] =
                full_map(v, kMeleeAttack, kLocation, at(p, std::to_string(face)));
        }
    }
    t.melee_damage = damage_rows(get("melee_damage"), t.pass_cap, "attacking_limb", path("melee_damage"));
    return t;
}

}  // namespace wargym::no_quarter
