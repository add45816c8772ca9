// rules/no_quarter/battle/actions.py: the actions' names, hash, str() and plain-JSON form.
#include "actions.hpp"

#include <bit>
#include <cstdio>
#include <type_traits>

#include "actions_read.hpp"

namespace wargym::no_quarter {

namespace {

template <class... F>
struct Overload : F... {
    using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

// -- hashing --------------------------------------------------------------------------------
struct Hasher {
    std::size_t h;
    void add(std::uint64_t v) {  // splitmix64's finaliser over the running value
        std::uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        h = static_cast<std::size_t>(z ^ (z >> 31));
    }
    void add(std::int64_t v) { add(static_cast<std::uint64_t>(v)); }
    void add(bool v) { add(static_cast<std::uint64_t>(v)); }
    void add(double d) { add(d == 0.0 ? std::uint64_t{0} : std::bit_cast<std::uint64_t>(d)); }
    void add(Point p) { add(p.x); add(p.y); }
    void add(const std::string& s) { add(static_cast<std::uint64_t>(std::hash<std::string>{}(s))); }
    template <class E>
        requires std::is_enum_v<E>
    void add(E e) { add(static_cast<std::uint64_t>(e)); }
    template <class T>
    void add(const std::optional<T>& o) {
        add(o.has_value());
        if (o) add(*o);
    }
};

// -- str() ------------------------------------------------------------------------------------
std::string fmt(const char* format, double value) {
    char buffer[64];
    const int n = std::snprintf(buffer, sizeof buffer, format, value);
    return n > 0 && static_cast<std::size_t>(n) < sizeof buffer ? std::string(buffer, static_cast<std::size_t>(n)) : std::string("?");
}
std::string num(std::int64_t v) { return std::to_string(v); }
std::string point_text(Point p) { return "(" + fmt("%.1f", p.x) + ", " + fmt("%.1f", p.y) + ")"; }
std::string value(MeleeAttack a) { return std::string(kMeleeAttack[a]); }
std::string value(Location l) { return std::string(kLocation[l]); }
std::string mech(std::int64_t m) { return "mech " + num(m); }

// -- plain JSON -------------------------------------------------------------------------------
using Fields = Json::Object;
Json j(std::int64_t v) { return Json::integer(v); }
Json j(bool v) { return Json::boolean(v); }
Json j(double v) { return Json::real(v); }
Json j(const std::string& v) { return Json::string(v); }
Json j(Point p) { return Json::array({Json::real(p.x), Json::real(p.y)}); }
Json j(MeleeAttack a) { return Json::string(value(a)); }
Json j(Location l) { return Json::string(value(l)); }
template <class T>
Json j(const std::optional<T>& o) { return o ? j(*o) : Json(); }

// The serial.hpp Json source of action_read.hpp.
struct JsonSource {
    using V = const Json*;
    static V absent() { return nullptr; }
    static bool is_absent(V v) { return v == nullptr; }
    static bool is_null(V v) { return v->kind() == Json::Kind::null; }
    static bool is_bool(V v) { return v->kind() == Json::Kind::boolean; }
    static bool is_int(V v) { return v->kind() == Json::Kind::integer; }
    static bool is_float(V v) { return v->kind() == Json::Kind::real; }
    static bool is_str(V v) { return v->kind() == Json::Kind::string; }
    static bool is_list(V v) { return v->kind() == Json::Kind::array; }
    static bool is_object(V v) { return v->kind() == Json::Kind::object; }
    static bool bool_value(V v) { return v->as_bool(); }
    static std::optional<std::int64_t> int_value(V v) { return v->as_int(); }
    static std::optional<double> number(V v) {
        return is_int(v) ? static_cast<double>(v->as_int()) : v->as_real();
    }
    static std::string str_value(V v) { return v->as_string(); }
    static std::optional<std::string> vocab_text(V v) {
        return is_str(v) ? std::optional<std::string>(v->as_string()) : std::nullopt;
    }
    static std::size_t list_size(V v) { return v->as_array().size(); }
    static V list_item(V v, std::size_t i) { return &v->as_array()[i]; }
    static V get(V v, const char* key) {
        for (const auto& [k, item] : v->as_object()) {
            if (k == key) return &item;
        }
        return nullptr;
    }
    static std::vector<std::string> keys(V v) {
        std::vector<std::string> out;
        for (const auto& kv : v->as_object()) out.push_back(kv.first);
        return out;
    }
    static std::string repr(V v) {  // a short Python-like repr for messages
        switch (v->kind()) {
            case Json::Kind::null: return "None";
            case Json::Kind::boolean: return v->as_bool() ? "True" : "False";
            case Json::Kind::integer: return std::to_string(v->as_int());
            case Json::Kind::real: return fmt("%.17g", v->as_real());
            case Json::Kind::string: return "'" + v->as_string().substr(0, 78) + "'";
            case Json::Kind::array: return "[...]";
            case Json::Kind::object: return "{...}";
        }
        return "?";
    }
};

}  // namespace

std::optional<std::size_t> action_index(std::string_view name) {
    for (std::size_t i = 0; i < kActionTypes; ++i) {
        if (kActionNames[i] == name) return i;
    }
    return std::nullopt;
}

std::optional<std::int64_t> action_mech(const Action& a) {
    return std::visit(
        [](const auto& x) -> std::optional<std::int64_t> {
            if constexpr (requires { x.mech; }) {
                return x.mech;
            } else {
                return std::nullopt;
            }
        },
        a);
}

std::size_t action_hash(const Action& a) {
    Hasher h{a.index()};
    std::visit(Overload{
                   [&](const ActivateGroup& x) { h.add(x.leader); },
                   [&](const SkipGroup& x) { h.add(x.leader); },
                   [&](const Move& x) { h.add(x.mech); h.add(x.to); h.add(x.reverse); h.add(x.jump); },
                   [&](const Stay& x) { h.add(x.mech); h.add(x.heading); },
                   [&](const Charge& x) { h.add(x.mech); h.add(x.target); },
                   [&](const AssignFire& x) { h.add(x.mech); h.add(x.weapon); h.add(x.target); },
                   [&](const FreeMove& x) { h.add(x.mech); h.add(x.to); },
                   [&](const FreeWill& x) { h.add(x.mech); h.add(x.passed); },
                   [&](const DeclareMelee& x) { h.add(x.mech); h.add(x.attack); h.add(x.limb); },
                   [&](const FightMech& x) { h.add(x.mech); h.add(x.target); },
                   [&](const FireAtBuilding& x) { h.add(x.mech); h.add(x.weapon); h.add(x.feature); },
                   [&](const AttackBuilding& x) {
                       h.add(x.mech); h.add(x.feature); h.add(x.attack); h.add(x.limb);
                   },
                   [&](const ExitTable& x) { h.add(x.mech); h.add(x.edge); },
                   [&](const ChooseObjective& x) { h.add(x.objective); },
                   [&](const Face& x) { h.add(x.mech); h.add(x.heading); h.add(x.twist); },
                   [&](const LuckyChoice& x) { h.add(x.mech); h.add(x.reroll); },
                   [&](const ChooseLocation& x) { h.add(x.mech); h.add(x.location); },
                   [&](const LeadTeam& x) { h.add(x.mech); h.add(x.group); },
                   [&](const KeepGroups&) {},
                   [&](const auto& x) { h.add(x.mech); },  // ChooseMech, FireFirst, EndFire, LeadDone, SplitOff
               },
               a);
    return h.h;
}

// Each dataclass's __str__ in actions.py.
std::string describe(const Action& a) {
    return std::visit(
        Overload{
            [](const ActivateGroup& x) { return "activate the group of mech " + num(x.leader); },
            [](const SkipGroup& x) { return "do not activate the group of mech " + num(x.leader); },
            [](const ChooseMech& x) { return mech(x.mech) + " acts"; },
            [](const Move& x) {
                const char* how = x.reverse ? "reverses" : (x.jump ? "jumps" : "moves");
                return mech(x.mech) + " " + how + " to " + point_text(x.to);
            },
            [](const Stay& x) {
                const std::string turn = x.heading ? ", facing " + fmt("%.0f", *x.heading) + " deg" : "";
                return mech(x.mech) + " stays in place" + turn;
            },
            [](const FireFirst& x) { return mech(x.mech) + " fires before acting"; },
            [](const Charge& x) { return mech(x.mech) + " charges mech " + num(x.target); },
            [](const AssignFire& x) {
                return mech(x.mech) + " fires weapon " + num(x.weapon) + " at mech " + num(x.target);
            },
            [](const EndFire& x) { return mech(x.mech) + " holds its remaining weapons"; },
            [](const FreeMove& x) {
                if (!x.to) return mech(x.mech) + " holds position";
                return mech(x.mech) + " takes its free move to " + point_text(*x.to);
            },
            [](const FreeWill& x) {
                return "Star in mech " + num(x.mech) + " chooses to pass " + num(x.passed) + "d6";
            },
            [](const DeclareMelee& x) {
                return mech(x.mech) + " will " + value(x.attack) + " with " + value(x.limb);
            },
            [](const FightMech& x) { return mech(x.mech) + " fights mech " + num(x.target); },
            [](const FireAtBuilding& x) {
                return mech(x.mech) + " fires weapon " + num(x.weapon) + " at building " + num(x.feature);
            },
            [](const AttackBuilding& x) {
                return mech(x.mech) + " " + value(x.attack) + "s building " + num(x.feature) + " with " +
                       value(x.limb);
            },
            [](const ExitTable& x) { return mech(x.mech) + " leaves the table across the " + x.edge + " edge"; },
            [](const ChooseObjective& x) {
                std::string words = x.objective;
                for (char& c : words) {
                    if (c == '_') c = ' ';
                }
                return "the objective is to " + words;
            },
            [](const Face& x) {
                const std::string turn = x.heading ? "faces " + fmt("%.0f", *x.heading) + " deg" : "keeps its heading";
                const std::string torso =
                    x.twist == 0 ? "" : ", torso twisted " + std::string(x.twist > 0 ? "+" : "") + num(x.twist) + " deg";
                return mech(x.mech) + " " + turn + torso;
            },
            [](const LuckyChoice& x) {
                if (x.reroll) return "the pilot of mech " + num(x.mech) + " uses his luck: re-roll";
                return "the pilot of mech " + num(x.mech) + " keeps the roll";
            },
            [](const ChooseLocation& x) {
                return "the Marksman in mech " + num(x.mech) + " hits the " + value(x.location);
            },
            [](const LeadTeam& x) {
                return mech(x.mech) + " takes the group of mech " + num(x.group) + " under his command";
            },
            [](const LeadDone& x) { return mech(x.mech) + " takes no more groups"; },
            [](const SplitOff& x) { return mech(x.mech) + " splits off its group"; },
            [](const KeepGroups&) { return std::string("keep the groups as they are"); },
        },
        a);
}

// action_to_dict: {"type": name, **to_jsonable(action)} (fields in dataclass order).
Json action_to_json(const Action& a) {
    Fields f{{"type", Json::string(std::string(action_type(a)))}};
    auto put = [&](const char* key, Json v) { f.emplace_back(key, std::move(v)); };
    std::visit(Overload{
                   [&](const ActivateGroup& x) { put("leader", j(x.leader)); },
                   [&](const SkipGroup& x) { put("leader", j(x.leader)); },
                   [&](const Move& x) {
                       put("mech", j(x.mech)); put("to", j(x.to));
                       put("reverse", j(x.reverse)); put("jump", j(x.jump));
                   },
                   [&](const Stay& x) { put("mech", j(x.mech)); put("heading", j(x.heading)); },
                   [&](const Charge& x) { put("mech", j(x.mech)); put("target", j(x.target)); },
                   [&](const AssignFire& x) {
                       put("mech", j(x.mech)); put("weapon", j(x.weapon)); put("target", j(x.target));
                   },
                   [&](const FreeMove& x) { put("mech", j(x.mech)); put("to", j(x.to)); },
                   [&](const FreeWill& x) { put("mech", j(x.mech)); put("passed", j(x.passed)); },
                   [&](const DeclareMelee& x) {
                       put("mech", j(x.mech)); put("attack", j(x.attack)); put("limb", j(x.limb));
                   },
                   [&](const FightMech& x) { put("mech", j(x.mech)); put("target", j(x.target)); },
                   [&](const FireAtBuilding& x) {
                       put("mech", j(x.mech)); put("weapon", j(x.weapon)); put("feature", j(x.feature));
                   },
                   [&](const AttackBuilding& x) {
                       put("mech", j(x.mech)); put("feature", j(x.feature));
                       put("attack", j(x.attack)); put("limb", j(x.limb));
                   },
                   [&](const ExitTable& x) { put("mech", j(x.mech)); put("edge", j(x.edge)); },
                   [&](const ChooseObjective& x) { put("objective", j(x.objective)); },
                   [&](const Face& x) {
                       put("mech", j(x.mech)); put("heading", j(x.heading)); put("twist", j(x.twist));
                   },
                   [&](const LuckyChoice& x) { put("mech", j(x.mech)); put("reroll", j(x.reroll)); },
                   [&](const ChooseLocation& x) { put("mech", j(x.mech)); put("location", j(x.location)); },
                   [&](const LeadTeam& x) { put("mech", j(x.mech)); put("group", j(x.group)); },
                   [&](const KeepGroups&) {},
                   [&](const auto& x) { put("mech", j(x.mech)); },
               },
               a);
    return Json::object(std::move(f));
}

Action action_from_json(const Json& data, const std::string& where) {
    return action_read::read_action<JsonSource>(&data, where);
}

}  // namespace wargym::no_quarter
