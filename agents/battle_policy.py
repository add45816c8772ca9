"""A learned skirmish policy commanding one side of any No Quarter battle (missions too).

The shipped policy was trained on the skirmish env: three mech slots a side, observation
"nq-obs-v3", actions "nq-act-v2". :class:`PolicyPlayer` lets it play battles it was not
trained on (a Cestus V mission with six mechs against PEFs, say) by giving it a *local view*
at every decision:

* **Own slots** (:func:`local_slots`): the mech the decision concerns first, then its nearest
  team-mates in play; for decisions that concern no mech (group activation, mech choice),
  the own mechs in play in id order. Only three fit: legal options that name a mech outside
  the view are not offered to the policy.
* **Enemy slots**: the enemies the side sees now, nearest first (the encoder shows only
  enemies in sight, so nothing hidden reaches the policy), then the unseen ones.

Decisions the policy has no action for, or whose every legal option falls outside the view
(a mission's objective or exit choices, a group whose leader is out of view), are taken by
the book's procedure for the player side (:class:`~wargym.agents.scripted.NoQuarterScripted`).
A policy trained with the tactician's advice rows (``advisor`` in its sidecar's env kwargs)
gets them here too, computed over the same local view.
:attr:`PolicyPlayer.counts` says how many decisions each made; the demo prints it.
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from wargym.agents.base import SeededAgent
from wargym.agents.envspecs import resolve_callables
from wargym.agents.learned import LearnedAgent
from wargym.agents.scripted import NoQuarterScripted
from wargym.envs.no_quarter.codec import ActionCodec, Slots, battle_slots
from wargym.envs.no_quarter.encoding import ObservationEncoder, visible_enemies
from wargym.envs.no_quarter.solo import make_advisor
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement.geometry import distance

VIEW = 3
"""Mech slots a side of the shipped policy (its training skirmish had Teams of three)."""


def local_slots(battle: Battle, viewer: Side, mirror: bool = True) -> Slots:
    """``viewer``'s mechs and enemies numbered around the mech the decision concerns."""
    base = battle_slots(battle, viewer, mirror)
    decision = battle.decision
    anchor_id = decision.mech if decision is not None and decision.side is viewer else None
    mechs = battle.mechs
    in_play = [i for i in base.own if mechs[i].removed is None]
    if anchor_id is not None and anchor_id in mechs:
        anchor = mechs[anchor_id].pos
        rest = sorted(
            (i for i in in_play if i != anchor_id),
            key=lambda i: (distance(anchor, mechs[i].pos), i),
        )
        own = (anchor_id, *rest)
    else:
        own = tuple(in_play)
        anchor = mechs[own[0]].pos if own else (0.0, 0.0)
    seen = visible_enemies(battle, viewer)
    enemy = tuple(
        sorted(base.enemy, key=lambda i: (i not in seen, distance(anchor, mechs[i].pos), i))
    )
    return Slots(viewer, own, enemy, base.buildings, base.turn)


def _moves_key(options: BattleOptions) -> tuple[int, tuple[float, ...]]:
    return options.move_directions, tuple(float(f) for f in options.move_fractions)


class PolicyPlayer(SeededAgent):
    """An :class:`~wargym.agents.base.EngineAgent` around a saved skirmish policy.

    Args:
        policy: path of the shipped ``.onnx`` or ``.zip`` (its JSON sidecar gives the encoding
            settings), or a :class:`LearnedAgent`.
        rng: seeds the fallback procedure.
    """

    needs_observation = False

    def __init__(self, policy: str | Path | LearnedAgent, rng: Any = None) -> None:
        super().__init__(rng)
        self.policy = policy if isinstance(policy, LearnedAgent) else LearnedAgent(policy)
        kwargs = dict(self.policy.meta.get("env_kwargs") or {})
        cell = float(kwargs.get("cell", 1.0))
        self._key = _moves_key(BattleOptions())
        self.codec = ActionCodec(VIEW, 8, 12, BattleOptions(), True, local_slots)
        features = bool(kwargs.get("action_features", False))
        self.advisor = make_advisor(resolve_callables(kwargs).get("advisor"), features)
        self.encoder = ObservationEncoder(
            VIEW,
            8,
            cell=cell,
            max_turns=20,
            slots=local_slots,
            action_table=(lambda b, v: self.codec.table(b)) if features else None,
            n_actions=self.codec.n,
            advisor=self.advisor,
        )
        self.fallback = NoQuarterScripted(self.rng)
        self.counts: collections.Counter[str] = collections.Counter()
        width, n = self.policy.widths
        if (width not in (None, self.encoder.size)) or (n not in (None, self.codec.n)):
            from wargym.export_onnx import SidecarError

            raise SidecarError(
                "obs_shape",
                f"{self.policy.path.name} reads {width} values and {n} actions; a "
                f"{VIEW}-slot skirmish view with these env kwargs has {self.encoder.size} "
                f"and {self.codec.n}",
            )

    def reset(self, seed: int | None = None) -> None:
        """New game: re-seed the fallback and zero the counts."""
        super().reset(seed)
        self.fallback = NoQuarterScripted(self.rng)
        self.counts = collections.Counter()
        if self.advisor is not None:
            self.advisor.reset()

    def act_engine(self, state: Any, legal_actions: Sequence[Any], side: Any) -> Any:
        """The policy's choice in the local view, else the book's procedure."""
        battle: Battle = state
        if self._key != _moves_key(battle.options):
            self._key = _moves_key(battle.options)
            self.codec = ActionCodec(VIEW, 8, 12, battle.options, True, local_slots)
        table = self.codec.table(battle)
        if table:
            mask = np.zeros(self.codec.n, dtype=np.int8)
            mask[list(table)] = 1
            obs = self.encoder.encode(battle, side)
            index = int(self.policy.act(obs, mask))
            if index in table:
                self.counts["policy"] += 1
                return table[index]
        self.counts["procedure"] += 1
        return self.fallback.act_engine(battle, legal_actions, side)
