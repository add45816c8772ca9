// The frame stack's reader (frames_io.hpp). A frame is refused here, naming the
// field as validity_parts does, when a typed frame cannot hold it: not an object with a kind,
// an unknown kind, a key the engine never writes into that kind (or a missing one), a value of
// the wrong type, a stage, mode or enum value outside its vocabulary, an object key that is not
// a canonical integer ("12", not "012"). Beyond validity_parts: the reference with check=False
// keeps any JSON in its frames, the native reader refuses all of the above at once; floats
// must be finite and ints fit 64 bits, as everywhere in the native state.
#include "frames_io.hpp"

#include <nanobind/nanobind.h>

#include <string_view>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "state_io.hpp"

namespace state_io {  // state_reader.cpp
Json get_json(PyObject* o, const Path& at, std::int64_t depth_left);
}  // namespace state_io

namespace frames_io {

namespace {

namespace nb = nanobind;
using nq::FrameKey;
using nq::Num;
using K = FrameKey;

// -- paths (validity_parts' dotted form) and refusals -------------------------------------------
struct At {
    const At* parent;
    const char* field = nullptr;
    std::int64_t index = -1;
    std::string_view key{};
    const std::string* root = nullptr;

    At operator/(const char* f) const { return At{this, f}; }
    At operator/(FrameKey k) const { return At{this, nq::kFrameKeyNames[static_cast<std::size_t>(k)]}; }
    At operator[](std::int64_t i) const { return At{this, nullptr, i}; }
    At key_(std::string_view k) const { return At{this, nullptr, -1, k}; }
    std::string str() const {
        if (root) return *root;
        std::string head = parent->str() + ".";
        if (field) return head + field;
        if (index >= 0) return head + std::to_string(index);
        return head + std::string(key);
    }
};

[[noreturn]] void bad(const At& at, const std::string& why) { throw wargym::StateError(at.str(), why); }
std::string quote(PyObject* o) { return wargym::short_repr(nb::handle(o)); }

std::string_view text_of(PyObject* o) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(o, &size);
    if (!data) {
        PyErr_Clear();
        return {};
    }
    return {data, static_cast<std::size_t>(size)};
}

// -- scalars -----------------------------------------------------------------------------------
std::int64_t rd_int(PyObject* o, const At& at) {
    if (!PyLong_Check(o) || PyBool_Check(o)) bad(at, "expected an integer, got " + quote(o));
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        bad(at, "expected an integer within 64 bits, got " + quote(o));
    }
    return v;
}

bool rd_bool(PyObject* o, const At& at) {
    if (!PyBool_Check(o)) bad(at, quote(o) + " is not true or false");
    return o == Py_True;
}

Num rd_num(PyObject* o, const At& at) {
    if (PyFloat_Check(o)) {
        const double d = PyFloat_AS_DOUBLE(o);
        if (!std::isfinite(d)) bad(at, "expected a finite number, got " + quote(o));
        return Num::real(d);
    }
    if (PyLong_Check(o) && !PyBool_Check(o)) return Num::integer(rd_int(o, at));
    bad(at, "expected a number, got " + quote(o));
}

template <class V, class S>
auto rd_enum(PyObject* o, const At& at, const V& vocab, const S& strs) {
    for (std::size_t i = 0; i < strs.items.size(); ++i) {
        if (strs.items[i] == o) return static_cast<std::remove_cvref_t<decltype(*vocab.find(""))>>(i);
    }
    if (PyUnicode_Check(o)) {
        if (auto e = vocab.find(text_of(o))) return *e;
    }
    std::string choices;
    for (std::string_view v : vocab.values) choices += (choices.empty() ? "'" : ", '") + std::string(v) + "'";
    bad(at, quote(o) + " is not one of [" + choices + "]");
}

Py_ssize_t rd_list(PyObject* o, const At& at) {
    if (!PyList_Check(o)) bad(at, quote(o) + " is not a list");
    return PyList_GET_SIZE(o);
}

template <class F>
auto rd_list_of(PyObject* o, const At& at, F&& item) {
    const Py_ssize_t n = rd_list(o, at);
    std::vector<decltype(item(o, at))> out;
    out.reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) out.push_back(item(PyList_GET_ITEM(o, i), at[i]));
    return out;
}

nq::Ids rd_ids(PyObject* o, const At& at) { return rd_list_of(o, at, rd_int); }

