// Mirror of the move options of rules/no_quarter/battle/flow_mech.py (_allowance, _moves,
// _jumps, _round, move_problem) and of game._distinct's de-duplication of Move options (NEAR),
// §15.2, §15.2.2, §10.6.1, rulings D5, D23, D28.
//
// The mech frame (a dict in the reference) comes in as MoveFrame, the mech as Mover: the
// bindings read both (flow_mech_moves_bindings.cpp). Plain inputs only, no sight.hpp (see
// sight_movement/bumping.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../sight_movement/bumping.hpp"

namespace wargym::no_quarter {

// What the move options read of the mech (state.Mech).
struct Mover {
    std::int64_t id = 0;
    Point pos{0.0, 0.0};
    double heading = 0.0;
    std::int64_t speed = 0;
    bool has_jump_jets = false;  // Mech.has_jump_jets
};

// The mech frame's "spent" and "moved".
struct MoveFrame {
    double spent = 0.0;
    bool moved = false;
};

// BattleOptions.base_radius, move_directions, move_fractions.
struct MoveSettings {
    double base_radius = 0.5;
    std::int64_t directions = 16;
    std::vector<double> fractions;
};

// actions.Move: mech, to, reverse, jump.
struct MoveOption {
    std::int64_t mech;
    Point to;
    bool reverse;
    bool jump;
};

// flow_mech._allowance
double allowance(const Mover& mech, const MoveFrame& frame);
// flow_mech._round
Point round_point(Point p);
// flow_mech._moves (walks, reverses, then _jumps), before game._distinct.
std::vector<MoveOption> mech_moves(const MoveTerrain& t, const Mover& mech, const MoveFrame& frame,
                                   std::span<const BaseAt> others, const MoveSettings& settings);
// game._distinct restricted to Move options: drops a move nearer than near on both axes to a
// kept one of the same (mech, reverse, jump), keeping the first.
std::vector<MoveOption> distinct_moves(std::span<const MoveOption> moves, double near);
// The Move options as the reference offers them: distinct_moves(mech_moves(...), tables.near).
std::vector<MoveOption> move_options(const MoveTerrain& t, const Mover& mech, const MoveFrame& frame,
                                     std::span<const BaseAt> others, const MoveSettings& settings);
// flow_mech.move_problem: why the move is not legal now, or nullopt.
std::optional<std::string> move_problem(const MoveTerrain& t, const Mover& mech,
                                        const MoveFrame& frame, std::span<const BaseAt> others,
                                        double radius, const MoveOption& action);

}  // namespace wargym::no_quarter
