// Bindings of the NP procedure (enemy.hpp, enemy_decide.hpp) in _core.no_quarter.enemy:
// NpTables (np_tactics.yaml and the reference's literals, built by the glue
// wargym.native.no_quarter.enemy.np_tables), NpContext with to_dict / from_dict in the
// reference's JSON (NpContext.to_dict(): rules/serial.py's to_jsonable form), np_decide,
// roll_group and known_enemies. Bad input raises NativeTypeError / NativeArgumentError naming the
// argument (a context field by its path, "context.groups.3.posture"); a call that fails leaves
// the context and the dice as they were. native/bindings.cpp calls bind_enemy().
#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "../../dice.hpp"
#include "../../dice_bindings.hpp"
#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "../battle/actions_bindings.hpp"
#include "../battle/state.hpp"
#include "../forces/data.hpp"
#include "../sight_movement/perception.hpp"
#include "enemy.hpp"
#include "enemy_decide.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

// -- reading Python values by path --------------------------------------------------------------
std::int64_t np_int(nb::handle h, const std::string& path) {
    if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) wrong_type(path, "int", h);
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow != 0) throw ArgumentError(path, path + ": " + short_repr(h) + " does not fit in 64 bits");
    return v;
}

bool np_bool(nb::handle h, const std::string& path) {
    if (!PyBool_Check(h.ptr())) wrong_type(path, "bool", h);
    return h.ptr() == Py_True;
}

double np_real(nb::handle h, const std::string& path) {
    if (PyBool_Check(h.ptr()) || !(PyLong_Check(h.ptr()) || PyFloat_Check(h.ptr()))) wrong_type(path, "a number", h);
    const double v = PyFloat_AsDouble(h.ptr());
    if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw ArgumentError(path, path + ": " + short_repr(h) + " is too large for a number");
    }
    if (!std::isfinite(v)) throw ArgumentError(path, path + ": must be finite, got " + short_repr(h));
    return v;
}

std::string np_str(nb::handle h, const std::string& path) {
    if (!PyUnicode_Check(h.ptr())) wrong_type(path, "str", h);
    Py_ssize_t size = 0;
    const char* text = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
    if (text == nullptr) {
        PyErr_Clear();
        throw ArgumentError(path, path + ": not valid text");
    }
    return {text, static_cast<std::size_t>(size)};
}

template <class E, std::size_t N>
E np_choice(nb::handle h, const std::string& path, const Vocab<E, N>& vocab) {
    if (!PyUnicode_Check(h.ptr())) wrong_type(path, "str", h);
    const std::optional<E> found = vocab.find(np_str(h, path));
    if (!found) {
        std::string all;
        for (const auto v : vocab.values) all += (all.empty() ? "" : ", ") + std::string(v);
        throw ArgumentError(path, path + ": " + short_repr(h) + " is not one of " + all);
    }
    return *found;
}

std::string np_edge(nb::handle h, const std::string& path) {
    std::string edge = np_str(h, path);
    if (!kNpEdge.find(edge)) {
        throw ArgumentError(path, path + ": " + short_repr(h) + " is not north, south, east or west");
    }
    return edge;
}

nb::list np_list(nb::handle h, const std::string& path) {
    if (!PyList_Check(h.ptr())) wrong_type(path, "a list", h);
    return nb::borrow<nb::list>(h);
}

// A dataclass's object: a dict with only ``fields`` (each optional unless ``required``).
nb::dict np_object(nb::handle h, const std::string& path, const char* what,
                   std::initializer_list<const char*> fields) {
    if (!PyDict_Check(h.ptr())) wrong_type(path, what, h);
    nb::dict d = nb::borrow<nb::dict>(h);
    std::set<std::string> unknown;
    for (auto [k, v] : d) {
        (void)v;
        bool known = false;
        if (PyUnicode_Check(k.ptr())) {
            const char* key = PyUnicode_AsUTF8(k.ptr());
            if (key == nullptr) PyErr_Clear();
            for (const char* f : fields) known = known || (key != nullptr && std::string(key) == f);
        }
        if (!known) unknown.insert(short_repr(k));
    }
    if (!unknown.empty()) {
        std::string all;
        for (const auto& u : unknown) all += (all.empty() ? "" : ", ") + u;
        throw ArgumentError(path, path + ": unknown fields " + all + " for " + what);
    }
    return d;
}

