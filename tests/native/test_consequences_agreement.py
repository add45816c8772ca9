"""The native consequences (consequences.cpp) agree with the reference called directly.

States come from real games (the fire units' documents of test_flow_fire_agreement); on each, a
mech takes each consequence (Duck Back from an enemy, Leave the Battlefield, removal, a killed
pilot, the Pilot Test, a Critical Hit at every location, a flame area crossed) with the same
scripted faces in both engines: the events, the document after and the faces used must agree.
(Fire units reach only some of these; react and melee units reach the rest.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.fire import core
from wargym.rules.dice import ScriptedDice
from wargym.rules.errors import DiceScriptExhaustedError
from wargym.rules.no_quarter.battle import consequences as cq
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Location, Removal

sys.path.insert(0, str(Path(__file__).parent))
from test_flow_fire_agreement import _units, tables_of  # noqa: E402

WHATS = ("duck_back", "leave_battlefield", "remove", "pilot_killed", "pilot_test",
         *(f"critical_hit:{loc.value}" for loc in Location), "cross_flames")  # fmt: skip


Path2 = list[tuple[float, float]] | None


def reference(
    doc: dict[str, Any], what: str, mech: int, other: int | None, path: Path2, faces: list[int]
) -> tuple[Any, ...]:
    battle = Battle.from_dict(doc, check=False)
    dice = ScriptedDice(list(faces))
    ctx = Ctx(battle, dice, game.rules_of(battle))
    m = battle.mechs[mech]
    cause = None if other is None else battle.mechs[other]
    if what == "duck_back":
        cq.duck_back(ctx, m, cause, "test")
    elif what == "leave_battlefield":
        cq.leave_battlefield(ctx, m, "test", [] if other is None else [other])
    elif what == "remove":
        cq.remove(ctx, m, Removal.DESTROYED)
    elif what == "pilot_killed":
        cq.pilot_killed(ctx, m, "test")
    elif what == "pilot_test":
        cq.pilot_test(ctx, m)
    elif what.startswith("critical_hit:"):
        cq.critical_hit(ctx, m, Location(what.split(":")[1]))
    else:
        assert path is not None
        cq.cross_flames(ctx, m, path)
    return battle.to_dict(), [e.to_dict() for e in ctx.log], len(dice.used)


def native(
    doc: dict[str, Any], what: str, mech: int, other: int | None, path: Path2, faces: list[int]
) -> tuple[Any, ...]:
    battle = battle_from_dict(doc, check=False)
    dice = _core.ScriptedDice(list(faces))
    events = core.consequence(battle, tables_of(doc), what, mech, other, path, dice)
    return battle.to_dict(), [e.to_dict() for e in events], len(dice.used)


def _cases() -> list[tuple[dict[str, Any], str, int, int | None, Any, list[int]]]:
    rng = np.random.default_rng(7)
    docs = [u.before for u in _units()[::5] if u.before["decision"] is None][:80]
    cases = []
    for doc in docs:
        live = [m for m in doc["mechs"].values() if m["removed"] is None]
        if len(live) < 2:
            continue
        m = live[int(rng.integers(len(live)))]
        enemies = [e for e in live if e["side"] != m["side"]]
        other = enemies[0]["id"] if enemies else None
        for what in WHATS:
            x, y = m["pos"]
            path = [(x, y), (x + float(rng.uniform(-6, 6)), y + float(rng.uniform(-6, 6)))]
            if what == "cross_flames" and not doc["flames"]:
                doc = {**doc, "flames": [[list(m["pos"]), [x + 1.0, y + 1.0]]]}
            faces = [int(f) for f in rng.integers(1, 7, size=40)]
            cases.append((doc, what, m["id"], other, path, faces))
    return cases


def test_every_consequence_agrees() -> None:
    seen = set()
    for doc, what, mech, other, path, faces in _cases():
        try:
            ref = reference(doc, what, mech, other, path, faces)
        except (DiceScriptExhaustedError, ValueError):  # pragma: no cover - 40 faces suffice
            continue
        mine = native(doc, what, mech, other, path, faces)
        assert mine[1] == ref[1], (what, mech)
        assert mine[2] == ref[2], (what, mech)
        assert mine[0] == ref[0], (what, mech)
        seen.add(what)
    assert seen == set(WHATS)


def test_bad_input() -> None:
    doc, what, mech, other, path, faces = _cases()[0]
    battle = battle_from_dict(doc, check=False)
    tables = tables_of(doc)
    dice = _core.ScriptedDice(faces)
    with pytest.raises(ValueError, match="what"):
        core.consequence(battle, tables, "explode", mech, other, path, dice)
    with pytest.raises(TypeError, match="what"):
        core.consequence(battle, tables, 3, mech, other, path, dice)
    with pytest.raises(ValueError, match="mech"):
        core.consequence(battle, tables, "remove", 99, other, path, dice)
    with pytest.raises(ValueError, match="other"):
        core.consequence(battle, tables, "duck_back", mech, 99, path, dice)
    with pytest.raises(TypeError, match="path"):
        core.consequence(battle, tables, "cross_flames", mech, other, "north", dice)
    with pytest.raises(ValueError, match="path"):
        core.consequence(battle, tables, "cross_flames", mech, other, [(0.0, 0.0)], dice)
    with pytest.raises(TypeError, match="dice"):
        core.consequence(battle, tables, "remove", mech, other, path, None)
    with pytest.raises(TypeError, match="tables"):
        core.consequence(battle, None, "remove", mech, other, path, dice)
