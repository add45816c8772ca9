// Internal: actions.action_from_dict over any plain-data source (actions.cpp reads serial.hpp's
// Json, actions_bindings.cpp Python objects). One template, so both readers refuse the same
// input with the same messages. A source is described by a traits struct S with:
//   using V = <value handle>;  is_null, is_bool, is_int, is_float, is_str, is_list, is_object (V)
//   bool_value(V); std::optional<int64_t> int_value(V) (none: beyond int64);
//   std::optional<double> number(V) (an int or float as a double; none: too large);
//   std::string str_value(V); size_t list_size(V); V list_item(V, i);
//   V get(V object, const char* key) (S::absent() when missing); bool is_absent(V);
//   std::vector<std::string> keys(V object); std::string repr(V) (short_repr);
//   std::optional<std::string> vocab_text(V) (the text an enum field is read from, if any).
// Python's from_jsonable is mirrored: an int is accepted for a float field, a bool is never an
// int, a point must be a list of two numbers, unknown fields are refused before missing ones.
// Beyond the reference, for safety: ints must fit in int64 and floats must be finite.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../errors.hpp"
#include "actions.hpp"

namespace wargym::no_quarter::action_read {

template <class S>
struct Reader {
    using V = typename S::V;
    V obj;
    std::string where;  // the action's path ("action")
    std::string type;   // the class name

    std::string at(const char* field) const { return where + "." + field; }