nb::handle np_field(const nb::dict& d, const char* key, const std::string& path, bool required) {
    PyObject* v = PyDict_GetItemString(d.ptr(), key);
    if (v == nullptr && required) throw ArgumentError(path, path + ": missing field '" + key + "'");
    return v;
}

std::vector<std::int64_t> np_ints(nb::handle h, const std::string& path) {
    std::vector<std::int64_t> out;
    std::size_t i = 0;
    for (nb::handle v : np_list(h, path)) out.push_back(np_int(v, path + "[" + std::to_string(i++) + "]"));
    return out;
}

std::optional<std::int64_t> np_opt_int(nb::handle h, const std::string& path) {
    if (h.is_none()) return std::nullopt;
    return np_int(h, path);
}

NpGroupState group_state_from(nb::handle h, const std::string& path) {
    const nb::dict d = np_object(h, path, "NpGroupState",
                                 {"posture", "objective", "own_edge", "exit_edge", "exit_sections", "after_beaten",
                                  "target", "order", "activation"});
    NpGroupState s;
    if (nb::handle v = np_field(d, "posture", path, false)) s.posture = np_choice(v, path + ".posture", kNpPosture);
    if (nb::handle v = np_field(d, "objective", path, false)) s.objective = np_choice(v, path + ".objective", kNpObjective);
    if (nb::handle v = np_field(d, "own_edge", path, false)) s.own_edge = np_edge(v, path + ".own_edge");
    if (nb::handle v = np_field(d, "exit_edge", path, false)) s.exit_edge = np_edge(v, path + ".exit_edge");
    if (nb::handle v = np_field(d, "exit_sections", path, false)) {
        s.exit_sections = np_ints(v, path + ".exit_sections");
        for (std::size_t i = 0; i < s.exit_sections.size(); ++i) {
            if (s.exit_sections[i] < 1 || s.exit_sections[i] > 9) {
                const std::string at = path + ".exit_sections[" + std::to_string(i) + "]";
                throw ArgumentError(at, at + ": " + std::to_string(s.exit_sections[i]) + " is not a section number 1-9");
            }
        }
    }
    if (nb::handle v = np_field(d, "after_beaten", path, false)) s.after_beaten = np_choice(v, path + ".after_beaten", kAfterBeaten);
    if (nb::handle v = np_field(d, "target", path, false)) s.target = np_opt_int(v, path + ".target");
    if (nb::handle v = np_field(d, "order", path, false)) s.order = np_choice(v, path + ".order", kMoveOrder);
    if (nb::handle v = np_field(d, "activation", path, false); v && !v.is_none()) {
        const std::vector<std::int64_t> pair = np_ints(v, path + ".activation");
        if (pair.size() != 2) {
            throw ArgumentError(path + ".activation", path + ".activation: expected 2 items, got " + std::to_string(pair.size()));
        }
        s.activation = std::array<std::int64_t, 2>{pair[0], pair[1]};
    }
    return s;
}

NpOptions np_options_from(nb::handle h, const std::string& path) {
    const nb::dict d = np_object(h, path, "NpOptions", {"awareness", "beaten_away_uses_range", "unseen_defender"});
    NpOptions o;
    if (nb::handle v = np_field(d, "awareness", path, false)) o.awareness = np_choice(v, path + ".awareness", kNpAwareness);
    if (nb::handle v = np_field(d, "beaten_away_uses_range", path, false)) {
        o.beaten_away_uses_range = np_bool(v, path + ".beaten_away_uses_range");
    }
    if (nb::handle v = np_field(d, "unseen_defender", path, false)) {
        o.unseen_defender = np_choice(v, path + ".unseen_defender", kNpUnseenDefender);
    }
    return o;
}

