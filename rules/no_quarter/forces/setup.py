"""Setting up a No Quarter battle: forces, pilots, leaders and deployment (§9-§12).

Two forces deploy along opposite edges (blue south, red north) facing each other. Forces
are Teams of ``team_size_mechs`` (§11.0); the first mech of each Team is its Team Leader, the
force's first mech holds the highest rank its size calls for and, in a Platoon, the first
Team Leader of every further Squad is its Squad Leader (§12.0, ``leaders.initial_ranks``, E11).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from wargym.rules.dice import Dice
from wargym.rules.errors import RulesError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions, Mech
from wargym.rules.no_quarter.battlefield.terrain import (
    Battlefield,
    deployment_points,
    generate_battlefield,
)
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.leaders import RED_TEAMS, formation_row, initial_ranks
from wargym.rules.no_quarter.forces.pilots import (
    AttributeChooser,
    new_pilot_logged,
    roll_company_races,
)
from wargym.rules.no_quarter.forces.vocab import Faction, Side

HOME_EDGES = {Side.BLUE: "south", Side.RED: "north"}
"""Where each side deploys and where its Leaving mechs head (ruling D10)."""
FACING = {Side.BLUE: 90.0, Side.RED: 270.0}
"""Initial headings: towards the enemy edge."""

BACKENDS = ("python", "native")
"""The engines a skirmish can be set up in: this reference (``"python"``) or the native core."""
BACKEND_MODULES = {"native": "wargym.native.no_quarter.battle"}
"""The module that registers each other engine's set-up in :data:`SKIRMISH_BACKENDS` when it is
first imported (the rules never import it themselves at import time: docs/native.md)."""
SKIRMISH_BACKENDS: dict[str, Callable[..., tuple[Any, list[Event]]]] = {}
"""Other engines' :func:`new_skirmish_logged`, by backend name (filled by those engines)."""


def skirmish_backend(backend: str) -> Callable[..., tuple[Any, list[Event]]] | None:
    """The set-up of ``backend`` (None: this reference); ValueError names an unknown one."""
    if backend == "python":
        return None
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r:.80}")
    if backend not in SKIRMISH_BACKENDS:
        importlib.import_module(BACKEND_MODULES[backend])  # registers itself
    return SKIRMISH_BACKENDS[backend]


@dataclass(frozen=True)
class ForceSpec:
    """One side's force: faction, mech designs (pre-generated ids) and how many Stars."""

    side: Side
    faction: Faction
    mechs: tuple[str, ...]
    stars: int = 0
    """The first ``stars`` pilots are Stars (Rep 5, two attributes) (§9.1)."""
    use_attributes: bool = True
    """Roll pilot attributes (§9.6); False plays the "vanilla" game."""
    chooser: AttributeChooser | None = None
    """Who makes the force's §9.6 attribute picks (a Basic pilot's "keep the better", a rolled
    Choice, a Star's second attribute): the builder's callback; None: D35's preference list
    (the non-player forces' chooser). A pick not among the options is an IllegalActionError."""


def new_battle(
    forces: Sequence[ForceSpec],
    battlefield: Battlefield,
    rng: np.random.Generator,
    dice: Dice,
    options: BattleOptions | None = None,
    *,
    rules: NoQuarterRules | None = None,
    deploy: Callable[[Side, int], list[tuple[float, float]]] | None = None,
    require_both: bool = True,
) -> Battle:
    """A battle with both forces deployed; call ``game.advance`` to reach the first decision.

    Pilots are rolled with ``dice`` (§9); deployment positions come from ``rng`` (or from
    ``deploy(side, count)``). ``rules`` carries custom mechs; ``require_both=False`` lets a
    mission start with the enemy still hidden in PEFs (§20). The pilots' rolls as events:
    :func:`new_battle_logged`.
    """
    return new_battle_logged(
        forces, battlefield, rng, dice, options, rules=rules, deploy=deploy,
        require_both=require_both,
    )[0]  # fmt: skip


