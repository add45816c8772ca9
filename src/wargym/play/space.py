"""The space duels of ``wargym play``: *Starship Combat* and *The Pentagon War* tables.

Sides 0 (blue) and 1 (red) plot simultaneously and in secret (TR-R3, PW-R2): the opponent
(the game's scripted captain; no learned space policy is shipped yet) plots first, then the
human, and the engine resolves the round or phase once both are done.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from wargym.rules.events import Event

from .games import Table


class SpaceTable(Table):
    """What both space duels share: sides 0 (blue) and 1 (red), plotted simultaneously."""

    def _side(self, side: str) -> int:
        return self.sides.index(side)

    def _seat_captain(self) -> None:
        if self.settings.opponent != "rules":
            self.notes.append(
                f"No learned policy is shipped for space duels yet: --opponent "
                f"{self.settings.opponent} plays the game's scripted captain."
            )
        self.opponent_name = "the scripted captain"

    def _has(self, side: int) -> bool:
        raise NotImplementedError

    def pending(self) -> str | None:
        """The opponent while it still plots, then the human."""
        if self.over():
            return None
        for side in (self.other, self.human):
            if self._has(self._side(side)):
                return side
        return None


class StarshipTable(SpaceTable):
    """A *Starship Combat* battle (``rules/starship_combat``)."""

    def _start(self, rng: np.random.Generator) -> None:
        from wargym.rules.starship_combat import game
        from wargym.rules.starship_combat.state import Options

        self.scenario = self.settings.scenario or "duel"
        options = Options(max_rounds=self.settings.turns or 0)
        self.state = game.new_battle(self.scenario, options)
        self.setup_events = list(game.advance(self.state, self.dice))
        self._seat_captain()

    def _has(self, side: int) -> bool:
        from wargym.rules.starship_combat import game

        return game.decision(self.state, side) is not None

    def legal(self, side: str) -> list[Any]:
        """``game.legal_actions``."""
        from wargym.rules.starship_combat import game

        return game.legal_actions(self.state, self._side(side))

    def decision(self, side: str) -> Any:
        """The engine's decision of ``side``."""
        from wargym.rules.starship_combat import game

        return game.decision(self.state, self._side(side))

    def play(self, side: str, action: Any) -> list[Event]:
        """``game.play``."""
        from wargym.rules.starship_combat import game

        return list(game.play(self.state, self._side(side), action, self.dice))

    def opponent_action(self) -> Any:
        """The captain's order."""
        from wargym.rules.starship_combat.captain import choose

        return choose(self.state, self._side(self.other))

    def over(self) -> bool:
        """TR-R25."""
        return bool(self.state.over)

    def winner(self) -> tuple[str | None, str]:
        """TR-R25."""
        from wargym.rules.starship_combat import game

        result = game.outcome(self.state)
        if result is None:
            return None, "not over"
        side = None if result.winner is None else self.sides[result.winner]
        return side, result.termination.value

    def state_dict(self) -> dict[str, Any]:
        """``BattleState.to_dict``."""
        return dict(self.state.to_dict())

    def title(self) -> str:
        """The scenario."""
        return f"Starship Combat: {self.scenario.replace('_', ' ')}"


class PentagonTable(SpaceTable):
    """A *Pentagon War* battle (``rules/pentagon_war``)."""

    def _start(self, rng: np.random.Generator) -> None:
        from wargym.rules.pentagon_war import game
        from wargym.rules.pentagon_war.data import load_rules
        from wargym.rules.pentagon_war.records import Options

        self.scenario = self.settings.scenario or "duel"
        scenario = load_rules().scenarios[self.scenario]
        given: dict[str, Any] = dict(scenario.options or {})
        options = dataclasses.replace(Options(), **given)
        if self.settings.turns:
            options = dataclasses.replace(options, max_turns=self.settings.turns)
        self.state, events = game.new_battle(self.scenario, rng, options, dice=self.dice)
        self.setup_events = list(events)
        self._seat_captain()

    def _has(self, side: int) -> bool:
        from wargym.rules.pentagon_war import game

        return game.has_decision(self.state, side)

    def decision(self, side: str) -> Any:
        """The engine's decision of ``side``."""
        from wargym.rules.pentagon_war import game

        return game.decision_for(self.state, self._side(side))

    def legal(self, side: str) -> list[Any]:
        """``game.legal_actions``."""
        from wargym.rules.pentagon_war import game

        return game.legal_actions(self.state, self._side(side))

    def play(self, side: str, action: Any) -> list[Event]:
        """``game.play``."""
        from wargym.rules.pentagon_war import game

        return list(game.play(self.state, action, self.dice, side=self._side(side)))

    def opponent_action(self) -> Any:
        """The captain's order."""
        from wargym.rules.pentagon_war.captain import captain_action

        decision = self.decision(self.other)
        return captain_action(self.state, decision)

    def over(self) -> bool:
        """PW-R21."""
        return self.state.outcome is not None

    def winner(self) -> tuple[str | None, str]:
        """PW-R21."""
        result = self.state.outcome
        if result is None:
            return None, "not over"
        side = None if result.winner is None else self.sides[result.winner]
        return side, str(getattr(result.termination, "value", result.termination))

    def state_dict(self) -> dict[str, Any]:
        """``BattleState.to_dict``."""
        return dict(self.state.to_dict())

    def title(self) -> str:
        """The scenario."""
        return f"The Pentagon War: {self.scenario.replace('_', ' ')}"


__all__ = ["PentagonTable", "SpaceTable", "StarshipTable"]