NpActivation activation_from(nb::handle h, const std::string& path) {
    const nb::dict d =
        np_object(h, path, "NpActivation", {"team", "leader", "posture", "beaten_away", "pursuit", "move"});
    NpActivation a;
    a.team = np_int(np_field(d, "team", path, true), path + ".team");
    a.leader = np_int(np_field(d, "leader", path, true), path + ".leader");
    a.posture = np_choice(np_field(d, "posture", path, true), path + ".posture", kNpPosture);
    a.beaten_away = np_bool(np_field(d, "beaten_away", path, true), path + ".beaten_away");
    if (nb::handle p = np_field(d, "pursuit", path, true); !p.is_none()) {
        const std::string at = path + ".pursuit";
        const nb::dict r = np_object(p, at, "PursuitRoll", {"faces", "passes", "target"});
        PursuitRoll roll;
        roll.faces = np_ints(np_field(r, "faces", at, true), at + ".faces");
        roll.passes = np_int(np_field(r, "passes", at, true), at + ".passes");
        roll.target = np_opt_int(np_field(r, "target", at, true), at + ".target");
        a.pursuit = std::move(roll);
    }
    if (nb::handle m = np_field(d, "move", path, true); !m.is_none()) {
        const std::string at = path + ".move";
        const nb::dict r = np_object(m, at, "MoveRoll", {"table", "faces", "passes", "order"});
        MoveRoll roll;
        roll.table = np_choice(np_field(r, "table", at, true), at + ".table", kNpMoveTable);
        roll.faces = np_ints(np_field(r, "faces", at, true), at + ".faces");
        roll.passes = np_int(np_field(r, "passes", at, true), at + ".passes");
        roll.order = np_choice(np_field(r, "order", at, true), at + ".order", kMoveOrder);
        a.move = std::move(roll);
    }
    return a;
}

// int(key), as from_jsonable reads a dict[int, ...] key (a str "3" or an int).
std::int64_t np_team_key(nb::handle key, const std::string& path) {
    PyObject* as_int = PyNumber_Long(key.ptr());
    if (as_int == nullptr) {
        PyErr_Clear();
        throw ArgumentError(path, path + ": key " + short_repr(key) + " is not an integer");
    }
    nb::object owned = nb::steal(as_int);
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(as_int, &overflow);
    if (overflow != 0) throw ArgumentError(path, path + ": key " + short_repr(key) + " does not fit in 64 bits");
    return v;
}

NpContext context_from(nb::handle h, const std::string& path) {
    const nb::dict d = np_object(h, path, "an NpContext dict (NpContext.to_dict())", {"groups", "default", "rolls", "options"});
    NpContext c;
    if (nb::handle g = np_field(d, "groups", path, false)) {
        const std::string at = path + ".groups";
        if (!PyDict_Check(g.ptr())) wrong_type(at, "an object", g);
        for (auto [k, v] : nb::borrow<nb::dict>(g)) {
            const std::int64_t team = np_team_key(k, at);
            const std::string key = PyUnicode_Check(k.ptr()) ? np_str(k, at) : std::to_string(team);
            c.set_state(team, group_state_from(v, at + "." + key));
        }
    }
    if (nb::handle v = np_field(d, "default", path, false)) c.fallback = group_state_from(v, path + ".default");
    if (nb::handle r = np_field(d, "rolls", path, false)) {
        std::size_t i = 0;
        for (nb::handle v : np_list(r, path + ".rolls")) {
            c.rolls.push_back(activation_from(v, path + ".rolls[" + std::to_string(i++) + "]"));
        }
    }
    if (nb::handle v = np_field(d, "options", path, false)) c.options = np_options_from(v, path + ".options");
    return c;
}

// -- writing the reference's JSON ---------------------------------------------------------------
template <class E, std::size_t N>
nb::str np_name(const Vocab<E, N>& vocab, E e) {
    const std::string_view v = vocab[e];
    return nb::str(v.data(), v.size());
}

nb::list np_int_list(const std::vector<std::int64_t>& values) {
    nb::list out;
    for (const std::int64_t v : values) out.append(v);
    return out;
}

nb::object np_opt(const std::optional<std::int64_t>& v) { return v ? nb::object(nb::int_(*v)) : nb::none(); }

nb::dict group_state_to(const NpGroupState& s) {
    nb::dict d;
    d["posture"] = np_name(kNpPosture, s.posture);
    d["objective"] = np_name(kNpObjective, s.objective);
    d["own_edge"] = nb::str(s.own_edge.c_str(), s.own_edge.size());
    d["exit_edge"] = nb::str(s.exit_edge.c_str(), s.exit_edge.size());
    d["exit_sections"] = np_int_list(s.exit_sections);
    d["after_beaten"] = np_name(kAfterBeaten, s.after_beaten);
    d["target"] = np_opt(s.target);
    d["order"] = np_name(kMoveOrder, s.order);
    if (s.activation) {
        nb::list pair;
        pair.append((*s.activation)[0]);
        pair.append((*s.activation)[1]);
        d["activation"] = pair;
    } else {
        d["activation"] = nb::none();
    }
    return d;
}