def new_battle_logged(
    forces: Sequence[ForceSpec],
    battlefield: Battlefield,
    rng: np.random.Generator,
    dice: Dice,
    options: BattleOptions | None = None,
    *,
    rules: NoQuarterRules | None = None,
    deploy: Callable[[Side, int], list[tuple[float, float]]] | None = None,
    require_both: bool = True,
) -> tuple[Battle, list[Event]]:
    """:func:`new_battle` and the events of its set-up rolls.

    Per force (blue, then red): a Free Company's ``FreeCompanyRaces`` (§10.8.1), then one
    ``PilotCreated`` per mech (§9), in mech order.
    """
    options = options or BattleOptions()
    rules = rules or load_rules(options.rules)
    sides = sorted(force.side.value for force in forces)
    if require_both and sides != ["blue", "red"]:
        raise RulesError(f"a battle needs one blue and one red force, got {sides}")
    if not sides or len(set(sides)) != len(sides):
        raise RulesError(f"one force per side, got {sides}")
    mechs: dict[int, Mech] = {}
    events: list[Event] = []
    for force in sorted(forces, key=lambda f: f.side.value):
        if not force.mechs:
            raise RulesError(f"the {force.side.value} force has no mechs")
        designs = [rules.mech(mech_id) for mech_id in force.mechs]
        edge = HOME_EDGES[force.side]
        if deploy is not None:
            points = deploy(force.side, len(designs))
        else:
            points = deployment_points(
                battlefield, edge, len(designs), rng, radius=options.base_radius
            )
        team_size = rules.team_size
        teams = (len(designs) + team_size - 1) // team_size
        leaders = initial_ranks(teams, formation_row(rules, force.faction))
        members = tuple(range(len(mechs), len(mechs) + len(designs)))
        company = roll_company_races(rules, force.faction, dice, side=force.side, members=members)
        if company is not None:
            events.append(company)
        for index, (design, pos) in enumerate(zip(designs, points, strict=True)):
            mech_id = len(mechs)
            pilot, created = new_pilot_logged(
                rules,
                force.faction,
                dice,
                star=index < force.stars,
                use_attributes=force.use_attributes,
                name=f"{force.side.value}-{index + 1}",
                chooser=force.chooser,
                company=company,
                mech=mech_id,
            )
            events.append(created)
            mechs[mech_id] = Mech(
                id=mech_id,
                side=force.side,
                name=f"{design.id} #{index + 1}",
                design=design,
                pilot=pilot,
                rep=pilot.rep,
                armor=list(design.armor),
                speed=design.speed,
                pos=pos,
                heading=FACING[force.side],
                team=index // team_size + (RED_TEAMS if force.side is Side.RED else 0),
                rank=leaders[index // team_size] if index % team_size == 0 else None,
            )
    battle = Battle(
        battlefield=battlefield, options=options, mechs=mechs, home_edges=dict(HOME_EDGES)
    )
    return battle, events


def new_skirmish(
    rng: np.random.Generator,
    dice: Dice,
    *,
    blue: Faction = Faction.STAR_ARMY,
    red: Faction = Faction.HISHEN,
    mechs_per_side: int = 3,
    stars: int = 0,
    options: BattleOptions | None = None,
    battlefield: Battlefield | None = None,
    backend: str = "python",
) -> Battle:
    """Two forces of random pre-generated mechs on a generated battlefield, at the first decision.

    ``backend``: ``"python"`` (this engine) or ``"native"``, whose battle (a
    ``wargym.native.no_quarter.battle.NativeSkirmish``) answers :mod:`~..battle.game` and reads
    like a ``Battle``; the same generator and dice set up the same battle in either.

    >>> from wargym.rules.dice import RandomDice
    >>> battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
    >>> len(battle.mechs), battle.decision is not None
    (6, True)

    The events of the play to that decision (the turn-1 activation roll, ...):
    :func:`new_skirmish_logged`.
    """
    return new_skirmish_logged(
        rng,
        dice,
        blue=blue,
        red=red,
        mechs_per_side=mechs_per_side,
        stars=stars,
        options=options,
        battlefield=battlefield,
        backend=backend,
    )[0]


def new_skirmish_logged(
    rng: np.random.Generator,
    dice: Dice,
    *,
    blue: Faction = Faction.STAR_ARMY,
    red: Faction = Faction.HISHEN,
    mechs_per_side: int = 3,
    stars: int = 0,
    options: BattleOptions | None = None,
    battlefield: Battlefield | None = None,
    backend: str = "python",
) -> tuple[Battle, list[Event]]:
    """:func:`new_skirmish` and the events of the play to its first decision.

    ``backend`` as :func:`new_skirmish` (``"native"``: no ``battlefield``; the dice a
    ``RandomDice`` over a generator other than ``rng``, or the core's own).

    The events start with the set-up's (:func:`new_battle_logged`: the pilots' rolls, already
    in the battle), then the turn-1 ``ActivationRolled`` and the play to the first decision;
    applied to a clone of the battle taken before them they give the returned battle.

    >>> from wargym.rules.dice import RandomDice
    >>> battle, events = new_skirmish_logged(np.random.default_rng(0), RandomDice.from_seed(0))
    >>> [type(e).__name__ for e in events[:2]]
    ['PilotCreated', 'PilotCreated']
    """
    from wargym.rules.no_quarter.battle.game import (
        advance,  # the game sequences set-up, not vice versa
    )

    other = skirmish_backend(backend)
    if other is not None:
        battle: Any
        battle, events = other(
            rng, dice, blue=blue, red=red, mechs_per_side=mechs_per_side, stars=stars,
            options=options, battlefield=battlefield,
        )  # fmt: skip
        return battle, events
    options = options or BattleOptions()
    rules = load_rules(options.rules)
    field = battlefield or generate_battlefield(rng)
    forces = []
    for side, faction in ((Side.BLUE, blue), (Side.RED, red)):
        pool = [design.id for design in rules.mechs_of(faction)]
        picks = tuple(str(pool[int(i)]) for i in rng.integers(0, len(pool), size=mechs_per_side))
        forces.append(ForceSpec(side, faction, picks, stars=stars))
    battle, setup = new_battle_logged(forces, field, rng, dice, options)
    return battle, setup + advance(battle, dice)
