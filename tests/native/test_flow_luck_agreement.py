"""The native luck pause reading (battle/luck.cpp) agrees with rules/no_quarter/battle/luck.py.

Skirmishes whose pilots are all Lucky and Marksman are played by the reference with random
legal actions under every lucky/marksman option; at every lucky_reroll / marksman_location
decision the native battle (from the same document) gives the same legal options (in order),
the same automatic answers (lucky_advice, marksman_advice, choice_in_roll) and the same
luck.watching(). Where the options never ask (auto/off), no pause appears and watching agrees.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter import luck as native_luck
from wargym.native.no_quarter.combat_tables import combat_tables
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game, luck
from wargym.rules.no_quarter.battle.actions import DecisionKind, EndFire, LuckyChoice
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import new_skirmish

core: Any = _core.no_quarter
PAUSES = (DecisionKind.LUCKY_REROLL, DecisionKind.MARKSMAN_LOCATION)
MODES = [
    (lucky, marksman) for lucky in ("choose", "auto", "off") for marksman in ("choose", "auto")
]


def _skirmish(g: int, lucky: str, marksman: str) -> tuple[Battle, RandomDice, np.random.Generator]:
    factions = list(vocab.Faction)
    rng = np.random.default_rng(100 + g)
    dice = RandomDice.from_seed(100 + g)
    options = BattleOptions(lucky=lucky, marksman=marksman)
    per_side = 1 + g % 3
    battle = new_skirmish(
        rng, dice, blue=factions[g % len(factions)], red=factions[(g * 3 + 1) % len(factions)],
        mechs_per_side=per_side, stars=g % (per_side + 1), options=options,
    )  # fmt: skip
    attrs = (vocab.Attribute.LUCKY, vocab.Attribute.MARKSMAN)
    for i, mech in enumerate(battle.mechs.values()):
        mech.pilot = dataclasses.replace(
            mech.pilot, attributes=attrs[: 1 + (i + g) % 2] if g % 3 else attrs
        )
    battle.frames, battle.decision, battle.options_cache = [], None, None  # a turn with them
    game.advance(battle, dice)
    return battle, dice, rng


def _decisions(
    games: int, lucky: str, marksman: str, most: int = 200
) -> Iterator[tuple[str, Battle]]:
    for g in range(games):
        battle, dice, rng = _skirmish(g, lucky, marksman)
        for d in range(most):
            if game.is_over(battle):
                break
            yield f"{lucky}/{marksman} game {g} decision {d}", battle
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)


def _check_pause(label: str, battle: Battle) -> None:
    native = battle_from_dict(battle.to_dict())
    rules = load_rules(battle.options.rules)
    legal = game.legal_actions(battle)
    assert native_luck.pause_options(native) == legal, label
    assert native_luck.choice_in_roll(native, legal, rules) == luck.choice_in_roll(battle, legal), (
        label
    )
    # a one-option list: choice_in_roll keeps to the options given
    assert native_luck.choice_in_roll(native, legal[1:], rules) == luck.choice_in_roll(
        battle, legal[1:]
    )
    if battle.frames[-1]["stage"] == "lucky":
        assert native_luck.lucky_advice(native) == luck.lucky_advice(battle), label
    else:
        assert native_luck.marksman_advice(native, rules) == luck.marksman_advice(battle, rules), (
            label
        )
        frame = battle.frames[-1]
        choices: list[str] = frame["choices"]
        for shielded in ([], choices[:1], choices[1:]):  # every protection
            data = battle.to_dict()
            data["frames"][-1]["shielded"] = shielded
            other = Battle.from_dict(data)
            want = luck.marksman_advice(other, rules)
            assert native_luck.marksman_advice(battle_from_dict(data), rules) == want, label


@pytest.mark.parametrize(("lucky", "marksman"), MODES)
def test_pauses_and_watching_agree(lucky: str, marksman: str) -> None:
    kinds: set[str] = set()
    for i, (label, battle) in enumerate(_decisions(6, lucky, marksman)):
        decision = battle.decision
        assert decision is not None
        if decision.kind in PAUSES:
            kinds.add(str(battle.frames[-1]["stage"]) + ":" + str(battle.frames[-1]["what"]))
            _check_pause(label, battle)
        elif i % 10 == 0:
            native = battle_from_dict(battle.to_dict())
            assert core.flow.watching(native) == luck.watching(battle), label
    if lucky == "choose":
        assert any(k.startswith("lucky:") for k in kinds), kinds
    if marksman == "choose":
        assert "marksman:hit_location" in kinds, kinds
    if lucky != "choose" and marksman != "choose":
        assert not kinds


def _a_pause(stage: str) -> Battle:
    lucky, marksman = ("choose", "auto") if stage == "lucky" else ("auto", "choose")
    for _, battle in _decisions(6, lucky, marksman):
        decision = battle.decision
        if decision is not None and decision.kind in PAUSES and battle.frames[-1]["stage"] == stage:
            return battle
    raise AssertionError(f"no {stage} pause")


def test_the_kill_fraction_and_preference_come_from_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    battle = _a_pause("lucky")
    frame = battle.frames[-1]
    frame["what"], frame["target"] = "to_hit", next(m for m in battle.mechs if m != frame["mech"])
    seen = set()
    for fraction in (-1.0, 1.0, 1.0 / 3.0):
        monkeypatch.setattr(luck, "KILL_FRACTION", fraction)
        native = battle_from_dict(battle.to_dict())
        assert native_luck.lucky_advice(native) == luck.lucky_advice(battle)
        seen.add(luck.lucky_advice(battle))
    assert seen == {False, True}  # the edit reaches both engines


def test_bad_input_is_refused() -> None:
    lucky = battle_from_dict(_a_pause("lucky").to_dict())
    tables, rules = combat_tables(), load_rules()
    with pytest.raises(NativeTypeError, match="battle"):
        core.luck.pause_options(None)
    not_paused = battle_from_dict(next(_decisions(1, "choose", "choose"))[1].to_dict())
    for call in (
        lambda: core.luck.pause_options(not_paused),
        lambda: core.luck.lucky_advice(not_paused, 0.5),
        lambda: core.luck.marksman_advice(lucky, tables),  # a Lucky pause
    ):
        with pytest.raises(NativeArgumentError, match="battle"):
            call()
    with pytest.raises(NativeTypeError, match="kill_fraction"):
        core.luck.lucky_advice(lucky, "x")
    with pytest.raises(NativeArgumentError, match="kill_fraction"):
        core.luck.lucky_advice(lucky, float("nan"))
    with pytest.raises(NativeTypeError, match="tables"):
        core.luck.choice_in_roll(lucky, None, 0.5, [LuckyChoice(0, True)])
    with pytest.raises(NativeTypeError, match="options"):
        core.luck.choice_in_roll(lucky, tables, 0.5, 3)
    with pytest.raises(NativeArgumentError, match="options"):
        core.luck.choice_in_roll(lucky, tables, 0.5, [])
    assert native_luck.choice_in_roll(lucky, [EndFire(0)], rules) == EndFire(0)


# -- the guard (run_unit, resume) on a stand-in unit: luck_bindings.cpp's probe_step ----------
def _probe_step(ctx: Any, frame: Any) -> None:
    """The twin of luck_bindings.cpp's probe_step."""
    shooter, target = ctx.battle.mechs[0], ctx.battle.mechs[1]
    a = luck.offer_lucky(ctx, shooter, "to_hit", ctx.dice.roll(1), True, target.id)
    loc = luck.marksman_pick(
        ctx, shooter, target, vocab.Location.ARM_L, vocab.Location.CHEST,
        frozenset({vocab.Location.ARM_L}),
    )  # fmt: skip
    b = ctx.dice.roll(2)
    shooter.armor[0], shooter.armor[1] = a[0], list(vocab.Location).index(loc)
    shooter.armor[2] = b[0] + b[1]
    ctx.pop(frame)