nb::dict activation_to(const NpActivation& a) {
    nb::dict d;
    d["team"] = a.team;
    d["leader"] = a.leader;
    d["posture"] = np_name(kNpPosture, a.posture);
    d["beaten_away"] = a.beaten_away;
    if (a.pursuit) {
        nb::dict p;
        p["faces"] = np_int_list(a.pursuit->faces);
        p["passes"] = a.pursuit->passes;
        p["target"] = np_opt(a.pursuit->target);
        d["pursuit"] = p;
    } else {
        d["pursuit"] = nb::none();
    }
    if (a.move) {
        nb::dict m;
        m["table"] = np_name(kNpMoveTable, a.move->table);
        m["faces"] = np_int_list(a.move->faces);
        m["passes"] = a.move->passes;
        m["order"] = np_name(kMoveOrder, a.move->order);
        d["move"] = m;
    } else {
        d["move"] = nb::none();
    }
    return d;
}

nb::dict context_to(const NpContext& c) {
    nb::dict groups;
    for (const auto& [team, state] : c.groups) groups[nb::str(std::to_string(team).c_str())] = group_state_to(state);
    nb::list rolls;
    for (const NpActivation& a : c.rolls) rolls.append(activation_to(a));
    nb::dict options;
    options["awareness"] = np_name(kNpAwareness, c.options.awareness);
    options["beaten_away_uses_range"] = c.options.beaten_away_uses_range;
    options["unseen_defender"] = np_name(kNpUnseenDefender, c.options.unseen_defender);
    nb::dict d;
    d["groups"] = groups;
    d["default"] = group_state_to(c.fallback);
    d["rolls"] = rolls;
    d["options"] = options;
    return d;
}

// -- the tables -----------------------------------------------------------------------------------
nb::handle np_key(const nb::dict& d, const char* key) {
    PyObject* v = PyDict_GetItemString(d.ptr(), key);
    if (v == nullptr) throw ArgumentError("spec", std::string("spec: missing '") + key + "'");
    return v;
}

template <class T, class F>
std::array<T, 3> np_rows(const nb::dict& d, const char* key, F&& read) {
    const std::string at = std::string("spec.") + key;
    const nb::list rows = np_list(np_key(d, key), at);
    if (nb::len(rows) != 3) throw ArgumentError(at, at + ": expected the rows 0, 1 and 2");
    std::array<T, 3> out{};
    for (std::size_t i = 0; i < 3; ++i) out[i] = read(rows[i], at + "[" + std::to_string(i) + "]");
    return out;
}

