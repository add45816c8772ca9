// C++ exceptions of the native core; native/bindings.cpp turns each into the Python error named
// beside it (native/errors.py), so bad input never aborts the process.
#pragma once

#include <stdexcept>
#include <string>

namespace wargym {

// A bad value, shape or size for the argument ``argument``: NativeArgumentError (a ValueError).
class ArgumentError : public std::invalid_argument {
public:
    ArgumentError(std::string argument, const std::string& message)
        : std::invalid_argument(message), argument_(std::move(argument)) {}
    const std::string& argument() const noexcept { return argument_; }

private:
    std::string argument_;
};

// A value of the wrong type for ``argument``: NativeTypeError (a TypeError and a ValueError).
class ArgumentTypeError : public ArgumentError {
public:
    using ArgumentError::ArgumentError;
};

// A malformed or inconsistent state document: ``path`` names the field (battle.mechs.0.pos[1]),
// what() says why. wargym.native.errors.NativeStateError (a validity.InvalidBattleError).
class StateError : public std::invalid_argument {
public:
    StateError(std::string path, const std::string& message)
        : std::invalid_argument(message), path_(std::move(path)) {}
    const std::string& path() const noexcept { return path_; }

private:
    std::string path_;
};

// A scripted face sequence ran out: wargym.rules.errors.DiceScriptExhaustedError.
class DiceScriptExhausted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace wargym
