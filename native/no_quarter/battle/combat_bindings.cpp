// Bindings of the combat resolvers (ranged_combat, reaction, melee, flow.roll_index) in
// _core.no_quarter.combat. Enum arguments are the reference's enum members (Location.HEAD, ...),
// enum results are returned as those members; every argument is converted by name, so bad input
// raises NativeTypeError / NativeArgumentError naming it (the translator is native/bindings.cpp's).
#include "../../dice_bindings.hpp"
#include "combat_bindings.hpp"

#include <climits>
#include <string>
#include <string_view>
#include <vector>

#include "../../dice.hpp"
#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "../forces/data_combat_reader.hpp"
#include "flow.hpp"
#include "melee.hpp"
#include "reaction.hpp"

namespace nb = nanobind;
using namespace nanobind::literals;

namespace wargym::no_quarter {

namespace {

// The members of one Python enum in definition order, checked against the C++ vocabulary.
struct Members {
    const char* type = "";
    std::vector<PyObject*> items;  // strong references, held for the process

    template <class E, std::size_t N>
    void init(const char* module, const char* name, const Vocab<E, N>& vocab) {
        type = name;
        nb::object cls = nb::module_::import_(module).attr(name);
        nb::list members = nb::list(cls);
        if (members.size() != N) throw std::runtime_error(std::string(name) + ": the vocabulary differs");
        for (std::size_t i = 0; i < N; ++i) {
            nb::object member = members[i];
            nb::object value = member.attr("value");
            Py_ssize_t size = 0;
            const char* data = PyUnicode_Check(value.ptr()) ? PyUnicode_AsUTF8AndSize(value.ptr(), &size) : nullptr;
            if (data == nullptr || std::string_view(data, static_cast<std::size_t>(size)) != vocab.values[i]) {
                PyErr_Clear();
                throw std::runtime_error(std::string(name) + ": the vocabulary differs");
            }
            items.push_back(member.release().ptr());
        }
    }
    nb::object operator()(std::size_t i) const { return nb::borrow(items[i]); }
    template <class E>
    nb::object of(E e) const { return (*this)(static_cast<std::size_t>(e)); }
    template <class E>
    E read(nb::handle h, const std::string& name) const {
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (h.ptr() == items[i]) return static_cast<E>(i);
        }
        wrong_type(name, (std::string("a ") + type).c_str(), h);
    }
};

Members g_location, g_attribute, g_race, g_faction, g_item, g_result, g_test, g_attack, g_aspect,
    g_critical, g_charge, g_removal;

constexpr std::int64_t kLo = INT32_MIN;  // integer arguments fit in 32 bits (docs/native.md)
constexpr std::int64_t kHi = INT32_MAX;

std::int64_t integer(nb::handle h, const std::string& name, std::int64_t lo = kLo, std::int64_t hi = kHi) {
    PyObject* o = h.ptr();
    if (!PyLong_Check(o) || PyBool_Check(o)) wrong_type(name, "an integer", h);
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || v < lo || v > hi) {
        throw ArgumentError(name, "expected an integer in " + std::to_string(lo) + ".." +
                                      std::to_string(hi) + ", got " + short_repr(h));
    }
    return v;
}

bool flag(nb::handle h, const std::string& name) {
    if (!PyBool_Check(h.ptr())) wrong_type(name, "True or False", h);
    return h.ptr() == Py_True;
}

int face(nb::handle h, const std::string& name) { return static_cast<int>(integer(h, name, 1, 6)); }

Faces2 faces2(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!(PyTuple_Check(o) || PyList_Check(o)) || PySequence_Fast_GET_SIZE(o) != 2) {
        wrong_type(name, "two d6 faces (a, b)", h);
    }
    return {face(PySequence_Fast_GET_ITEM(o, 0), name + "[0]"), face(PySequence_Fast_GET_ITEM(o, 1), name + "[1]")};
}