NpTables tables_from(nb::handle h) {
    if (!PyDict_Check(h.ptr())) wrong_type("spec", "a dict (wargym.native.no_quarter.enemy.np_tables)", h);
    const nb::dict d = nb::borrow<nb::dict>(h);
    NpTables t;
    t.patrol = np_rows<std::pair<NpPosture, AfterBeaten>>(d, "patrol", [](nb::handle row, const std::string& at) {
        const nb::list pair = np_list(row, at);
        if (nb::len(pair) != 2) throw ArgumentError(at, at + ": expected [posture, after_beaten]");
        return std::pair{np_choice(pair[0], at + "[0]", kNpPosture), np_choice(pair[1], at + "[1]", kAfterBeaten)};
    });
    auto order = [](nb::handle v, const std::string& at) { return np_choice(v, at, kMoveOrder); };
    t.defend = np_rows<MoveOrder>(d, "defend", order);
    t.attack = np_rows<MoveOrder>(d, "attack", order);
    t.pursuing = np_rows<NpPursuit>(d, "pursuing", [](nb::handle v, const std::string& at) { return np_choice(v, at, kNpPursuit); });
    const nb::handle objective = np_key(d, "objective");
    if (!PyDict_Check(objective.ptr())) wrong_type("spec.objective", "a dict", objective);
    for (std::size_t c = 0; c < kNpControl.values.size(); ++c) {
        const std::string name(kNpControl.values[c]);
        PyObject* row = PyDict_GetItemString(objective.ptr(), name.c_str());
        const std::string at = "spec.objective." + name;
        if (row == nullptr || !PyDict_Check(row)) throw ArgumentError(at, at + ": missing");
        for (std::size_t o = 0; o < kNpObjective.values.size(); ++o) {
            const std::string oname(kNpObjective.values[o]);
            PyObject* span = PyDict_GetItemString(row, oname.c_str());
            if (span == nullptr) throw ArgumentError(at, at + ": missing " + oname);
            const std::vector<std::int64_t> lo_hi = np_ints(span, at + "." + oname);
            if (lo_hi.size() != 2) throw ArgumentError(at, at + "." + oname + ": expected [lo, hi]");
            t.objective[c][o] = {static_cast<int>(lo_hi[0]), static_cast<int>(lo_hi[1])};
        }
    }
    t.distraction_range = np_real(np_key(d, "distraction_range"), "spec.distraction_range");
    t.flank_bearing = np_real(np_key(d, "flank_bearing"), "spec.flank_bearing");
    t.beaten_range = np_real(np_key(d, "beaten_range"), "spec.beaten_range");
    t.withdrawal_snap = np_real(np_key(d, "withdrawal_snap"), "spec.withdrawal_snap");
    t.pass_cap = np_int(np_key(d, "pass_cap"), "spec.pass_cap");
    t.edge_margin = np_real(np_key(d, "edge_margin"), "spec.edge_margin");
    t.reached_tolerance = np_real(np_key(d, "reached_tolerance"), "spec.reached_tolerance");
    t.exit_margin = np_real(np_key(d, "exit_margin"), "spec.exit_margin");
    t.sight_base_radius = np_real(np_key(d, "sight_base_radius"), "spec.sight_base_radius");
    t.snap_steps_per_inch = np_int(np_key(d, "snap_steps_per_inch"), "spec.snap_steps_per_inch");
    t.snap_step = np_real(np_key(d, "snap_step"), "spec.snap_step");
    t.snap_table_margin = np_real(np_key(d, "snap_table_margin"), "spec.snap_table_margin");
    t.reach_slack = np_real(np_key(d, "reach_slack"), "spec.reach_slack");
    t.goal_round_digits = static_cast<int>(np_int(np_key(d, "goal_round_digits"), "spec.goal_round_digits"));
    t.default_home_edge = np_edge(np_key(d, "default_home_edge"), "spec.default_home_edge");
    if (t.pass_cap < 0 || t.pass_cap > 2) throw ArgumentError("spec.pass_cap", "spec.pass_cap: the tables have rows 0-2 only");
    if (t.snap_steps_per_inch < 0 || t.snap_steps_per_inch > 100) {
        throw ArgumentError("spec.snap_steps_per_inch", "spec.snap_steps_per_inch: expected 0-100");
    }
    if (t.withdrawal_snap < 0 || t.withdrawal_snap > 1000) {
        throw ArgumentError("spec.withdrawal_snap", "spec.withdrawal_snap: expected 0-1000");
    }
    if (t.goal_round_digits < 0 || t.goal_round_digits > 15) {
        throw ArgumentError("spec.goal_round_digits", "spec.goal_round_digits: expected 0-15");
    }
    return t;
}

// -- arguments -------------------------------------------------------------------------------------
const Battle& np_battle_arg(nb::handle h) {
    Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

const RulesTables& np_rules_arg(nb::handle h) {
    RulesTables* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type("tables", "a native rules table (game_tables(battle))", h);
    return *t;
}

const NpTables& np_tables_arg(nb::handle h) {
    NpTables* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type("np_tables", "an NpTables (enemy.np_tables())", h);
    return *t;
}

NpContext& np_context_arg(nb::handle h) {
    NpContext* c = nullptr;
    if (!nb::try_cast(h, c, false) || c == nullptr) wrong_type("context", "a native NpContext", h);
    return *c;
}

// The dice, put back as they were if the call fails.
class DiceGuard {
public:
    explicit DiceGuard(nb::handle h) : dice_(native_dice_arg(h, "dice")) {
        if (auto* n = dynamic_cast<NumpyDice*>(&dice_)) numpy_ = *n;
        if (auto* s = dynamic_cast<ScriptedDice*>(&dice_)) scripted_ = *s;
        if (auto* r = dynamic_cast<RandomDice*>(&dice_)) random_ = *r;
    }
    Dice& dice() { return dice_; }
    void restore() {
        if (numpy_) *dynamic_cast<NumpyDice*>(&dice_) = *numpy_;
        if (scripted_) *dynamic_cast<ScriptedDice*>(&dice_) = *scripted_;
        if (random_) *dynamic_cast<RandomDice*>(&dice_) = *random_;
    }

private:
    Dice& dice_;
    std::optional<NumpyDice> numpy_;
    std::optional<ScriptedDice> scripted_;
    std::optional<RandomDice> random_;
};

// Runs ``body`` on a copy of the context and the dice; both are kept only on success.
template <class F>
auto np_transaction(nb::handle context, nb::handle dice, F&& body) {
    NpContext& held = np_context_arg(context);
    DiceGuard guard(dice);
    NpContext work = held;
    try {
        auto result = body(work, guard.dice());
        held = std::move(work);
        return result;
    } catch (...) {
        guard.restore();
        throw;
    }
}

Side np_side_arg(nb::handle h) {
    if (PyUnicode_Check(h.ptr())) return np_choice(h, "side", kSide);
    nb::object value = nb::getattr(h, "value", nb::none());
    if (!value.is_none() && PyUnicode_Check(value.ptr())) return np_choice(value, "side", kSide);
    wrong_type("side", "a Side or 'blue' / 'red'", h);
}

}  // namespace

