"""Determinisation of No Quarter's hidden information for search (information-set sampling).

A side does not see enemy mechs outside every own mech's line of sight. Before each search
simulation :func:`determinise` builds a *world*: a clone of the battle in which every fact of
an unseen enemy that the side cannot know is overwritten by a value drawn only from what the
side knows. The result depends on the battle's *public part for that side* and on the search's
own memory and generator, never on the hidden facts themselves, so two battles that differ
only in hidden facts give identically distributed worlds (bit-identical for the same
generator state; tests check it).

Known to the side (kept): everything about its own mechs, the table, turn, activation dice,
decision stack, and every enemy it sees now (``enemy.known_enemies``). For an enemy it does
not see now, the hidden facts are :data:`HIDDEN_FIELDS`; they are replaced as follows:

* condition (armour, speed, Rep, status, prone, lost limbs, inoperable items): the values
  recorded in :class:`Sightings` when the side last saw that mech, else the design's full
  armour and speed, :data:`PRIOR_REP`, *Carry On*, standing, nothing lost;
* pilot: a neutral pilot (the design's faction, the first own pilot's race, no attributes,
  not a Star, the Rep above);
* position: a point drawn uniformly within ``speed x (turns since seen + 1)`` inches of the
  last-seen position (never seen: within :data:`EDGE_BAND` inches of the enemy's home edge),
  rejected while some own mech would see it (the side *knows* it does not see the mech);
  after :data:`MAX_TRIES` rejections the last candidate is kept;
* heading: towards the centroid of the own mechs; twist 0; per-activation flags cleared.

Limitations: missions with PEFs keep the engine's NP bookkeeping (``battle.np``) as it is, so
search there is not guaranteed leak-free; the agents use it on skirmishes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.forces.vocab import Side, Status
from wargym.rules.no_quarter.non_player.enemy import known_enemies
from wargym.rules.no_quarter.sight_movement.geometry import heading_to
from wargym.rules.no_quarter.sight_movement.perception import line_between

HIDDEN_FIELDS = (
    "pos", "heading", "twist", "armor", "speed", "rep", "pilot", "status", "prone", "moved",
    "lost_limbs", "inoperable", "fired_this_activation", "flamer_fired_turn", "lucky_used",
    "resilient_used", "hard_as_nails_used", "reaction_fired_at",
)  # fmt: skip
"""Fields of an unseen enemy :class:`~.state.Mech` that get resampled."""
PRIOR_REP = 4
"""Rep assumed for a pilot never seen."""
EDGE_BAND = 8.0
"""Depth (inches) of the home-edge band a never-seen enemy is placed in."""
MAX_TRIES = 24
"""Rejection-sampling attempts per unseen enemy."""


@dataclass(frozen=True)
class Sighting:
    """What a side saw of one enemy mech the last time it saw it."""

    turn: int
    pos: tuple[float, float]
    armor: tuple[int, ...]
    speed: int
    rep: int
    status: Status
    prone: bool
    lost_limbs: tuple[Any, ...]
    inoperable: tuple[int, ...]


@dataclass
class Sightings:
    """A side's memory of enemies, filled only from what it sees (:meth:`update`)."""

    side: Side
    last: dict[int, Sighting] = field(default_factory=dict)

    def update(self, battle: Battle) -> frozenset[int]:
        """Record the enemies seen now; returns their ids."""
        seen = known_enemies(battle, self.side)
        for e in seen:
            self.last[e.id] = Sighting(
                battle.turn, e.pos, tuple(e.armor), e.speed, e.rep, e.status, e.prone,
                tuple(e.lost_limbs), tuple(e.inoperable),
            )  # fmt: skip
        return frozenset(e.id for e in seen)


def _seen_now(world: Battle, side: Side, mech: Mech) -> bool:
    return any(line_between(world, own, mech).visible for own in world.mechs_of(side))


def _place(world: Battle, side: Side, mech: Mech, centre: tuple[float, float], radius: float,
           band: tuple[float, float] | None, rng: np.random.Generator) -> None:  # fmt: skip
    bf = world.battlefield
    width, height = float(bf.width), float(bf.height)
    own = world.mechs_of(side)
    target = (
        (sum(m.pos[0] for m in own) / len(own), sum(m.pos[1] for m in own) / len(own))
        if own
        else (width / 2, height / 2)
    )
    for _ in range(MAX_TRIES):
        if band is not None:
            x = float(rng.uniform(0.5, width - 0.5))
            y = float(rng.uniform(band[0], band[1]))
        else:
            r = radius * float(np.sqrt(rng.uniform()))
            t = float(rng.uniform(0.0, 2 * np.pi))
            x = float(np.clip(centre[0] + r * np.cos(t), 0.5, width - 0.5))
            y = float(np.clip(centre[1] + r * np.sin(t), 0.5, height - 0.5))
        mech.pos = (x, y)
        mech.heading = heading_to(mech.pos, target)
        world.geometry_cache = None
        if not _seen_now(world, side, mech):
            return


def _band(world: Battle, enemy_side: Side) -> tuple[float, float]:
    edge = world.home_edges.get(enemy_side, "north")
    height = float(world.battlefield.height)
    return (height - EDGE_BAND, height - 0.5) if edge == "north" else (0.5, EDGE_BAND)


def determinise(
    battle: Battle, side: Side, memory: Sightings | None, rng: np.random.Generator
) -> Battle:
    """A world consistent with what ``side`` knows (module docstring); ``battle`` is untouched."""
    world = battle.clone()
    visible = {e.id for e in known_enemies(battle, side)}
    own = world.mechs_of(side)
    template = own[0].pilot if own else None
    hidden = [e for e in world.mechs_of(side.other) if e.id not in visible]
    # Blank every hidden fact first, so no sample below can depend on one.
    for enemy in hidden:
        seen = memory.last.get(enemy.id) if memory is not None else None
        enemy.armor = list(seen.armor) if seen else list(enemy.design.armor)
        enemy.speed = seen.speed if seen else enemy.design.speed
        enemy.rep = seen.rep if seen else PRIOR_REP
        enemy.status = seen.status if seen else Status.CARRY_ON
        enemy.prone = seen.prone if seen else False
        enemy.lost_limbs = list(seen.lost_limbs) if seen else []
        enemy.inoperable = list(seen.inoperable) if seen else []
        enemy.twist, enemy.moved = 0, 0.0
        enemy.fired_this_activation = enemy.flamer_fired_turn = False
        enemy.lucky_used = enemy.resilient_used = enemy.hard_as_nails_used = False
        enemy.reaction_fired_at = []
        if template is not None:
            enemy.pilot = dataclasses.replace(
                template, name=f"unknown {enemy.id}", faction=enemy.design.faction,
                rep=enemy.rep, star=False, attributes=(),
            )  # fmt: skip
        enemy.pos = (-100.0 - enemy.id, -100.0)  # off the table while the others are placed
        enemy.heading = 0.0
    world.geometry_cache = None
    for enemy in hidden:
        seen = memory.last.get(enemy.id) if memory is not None else None
        if seen is not None:
            radius = float(enemy.speed) * (max(0, battle.turn - seen.turn) + 1)
            _place(world, side, enemy, seen.pos, radius, None, rng)
        else:
            _place(world, side, enemy, (0.0, 0.0), 0.0, _band(world, side.other), rng)
    world.options_cache = None
    world.geometry_cache = None
    return world