// A list, tuple, set or frozenset of Attribute members, read as set(attributes).
AttributeSet attributes(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!(PyList_Check(o) || PyTuple_Check(o) || PyAnySet_Check(o))) {
        wrong_type(name, "a list, tuple or set of Attribute", h);
    }
    AttributeSet out{};
    nb::object items = nb::steal(PySequence_Fast(o, "attributes"));
    if (!items.is_valid()) {
        PyErr_Clear();
        wrong_type(name, "a list, tuple or set of Attribute", h);
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(items.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
        const auto a = g_attribute.read<Attribute>(PySequence_Fast_GET_ITEM(items.ptr(), i),
                                                   name + "[" + std::to_string(i) + "]");
        out[static_cast<std::size_t>(a)] = true;
    }
    return out;
}

const CombatTables& tables(nb::handle h) {
    CombatTables* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type("tables", "a CombatTables", h);
    return *t;
}

nb::tuple damage_tuple(const DamageOutcome& d) {
    return nb::make_tuple(d.passed, d.armor_loss, d.armor_after, d.critical, d.duck_back, d.refight);
}

// A records.DamageRow (read by attribute) for resolve_damage_row.
DamageRow damage_row(nb::handle h, nb::handle amounts, std::int64_t& amount) {
    const char* fields[] = {"passed", "armor_loss", "critical_on_doubles", "critical_on_armor_le_0",
                            "duck_back", "refight"};
    for (const char* f : fields) {
        if (!PyObject_HasAttrString(h.ptr(), f)) wrong_type("row", "a DamageRow", h);
    }
    DamageRow row;
    row.passed = static_cast<std::int32_t>(integer(h.attr("passed"), "row.passed"));
    nb::object loss = h.attr("armor_loss");
    if (PyUnicode_Check(loss.ptr())) {
        if (!PyDict_Check(amounts.ptr())) wrong_type("amounts", "a dict of named amounts", amounts);
        PyObject* value = PyDict_GetItemWithError(amounts.ptr(), loss.ptr());
        if (value == nullptr) {
            PyErr_Clear();
            throw ArgumentError("amounts", "no amount named " + short_repr(loss));
        }
        amount = integer(value, "amounts[" + short_repr(loss) + "]");
    } else {
        row.fixed_loss = static_cast<std::int32_t>(integer(loss, "row.armor_loss"));
    }
    row.critical_on_doubles = flag(h.attr("critical_on_doubles"), "row.critical_on_doubles");
    row.critical_on_armor_le_0 = flag(h.attr("critical_on_armor_le_0"), "row.critical_on_armor_le_0");
    row.duck_back = flag(h.attr("duck_back"), "row.duck_back");
    row.refight = flag(h.attr("refight"), "row.refight");
    return row;
}

void init_members() {
    const char* vocab = "wargym.rules.no_quarter.forces.vocab";
    const char* records = "wargym.rules.no_quarter.forces.records";
    g_location.init(vocab, "Location", kLocation);
    g_attribute.init(vocab, "Attribute", kAttribute);
    g_race.init(vocab, "Race", kRace);
    g_faction.init(vocab, "Faction", kFaction);
    g_item.init(vocab, "ItemType", kItemType);
    g_result.init(vocab, "ReactionResult", kReactionResult);
    g_test.init(vocab, "ReactionTest", kReactionTest);
    g_attack.init(vocab, "MeleeAttack", kMeleeAttack);
    g_aspect.init(vocab, "Aspect", kAspect);
    g_removal.init(vocab, "Removal", kRemoval);
    g_critical.init(records, "CriticalKind", kCriticalKind);
    g_charge.init(records, "ChargeOutcome", kChargeOutcome);
}

template <class E, std::size_t N>
nb::list vocab_list(const Vocab<E, N>& v) {
    nb::list out;
    for (auto s : v.values) out.append(nb::str(s.data(), s.size()));
    return out;
}

