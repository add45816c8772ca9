"""Scripted players: the rules' own procedures as player policies, for either side.

* :class:`NoQuarterScripted`: the book's Non-Player procedure (§22.4, 20.5) through
  :func:`wargym.rules.no_quarter.non_player.enemy.np_decide`, with its own NP memory
  (:class:`~.enemy.NpContext`) and table dice drawn from the agent's
  generator. Seated as red against the solo env's ``opponent="rules"`` it *is* the rules' AI;
  seated as blue it plays the same procedure for the player's side. It uses what the NP
  procedure uses: own mechs and the enemies its side has a line of sight to.
* :class:`PentagonWarCaptain`, :class:`StarshipCombatCaptain`: the scripted captains of the
  space games (``rules/*/captain.py``) as players of either side.

All three are :class:`~wargym.agents.base.EngineAgent` objects; seat them in an env with
:class:`~wargym.agents.base.EngineAdapter` (or :func:`~wargym.agents.base.as_agent`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wargym.agents.base import SeededAgent
from wargym.rules.dice import RandomDice


class NoQuarterScripted(SeededAgent):
    """The NP procedure (§22.4) as a player of either side (module docstring)."""

    needs_observation = False

    def __init__(self, rng: Any = None) -> None:
        super().__init__(rng)
        from wargym.rules.no_quarter.non_player.enemy import NpContext

        self.context = NpContext()

    def reset(self, seed: int | None = None) -> None:
        """Forget the NP memory (group postures and orders) and re-seed."""
        super().reset(seed)
        from wargym.rules.no_quarter.non_player.enemy import NpContext

        self.context = NpContext()

    def act_engine(self, state: Any, legal_actions: Sequence[Any], side: Any) -> Any:
        """``np_decide`` for the pending decision (§22.4)."""
        from wargym.rules.no_quarter.non_player.enemy import np_decide

        return np_decide(state, legal_actions, self.context, RandomDice(self.rng))


class PentagonWarCaptain(SeededAgent):
    """The Pentagon War scripted captain (``captain_action``) for either side."""

    needs_observation = False

    def act_engine(self, state: Any, legal_actions: Sequence[Any], side: Any) -> Any:
        """The captain's order for ``side``'s pending decision."""
        from wargym.rules.pentagon_war.captain import captain_action
        from wargym.rules.pentagon_war.game import decision_for

        decision = decision_for(state, int(side))
        if decision is None:
            raise ValueError(f"side {side} has nothing to decide")
        return captain_action(state, decision)


class StarshipCombatCaptain(SeededAgent):
    """The Starship Combat scripted captain (``captain.choose``) for either side."""

    needs_observation = False

    def act_engine(self, state: Any, legal_actions: Sequence[Any], side: Any) -> Any:
        """The captain's order for ``side``'s pending decision."""
        from wargym.rules.starship_combat import captain

        return captain.choose(state, int(side))


def scripted_agent(game: str, rng: Any = None) -> SeededAgent:
    """The scripted player of ``game`` (``no_quarter``, ``pentagon_war``, ``starship_combat``)."""
    kinds: dict[str, type[SeededAgent]] = {
        "no_quarter": NoQuarterScripted,
        "pentagon_war": PentagonWarCaptain,
        "starship_combat": StarshipCombatCaptain,
    }
    if game not in kinds:
        raise ValueError(f"unknown game {game!r}; one of {sorted(kinds)}")
    return kinds[game](rng)
