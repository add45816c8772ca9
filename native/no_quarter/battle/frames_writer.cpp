// The frame stack's writer (frames_io.hpp): each frame's keys in its own order, with the
// interned key names and shared value strings.
#include <nanobind/nanobind.h>

#include "frames_io.hpp"
#include "state_io.hpp"

namespace state_io {  // state_writer.cpp
PyObject* new_dict(Py_ssize_t n);
PyObject* py_json(const Json& j);
}  // namespace state_io

namespace frames_io {

namespace {

namespace nb = nanobind;
using nq::FrameKey;
using nq::Num;
using K = FrameKey;

PyObject* ok(PyObject* o) {
    if (!o) throw nb::python_error();
    return o;
}

struct Owned {
    PyObject* o;
    explicit Owned(PyObject* p) : o(ok(p)) {}
    ~Owned() { Py_XDECREF(o); }
    Owned(const Owned&) = delete;
    PyObject* release() { PyObject* p = o; o = nullptr; return p; }
    void set(PyObject* key, PyObject* value) {  // steals value
        ok(value);
        const int rc = PyDict_SetItem(o, key, value);
        Py_DECREF(value);
        if (rc < 0) throw nb::python_error();
    }
};

PyObject* w_int(std::int64_t v) { return PyLong_FromLongLong(v); }
PyObject* w_bool(bool v) { return Py_NewRef(v ? Py_True : Py_False); }
PyObject* w_num(const Num& v) { return v.is_int ? PyLong_FromLongLong(v.i) : PyFloat_FromDouble(v.d); }

template <class T, class F>
PyObject* w_list(const std::vector<T>& items, F&& make) {
    Owned out(PyList_New(static_cast<Py_ssize_t>(items.size())));
    for (std::size_t i = 0; i < items.size(); ++i) PyList_SET_ITEM(out.o, static_cast<Py_ssize_t>(i), ok(make(items[i])));
    return out.release();
}

PyObject* w_ids(const nq::Ids& ids) { return w_list(ids, w_int); }
PyObject* w_point(const nq::NumPoint& p) {
    Owned out(PyList_New(2));
    PyList_SET_ITEM(out.o, 0, ok(w_num(p[0])));
    PyList_SET_ITEM(out.o, 1, ok(w_num(p[1])));
    return out.release();
}

template <class T>
PyObject* w_opt(const std::optional<T>& v, PyObject* (*make)(const T&)) {
    return v ? make(*v) : Py_NewRef(Py_None);
}
PyObject* w_int_ref(const std::int64_t& v) { return w_int(v); }

template <class V, class F>
PyObject* w_id_map(const nq::IdMap<V>& map, F&& make) {
    Owned out(state_io::new_dict(static_cast<Py_ssize_t>(map.size())));
    for (const auto& [id, v] : map) {
        Owned key(PyUnicode_FromFormat("%lld", static_cast<long long>(id)));
        out.set(key.o, make(v));
    }
    return out.release();
}

template <std::size_t N, class F>
PyObject* w_record(const nq::KeyOrder<N>& order, F&& value) {
    const Names& n = names();
    Owned out(state_io::new_dict(order.n));
    for (FrameKey k : order) out.set(n.keys[static_cast<std::size_t>(k)], value(k));
    return out.release();
}

PyObject* w_entry(const nq::ReactEntry& e) {
    return w_record(e.keys, [&](FrameKey k) -> PyObject* {
        switch (k) {
            case K::mech: return w_int(e.mech);
            case K::test: return names().test[e.test];
            case K::causes: return w_ids(e.causes);
            default: return w_ids(e.enemies);
        }
    });
}

PyObject* w_waiting(const nq::WaitingCharge& c) {
    return w_record(c.keys, [&](FrameKey k) -> PyObject* {
        switch (k) {
            case K::charger: return w_int(c.charger);
            case K::target: return w_int(c.target);
            case K::jump: return w_bool(c.jump);
            default: return names().outcome[c.outcome];
        }
    });
}

PyObject* w_assignment(const nq::Assignment& a) {
    Owned out(PyList_New(a.building ? 3 : 2));
    PyList_SET_ITEM(out.o, 0, ok(w_int(a.weapon)));
    PyList_SET_ITEM(out.o, 1, ok(w_int(a.target)));
    if (a.building) PyList_SET_ITEM(out.o, 2, Py_NewRef(names().building));
    return out.release();
}

PyObject* w_location(const nq::Location& l) { return names().location[l]; }

struct Writer {
    const Names& n = names();
    PyObject* operator()(const nq::TurnFrame& f, FrameKey) const { return n.turn[f.stage]; }
    PyObject* operator()(const nq::ObjectiveFrame&, FrameKey) const { return Py_NewRef(Py_None); }
    PyObject* operator()(const nq::PhaseFrame& f, FrameKey k) const {
        switch (k) {
            case K::side: return n.side[f.side];
            case K::stage: return n.phase[f.stage];
            case K::groups: return w_list(f.groups, w_ids);
            case K::done: return w_ids(f.done);
            case K::pefs: return w_bool(f.pefs);
            case K::leaders: return w_ids(f.leaders);
            default: return w_int(f.asking);
        }
    }
    PyObject* operator()(const nq::GroupFrame& f, FrameKey k) const {
        if (k == K::side) return n.side[f.side];
        return w_ids(k == K::members ? f.members : f.acted);
    }
    PyObject* operator()(const nq::MechFrame& f, FrameKey k) const {
        switch (k) {
            case K::mech: return w_int(f.mech);
            case K::stage: return n.mech[f.stage];
            case K::spent: return w_num(f.spent);
            case K::moved: return w_bool(f.moved);
            case K::fired: return w_bool(f.fired);
            case K::start: return w_point(f.start);
            default: return w_bool(f.turn);
        }
    }
    PyObject* operator()(const nq::InsightFrame& f, FrameKey k) const {
        switch (k) {
            case K::side: return n.side[f.side];
            case K::mover: return w_int(f.mover);
            case K::group: return w_int(f.group);
            case K::enemy_groups: return w_ids(f.enemy_groups);
            case K::stage: return n.insight[f.stage];
            case K::free: return w_opt(f.free, w_ids);
            case K::winners: return w_ids(f.winners);
            case K::opponents: return w_id_map(f.opponents, w_ids);
            case K::deferred: return w_list(f.deferred, w_entry);
            case K::next: return w_int(f.next);
            case K::charging: return w_int(f.charging);
            case K::charge_options: return w_ids(f.charge_options);
            case K::charge_rolls: return w_id_map(f.charge_rolls, w_ids);
            default: return w_list(f.charges, w_waiting);
        }
    }
    PyObject* operator()(const nq::FireFrame& f, FrameKey k) const {
        switch (k) {
            case K::shooter: return w_int(f.shooter);
            case K::mode: return n.mode[f.mode];
            case K::targets: return w_opt(f.targets, w_ids);
            case K::cause: return w_opt(f.cause, w_int_ref);
            case K::rush: return w_bool(f.rush);
            case K::assigned: return w_list(f.assigned, w_assignment);
            case K::twist: return w_opt(f.twist, w_int_ref);
            default: return w_ids(f.rush_at);
        }
    }
    PyObject* operator()(const nq::ReactFrame& f, FrameKey k) const {
        if (k == K::entries) return w_list(f.entries, w_entry);
        if (k == K::free_will) return w_id_map(f.free_will, w_int_ref);
        return w_int(f.asking);
    }
    PyObject* operator()(const nq::ChargeFrame& f, FrameKey k) const {
        switch (k) {
            case K::charger: return w_int(f.charger);
            case K::target: return w_int(f.target);
            case K::stage: return n.charge[f.stage];
            case K::allowance: return w_num(f.allowance);
            case K::start: return w_point(f.start);
            case K::jump: return w_bool(f.jump);
            default: return w_num(f.spent);
        }
    }
    PyObject* operator()(const nq::MeleeFrame& f, FrameKey k) const {
        switch (k) {
            case K::attacker: return w_int(f.attacker);
            case K::defender: return w_int(f.defender);
            case K::jump: return w_bool(f.jump);
            case K::decl:
                return w_id_map(f.decl, [&](const std::pair<nq::MeleeAttack, nq::Location>& d) {
                    Owned out(PyList_New(2));
                    PyList_SET_ITEM(out.o, 0, n.attack[d.first]);
                    PyList_SET_ITEM(out.o, 1, n.location[d.second]);
                    return out.release();
                });
            case K::stage: return n.melee[f.stage];
            default: return w_int(f.ties);
        }
    }
    PyObject* operator()(const nq::ChargesFrame& f, FrameKey k) const {
        if (k == K::entries) return w_list(f.entries, w_waiting);
        if (k == K::fired) return w_ids(f.fired);
        return w_int(f.picked);
    }
    PyObject* operator()(const nq::PefsFrame& f, FrameKey) const { return w_opt(f.order, w_ids); }
    PyObject* operator()(const nq::PauseFrame& f, FrameKey k) const {
        switch (k) {
            case K::unit: return n.unit[f.unit];
            case K::action: return state_io::py_json(f.action);
            case K::rolls: return w_list(f.rolls, w_ids);
            case K::answers:
                return w_list(f.answers, [&](const nq::Answer& a) {
                    return a.is_location ? n.location[a.location] : w_bool(a.reroll);
                });
            case K::stage: return n.pause[f.stage];
            case K::mech: return w_int(f.mech);
            case K::what: return n.what[f.what];
            case K::faces: return w_ids(f.faces);
            case K::target: return w_opt(f.target, w_int_ref);
            case K::choices: return w_list(f.choices, w_location);
            case K::passed: return w_int(f.passed);
            case K::shielded_hit: return w_bool(f.shielded_hit);
            case K::lost: return w_bool(f.lost);
            default: return w_list(f.shielded, w_location);
        }
    }
};

}  // namespace

PyObject* write_frame(const nq::Frame& frame) {
    const Names& n = names();
    const Writer writer;
    return w_record(frame.keys, [&](FrameKey k) -> PyObject* {
        if (k == K::kind) return n.kind[frame.kind()];
        return std::visit([&](const auto& body) { return writer(body, k); }, frame.body);
    });
}

PyObject* write_frames(const nq::FrameStack& frames) {
    Owned out(PyList_New(static_cast<Py_ssize_t>(frames.size())));
    for (std::size_t i = 0; i < frames.size(); ++i) {
        PyList_SET_ITEM(out.o, static_cast<Py_ssize_t>(i), ok(write_frame(frames[i])));
    }
    return out.release();
}

PyObject* write_entries(const std::vector<nq::ReactEntry>& entries) { return w_list(entries, w_entry); }

}  // namespace frames_io
