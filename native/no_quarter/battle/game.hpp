// Mirror of rules/no_quarter/battle/game.py's API: legal_actions (with _distinct/_near_kept:
// the Move part is flow_mech_moves.hpp's distinct_moves), check_legal (with flow_mech's
// move_problem), play and advance over flow.hpp's run/act, and _eliminated's BattleEnded.
//
// The procedures table (game.HANDLERS) holds what is ported: game_procedures() registers the
// turn, phase and group handlers (register_turn) and the BattleEnded of _eliminated; a frame
// kind, options or procedure still missing throws NotPorted naming its Python twin. The
// reference caches the options on the battle (Battle.options_cache); the core recomputes them
// (the same list).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flow.hpp"

namespace wargym::no_quarter {

// rules.errors.IllegalActionError: the action is not legal now (the reference's message).
class IllegalAction : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The handlers and procedures ported so far (built once).
const Procedures& game_procedures();
// Fills the procedures game.py itself owns (the BattleEnded of _eliminated).
void register_game(Procedures& procedures);

// game._distinct: drop repeated options and moves nearer than ``near`` on both axes to a kept
// one of the same (mech, reverse, jump), keeping the first.
std::vector<Action> distinct(const std::vector<Action>& options, double near);
// game.legal_actions (empty when over or no decision is pending).
std::vector<Action> legal_actions(const Ctx& ctx);
// game.check_legal: the IllegalActionError message, or nullopt when ``action`` is legal.
std::optional<std::string> illegal_because(const Ctx& ctx, const Action& action);
// game.play: check_legal (IllegalAction), then the action's unit and the rules up to the next
// decision. The battle is changed in place: callers wanting it untouched on an error work on a
// clone (the bindings do).
void play(Ctx& ctx, const Action& action);
// game.play without its check, for an action the caller took from legal_actions(ctx) of this
// very state (the batch: blue's decoded index, red's pick among the options). The check would
// list the legal actions a second time and find the action among them: it changes nothing.
void play_legal(Ctx& ctx, const Action& action);
// game.advance
void advance(Ctx& ctx);

}  // namespace wargym::no_quarter

namespace wargym::no_quarter {
// game._eliminated: a side with no mech in play ends the battle (BattleEnded); whether it did.
// (F's run() has the same test privately; this is the one the bindings and tests call.)
bool eliminated(Ctx& ctx);
}  // namespace wargym::no_quarter