nq::NumPoint rd_point(PyObject* o, const At& at) {
    if (!PyList_Check(o) || PyList_GET_SIZE(o) != 2) bad(at, "expected [x, y]");
    return {rd_num(PyList_GET_ITEM(o, 0), at[0]), rd_num(PyList_GET_ITEM(o, 1), at[1])};
}

template <class F>
auto rd_or_none(PyObject* o, const At& at, F&& read) -> std::optional<decltype(read(o, at))> {
    if (o == Py_None) return std::nullopt;
    return read(o, at);
}

// A dict keyed by str(mech id): validity_parts.map_of(key_of(...), ...).
template <class F>
auto rd_id_map(PyObject* o, const At& at, F&& value) {
    if (!PyDict_Check(o)) bad(at, quote(o) + " is not an object");
    nq::IdMap<decltype(value(o, at))> out;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
        if (!PyUnicode_CheckExact(k)) {
            const std::string name = quote(k).substr(0, 20);
            bad(at.key_(name), "keys are integers");
        }
        const std::string_view s = text_of(k);
        const At field = at.key_(s.substr(0, 20));
        // key_of: ASCII digits after an optional '-', at most 12 characters; canonical only here
        const std::size_t sign = !s.empty() && s[0] == '-' ? 1 : 0;
        bool digits = s.size() > sign && s.size() <= 12;
        for (std::size_t i = sign; i < s.size() && digits; ++i) digits = s[i] >= '0' && s[i] <= '9';
        if (!digits) bad(field, "keys are integers");
        const bool canonical = (s[sign] != '0' || s.size() == sign + 1) && !(sign && s == "-0");
        if (!canonical) bad(field, "keys are integers written as the engine writes them (str(int))");
        std::int64_t id = 0;
        for (std::size_t i = sign; i < s.size(); ++i) id = id * 10 + (s[i] - '0');
        out.emplace_back(sign ? -id : id, value(v, field));
    }
    return out;
}

// -- records -------------------------------------------------------------------------------------
FrameKey key_id(PyObject* k) {
    const Names& n = names();
    for (std::size_t i = 0; i < nq::kFrameKeys; ++i) {
        if (n.keys[i] == k) return static_cast<FrameKey>(i);
    }
    const std::string_view s = text_of(k);
    for (std::size_t i = 0; i < nq::kFrameKeys; ++i) {
        if (s == nq::kFrameKeyNames[i]) return static_cast<FrameKey>(i);
    }
    return FrameKey::count_;
}

// validity_parts.record: each key known to ``schema``, each required one present; ``read``
// takes each (key, value) in the document's order, which the KeyOrder keeps.
template <std::size_t N, class F>
void rd_record(PyObject* o, const At& at, const nq::FrameSchema& schema, nq::KeyOrder<N>& order, F&& read) {
    if (!PyDict_Check(o)) bad(at, quote(o) + " is not an object");
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
        const FrameKey key = PyUnicode_CheckExact(k) ? key_id(k) : FrameKey::count_;
        if (key == FrameKey::count_ || !((schema.required | schema.optional) & nq::key_bit(key))) {
            const std::string name = PyUnicode_CheckExact(k) ? std::string(text_of(k).substr(0, 40)) : quote(k);
            bad(at.key_(name), "a key the engine never writes here");
        }
        order.set(key);
        read(key, v, at / key);
    }
    for (std::size_t i = 0; i < nq::kFrameKeys; ++i) {
        const auto key = static_cast<FrameKey>(i);
        if ((schema.required & nq::key_bit(key)) && !order.has(key)) bad(at / key, "missing");
    }
}

nq::ReactEntry rd_entry(PyObject* o, const At& at) {
    nq::ReactEntry e;
    rd_record(o, at, nq::kEntrySchema, e.keys, [&](FrameKey k, PyObject* v, const At& w) {
        if (k == K::mech) e.mech = rd_int(v, w);
        if (k == K::test) e.test = rd_enum(v, w, nq::kReactionTest, names().test);
        if (k == K::causes) e.causes = rd_ids(v, w);
        if (k == K::enemies) e.enemies = rd_ids(v, w);
    });
    return e;
}

