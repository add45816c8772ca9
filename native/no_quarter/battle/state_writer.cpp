// The battle state's writer: Battle.to_dict()'s document built through the Python C API, with
// the interned keys and shared enum strings of state_io.hpp and dicts sized for their keys.
#include <iterator>
#include <string>

#include "frames_io.hpp"
#include "state_io.hpp"

namespace state_io {

// -- writer -----------------------------------------------------------------------------------
PyObject* ok(PyObject* o) {
    if (!o) throw nb::python_error();
    return o;
}

// A new dict/list that is released if building it fails half-way.
struct Owned {
    PyObject* o;
    explicit Owned(PyObject* p) : o(ok(p)) {}
    ~Owned() { Py_XDECREF(o); }
    Owned(const Owned&) = delete;
    PyObject* release() { PyObject* p = o; o = nullptr; return p; }
    void set(PyObject* key, PyObject* value) {  // steals value
        if (!value) throw nb::python_error();
        const int rc = PyDict_SetItem(o, key, value);
        Py_DECREF(value);
        if (rc < 0) throw nb::python_error();
    }
};

// A dict sized for ``n`` keys: no table resize while the writer fills it.
PyObject* new_dict(Py_ssize_t n) {
#if PY_VERSION_HEX < 0x030D0000
    return _PyDict_NewPresized(n);
#else
    (void)n;
    return PyDict_New();
#endif
}

PyObject* py_int(std::int64_t v) { return PyLong_FromLongLong(v); }
PyObject* py_float(double v) { return PyFloat_FromDouble(v); }
PyObject* py_bool(bool v) { return Py_NewRef(v ? Py_True : Py_False); }
PyObject* py_none() { return Py_NewRef(Py_None); }
PyObject* py_str(const std::string& s) {
    return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "strict");
}

template <class T, class F>
PyObject* py_list(const T& items, F&& make) {
    Owned out(PyList_New(static_cast<Py_ssize_t>(std::size(items))));
    Py_ssize_t i = 0;
    for (const auto& item : items) PyList_SET_ITEM(out.o, i++, ok(make(item)));
    return out.release();
}

PyObject* py_point(nq::Point p) {
    Owned out(PyList_New(2));
    PyList_SET_ITEM(out.o, 0, ok(py_float(p.x)));
    PyList_SET_ITEM(out.o, 1, ok(py_float(p.y)));
    return out.release();
}

PyObject* py_json(const Json& j) {
    switch (j.kind()) {
        case Json::Kind::null: return py_none();
        case Json::Kind::boolean: return py_bool(j.as_bool());
        case Json::Kind::integer: return py_int(j.as_int());
        case Json::Kind::real: return py_float(j.as_real());
        case Json::Kind::string: return py_str(j.as_string());
        case Json::Kind::array: return py_list(j.as_array(), py_json);
        case Json::Kind::object: {
            Owned out(new_dict(static_cast<Py_ssize_t>(j.as_object().size())));
            for (const auto& [k, v] : j.as_object()) {
                Owned key(py_str(k));
                out.set(key.o, py_json(v));
            }
            return out.release();
        }
    }
    return py_none();
}

template <class N, class E>
PyObject* py_optional(const N& names, const std::optional<E>& e) {
    return e ? names[*e] : py_none();
}

PyObject* py_side_key(const nq::SideMap<std::int64_t>& m) {
    Owned out(new_dict(2));
    for (std::uint8_t i = 0; i < m.size; ++i) {
        Owned key(N.side[m.keys[i]]);
        out.set(key.o, py_int(m.values[i]));
    }
    return out.release();
}

PyObject* py_int_map(const std::vector<std::pair<std::int64_t, std::int64_t>>& m) {
    Owned out(new_dict(static_cast<Py_ssize_t>(m.size())));
    for (const auto& [k, v] : m) {
        Owned key(PyUnicode_FromFormat("%lld", static_cast<long long>(k)));
        out.set(key.o, py_int(v));
    }
    return out.release();
}

PyObject* py_armor(const std::array<std::int64_t, nq::kLocations>& a) { return py_list(a, py_int); }

