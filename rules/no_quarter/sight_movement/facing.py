"""The facing a mech ends its action with: leg heading and torso twist (§6.2, §6.2.1, D2, D5).

With ``BattleOptions.choose_facing`` (the ruling's default) a mech that ends a move, or
stays in place, is asked a ``face`` decision: keep its leg heading or turn to one of
:data:`HEADINGS`, combined with a torso twist of :data:`~.perception.TWISTS`. A reverse keeps
its facing (§15.2.2) and a jump lands facing as before (§10.6.1, D28): after those only the
twist is chosen. :func:`turn_to` carries the choice out: a turn that brings an enemy group
into the mech's arc for the first time this activation phase starts an In Sight (§16.1.2, D3).
:func:`face_toward` is the choice of the built-in players: the firing arc toward a point, no
twist where none is needed.
"""

from __future__ import annotations

from collections.abc import Sequence

from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import Action, Face
from wargym.rules.no_quarter.battle.flow import Ctx, insight_frame
from wargym.rules.no_quarter.battle.state import Mech
from wargym.rules.no_quarter.sight_movement.geometry import angle_between, heading_to
from wargym.rules.no_quarter.sight_movement.perception import TWISTS, new_sightings, visible_enemies

HEADINGS = tuple(float(h) for h in range(0, 360, 45))
"""Leg headings offered when turning (turning is free, ruling D2)."""


def face_options(mech: Mech, turn: bool) -> list[Action]:
    """Keep the heading, or (``turn``) face each other heading; each with every twist."""
    headings: list[float | None] = [None]
    if turn:
        headings.extend(h for h in HEADINGS if angle_between(h, mech.heading) > 1)
    return [Face(mech.id, h, t) for h in headings for t in TWISTS]


def turn_to(ctx: Ctx, mech: Mech, action: Face) -> None:
    """Face as ``action`` says; an enemy group newly in sight pauses for an In Sight (§16.1.2)."""
    heading = mech.heading if action.heading is None else action.heading % 360.0
    if heading == mech.heading and action.twist == mech.twist:
        return
    battle = ctx.battle
    before = visible_enemies(battle, mech, mech.pos, mech.facing)
    ctx.emit(ev.MechFaced(mech.id, heading, action.twist))
    trigger = new_sightings(
        battle, mech, visible_enemies(battle, mech, mech.pos, mech.facing) - before
    )
    if trigger:
        ctx.push(insight_frame(mech.id, mech.side, trigger))


def face_toward(options: Sequence[Action], mech: Mech, point: tuple[float, float]) -> Action:
    """The ``Face`` option whose firing arc points closest to ``point`` (else the first option).

    Ties: no twist first (the legs face the threat, §6.2 rear attacks), then keeping the
    heading, then the option listed first.
    """
    faces = [o for o in options if isinstance(o, Face)]
    if not faces:
        return options[0]
    want = heading_to(mech.pos, point)

    def key(o: Face) -> tuple[float, bool, bool]:
        legs = mech.heading if o.heading is None else o.heading
        gap = round(angle_between((legs + o.twist) % 360.0, want), 6)
        return (gap, o.twist != 0, o.heading is not None)

    return min(faces, key=key)


def keep_facing(options: Sequence[Action], mech: Mech) -> Action:
    """Keep both the heading and the twist when offered (else the first option)."""
    keep = Face(mech.id, None, mech.twist)
    return keep if keep in options else options[0]