nq::WaitingCharge rd_waiting(PyObject* o, const At& at) {
    nq::WaitingCharge c;
    rd_record(o, at, nq::kWaitingSchema, c.keys, [&](FrameKey k, PyObject* v, const At& w) {
        if (k == K::charger) c.charger = rd_int(v, w);
        if (k == K::target) c.target = rd_int(v, w);
        if (k == K::jump) c.jump = rd_bool(v, w);
        if (k == K::outcome) c.outcome = rd_enum(v, w, nq::kChargeOutcome, names().outcome);
    });
    return c;
}

nq::Assignment rd_assignment(PyObject* o, const At& at) {
    if (!PyList_Check(o) || (PyList_GET_SIZE(o) != 2 && PyList_GET_SIZE(o) != 3)) {
        bad(at, "expected [weapon, target] or [weapon, feature, 'building']");
    }
    nq::Assignment a{rd_int(PyList_GET_ITEM(o, 0), at[0]), rd_int(PyList_GET_ITEM(o, 1), at[1]), false};
    if (PyList_GET_SIZE(o) == 3) {
        PyObject* tag = PyList_GET_ITEM(o, 2);
        if (tag != names().building && !(PyUnicode_CheckExact(tag) && text_of(tag) == "building")) {
            bad(at[2], quote(tag) + " is not one of ['building']");
        }
        a.building = true;
    }
    return a;
}

std::pair<nq::MeleeAttack, nq::Location> rd_declaration(PyObject* o, const At& at) {
    if (!PyList_Check(o) || PyList_GET_SIZE(o) != 2) bad(at, "expected [attack, limb]");
    return {rd_enum(PyList_GET_ITEM(o, 0), at[0], nq::kMeleeAttack, names().attack),
            rd_enum(PyList_GET_ITEM(o, 1), at[1], nq::kLocation, names().location)};
}

nq::Location rd_location(PyObject* o, const At& at) { return rd_enum(o, at, nq::kLocation, names().location); }

nq::Answer rd_answer(PyObject* o, const At& at) {
    if (PyBool_Check(o)) return nq::Answer{false, o == Py_True, {}};
    return nq::Answer{true, false, rd_location(o, at)};
}

// -- each kind's keys ----------------------------------------------------------------------------
struct Reader {
    std::int64_t json_depth;
    const Names& n = names();