PyObject* py_design(const nq::MechDesign& d) {
    Owned out(new_dict(10));
    out.set(K.id, py_str(d.id));
    out.set(K.name, py_str(d.name));
    out.set(K.faction, N.faction[d.faction]);
    out.set(K.mech_class, py_int(d.mech_class));
    out.set(K.speed, py_int(d.speed));
    out.set(K.armor, py_armor(d.armor));
    out.set(K.items, py_list(d.items, [](const nq::MountedItem& it) {
        Owned o(new_dict(7));
        o.set(K.item, N.item[it.item]);
        o.set(K.location, N.location[it.location]);
        o.set(K.wv, py_int(it.wv));
        o.set(K.range, it.range ? py_int(*it.range) : py_none());
        o.set(K.target, py_int(it.target));
        o.set(K.impact, py_int(it.impact));
        o.set(K.label, py_str(it.label));
        return o.release();
    }));
    out.set(K.notes, py_list(d.notes, py_str));
    out.set(K.capacity, py_int(d.capacity));
    out.set(K.ews_bonus, py_int(d.ews_bonus));
    return out.release();
}

PyObject* py_pilot(const nq::Pilot& p) {
    Owned out(new_dict(6));
    out.set(K.name, py_str(p.name));
    out.set(K.faction, N.faction[p.faction]);
    out.set(K.race, N.race[p.race]);
    out.set(K.rep, py_int(p.rep));
    out.set(K.star, py_bool(p.star));
    out.set(K.attributes, py_list(p.attributes, [](nq::Attribute a) { return N.attribute[a]; }));
    return out.release();
}

PyObject* py_mech(const nq::Mech& m) {
    Owned out(new_dict(26));
    out.set(K.id, py_int(m.id));
    out.set(K.side, N.side[m.side]);
    out.set(K.name, py_str(m.record->name));
    out.set(K.design, py_design(m.record->design));
    out.set(K.pilot, py_pilot(m.record->pilot));
    out.set(K.rep, py_int(m.rep));
    out.set(K.armor, py_armor(m.armor));
    out.set(K.speed, py_int(m.speed));
    out.set(K.pos, py_point(m.pos));
    out.set(K.heading, py_float(m.heading));
    out.set(K.team, py_int(m.team));
    out.set(K.rank, py_optional(N.rank, m.rank));
    out.set(K.twist, py_int(m.twist));
    out.set(K.status, N.status[m.status]);
    out.set(K.prone, py_bool(m.prone));
    out.set(K.moved, py_float(m.moved));
    out.set(K.lost_limbs, py_list(m.lost_limbs, [](nq::Location l) { return N.location[l]; }));
    out.set(K.inoperable, py_list(m.inoperable, py_int));
    out.set(K.removed, py_optional(N.removal, m.removed));
    out.set(K.fired_this_activation, py_bool(m.fired_this_activation));
    out.set(K.flamer_fired_turn, py_bool(m.flamer_fired_turn));
    out.set(K.lucky_used, py_bool(m.lucky_used));
    out.set(K.resilient_used, py_bool(m.resilient_used));
    out.set(K.hard_as_nails_used, py_bool(m.hard_as_nails_used));
    out.set(K.reaction_fired_at, py_list(m.reaction_fired_at, py_int));
    out.set(K.hidden_from, py_list(m.hidden_from, py_int));
    return out.release();
}

PyObject* py_feature(const nq::Feature& f) {
    Owned out(new_dict(8));
    out.set(K.kind, N.terrain[f.kind]);
    out.set(K.x0, py_float(f.x0));
    out.set(K.y0, py_float(f.y0));
    out.set(K.x1, py_float(f.x1));
    out.set(K.y1, py_float(f.y1));
    out.set(K.building_armor, py_int(f.building_armor));
    if (f.crest) {
        Owned crest(PyList_New(2));
        PyList_SET_ITEM(crest.o, 0, ok(py_point(f.crest->first)));
        PyList_SET_ITEM(crest.o, 1, ok(py_point(f.crest->second)));
        out.set(K.crest, crest.release());
    } else {
        out.set(K.crest, py_none());
    }
    out.set(K.well_lit, py_bool(f.well_lit));
    return out.release();
}

