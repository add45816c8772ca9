"""Monte Carlo tree search over cloned No Quarter battles, with determinisation.

:class:`NoQuarterMCTS` is an :class:`~wargym.agents.base.EngineAgent`. For each decision with
more than one option it runs ``budget`` simulations. Each simulation:

1. samples a *world* with :func:`~wargym.agents.determinise.determinise`: unseen enemies are
   re-placed and their hidden condition replaced from the agent's own sightings memory, so
   the search never reads hidden information;
2. plays it forward with fresh dice (``RandomDice`` from the agent's generator; the battle's
   chance is re-sampled every simulation: "open-loop" UCT, the tree is keyed by the sequence
   of the searching side's actions);
3. inside the tree, picks the searching side's actions by UCB1 among the node's candidates
   that are legal in this world; beyond the tree, the searching side plays
   :class:`~wargym.agents.heuristic.NoQuarterHeuristic` and the enemy plays the book's NP
   procedure (:class:`~wargym.agents.scripted.NoQuarterScripted`), the opponent model;
4. stops at the end of the battle (value +1 win, -1 loss, 0 draw) or after ``depth`` decisions
   (value: the enemy's armour fraction lost minus the own, removed mechs counting 1, scaled
   to [-1, 1]), and backs the value up the visited nodes.

A node's candidates are the heuristic's choice plus up to ``width - 1`` other legal options
drawn at random (progressive search over large move sets). The answer is the most visited
root candidate that is legal in the real battle. Decisions of kinds in :data:`CHEAP_KINDS`
(group activation, Free Will, melee limbs...) are answered by the heuristic without search.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wargym.agents.base import SeededAgent
from wargym.agents.determinise import Sightings, determinise
from wargym.agents.heuristic import NoQuarterHeuristic
from wargym.agents.scripted import NoQuarterScripted
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import DecisionKind
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side

SEARCH_KINDS = frozenset(
    {DecisionKind.MECH_ACTION, DecisionKind.CONTINUE_MOVE, DecisionKind.ASSIGN_FIRE}
)
"""Decision kinds that are searched; the others are answered by the heuristic."""


@dataclass
class Node:
    """One decision of the searching side in the open-loop tree."""

    candidates: list[Any] | None = None
    visits: int = 0
    value: float = 0.0
    children: dict[Any, Node] = field(default_factory=dict)


def material(battle: Battle, side: Side) -> float:
    """Enemy armour fraction lost minus own, averaged per mech, in [-1, 1]."""

    def lost(s: Side) -> float:
        mechs = [m for m in battle.mechs.values() if m.side is s]
        if not mechs:
            return 0.0
        total = 0.0
        for m in mechs:
            total += (
                1.0 if m.removed is not None else 1.0 - sum(m.armor) / max(1, sum(m.design.armor))
            )
        return total / len(mechs)

    return max(-1.0, min(1.0, lost(side.other) - lost(side)))


class NoQuarterMCTS(SeededAgent):
    """Determinised open-loop UCT (module docstring).

    Args:
        rng: generator or seed (worlds, dice, candidate draws).
        budget: simulations per searched decision.
        depth: decisions (both sides) simulated before the material evaluation.
        width: candidates per tree node.
        exploration: UCB1 constant.
    """

    needs_observation = False

    def __init__(
        self,
        rng: Any = None,
        budget: int = 16,
        depth: int = 8,
        width: int = 6,
        exploration: float = 1.0,
    ) -> None:
        super().__init__(rng)
        if budget < 1 or depth < 1 or width < 1:
            raise ValueError("budget, depth and width must be >= 1")
        self.budget, self.depth, self.width, self.exploration = budget, depth, width, exploration
        self.heuristic = NoQuarterHeuristic(self.rng)
        self.memory: Sightings | None = None

    def reset(self, seed: int | None = None) -> None:
        """Forget sightings and the heuristic's memory; re-seed."""
        super().reset(seed)
        self.heuristic = NoQuarterHeuristic(self.rng)
        self.memory = None

    def act_engine(self, state: Any, legal_actions: Sequence[Any], side: Any) -> Any:
        """The most visited root candidate after ``budget`` simulations."""
        battle: Battle = state
        if self.memory is None or self.memory.side is not side:
            self.memory = Sightings(side)
        self.memory.update(battle)
        choice = self.heuristic.act_engine(battle, legal_actions, side)
        decision = battle.decision
        if len(legal_actions) < 2 or decision is None or decision.kind not in SEARCH_KINDS:
            return choice
        root = Node(candidates=self._candidates(choice, legal_actions))
        for _ in range(self.budget):
            world = determinise(battle, side, self.memory, self.rng)
            self._simulate(world, root, side)
        legal = set(legal_actions)
        ranked = sorted(
            ((child.visits, child.value / max(1, child.visits), a)
             for a, child in root.children.items() if a in legal),
            key=lambda t: (t[0], t[1]),
        )  # fmt: skip
        return ranked[-1][2] if ranked else choice

    def _candidates(self, prior: Any, options: Sequence[Any]) -> list[Any]:
        others = [o for o in options if o != prior]
        k = min(len(others), self.width - 1)
        picks: list[int] = list(self.rng.choice(len(others), size=k, replace=False)) if k else []
        return [prior, *(others[int(i)] for i in picks)]

    def _simulate(self, world: Battle, root: Node, side: Side) -> None:
        dice = RandomDice(self.rng)
        mine = NoQuarterHeuristic(self.rng)
        enemy = NoQuarterScripted(self.rng)
        path = [root]
        node: Node | None = root
        for _ in range(self.depth):
            decision = world.decision
            if world.over or decision is None:
                break
            options = game.legal_actions(world)
            if decision.side is side:
                if node is not None and decision.kind in SEARCH_KINDS and len(options) > 1:
                    action, node = self._select(world, node, options, mine, side)
                    path.append(node)
                else:
                    action = mine.act_engine(world, options, side)
            else:
                action = enemy.act_engine(world, options, decision.side)
            game.play(world, action, dice)
        if world.over:
            value = 0.0 if world.winner is None else (1.0 if world.winner is side else -1.0)
        else:
            value = material(world, side)
        for visited in path:
            visited.visits += 1
            visited.value += value

    def _select(
        self, world: Battle, node: Node, options: list[Any], mine: NoQuarterHeuristic, side: Side
    ) -> tuple[Any, Node]:
        if node.candidates is None:
            node.candidates = self._candidates(mine.act_engine(world, options, side), options)
        legal = set(options)
        usable = [a for a in node.candidates if a in legal] or [options[0]]
        fresh = [a for a in usable if a not in node.children]
        if fresh:
            action = fresh[0]
            node.children[action] = Node()
            return action, node.children[action]
        log_n = math.log(max(1, node.visits))

        def ucb(a: Any) -> float:
            child = node.children[a]
            return child.value / child.visits + self.exploration * math.sqrt(log_n / child.visits)

        action = max(usable, key=ucb)
        return action, node.children[action]