    void operator()(nq::TurnFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::stage) f.stage = rd_enum(v, w, nq::kTurnStage, n.turn);
    }
    void operator()(nq::ObjectiveFrame&, FrameKey, PyObject*, const At&) const {}
    void operator()(nq::PhaseFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::side) f.side = rd_enum(v, w, nq::kSide, n.side);
        if (k == K::stage) f.stage = rd_enum(v, w, nq::kPhaseStage, n.phase);
        if (k == K::groups) f.groups = rd_list_of(v, w, rd_ids);
        if (k == K::done) f.done = rd_ids(v, w);
        if (k == K::pefs) f.pefs = rd_bool(v, w);
        if (k == K::leaders) f.leaders = rd_ids(v, w);
        if (k == K::asking) f.asking = rd_int(v, w);
    }
    void operator()(nq::GroupFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::side) f.side = rd_enum(v, w, nq::kSide, n.side);
        if (k == K::members) f.members = rd_ids(v, w);
        if (k == K::acted) f.acted = rd_ids(v, w);
    }
    void operator()(nq::MechFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::mech) f.mech = rd_int(v, w);
        if (k == K::stage) f.stage = rd_enum(v, w, nq::kMechStage, n.mech);
        if (k == K::spent) f.spent = rd_num(v, w);
        if (k == K::moved) f.moved = rd_bool(v, w);
        if (k == K::fired) f.fired = rd_bool(v, w);
        if (k == K::start) f.start = rd_point(v, w);
        if (k == K::turn) f.turn = rd_bool(v, w);
    }
    void operator()(nq::InsightFrame& f, FrameKey k, PyObject* v, const At& w) const {
        switch (k) {
            case K::side: f.side = rd_enum(v, w, nq::kSide, n.side); break;
            case K::mover: f.mover = rd_int(v, w); break;
            case K::group: f.group = rd_int(v, w); break;
            case K::enemy_groups: f.enemy_groups = rd_ids(v, w); break;
            case K::stage: f.stage = rd_enum(v, w, nq::kInsightStage, n.insight); break;
            case K::free: f.free = rd_or_none(v, w, rd_ids); break;
            case K::winners: f.winners = rd_ids(v, w); break;
            case K::opponents: f.opponents = rd_id_map(v, w, rd_ids); break;
            case K::deferred: f.deferred = rd_list_of(v, w, rd_entry); break;
            case K::next: f.next = rd_int(v, w); break;
            case K::charging: f.charging = rd_int(v, w); break;
            case K::charge_options: f.charge_options = rd_ids(v, w); break;
            case K::charge_rolls: f.charge_rolls = rd_id_map(v, w, rd_ids); break;
            case K::charges: f.charges = rd_list_of(v, w, rd_waiting); break;
            default: break;
        }
    }
    void operator()(nq::FireFrame& f, FrameKey k, PyObject* v, const At& w) const {
        switch (k) {
            case K::shooter: f.shooter = rd_int(v, w); break;
            case K::mode: f.mode = rd_enum(v, w, nq::kFireMode, n.mode); break;
            case K::targets: f.targets = rd_or_none(v, w, rd_ids); break;
            case K::cause: f.cause = rd_or_none(v, w, rd_int); break;
            case K::rush: f.rush = rd_bool(v, w); break;
            case K::assigned: f.assigned = rd_list_of(v, w, rd_assignment); break;
            case K::twist: f.twist = rd_or_none(v, w, rd_int); break;
            case K::rush_at: f.rush_at = rd_ids(v, w); break;
            default: break;
        }
    }
    void operator()(nq::ReactFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::entries) f.entries = rd_list_of(v, w, rd_entry);
        if (k == K::free_will) f.free_will = rd_id_map(v, w, rd_int);
        if (k == K::asking) f.asking = rd_int(v, w);
    }
    void operator()(nq::ChargeFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::charger) f.charger = rd_int(v, w);
        if (k == K::target) f.target = rd_int(v, w);
        if (k == K::stage) f.stage = rd_enum(v, w, nq::kChargeStage, n.charge);
        if (k == K::allowance) f.allowance = rd_num(v, w);
        if (k == K::start) f.start = rd_point(v, w);
        if (k == K::jump) f.jump = rd_bool(v, w);
        if (k == K::spent) f.spent = rd_num(v, w);
    }
    void operator()(nq::MeleeFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::attacker) f.attacker = rd_int(v, w);
        if (k == K::defender) f.defender = rd_int(v, w);
        if (k == K::jump) f.jump = rd_bool(v, w);
        if (k == K::decl) f.decl = rd_id_map(v, w, rd_declaration);
        if (k == K::stage) f.stage = rd_enum(v, w, nq::kMeleeStage, n.melee);
        if (k == K::ties) f.ties = rd_int(v, w);
    }
    void operator()(nq::ChargesFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::entries) f.entries = rd_list_of(v, w, rd_waiting);
        if (k == K::fired) f.fired = rd_ids(v, w);
        if (k == K::picked) f.picked = rd_int(v, w);
    }
    void operator()(nq::PefsFrame& f, FrameKey k, PyObject* v, const At& w) const {
        if (k == K::order) f.order = rd_or_none(v, w, rd_ids);
    }
    void operator()(nq::PauseFrame& f, FrameKey k, PyObject* v, const At& w) const {
        switch (k) {
            case K::unit: f.unit = rd_enum(v, w, nq::kPauseUnit, n.unit); break;
            case K::action: f.action = action(v, w); break;
            case K::rolls: f.rolls = rd_list_of(v, w, rd_ids); break;
            case K::answers: f.answers = rd_list_of(v, w, rd_answer); break;
            case K::stage: f.stage = rd_enum(v, w, nq::kPauseStage, n.pause); break;
            case K::mech: f.mech = rd_int(v, w); break;
            case K::what: f.what = rd_enum(v, w, nq::kLuckyWhat, n.what); break;
            case K::faces: f.faces = rd_ids(v, w); break;
            case K::target: f.target = rd_or_none(v, w, rd_int); break;
            case K::choices: f.choices = rd_list_of(v, w, rd_location); break;
            case K::passed: f.passed = rd_int(v, w); break;
            case K::shielded_hit: f.shielded_hit = rd_bool(v, w); break;
            case K::lost: f.lost = rd_bool(v, w); break;
            case K::shielded: f.shielded = rd_list_of(v, w, rd_location); break;
            default: break;
        }
    }
    // None, or an object with a text "type" (actions.action_from_dict's fields: not mirrored)
    wargym::Json action(PyObject* v, const At& w) const {
        if (v == Py_None) return wargym::Json();
        if (!PyDict_Check(v)) bad(w, "not an action");
        PyObject* type = PyDict_GetItemWithError(v, n.type);
        if (!type || !PyUnicode_Check(type)) {
            PyErr_Clear();
            bad(w, "not an action");
        }
        const std::string where = w.str();
        return state_io::get_json(v, state_io::Path{nullptr, where.c_str()}, json_depth);
    }
};