def _probe_battle(lucky: str, marksman: str) -> Battle:
    battle, _, _ = _skirmish(0, lucky, marksman)
    for mech in battle.mechs.values():
        attrs = (vocab.Attribute.LUCKY, vocab.Attribute.MARKSMAN)
        mech.pilot = dataclasses.replace(mech.pilot, attributes=attrs)
    battle.frames = [{"kind": "objective"}]
    battle.decision = None
    return battle


def _reference_act(battle: Battle, faces: list[int], action: Any, monkeypatch: Any) -> list[int]:
    from wargym.rules.dice import ScriptedDice
    from wargym.rules.no_quarter.battle.flow import Ctx, FunctionHandler

    monkeypatch.setitem(game.HANDLERS, "objective", FunctionHandler(_probe_step))
    dice = ScriptedDice(faces)
    ctx = Ctx(battle, dice, load_rules(battle.options.rules))
    battle.decision = None
    game._act(ctx, battle.frames[-1], action)
    return list(faces[: len(faces) - len(dice.faces)])


def _both(battle: Battle, native: Any, faces: list[int], action: Any, mp: Any) -> None:
    used = list(core.luck.probe_act(native, combat_tables(), faces, action))
    assert used == _reference_act(battle, faces, action, mp)
    assert native.to_dict() == battle.to_dict()
    for mine, theirs in zip(native.to_dict()["frames"], battle.frames, strict=True):
        assert list(mine) == list(theirs)  # the pause frame's keys in the reference's order


@pytest.mark.parametrize(("lucky", "marksman"), MODES)
@pytest.mark.parametrize("answers", [(True, "chest"), (False, "arm_l"), (True, "arm_l")])
def test_the_guard_pauses_and_resumes_alike(
    lucky: str, marksman: str, answers: tuple[bool, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from wargym.rules.no_quarter.battle.actions import ChooseLocation

    battle = _probe_battle(lucky, marksman)
    native = battle_from_dict(battle.to_dict(), check=False)  # no decision pending: a bare unit
    faces = [2, 5, 3, 6, 1, 4, 2, 2]
    _both(battle, native, faces, None, monkeypatch)
    for _ in range(3):
        if battle.decision is None or battle.decision.kind not in PAUSES:
            break
        stage = battle.frames[-1]["stage"]
        answer = (
            LuckyChoice(0, answers[0]) if stage == "lucky"
            else ChooseLocation(0, vocab.Location(answers[1]))
        )  # fmt: skip
        assert native_luck.pause_options(native) == game.legal_actions(battle)
        _both(battle, native, faces[3:], answer, monkeypatch)
    assert battle.frames == [] and native.to_dict() == battle.to_dict()


def test_a_pause_that_does_not_replay_is_refused_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    from wargym.native.errors import NativeStateError
    from wargym.rules.errors import StateError

    battle = _probe_battle("choose", "choose")
    _reference_act(battle, [2], None, monkeypatch)
    battle.frames[-1]["rolls"] = [[1, 1]]
    native = battle_from_dict(battle.to_dict())
    before = battle.to_dict()
    with pytest.raises(StateError, match="a paused roll does not replay"):
        _reference_act(battle, [6], LuckyChoice(0, True), monkeypatch)
    with pytest.raises(NativeStateError, match="a paused roll does not replay"):
        core.luck.probe_act(native, combat_tables(), [6], LuckyChoice(0, True))
    assert native.to_dict() == battle.to_dict() == before
