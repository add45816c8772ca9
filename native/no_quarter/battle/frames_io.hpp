// The frame stack's reader and writer (frames_io.cpp): Battle.to_dict()'s "frames" list walked
// through the Python C API into the typed frames of frames.hpp, and back, key for key, type for
// type and in the frames' own key order. Internal to the state's bindings (state_reader.cpp,
// state_writer.cpp, frames_bindings.cpp).
#pragma once

#include <Python.h>

#include <cstdint>
#include <string>

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

}  // namespace frames_io