    [[noreturn]] void missing(const char* field) const {
        throw ArgumentError(where, std::string("missing field '") + field + "' of " + type);
    }
    V field(const char* name) const {
        V v = S::get(obj, name);
        if (S::is_absent(v)) missing(name);
        return v;
    }
    static std::int64_t to_int(V v, const std::string& path) {
        if (!S::is_int(v) || S::is_bool(v)) {
            throw ArgumentTypeError(path, "expected int, got " + S::repr(v));
        }
        const auto value = S::int_value(v);
        if (!value) throw ArgumentError(path, "expected an integer in the int64 range, got " + S::repr(v));
        return *value;
    }
    static double to_float(V v, const std::string& path) {
        if (S::is_bool(v) || !(S::is_int(v) || S::is_float(v))) {
            throw ArgumentTypeError(path, "expected a number, got " + S::repr(v));
        }
        const auto value = S::number(v);
        if (!value) throw ArgumentError(path, S::repr(v) + " is too large for a number");
        if (!std::isfinite(*value)) throw ArgumentError(path, "expected a finite number, got " + S::repr(v));
        return *value;
    }
    std::int64_t integer(const char* name) const { return to_int(field(name), at(name)); }
    std::int64_t integer_or(const char* name, std::int64_t fallback) const {
        V v = S::get(obj, name);
        return S::is_absent(v) ? fallback : to_int(v, at(name));
    }
    bool boolean_at(V v, const std::string& path) const {
        if (!S::is_bool(v)) throw ArgumentTypeError(path, "expected bool, got " + S::repr(v));
        return S::bool_value(v);
    }
    bool boolean(const char* name) const { return boolean_at(field(name), at(name)); }
    bool boolean_or(const char* name, bool fallback) const {
        V v = S::get(obj, name);
        return S::is_absent(v) ? fallback : boolean_at(v, at(name));
    }
    std::string text(const char* name) const {
        V v = field(name);
        if (!S::is_str(v)) throw ArgumentTypeError(at(name), "expected str, got " + S::repr(v));
        return S::str_value(v);
    }
    std::optional<double> maybe_float(V v, const char* name) const {
        if (S::is_null(v)) return std::nullopt;
        return to_float(v, at(name));
    }
    Point point_at(V v, const std::string& path) const {
        if (!S::is_list(v)) throw ArgumentTypeError(path, "expected a list, got " + S::repr(v));
        if (S::list_size(v) != 2) {
            throw ArgumentError(path, "expected 2 items, got " + std::to_string(S::list_size(v)));
        }
        return {to_float(S::list_item(v, 0), path + "[0]"), to_float(S::list_item(v, 1), path + "[1]")};
    }
    template <class E, std::size_t N>
    E vocab(const char* name, const Vocab<E, N>& vocab) const {
        V v = field(name);
        if (const auto text = S::vocab_text(v)) {
            if (auto e = vocab.find(*text)) return *e;
        }
        throw ArgumentError(at(name), S::repr(v) + " is not a valid " + vocab.name);
    }
    // from_jsonable's unknown-field check (sorted names), before any field is read.
    void only(std::initializer_list<const char*> fields) const {
        std::vector<std::string> unknown;
        for (const std::string& k : S::keys(obj)) {
            if (k == "type") continue;
            if (std::none_of(fields.begin(), fields.end(), [&](const char* f) { return k == f; })) {
                unknown.push_back(k);
            }
        }
        if (unknown.empty()) return;
        std::sort(unknown.begin(), unknown.end());
        std::string list = "[";
        for (std::size_t i = 0; i < unknown.size(); ++i) {
            list += (i ? ", '" : "'") + unknown[i] + "'";
        }
        throw ArgumentError(where, "unknown fields " + list + "] for " + type);
    }
};

template <class S>
Action read_fields(std::size_t index, typename S::V data, const std::string& where);

// actions.action_from_dict.
template <class S>
Action read_action(typename S::V data, const std::string& where) {
    if (!S::is_object(data) || S::is_absent(S::get(data, "type"))) {
        throw ArgumentError(where, "an action must be an object with a 'type' key, got " + S::repr(data));
    }
    typename S::V name = S::get(data, "type");
    std::optional<std::size_t> index;
    if (S::is_str(name)) index = action_index(S::str_value(name));
    if (!index) {
        std::vector<std::string_view> known(std::begin(kActionNames), std::end(kActionNames));
        std::sort(known.begin(), known.end());
        std::string list = "[";
        for (std::size_t i = 0; i < known.size(); ++i) list += (i ? ", '" : "'") + std::string(known[i]) + "'";
        throw ArgumentError(where + ".type", "unknown action type " + S::repr(name) + "; known: " + list + "]");
    }
    return read_fields<S>(*index, data, where);
}

// The fields of the action class kActionNames[index] from `data` (an object of S), in the
// dataclass's field order (the first bad field is the one named).
template <class S>
Action read_fields(std::size_t index, typename S::V data, const std::string& where) {
    const Reader<S> r{data, where, std::string(kActionNames[index])};
    switch (index) {
        case 0: r.only({"leader"}); return ActivateGroup{r.integer("leader")};
        case 1: r.only({"leader"}); return SkipGroup{r.integer("leader")};
        case 2: r.only({"mech"}); return ChooseMech{r.integer("mech")};
        case 3: {
            r.only({"mech", "to", "reverse", "jump"});
            Move m;
            m.mech = r.integer("mech");
            m.to = r.point_at(r.field("to"), r.at("to"));
            m.reverse = r.boolean_or("reverse", false);
            m.jump = r.boolean_or("jump", false);
            return m;
        }
        case 4: {
            r.only({"mech", "heading"});
            Stay s{r.integer("mech"), std::nullopt};
            auto v = S::get(data, "heading");
            if (!S::is_absent(v)) s.heading = r.maybe_float(v, "heading");
            return s;
        }
        case 5: r.only({"mech"}); return FireFirst{r.integer("mech")};
        case 6: {
            r.only({"mech", "target"});
            const auto mech = r.integer("mech");
            return Charge{mech, r.integer("target")};
        }
        case 7: {
            r.only({"mech", "weapon", "target"});
            const auto mech = r.integer("mech");
            const auto weapon = r.integer("weapon");
            return AssignFire{mech, weapon, r.integer("target")};
        }
        case 8: r.only({"mech"}); return EndFire{r.integer("mech")};
        case 9: {
            r.only({"mech", "to"});
            FreeMove f{r.integer("mech"), std::nullopt};
            auto v = r.field("to");
            if (!S::is_null(v)) f.to = r.point_at(v, r.at("to"));
            return f;
        }
        case 10: {
            r.only({"mech", "passed"});
            const auto mech = r.integer("mech");
            return FreeWill{mech, r.integer("passed")};
        }
        case 11: {
            r.only({"mech", "attack", "limb"});
            const auto mech = r.integer("mech");
            const auto attack = r.vocab("attack", kMeleeAttack);
            return DeclareMelee{mech, attack, r.vocab("limb", kLocation)};
        }
        case 12: {
            r.only({"mech", "target"});
            const auto mech = r.integer("mech");
            return FightMech{mech, r.integer("target")};
        }
        case 13: {
            r.only({"mech", "weapon", "feature"});
            const auto mech = r.integer("mech");
            const auto weapon = r.integer("weapon");
            return FireAtBuilding{mech, weapon, r.integer("feature")};
        }
        case 14: {
            r.only({"mech", "feature", "attack", "limb"});
            const auto mech = r.integer("mech");
            const auto feature = r.integer("feature");
            const auto attack = r.vocab("attack", kMeleeAttack);
            return AttackBuilding{mech, feature, attack, r.vocab("limb", kLocation)};
        }
        case 15: {
            r.only({"mech", "edge"});
            const auto mech = r.integer("mech");
            return ExitTable{mech, r.text("edge")};
        }
        case 16: r.only({"objective"}); return ChooseObjective{r.text("objective")};
        case 17: {
            r.only({"mech", "heading", "twist"});
            Face f;
            f.mech = r.integer("mech");
            f.heading = r.maybe_float(r.field("heading"), "heading");
            f.twist = r.integer_or("twist", 0);
            return f;
        }
        case 18: {
            r.only({"mech", "reroll"});
            const auto mech = r.integer("mech");
            return LuckyChoice{mech, r.boolean("reroll")};
        }
        case 19: {
            r.only({"mech", "location"});
            const auto mech = r.integer("mech");
            return ChooseLocation{mech, r.vocab("location", kLocation)};
        }
        case 20: {
            r.only({"mech", "group"});
            const auto mech = r.integer("mech");
            return LeadTeam{mech, r.integer("group")};
        }
        case 21: r.only({"mech"}); return LeadDone{r.integer("mech")};
        case 22: r.only({"mech"}); return SplitOff{r.integer("mech")};
        default: r.only({}); return KeepGroups{};
    }
}

}  // namespace wargym::no_quarter::action_read