PyObject* py_options(const nq::BattleOptions& x) {
    Owned out(new_dict(18));
    out.set(K.max_turns, py_int(x.max_turns));
    out.set(K.base_radius, py_float(x.base_radius));
    out.set(K.star_free_will, py_bool(x.star_free_will));
    out.set(K.spread_fire_rule, N.spread[x.spread_fire_rule]);
    out.set(K.in_sight_free_move, py_bool(x.in_sight_free_move));
    out.set(K.reaction_fire_once_per_enemy, py_bool(x.reaction_fire_once_per_enemy));
    out.set(K.leave_wrecks, py_bool(x.leave_wrecks));
    out.set(K.command_groups, N.command[x.command_groups]);
    out.set(K.group_splits, N.splits[x.group_splits]);
    out.set(K.lucky, N.lucky[x.lucky]);
    out.set(K.marksman, N.marksman[x.marksman]);
    out.set(K.move_directions, py_int(x.move_directions));
    out.set(K.move_fractions, py_list(x.move_fractions, py_float));
    out.set(K.unseen_bases, N.unseen[x.unseen_bases]);
    out.set(K.in_sight_spent_fire, N.spent[x.in_sight_spent_fire]);
    out.set(K.several_chargers, N.chargers[x.several_chargers]);
    out.set(K.choose_facing, py_bool(x.choose_facing));
    Owned rules(new_dict(5));
    rules.set(K.zhuh_zhuh_restriction, N.zhuh[x.rules.zhuh_zhuh_restriction]);
    rules.set(K.gun_medium_stats, N.gun[x.rules.gun_medium_stats]);
    rules.set(K.strict_mounting, py_bool(x.rules.strict_mounting));
    rules.set(K.pdf_c4_target, N.pdf[x.rules.pdf_c4_target]);
    rules.set(K.free_company_races, N.races[x.rules.free_company_races]);
    out.set(K.rules, rules.release());
    return out.release();
}

PyObject* to_dict(const Battle& b) {
    Owned out(new_dict(22));
    {
        const nq::Battlefield& bf = *b.battlefield;
        Owned field(new_dict(5));
        field.set(K.width, py_float(bf.width));
        field.set(K.height, py_float(bf.height));
        field.set(K.features, py_list(bf.features, py_feature));
        field.set(K.night, py_bool(bf.night));
        field.set(K.inclement_weather, py_bool(bf.inclement_weather));
        out.set(K.battlefield, field.release());
    }
    out.set(K.options, py_options(*b.options));
    {
        Owned mechs(new_dict(static_cast<Py_ssize_t>(b.mechs.size())));
        for (const nq::Mech& m : b.mechs) {
            Owned key(PyUnicode_FromFormat("%lld", static_cast<long long>(m.id)));
            mechs.set(key.o, py_mech(m));
        }
        out.set(K.mechs, mechs.release());
    }
    out.set(K.turn, py_int(b.turn));
    out.set(K.dice, py_side_key(b.dice));
    out.set(K.first_side, py_optional(N.side, b.first_side));
    out.set(K.active_side, py_optional(N.side, b.active_side));
    out.set(K.group_of, py_int_map(b.group_of));
    out.set(K.seen_pairs, py_list(b.seen_pairs, [](const std::array<std::int64_t, 2>& p) { return py_list(p, py_int); }));
    out.set(K.losses, py_side_key(b.losses));
    out.set(K.flames, py_list(b.flames, [](const std::array<nq::Point, 2>& f) { return py_list(f, py_point); }));
    out.set(K.wrecks, py_list(b.wrecks, py_point));
    out.set(K.frames, frames_io::write_frames(b.frames));
    if (b.decision) {
        Owned d(new_dict(3));
        d.set(K.side, N.side[b.decision->side]);
        d.set(K.kind, N.decision[b.decision->kind]);
        d.set(K.mech, b.decision->mech ? py_int(*b.decision->mech) : py_none());
        out.set(K.decision, d.release());
    } else {
        out.set(K.decision, py_none());
    }
    out.set(K.over, py_bool(b.over));
    out.set(K.winner, py_optional(N.side, b.winner));
    out.set(K.end_reason, py_str(b.end_reason));
    {
        Owned edges(new_dict(2));
        for (std::uint8_t i = 0; i < b.home_edges.size; ++i) {
            Owned key(N.side[b.home_edges.keys[i]]);
            edges.set(key.o, py_str(b.home_edges.values[i]));
        }
        out.set(K.home_edges, edges.release());
    }
    out.set(K.building_armor, py_int_map(b.building_armor));
    out.set(K.np, py_json(b.np));
    out.set(K.mission, py_json(b.mission));
    out.set(K.version, py_int(b.version));
    return out.release();
}

}  // namespace state_io