void bind_ranged(nb::module_& c) {
    c.def("ranged_rep", [](nb::handle t, nb::handle rep, nb::handle attrs) {
        return ranged_rep(tables(t), integer(rep, "rep"), attributes(attrs, "attributes"));
    }, "tables"_a.none(), "rep"_a.none(), "attributes"_a.none());
    c.def("to_hit", [](nb::handle t, nb::handle total, nb::handle sfm, nb::handle rush, nb::handle cover,
                       nb::handle prone, nb::handle tfm, nb::handle index, nb::handle crack) {
        const CombatTables& tt = tables(t);
        const ToHitConditions c{flag(sfm, "shooter_fast_moving"), flag(rush, "rush_shot"),
                                flag(cover, "target_in_cover"), flag(prone, "target_prone"),
                                flag(tfm, "target_fast_moving"), integer(index, "target_index"),
                                flag(crack, "crack_shot")};
        return to_hit(tt, integer(total, "total"), c);
    }, "tables"_a.none(), "total"_a.none(), "shooter_fast_moving"_a.none() = false, "rush_shot"_a.none() = false,
       "target_in_cover"_a.none() = false, "target_prone"_a.none() = false, "target_fast_moving"_a.none() = false,
       "target_index"_a.none() = 1, "crack_shot"_a.none() = false);
    c.def("hit_location", [](nb::handle t, nb::handle faces) {
        return g_location.of(hit_location(tables(t), faces2(faces, "faces")));
    }, "tables"_a.none(), "faces"_a.none());
    c.def("better_location", [](nb::handle t, nb::handle a, nb::handle b) {
        const CombatTables& tt = tables(t);
        return g_location.of(better_location(tt, g_location.read<Location>(a, "a"), g_location.read<Location>(b, "b")));
    }, "tables"_a.none(), "a"_a.none(), "b"_a.none());
    c.def("marksman_location", [](nb::handle t, nb::handle first, nb::handle second) {
        const CombatTables& tt = tables(t);
        return g_location.of(marksman_location(tt, faces2(first, "first"), faces2(second, "second")));
    }, "tables"_a.none(), "first"_a.none(), "second"_a.none());
    c.def("resolve_damage_row", [](nb::handle row, nb::handle faces, nb::handle amounts, nb::handle before) {
        std::int64_t amount = 0;
        const DamageRow r = damage_row(row, amounts, amount);
        if (!PyDict_Check(amounts.ptr())) wrong_type("amounts", "a dict of named amounts", amounts);
        return damage_tuple(resolve_damage_row(r, faces2(faces, "faces"), amount, integer(before, "armor_before")));
    }, "row"_a.none(), "faces"_a.none(), "amounts"_a.none(), "armor_before"_a.none());
    c.def("ranged_damage", [](nb::handle t, nb::handle faces, nb::handle impact, nb::handle before) {
        const CombatTables& tt = tables(t);
        return damage_tuple(ranged_damage(tt, faces2(faces, "faces"), integer(impact, "impact"),
                                          integer(before, "armor_before")));
    }, "tables"_a.none(), "faces"_a.none(), "impact"_a.none(), "armor_before"_a.none());
    c.def("critical_kind", [](nb::handle t, nb::handle location, nb::handle armor) {
        const CombatTables& tt = tables(t);
        return g_critical.of(critical_kind(tt, g_location.read<Location>(location, "location"),
                                           integer(armor, "armor_now")));
    }, "tables"_a.none(), "location"_a.none(), "armor_now"_a.none());
    c.def("chest_explosion", [](nb::handle t, nb::handle f) {
        const CombatTables& tt = tables(t);
        return g_removal.of(chest_explosion(tt, face(f, "face")));
    }, "tables"_a.none(), "face"_a.none());
    c.def("halved_speed", [](nb::handle speed) { return halved_speed(integer(speed, "speed")); }, "speed"_a.none());
    c.def("pilot_test_rep", [](nb::handle t, nb::handle rep, nb::handle attrs) {
        const CombatTables& tt = tables(t);
        return pilot_test_rep(tt, integer(rep, "rep"), attributes(attrs, "attributes"));
    }, "tables"_a.none(), "rep"_a.none(), "attributes"_a.none());
    c.def("pilot_test_passed", [](nb::handle t, nb::handle f, nb::handle rep, nb::handle attrs) {
        const CombatTables& tt = tables(t);
        return pilot_test_passed(tt, face(f, "face"), integer(rep, "rep"), attributes(attrs, "attributes"));
    }, "tables"_a.none(), "face"_a.none(), "rep"_a.none(), "attributes"_a.none());
}