nq::FrameBody empty_body(nq::FrameKind kind) {
    switch (kind) {
        case nq::FrameKind::turn: return nq::TurnFrame{};
        case nq::FrameKind::phase: return nq::PhaseFrame{};
        case nq::FrameKind::group: return nq::GroupFrame{};
        case nq::FrameKind::mech: return nq::MechFrame{};
        case nq::FrameKind::insight: return nq::InsightFrame{};
        case nq::FrameKind::fire: return nq::FireFrame{};
        case nq::FrameKind::react: return nq::ReactFrame{};
        case nq::FrameKind::charge: return nq::ChargeFrame{};
        case nq::FrameKind::melee: return nq::MeleeFrame{};
        case nq::FrameKind::charges: return nq::ChargesFrame{};
        case nq::FrameKind::objective: return nq::ObjectiveFrame{};
        case nq::FrameKind::pefs: return nq::PefsFrame{};
        case nq::FrameKind::pause: return nq::PauseFrame{};
    }
    return nq::TurnFrame{};
}

// ``listed``: the frame's path as serial.from_jsonable writes it (battle.frames[2]), which
// refuses a frame that is no object or has a key that is no text.
std::string listed(const At& at) {
    if (at.index >= 0 && at.parent) return at.parent->str() + "[" + std::to_string(at.index) + "]";
    return at.str();
}

nq::Frame rd_frame(PyObject* o, const At& at, std::int64_t json_depth) {
    const Names& n = names();
    PyObject* kind = nullptr;
    if (!PyDict_Check(o)) throw wargym::StateError(listed(at), "expected an object, got " + quote(o));
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
        if (!PyUnicode_CheckExact(k)) throw wargym::StateError(listed(at), "expected str, got " + quote(k));
        if (key_id(k) == K::kind) kind = v;
    }
    if (!kind || !PyUnicode_Check(kind)) bad(at, "a frame is an object with a kind");
    std::optional<nq::FrameKind> which;
    for (std::size_t i = 0; i < n.kind.items.size() && !which; ++i) {
        if (n.kind.items[i] == kind) which = static_cast<nq::FrameKind>(i);
    }
    if (!which) which = nq::kFrameKind.find(text_of(kind));
    if (!which) {
        std::string known;
        for (std::string_view name : nq::kFrameKind.values) known += (known.empty() ? "'" : ", '") + std::string(name) + "'";
        bad(at / K::kind, quote(kind) + " is not a procedure of the rules ([" + known + "])");
    }
    nq::Frame frame{{}, empty_body(*which)};
    const Reader reader{json_depth};
    rd_record(o, at, nq::kFrameSchemas[static_cast<std::size_t>(*which)], frame.keys,
              [&](FrameKey k, PyObject* v, const At& w) {
                  std::visit([&](auto& body) { reader(body, k, v, w); }, frame.body);
              });
    return frame;
}

}  // namespace

const Names& names() {
    static const Names* n = new Names();  // kept for the process's life
    return *n;
}

nq::Frame read_frame(PyObject* o, const std::string& where, std::int64_t json_depth) {
    const At root{nullptr, nullptr, -1, {}, &where};
    return rd_frame(o, root, json_depth);
}

nq::FrameStack read_frames(PyObject* list, const std::string& where, std::int64_t json_depth) {
    const At root{nullptr, nullptr, -1, {}, &where};
    const Py_ssize_t n = rd_list(list, root);
    nq::FrameStack out;
    for (Py_ssize_t i = 0; i < n; ++i) out.push(rd_frame(PyList_GET_ITEM(list, i), root[i], json_depth));
    return out;
}

std::vector<nq::ReactEntry> read_entries(PyObject* list, const std::string& where) {
    const At root{nullptr, nullptr, -1, {}, &where};
    return rd_list_of(list, root, rd_entry);
}

}  // namespace frames_io
