// The frame stack's reader and writer (frames_io.cpp): Battle.to_dict()'s "frames" list walked
// through the Python C API into the typed frames of frames.hpp, and back, key for key, type for
// type and in the frames' own key order. Internal to the state's bindings (state_reader.cpp,
// state_writer.cpp, frames_bindings.cpp).
#pragma once

#include <Python.h>

#include <cstdint>
#include <string>

#include <array>
#include <string_view>
#include <vector>

#include "frames.hpp"

namespace frames_io {

namespace nq = wargym::no_quarter;

// The frames list at ``where`` (battle.frames); wargym::StateError names the field as
// validity_parts does (battle.frames.2.opponents.4.0). ``json_depth`` bounds a pause's action.
nq::FrameStack read_frames(PyObject* list, const std::string& where, std::int64_t json_depth);
// One frame object at ``where``.
nq::Frame read_frame(PyObject* o, const std::string& where, std::int64_t json_depth);
// New references; nanobind's python_error on failure.
PyObject* write_frames(const nq::FrameStack& frames);
PyObject* write_frame(const nq::Frame& frame);
PyObject* write_entries(const std::vector<nq::ReactEntry>& entries);
std::vector<nq::ReactEntry> read_entries(PyObject* list, const std::string& where);

// The interned key names and value strings the reader and writer share (made once).
template <class V>
struct Strs {
    std::vector<PyObject*> items;
    explicit Strs(const V& vocab) {
        for (std::string_view v : vocab.values) items.push_back(PyUnicode_InternFromString(std::string(v).c_str()));
    }
    template <class E>
    PyObject* operator[](E e) const { return Py_NewRef(items[static_cast<std::size_t>(e)]); }
};

struct Names {
    std::array<PyObject*, nq::kFrameKeys> keys{};
    PyObject* building = PyUnicode_InternFromString("building");
    PyObject* type = PyUnicode_InternFromString("type");
    Strs<decltype(nq::kFrameKind)> kind{nq::kFrameKind};
    Strs<decltype(nq::kSide)> side{nq::kSide};
    Strs<decltype(nq::kLocation)> location{nq::kLocation};
    Strs<decltype(nq::kReactionTest)> test{nq::kReactionTest};
    Strs<decltype(nq::kMeleeAttack)> attack{nq::kMeleeAttack};
    Strs<decltype(nq::kChargeOutcome)> outcome{nq::kChargeOutcome};
    Strs<decltype(nq::kTurnStage)> turn{nq::kTurnStage};
    Strs<decltype(nq::kPhaseStage)> phase{nq::kPhaseStage};
    Strs<decltype(nq::kMechStage)> mech{nq::kMechStage};
    Strs<decltype(nq::kInsightStage)> insight{nq::kInsightStage};
    Strs<decltype(nq::kFireMode)> mode{nq::kFireMode};
    Strs<decltype(nq::kChargeStage)> charge{nq::kChargeStage};
    Strs<decltype(nq::kMeleeStage)> melee{nq::kMeleeStage};
    Strs<decltype(nq::kPauseUnit)> unit{nq::kPauseUnit};
    Strs<decltype(nq::kPauseStage)> pause{nq::kPauseStage};
    Strs<decltype(nq::kLuckyWhat)> what{nq::kLuckyWhat};
    Names() {
        for (std::size_t i = 0; i < nq::kFrameKeys; ++i) keys[i] = PyUnicode_InternFromString(nq::kFrameKeyNames[i]);
    }
};


const Names& names();

}  // namespace frames_io