void bind_reaction(nb::module_& c) {
    c.def("is_outgunned", [](nb::handle t, nb::handle tester, nb::handle cause, nb::handle nerves) {
        const CombatTables& tt = tables(t);
        return is_outgunned(tt, integer(tester, "tester_class", 1, 5), integer(cause, "cause_class"),
                            flag(nerves, "nerves_of_steel"));
    }, "tables"_a.none(), "tester_class"_a.none(), "cause_class"_a.none(), "nerves_of_steel"_a.none() = false);
    c.def("attributes_outgunned_immune", [](nb::handle t, nb::handle attrs) {
        const CombatTables& tt = tables(t);
        return attributes_outgunned_immune(tt, attributes(attrs, "attributes"));
    }, "tables"_a.none(), "attributes"_a.none());
    c.def("in_sight_dice", [](nb::handle t, nb::handle rep, nb::handle race, nb::handle attrs, nb::handle concealed) {
        const CombatTables& tt = tables(t);
        return in_sight_dice(tt, integer(rep, "rep"), g_race.read<Race>(race, "race"),
                             attributes(attrs, "attributes"), flag(concealed, "enemy_concealed"));
    }, "tables"_a.none(), "rep"_a.none(), "race"_a.none(), "attributes"_a.none(), "enemy_concealed"_a.none());
    c.def("in_sight_bonus_successes", [](nb::handle t, nb::handle ews) {
        const CombatTables& tt = tables(t);
        std::optional<ItemType> item;
        if (!ews.is_none()) item = g_item.read<ItemType>(ews, "ews");
        return in_sight_bonus_successes(tt, item);
    }, "tables"_a.none(), "ews"_a.none());
    c.def("moving_side_wins", [](nb::handle t, nb::handle moving, nb::handle other) {
        const CombatTables& tt = tables(t);
        return moving_side_wins(tt, integer(moving, "moving_successes"), integer(other, "nonmoving_successes"));
    }, "tables"_a.none(), "moving_successes"_a.none(), "nonmoving_successes"_a.none());
    c.def("reaction_dice", [](nb::handle t, nb::handle test, nb::handle faction, nb::handle cover, nb::handle attrs) {
        const CombatTables& tt = tables(t);
        return reaction_dice(tt, g_test.read<ReactionTest>(test, "test"), g_faction.read<Faction>(faction, "faction"),
                             flag(cover, "in_cover"), attributes(attrs, "attributes"));
    }, "tables"_a.none(), "test"_a.none(), "faction"_a.none(), "in_cover"_a.none(), "attributes"_a.none());
    c.def("reaction_rep", [](nb::handle t, nb::handle rep, nb::handle out, nb::handle twice) {
        const CombatTables& tt = tables(t);
        return reaction_rep(tt, integer(rep, "rep"), integer(out, "weapons_out_of_action"),
                            flag(twice, "twice_as_many_friendly_losses"));
    }, "tables"_a.none(), "rep"_a.none(), "weapons_out_of_action"_a.none(), "twice_as_many_friendly_losses"_a.none());
    c.def("twice_as_many_friendly_losses", [](nb::handle friendly, nb::handle enemy) {
        return twice_as_many_friendly_losses(integer(friendly, "friendly_losses"), integer(enemy, "enemy_losses"));
    }, "friendly_losses"_a.none(), "enemy_losses"_a.none());
    c.def("read_pooled_dice", [](nb::handle pool, nb::handle n) {
        PyObject* o = pool.ptr();
        if (!PyList_Check(o) && !PyTuple_Check(o)) wrong_type("pool", "a list of d6 faces", pool);
        std::vector<int> faces;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
            faces.push_back(face(PySequence_Fast_GET_ITEM(o, i), "pool[" + std::to_string(i) + "]"));
        }
        const std::vector<int> read = read_pooled_dice(faces, integer(n, "n"));
        nb::object out = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(read.size())));
        for (std::size_t i = 0; i < read.size(); ++i) {
            PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), PyLong_FromLong(read[i]));
        }
        return out;
    }, "pool"_a.none(), "n"_a.none());
    c.def("reaction_result", [](nb::handle t, nb::handle test, nb::handle faction, nb::handle passed,
                                nb::handle outgunned, nb::handle in_range, nb::handle damaged, nb::handle attrs) {
        const CombatTables& tt = tables(t);
        const ReactionTest rt = g_test.read<ReactionTest>(test, "test");
        const Faction f = g_faction.read<Faction>(faction, "faction");
        const std::int64_t p = integer(passed, "passed");
        const ReactionCircumstances c{flag(outgunned, "outgunned"), flag(in_range, "in_range"), flag(damaged, "damaged")};
        const ReactionOutcome r = reaction_result(tt, rt, f, p, c, attributes(attrs, "attributes"));
        return nb::make_tuple(g_result.of(r.result), r.rep_change);
    }, "tables"_a.none(), "test"_a.none(), "faction"_a.none(), "passed"_a.none(), "outgunned"_a.none() = false,
       "in_range"_a.none() = false, "damaged"_a.none() = false, "attributes"_a.none() = nb::tuple());
    c.def("duck_back_becomes", [](nb::handle t, nb::handle attrs) -> nb::object {
        const CombatTables& tt = tables(t);
        const auto r = duck_back_becomes(tt, attributes(attrs, "attributes"));
        return r ? g_result.of(*r) : nb::none();
    }, "tables"_a.none(), "attributes"_a.none());
    c.def("worst_result", [](nb::handle t, nb::handle results) {
        const CombatTables& tt = tables(t);
        PyObject* o = results.ptr();
        if (!PyList_Check(o) && !PyTuple_Check(o)) wrong_type("results", "a list of ReactionResult", results);
        std::vector<ReactionResult> rs;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
            rs.push_back(g_result.read<ReactionResult>(PySequence_Fast_GET_ITEM(o, i), "results[" + std::to_string(i) + "]"));
        }
        return g_result.of(worst_result(tt, rs));
    }, "tables"_a.none(), "results"_a.none());
}

