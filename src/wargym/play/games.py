"""The games ``wargym play`` offers, one adapter per engine, and the opponents that sit at them.

Every adapter (:class:`Table`) answers the same questions of its engine: who must decide now,
the legal options of a side (the engine's own list), playing one of them (the events it
produced), whether the game is over and who won, and the engine's JSON state. The adapters
hold no rule of their own: set-ups, options and results all come from the engines.

* No Quarter (:class:`NoQuarterTable`): a skirmish (either side against the shipped policy,
  the book's non-player AI or the tactician), a generic Patrol/Attack/Defend mission or a
  Cestus V mission (the player's side is blue; the enemy arrives as PEFs, §20: with ``rules``
  the engine plays it by the book's non-player procedure, §22.4; with ``shipped`` or
  ``tactician`` the NP seat is left to that opponent, ``game.seat_np_outside``, while the
  rules still place and resolve PEFs, bring reinforcements and withdraw groups).
* *Starship Combat* and *The Pentagon War* (:mod:`.space`):
  a space duel against the game's scripted captain (no learned space policy is shipped yet).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.events import Event

NO_QUARTER_GAMES = ("skirmish", "patrol", "attack", "defend", "cestus-v")
"""The No Quarter battles and missions."""
SPACE_GAMES = ("starship", "pentagon")
"""The space duels."""
GAMES = NO_QUARTER_GAMES + SPACE_GAMES
MISSION_SCENARIOS = {
    "patrol": "patrol_star_army_vs_hishen",
    "attack": "attack_iss_vs_hishen",
    "defend": "defend_star_army_vs_hishen",
}
"""The packaged generic mission each mission kind plays (``--scenario`` picks another)."""
SKIRMISH_TURNS = 12
"""Turn limit of a skirmish unless ``--turns`` gives one."""
OPPONENTS = ("shipped", "rules", "tactician")
SIDES = ("blue", "red")


@dataclasses.dataclass(frozen=True)
class Settings:
    """What a session plays; saved with it so that a load rebuilds the same game."""

    game: str
    opponent: str = "shipped"
    side: str = "blue"
    seed: int = 1
    mission: int = 1
    mechs: int = 3
    turns: int | None = None
    """Turn limit (skirmish: 12 unless given; space duels: the scenario's own unless given)."""
    scenario: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON data."""
        return dataclasses.asdict(self)


class Table:
    """One game in play: the engine state, its dice, the human's side and the opponent."""

    sides: tuple[str, str] = SIDES
    notes: list[str]
    """Lines said once at the start (an opponent replaced by the engine's, say)."""
    opponent_name: str

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.human = settings.side
        self.other = self.sides[1 - self.sides.index(self.human)]
        self.notes = []
        setup_rng, dice_rng, self.opponent_rng = np.random.default_rng(settings.seed).spawn(3)
        self.dice = RandomDice(dice_rng)
        self.setup_events: list[Event] = []
        self._start(setup_rng)

    def _start(self, rng: np.random.Generator) -> None:
        raise NotImplementedError

    def pending(self) -> str | None:
        """The side that must decide now (the opponent first when both plot), None if over."""
        raise NotImplementedError

    def legal(self, side: str) -> list[Any]:
        """The engine's legal options of ``side`` now."""
        raise NotImplementedError

    def play(self, side: str, action: Any) -> list[Event]:
        """Play ``action`` for ``side``; the events up to the next decision."""
        raise NotImplementedError

    def opponent_action(self) -> Any:
        """The opponent's choice at its pending decision."""
        raise NotImplementedError

    def over(self) -> bool:
        """Whether the game has ended."""
        raise NotImplementedError

    def winner(self) -> tuple[str | None, str]:
        """``(winning side or None for a draw, how it ended)``; only once over."""
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:
        """The engine's own JSON state."""
        raise NotImplementedError

    def title(self) -> str:
        """One line naming the game."""
        raise NotImplementedError


# -- No Quarter ------------------------------------------------------------------------------


class NoQuarterTable(Table):
    """A No Quarter battle or mission (the rules engine ``battle.game``)."""

    mission_title = ""

    def _start(self, rng: np.random.Generator) -> None:
        from wargym.rules.no_quarter.battle import game
        from wargym.rules.no_quarter.battle.state import BattleOptions
        from wargym.rules.no_quarter.forces.setup import new_skirmish_logged
        from wargym.rules.no_quarter.mission.mission_play import (
            new_mission_logged,
            setup_mission,
        )

        s = self.settings
        if s.game == "skirmish":
            turns = s.turns or SKIRMISH_TURNS
            options = BattleOptions(max_turns=turns)
            self.battle, events = new_skirmish_logged(
                rng, self.dice, mechs_per_side=s.mechs, options=options
            )
            mechs = f"{s.mechs} mech{'' if s.mechs == 1 else 's'} a side"
            self.mission_title = f"skirmish, {mechs}, {turns} turns"
        elif s.game == "cestus-v":
            from wargym.rules.no_quarter.cestus.cestus_v import campaign_definition
            from wargym.rules.no_quarter.cestus.cestus_v_rolls import mission_scenario
            from wargym.rules.no_quarter.forces.vocab import Faction

            mission = campaign_definition().mission(s.mission)
            scenario = mission_scenario(mission, faction=Faction.STAR_ARMY, turn_limit=s.turns)
            self.battle, setup = setup_mission(scenario, rng, self.dice)
            events = [*setup, *game.advance(self.battle, self.dice)]
            self.mission_title = (
                f"Cestus V, mission {mission.number}: {mission.name} ({mission.kind.value})"
            )
        else:
            name = s.scenario or MISSION_SCENARIOS[s.game]
            self.battle, logged = new_mission_logged(name, rng, self.dice)
            events = [*logged, *game.advance(self.battle, self.dice)]
            self.mission_title = f"{s.game} mission: {name.replace('_', ' ')}"
        self.setup_events = list(events)
        if s.game != "skirmish":
            if s.opponent == "rules":
                self.notes.append(
                    "The enemy arrives as PEFs and the engine plays it by the book's "
                    "non-player procedure (§20, §22.4); you command blue."
                )
            else:  # the opponent answers the NP side's decisions (§22.4 seat)
                game.seat_np_outside(self.battle)
                self.notes.append(
                    "The enemy arrives as PEFs (§20); the rules place and resolve them, bring "
                    "reinforcements and withdraw groups, and your opponent takes the enemy's "
                    "decisions; you command blue."
                )
        self._seat()

    def _seat(self) -> None:
        s = self.settings
        rng = self.opponent_rng
        if s.opponent == "rules":
            self._choose: Callable[[Any, list[Any], Any], Any] = RulesSeat(rng)
            name = "the book's non-player AI (§22.4)"
        elif s.opponent == "tactician":
            from wargym.agents.heuristic import NoQuarterHeuristic

            self._choose = NoQuarterHeuristic(rng).act_engine
            name = "the tactician (agents/heuristic.py)"
        else:
            player = shipped_player()
            player.reset()
            player.rng = rng
            from wargym.agents.scripted import NoQuarterScripted

            player.fallback = NoQuarterScripted(rng)
            self._choose = player.act_engine
            name = "the shipped policy (nq_skirmish_ppo.onnx)"
        self.opponent_name = name

    def pending(self) -> str | None:
        """The side whose decision is pending."""
        if self.battle.over or self.battle.decision is None:
            return None
        return str(self.battle.decision.side.value)

    def legal(self, side: str) -> list[Any]:
        """The engine's options (empty unless ``side`` decides)."""
        from wargym.rules.no_quarter.battle import game

        return game.legal_actions(self.battle) if self.pending() == side else []

    def play(self, side: str, action: Any) -> list[Event]:
        """``game.play``: the engine checks legality."""
        from wargym.rules.no_quarter.battle import game

        return list(game.play(self.battle, action, self.dice))

    def opponent_action(self) -> Any:
        """The seated opponent's choice."""
        from wargym.rules.no_quarter.battle import game

        decision = self.battle.decision
        assert decision is not None
        return self._choose(self.battle, game.legal_actions(self.battle), decision.side)

    def over(self) -> bool:
        """The battle has ended."""
        return bool(self.battle.over)

    def winner(self) -> tuple[str | None, str]:
        """The engine's outcome."""
        from wargym.rules.no_quarter.battle import game

        result = game.outcome(self.battle)
        if result is None:
            return None, "not over"
        side, reason = result
        return (None if side is None else str(side.value)), str(reason)

    def state_dict(self) -> dict[str, Any]:
        """``Battle.to_dict``."""
        return dict(self.battle.to_dict())

    def title(self) -> str:
        """The battle or mission."""
        return self.mission_title


class RulesSeat:
    """The book's NP procedure at a skirmish side, with its generator and NP memory (§22.4)."""

    def __init__(self, rng: np.random.Generator) -> None:
        from wargym.rules.no_quarter.non_player.enemy import NpContext

        self.rng, self.context = rng, NpContext()

    def __call__(self, battle: Any, legal: list[Any], side: Any) -> Any:
        """``rules_opponent`` with this seat's memory."""
        from wargym.envs.no_quarter.opponents import rules_opponent

        return rules_opponent(battle, legal, self.rng, self.context)


_SHIPPED: list[Any] = []


def shipped_player() -> Any:
    """The shipped ONNX policy as an engine player (loaded once per process)."""
    if not _SHIPPED:
        from wargym.agents.battle_policy import PolicyPlayer
        from wargym.agents.learned import shipped_model

        try:
            _SHIPPED.append(PolicyPlayer(shipped_model(".onnx")))
        except ImportError as exc:  # onnxruntime comes with the [export] extra
            from .session import PlayError

            raise PlayError(
                f"--opponent shipped needs onnxruntime ({exc.name or exc}): "
                "pip install 'wargym[export]', or play --opponent rules or tactician"
            ) from None
    return _SHIPPED[0]


def copy_table(table: Table) -> Table:
    """An independent copy of ``table`` (undo checkpoints); the ONNX policy is shared."""
    import copy

    memo: dict[int, Any] = {}
    if _SHIPPED:
        memo[id(_SHIPPED[0].policy)] = _SHIPPED[0].policy  # stateless; no session is copied
    return copy.deepcopy(table, memo)


def new_table(settings: Settings) -> Table:
    """The game ``settings`` name, set up to its first decision."""
    if settings.game in SPACE_GAMES:
        from .space import PentagonTable, StarshipTable

        return (StarshipTable if settings.game == "starship" else PentagonTable)(settings)
    return NoQuarterTable(settings)


__all__ = [
    "GAMES", "OPPONENTS", "SIDES", "Settings", "Table", "copy_table", "new_table", "shipped_player",
]  # fmt: skip