void bind_enemy(nb::module_& parent) {
    nb::module_ m = parent.def_submodule("enemy", "The rules' NP procedure (non_player/enemy.hpp, enemy_decide.hpp).");
    nb::class_<NpTables>(m, "NpTables", "np_tactics.yaml and the reference's literals the NP procedure reads.")
        .def_static("from_spec", [](nb::handle spec) { return tables_from(spec); }, "spec"_a.none(),
                    "From wargym.native.no_quarter.enemy.np_tables's dict.");
    nb::class_<NpContext>(m, "NpContext", "enemy.NpContext: the NP memory kept across one battle.")
        .def(nb::init<>())
        .def_static("from_dict", [](nb::handle data) { return context_from(data, "context"); }, "data"_a.none(),
                    "From NpContext.to_dict() data (the reference's JSON).")
        .def("to_dict", [](const NpContext& c) { return context_to(c); }, "The reference's NpContext.to_dict().")
        .def("clone", [](const NpContext& c) { return NpContext(c); }, "A copy.")
        .def("__eq__", [](const NpContext& a, nb::handle b) {
            NpContext* o = nullptr;
            return nb::try_cast(b, o, false) && o != nullptr && a == *o;
        });
    m.def("np_decide",
          [](nb::handle battle, nb::handle tables, nb::handle np_tables, nb::handle options, nb::handle context,
             nb::handle dice) {
              const Battle& b = np_battle_arg(battle);
              const RulesTables& r = np_rules_arg(tables);
              const NpTables& t = np_tables_arg(np_tables);
              const std::vector<Action> all = actions_from_py(options, "options");
              np_context_arg(context);
              const Action chosen = np_transaction(context, dice, [&](NpContext& c, Dice& d) {
                  return np_decide(b, r, t, all, c, d);
              });
              return action_to_py(chosen);
          },
          "battle"_a.none(), "tables"_a.none(), "np_tables"_a.none(), "options"_a.none(), "context"_a.none(),
          "dice"_a.none(),
          "enemy_decide.np_decide: the reference Action the NP procedure picks; ``context`` is updated in place.");
    m.def("roll_group",
          [](nb::handle battle, nb::handle tables, nb::handle np_tables, nb::handle leader, nb::handle context,
             nb::handle dice) {
              const Battle& b = np_battle_arg(battle);
              const RulesTables& r = np_rules_arg(tables);
              const NpTables& t = np_tables_arg(np_tables);
              const std::int64_t id = np_int(leader, "leader");
              mech_at(b, id, "leader");
              np_context_arg(context);
              const NpGroupState s = np_transaction(context, dice, [&](NpContext& c, Dice& d) {
                  return roll_group(b, r, t, id, c, d);
              });
              return group_state_to(s);
          },
          "battle"_a.none(), "tables"_a.none(), "np_tables"_a.none(), "leader"_a.none(), "context"_a.none(),
          "dice"_a.none(), "enemy_decide.roll_group: the group's new state (NpGroupState as JSON).");
    m.def("known_enemies",
          [](nb::handle battle, nb::handle tables, nb::handle side, nb::handle arcs) {
              const Battle& b = np_battle_arg(battle);
              const RulesTables& r = np_rules_arg(tables);
              const Side s = np_side_arg(side);
              const bool a = np_bool(arcs, "arcs");
              nb::list out;
              for (const Mech* e : known_enemies(b, r, s, a)) out.append(e->id);
              return out;
          },
          "battle"_a.none(), "tables"_a.none(), "side"_a.none(), "arcs"_a.none(),
          "enemy_decide.known_enemies: the ids, in id order.");
}

}  // namespace wargym::no_quarter