void bind_melee(nb::module_& c) {
    c.def("charge_target_dice", [](nb::handle t, nb::handle cover, nb::handle aspect) {
        const CombatTables& tt = tables(t);
        return charge_target_dice(tt, flag(cover, "target_in_cover"), g_aspect.read<Aspect>(aspect, "aspect"));
    }, "tables"_a.none(), "target_in_cover"_a.none(), "aspect"_a.none());
    c.def("charge_outcome", [](nb::handle t, nb::handle charger, nb::handle target) {
        const CombatTables& tt = tables(t);
        return g_charge.of(charge_outcome(tt, integer(charger, "charger_passed"), integer(target, "target_passed")));
    }, "tables"_a.none(), "charger_passed"_a.none(), "target_passed"_a.none());
    c.def("melee_dice", [](nb::handle t, nb::handle rep, nb::handle race, nb::handle attrs, nb::handle weapon,
                           nb::handle prone, nb::handle jump, nb::handle leaving) {
        const CombatTables& tt = tables(t);
        const std::int64_t r = integer(rep, "rep");
        const Race ra = g_race.read<Race>(race, "race");
        const AttributeSet as = attributes(attrs, "attributes");
        const MeleeCircumstances c{flag(weapon, "melee_weapon"), flag(prone, "attacking_prone"),
                                   flag(jump, "jump_attack"), flag(leaving, "leaving")};
        return melee_dice(tt, r, ra, as, c);
    }, "tables"_a.none(), "rep"_a.none(), "race"_a.none(), "attributes"_a.none(), "melee_weapon"_a.none(),
       "attacking_prone"_a.none(), "jump_attack"_a.none(), "leaving"_a.none());
    c.def("melee_margin", [](nb::handle a, nb::handle d) {
        return melee_margin(integer(a, "attacker_successes"), integer(d, "defender_successes"));
    }, "attacker_successes"_a.none(), "defender_successes"_a.none());
    c.def("melee_hit_location", [](nb::handle t, nb::handle f, nb::handle attack, nb::handle jump) {
        const CombatTables& tt = tables(t);
        return g_location.of(melee_hit_location(tt, face(f, "face"), g_attack.read<MeleeAttack>(attack, "attack"),
                                                flag(jump, "jump_attack")));
    }, "tables"_a.none(), "face"_a.none(), "attack"_a.none(), "jump_attack"_a.none() = false);
    c.def("limb_damage", [](nb::handle armor, nb::handle wv) {
        return limb_damage(integer(armor, "limb_armor"), integer(wv, "melee_weapon_wv"));
    }, "limb_armor"_a.none(), "melee_weapon_wv"_a.none() = 0);
    c.def("melee_damage", [](nb::handle t, nb::handle faces, nb::handle margin, nb::handle limb, nb::handle before) {
        const CombatTables& tt = tables(t);
        return damage_tuple(melee_damage(tt, faces2(faces, "faces"), integer(margin, "margin"),
                                         integer(limb, "limb_damage"), integer(before, "armor_before")));
    }, "tables"_a.none(), "faces"_a.none(), "margin"_a.none(), "limb_damage"_a.none(), "armor_before"_a.none());
    c.def("melee_attack_order", [](nb::handle attackers) {
        PyObject* o = attackers.ptr();
        if (!PyList_Check(o) && !PyTuple_Check(o)) wrong_type("attackers", "a list of (id, class, rep)", attackers);
        std::vector<MeleeAttacker> rows;
        std::vector<nb::handle> ids;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
            const std::string name = "attackers[" + std::to_string(i) + "]";
            nb::handle row = PySequence_Fast_GET_ITEM(o, i);
            if (!PyTuple_Check(row.ptr()) || PyTuple_GET_SIZE(row.ptr()) != 3) wrong_type(name, "an (id, class, rep) tuple", row);
            ids.push_back(PyTuple_GET_ITEM(row.ptr(), 0));
            rows.push_back({integer(PyTuple_GET_ITEM(row.ptr(), 1), name + "[1]"),
                            integer(PyTuple_GET_ITEM(row.ptr(), 2), name + "[2]")});
        }
        nb::list out;
        for (std::size_t i : melee_attack_order(rows)) out.append(ids[i]);
        return out;
    }, "attackers"_a.none());
    c.def("roll_index", [](nb::handle dice, nb::handle count) {
        wargym::Dice* d = &wargym::native_dice_arg(dice);
        const RolledIndex r = roll_index(*d, integer(count, "count", INT64_MIN, INT64_MAX));
        nb::object faces = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(r.faces.size())));
        for (std::size_t i = 0; i < r.faces.size(); ++i) {
            PyTuple_SET_ITEM(faces.ptr(), static_cast<Py_ssize_t>(i), PyLong_FromLong(r.faces[i]));
        }
        return nb::make_tuple(r.index, faces);
    }, "dice"_a.none(), "count"_a.none());
}

}  // namespace

void bind_combat(nb::module_& g) {
    init_members();
    nb::module_ c = g.def_submodule("combat", "Mirrors of battle/ranged_combat.py, reaction.py, melee.py.");
    nb::class_<CombatTables>(c, "CombatTables", "The combat tables of a rule set (native/no_quarter/combat.py).")
        .def("__init__", [](CombatTables* self, nb::handle spec) { new (self) CombatTables(read_combat_tables(spec)); },
             "spec"_a.none());
    c.def("combat_vocabulary", []() {
        nb::dict out;
        out["ReactionResult"] = vocab_list(kReactionResult);
        out["ReactionTest"] = vocab_list(kReactionTest);
        out["MeleeAttack"] = vocab_list(kMeleeAttack);
        out["Aspect"] = vocab_list(kAspect);
        out["CriticalKind"] = vocab_list(kCriticalKind);
        out["ChargeOutcome"] = vocab_list(kChargeOutcome);
        out["RANGED_CONDITIONS"] = vocab_list(kRangedCondition);
        out["ROLL_INDEX_MAX_COUNT"] = kRollIndexMaxCount;
        return out;
    });
    bind_ranged(c);
    bind_reaction(c);
    bind_melee(c);
}

}  // namespace wargym::no_quarter
