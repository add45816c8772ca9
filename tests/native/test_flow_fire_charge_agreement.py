"""The native FIRE handler agrees on fire during a Charge into Melee test (§18.2.1).

Random skirmishes rarely reach charge fire; the set positions of
tests/rules/no_quarter/test_nq_18_2_1_several_chargers.py do: two chargers, the target's one
firing split between them (mode "charge", with and without a decision), a Rush Shot at the
charger it tied with (``rush_at``), and no Mech Down tests from it. Every fire unit of those
plays is recorded (tests/native/_units.py's recorder) and run natively as in
test_flow_fire_agreement.py.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from wargym.rules.dice import FallbackDice
from wargym.rules.no_quarter.battle.state import BattleOptions

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "no_quarter"))
import _units  # noqa: E402
import test_nq_18_2_1_several_chargers as chargers  # noqa: E402
from test_flow_fire_agreement import run_native, tables_of  # noqa: E402

from wargym.native.no_quarter import battle_from_dict  # noqa: E402
from wargym.native.no_quarter.fire import core  # noqa: E402
from wargym.rules.no_quarter.battle import game  # noqa: E402
from wargym.rules.no_quarter.battle.actions import action_to_dict  # noqa: E402
from wargym.rules.no_quarter.battle.state import Battle  # noqa: E402


class _CountedFallback(FallbackDice):
    """FallbackDice that keep every face rolled (for the recorder)."""

    used: list[int] = []

    def roll(self, n: int) -> tuple[int, ...]:
        faces = super().roll(n)
        _CountedFallback.used.extend(faces)
        return tuple(faces)


def _record(play: Any) -> list[_units.Unit]:
    found: list[_units.Unit] = []
    current: dict[str, Any] = {}

    def around(kind: str, run: Any, ctx: Any) -> Any:
        if kind != "fire":
            return run()
        before, log0, face0 = ctx.battle.to_dict(), len(ctx.log), len(_CountedFallback.used)
        result = run()
        found.append(
            _units.Unit(
                f"charge unit {len(found)}", kind, current.get("action"), before,
                tuple(_CountedFallback.used[face0:]),
                tuple(e.to_dict() for e in ctx.log[log0:]), ctx.battle.to_dict(),
            )
        )  # fmt: skip
        return result

    saved = chargers.FallbackDice
    chargers.FallbackDice = _CountedFallback  # type: ignore[misc]
    try:
        with _units._patched(around, current):
            play()
    finally:
        chargers.FallbackDice = saved  # type: ignore[misc]
    return found


def _plays() -> list[Any]:
    def split(faces: tuple[int, ...], options: BattleOptions | None = None) -> Any:
        def play() -> None:
            battle = chargers._battle(options)
            _log, dice = chargers._charge_both(battle, *faces)
            chargers._split_evenly(battle, dice)

        return play

    return [
        split((6, 6, 1, 1, 6, 6)),  # red passes 2 against both: one firing split between them
        split((6, 6, 1, 6, 1, 6)),  # a Rush Shot at the charger it tied with only
        split((6, 6, 1, 6, 1, 1)),  # the charger that passed more draws no fire: no decision
        split((6, 6, 1, 1, 6, 6), BattleOptions(lucky="off", spread_fire_rule="off")),
    ]


def test_every_charge_fire_unit_agrees() -> None:
    modes, decisions = set(), 0
    for play in _plays():
        units = _record(play)
        assert units
        for unit in units:
            assert _units.check_unit(unit, run_native) is None
            modes.add(unit.before["frames"][-1]["mode"])
            decision = unit.after.get("decision")
            if decision and decision["kind"] == "assign_fire":  # the split's options, in order
                legal = game.legal_actions(Battle.from_dict(unit.after, check=False))
                native = core.fire_options(
                    battle_from_dict(unit.after, check=False), tables_of(unit.after)
                )
                assert [action_to_dict(a) for a in native] == [action_to_dict(a) for a in legal]
                decisions += 1
    assert "charge" in modes and decisions > 0
