"""The native action codec (native/no_quarter/envs/codec.hpp) agrees with envs/no_quarter/codec.py.

At the decision points of real skirmishes and missions (``_action_samples``), for every codec
configuration the envs build (the skirmish env's maxima from ``mechs_per_side``, too few mech,
weapon and building slots, no buildings, the default grid against another battle grid, an odd
grid without mirroring, the widest ``arguments.py`` allows, a custom slot function, the
missions' ``SightingOrder``), the core gives the reference's mask bytes, table and collision
count, the index of every legal option (or the same ValueError message), the decoded action
of every index (legal or nominal; floats bit for bit) or the same refusal, ``slots()``,
``block_of`` and ``free_reach``. Probes that no engine lists (headings and move directions on
the rounding's half-way ties, other mechs, slots beyond the maxima, bad twists, limbs, edges)
encode alike or are refused with the reference's message. Editing the codec's constants or
the rules' free move changes both alike. Bad arguments raise NativeTypeError or
NativeArgumentError naming them.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import re
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.envs.no_quarter import codec as ref_codec
from wargym.envs.no_quarter.codec import ActionCodec, Slots, battle_slots
from wargym.envs.no_quarter.mission_encoding import SightingOrder
from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter.codec import NativeCodec, codec_tables
from wargym.rules.no_quarter.battle import actions as act
from wargym.rules.no_quarter.battle.actions import Action, Move, Stay
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.vocab import Location, MeleeAttack, Side

sys.path.insert(0, str(Path(__file__).parent))
from _action_samples import mission_points, skirmish_points  # noqa: E402
from _state_compare import same  # noqa: E402

STRIDE = int(os.environ.get("WARGYM_CODEC_STRIDE", "5"))
"""Check one skirmish decision point in this many (1: all of them, in every configuration:
the lead's longer sweep; otherwise "env" and two other configurations in turn at each)."""
SWEEP_EVERY = 25
"""Decode every index at one checked point in this many (a sample of indices at the rest)."""
PROBE_EVERY = 10
"""Encode the probes (actions no engine lists: ties, refusals) at one point in this many."""


def scrambled_slots(battle: Battle, viewer: Side, mirror: bool = True) -> Slots:
    """A custom numbering: own mechs reversed, enemies by x, a quarter turn for blue."""
    base = battle_slots(battle, viewer, mirror)
    enemy = tuple(sorted(base.enemy, key=lambda i: (battle.mechs[i].pos[0], i)))
    turn = 90.0 if viewer is Side.BLUE else base.turn
    return Slots(viewer, base.own[::-1], enemy, base.buildings[::-1], turn)


Factory = Callable[[Battle], ActionCodec]
CONFIGS: dict[str, Factory] = {
    # the skirmish env: max_mechs = mechs_per_side, the battle's own options
    "env": lambda b: ActionCodec(max(1, len(b.mechs) // 2), 8, 12, b.options),
    "defaults": lambda b: ActionCodec(),
    "tight": lambda b: ActionCodec(1, 1, 0, b.options),
    "odd grid, unmirrored": lambda b: ActionCodec(
        3, 2, 3, BattleOptions(move_directions=7, move_fractions=(0.3, 0.6, 1.0)), mirror=False
    ),
    "widest": lambda b: ActionCodec(
        64,
        32,
        64,
        BattleOptions(move_directions=64, move_fractions=tuple(i / 8 for i in range(1, 9))),
    ),
    "custom slots": lambda b: ActionCodec(6, 8, 12, b.options, True, scrambled_slots),
}


def sighting(battle: Battle) -> SightingOrder:
    """The missions' order after both sides saw the other's mechs in reverse id order."""
    order = SightingOrder()
    ids = sorted(battle.mechs)
    order.note(
        {side: [i for i in reversed(ids) if battle.mechs[i].side is not side] for side in Side}
    )
    return order


def outcome(call: Callable[[], Any], native: bool) -> Any:
    """The call's result as plain data, or ("ValueError", message) for a refusal."""
    try:
        value = call()
    except KeyError as error:  # the reference's battle.mechs[action.mech]
        assert not native
        return ("no such mech", error.args[0])
    except ValueError as error:
        text = str(error)
        if native:
            assert isinstance(error, NativeArgumentError), repr(error)
            text = text.split(": ", 1)[1]
            missing = re.fullmatch(r"mech (-?\d+) is not in the battle", text)
            if missing:  # the core's word for the reference's KeyError
                return ("no such mech", int(missing.group(1)))
        return ("ValueError", text)
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.tobytes())
    if isinstance(value, dict):
        return [(k, plain(v)) for k, v in value.items()]
    return plain(value)


def plain(value: Any) -> Any:
    """An action as its type and repr (floats by repr: -0.0 and 0.0 differ, 90 and 90.0 too)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, repr(value))
    return value


def agree(label: str, ref: Any, native: Any, diff_where: str) -> None:
    diff = same(ref, native, diff_where)
    assert diff is None, f"{label}: {diff}"


def check_point(label: str, battle: Battle, nb: Any, legal: list[Action], codec: ActionCodec,
                sweep: bool) -> dict[str, int]:  # fmt: skip
    """Compare the two codecs at one decision point (``nb``: the native twin of ``battle``)."""
    nat = NativeCodec(codec)
    slots = None
    if nat.custom_slots and battle.decision is not None and not battle.over:
        slots = codec.slot_fn(battle, battle.decision.side, codec.mirror)
    stats = {"legal": len(legal), "clashes": codec.collisions(battle)}
    agree(
        label,
        outcome(lambda: codec.mask(battle), False),
        outcome(lambda: nat.mask(nb, legal, slots), True),
        "mask",
    )
    agree(label, outcome(lambda: codec.table(battle), False),
          outcome(lambda: nat.table(nb, legal, slots), True), "table")  # fmt: skip
    assert codec.collisions(battle) == nat.collisions(nb, legal, slots), label
    for action in legal:
        agree(f"{label} {action}", outcome(lambda a=action: codec.encode(a, battle), False),  # type: ignore[misc]
              outcome(lambda a=action: nat.encode(a, nb, slots), True), "encode")  # fmt: skip
    if battle.decision is not None and not battle.over:
        ref_slots = codec.slots(battle)
        assert dataclasses.astuple(ref_slots) == dataclasses.astuple(slots or nat.slots(nb)), label
    step = max(37, codec.n // 10)
    legal_indices = list(codec.table(battle))
    sample = {
        0,
        1,
        codec.n - 1,
        *legal_indices[:: max(1, len(legal_indices) // 8)],
        *range(7, codec.n, step),
    }
    indices = list(range(codec.n)) if sweep else sorted(sample)
    native = nat.decode_many(indices, nb, legal, slots)
    for i, got in zip(indices, native, strict=True):
        agree(f"{label} index {i}", outcome(lambda i=i: codec.decode(i, battle), False),  # type: ignore[misc]
              plain(got), "decode")  # fmt: skip
    for i in indices[:: max(1, len(indices) // 4)]:  # the one-index call too
        agree(f"{label} index {i}", plain(native[indices.index(i)]),
              outcome(lambda i=i: nat.decode(i, nb, legal, slots), True), "decode")  # fmt: skip
    return stats


def test_the_codec_agrees_at_every_decision_point_of_every_configuration() -> None:
    totals = {"points": 0, "clashes": 0, "legal": 0}
    kinds: set[str] = set()
    checked: dict[str, int] = {}
    for n, (label, battle, legal) in enumerate(
        itertools.islice(skirmish_points(), 0, None, STRIDE)
    ):
        nb = nnq.battle_from_dict(battle.to_dict())
        names = list(CONFIGS)
        rotating = names[1:]  # "env" at every point, two of the others in turn
        chosen = ["env", rotating[(2 * n) % len(rotating)], rotating[(2 * n + 1) % len(rotating)]]
        if STRIDE == 1:
            chosen = names
        for name in chosen:
            factory = CONFIGS[name]
            checked[name] = checked.get(name, 0) + 1
            sweep = n % SWEEP_EVERY < 3 and (name != "widest" or n % (4 * SWEEP_EVERY) < 3)
            stats = check_point(f"{label} [{name}]", battle, nb, legal, factory(battle), sweep)
            totals["clashes"] += stats["clashes"]
            totals["legal"] += stats["legal"]
            if n % PROBE_EVERY == 0 and (name == "env" or n % (3 * PROBE_EVERY) == 0):
                kinds |= check_probes(f"{label} [{name}]", battle, nb, factory(battle))
        totals["points"] += 1
    assert totals["points"] > 500 // STRIDE
    assert totals["clashes"] > 50 // STRIDE
    assert min(checked[name] for name in CONFIGS) > 100 // STRIDE
    assert kinds == {"refused", "encoded"}  # the tight configuration leaves options out


def probes(battle: Battle) -> list[Any]:
    """Actions no engine lists at this decision: rounding ties, other mechs, bad slots."""
    decision = battle.decision
    assert decision is not None
    mech = decision.mech if decision.mech is not None else min(battle.mechs)
    other = max(battle.mechs) + 1
    x, y = battle.mechs[mech].pos
    out: list[Any] = [act.Stay(mech, h * 11.25) for h in range(-2, 34)]
    out += [act.Face(mech, h * 22.5, t) for h in range(-1, 17) for t in (-90, 0, 90, 45)]
    out += [act.Face(mech, None, 0), act.Stay(other), act.Stay(other - 1 if other > 1 else 0)]
    for k in range(33):  # the move directions and their half-way ties, at several lengths
        rad = math.radians(k * 11.25)
        for length in (0.001, 1.0, 3.999, 20.0):
            to = (round(x + length * math.cos(rad), 3), round(y + length * math.sin(rad), 3))
            out += [
                act.Move(mech, to),
                act.Move(mech, to, jump=True),
                act.Move(mech, to, reverse=True),
            ]
            out.append(act.FreeMove(mech, to))
    out += [
        act.FreeMove(mech, None),
        act.FreeMove(mech, (x, y)),
        act.FireFirst(mech),
        act.EndFire(mech),
    ]
    ids = sorted(battle.mechs)
    for i in [*ids, other, -1]:
        out += [act.ActivateGroup(i), act.SkipGroup(i), act.ChooseMech(i), act.SplitOff(i)]
        out += [act.Charge(mech, i), act.FightMech(mech, i), act.LeadTeam(mech, i)]
        out += [act.AssignFire(mech, w, i) for w in (-1, 0, 1, 3, 8)]
    for feature in range(-1, len(battle.battlefield.features) + 1):
        out += [act.FireAtBuilding(mech, w, feature) for w in range(0, 4)]
        out += [
            act.AttackBuilding(mech, feature, a, limb) for a in MeleeAttack for limb in Location
        ]
    out += [act.DeclareMelee(mech, a, limb) for a in MeleeAttack for limb in Location]
    out += [act.ExitTable(mech, e) for e in ("south", "east", "north", "west", "up")]
    out += [act.ChooseObjective(o) for o in ("destroy", "break_through", "win")]
    out += [act.FreeWill(mech, p) for p in range(-1, 4)]
    out += [act.LuckyChoice(mech, r) for r in (False, True)] + [
        act.KeepGroups(),
        act.LeadDone(mech),
    ]
    out += [act.ChooseLocation(mech, loc) for loc in Location]
    return out


def check_probes(label: str, battle: Battle, nb: Any, codec: ActionCodec) -> set[str]:
    """Every probe encodes alike or is refused alike; the kinds of outcome seen."""
    nat = NativeCodec(codec)
    assert battle.decision is not None
    slots = codec.slot_fn(battle, battle.decision.side, codec.mirror) if nat.custom_slots else None
    kinds = set()
    for action in probes(battle):
        ref = outcome(partial(codec.encode, action, battle), False)
        native = outcome(partial(nat.encode, action, nb, slots), True)
        agree(f"{label} {action!r}", ref, native, "encode")
        kinds.add("refused" if isinstance(ref, tuple) else "encoded")
    return kinds


def test_the_codec_agrees_on_mission_states_with_the_sighting_order() -> None:
    for n, (label, battle, legal) in enumerate(mission_points(steps=30)):
        nb = nnq.battle_from_dict(battle.to_dict())
        codec = ActionCodec(6, 8, 12, battle.options, True, sighting(battle))
        check_point(f"{label} [sighting]", battle, nb, legal, codec, n % 10 == 0)
        check_point(f"{label} [env]", battle, nb, legal, CONFIGS["env"](battle), False)


def test_the_block_layout_is_the_reference_one() -> None:
    for factory in CONFIGS.values():
        codec = factory(Battle.from_dict(next(skirmish_points(1))[1].to_dict()))
        nat = NativeCodec(codec)
        assert nat.n == codec.n and nat.core.offsets == codec.offsets
        assert tuple(codec.sizes) == nnq.core.CODEC_BLOCKS
        for i in (-1, *range(codec.n + 1)):
            ref, native = partial(codec.block_of, i), partial(nat.block_of, i)
            agree(f"block_of {i}", outcome(ref, False), outcome(native, True), "block_of")


def test_edited_constants_change_both_engines_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C++ holds no copy of the codec's numbers or of the rules' free move (§16.1.3)."""
    rules = load_rules()
    edited = dataclasses.replace(
        rules, in_sight=dataclasses.replace(rules.in_sight, free_move_inches=5)
    )
    monkeypatch.setattr(ref_codec, "rules_of", lambda _battle: edited)
    for name, value in [("HEADINGS", 4), ("FREE_DIRECTIONS", 6), ("REVERSE_FRACTION", 0.5),
                        ("_TOL", 0.75), ("EDGES", ("west", "north", "east", "south")),
                        ("FREE_WILL", (0, 1, 2)), ("LUCKY_CHOICES", (True, False))]:  # fmt: skip
        monkeypatch.setattr(ref_codec, name, value)
    monkeypatch.setattr(ref_codec, "LIMBS", ref_codec.LIMBS[::-1])
    monkeypatch.setattr(ref_codec, "LOCATION_SLOTS", ref_codec.LOCATION_SLOTS[::-1])
    for n, (label, battle, legal) in enumerate(itertools.islice(skirmish_points(3), 60)):
        codec = ActionCodec(6, 8, 12, battle.options)
        assert codec_tables(codec)["reverse_fraction"] == 0.5
        nb = nnq.battle_from_dict(battle.to_dict())
        check_point(f"{label} [edited]", battle, nb, legal, codec, n % 6 == 0)
        assert NativeCodec(codec).free_reach(nb) == (1.0, 5.0)


# -- bad input ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def live() -> tuple[Battle, Any, list[Action], NativeCodec]:
    for _label, battle, legal in skirmish_points(2):
        if battle.decision is not None and battle.decision.mech is not None and len(legal) > 3:
            return battle, nnq.battle_from_dict(battle.to_dict()), legal, NativeCodec(ActionCodec())
    raise AssertionError("no mech decision")


@pytest.mark.parametrize(
    ("call", "error", "argument"),
    [
        (lambda c, b, legal: c.decode(-1, b, legal), NativeArgumentError, "index"),
        (lambda c, b, legal: c.decode(10**6, b, legal), NativeArgumentError, "index"),
        (lambda c, b, legal: c.decode(10**30, b, legal), NativeArgumentError, "index"),
        (lambda c, b, legal: c.decode(True, b, legal), NativeTypeError, "index"),
        (lambda c, b, legal: c.decode(1.0, b, legal), NativeTypeError, "index"),
        (lambda c, b, legal: c.decode("3", b, legal), NativeTypeError, "index"),
        (lambda c, b, legal: c.decode(0, b, legal), NativeArgumentError, "index"),
        (lambda c, b, legal: c.decode(1, b.to_dict(), legal), NativeTypeError, "battle"),
        (lambda c, b, legal: c.decode(1, b, legal[0]), NativeTypeError, "legal"),
        (lambda c, b, legal: c.decode(1, b, [*legal[:1], "Stay"]), NativeTypeError, "legal[1]"),
        (lambda c, b, legal: c.mask(b, [{"type": "Stay", "mech": 1}]), NativeTypeError, "legal[0]"),
        (lambda c, b, legal: c.mask(b, legal, slots=3), NativeTypeError, "slots"),
        (lambda c, b, legal: c.encode(None, b), NativeTypeError, "action"),
        (lambda c, b, legal: c.encode(Move(10**6, (1.0, 1.0)), b), NativeArgumentError, "action"),
        (lambda c, b, legal: c.encode(Stay(legal[0].mech + 1), b), NativeArgumentError, "action"),  # type: ignore[union-attr]
        (lambda c, b, legal: c.core.block_of(c.n), NativeArgumentError, "index"),
        (lambda c, b, legal: c.core.slots(b, "green"), NativeArgumentError, "viewer"),
    ],
)
def test_bad_arguments_raise_typed_errors(live: Any, call: Any, error: type, argument: str) -> None:
    _battle, nb, legal, codec = live
    with pytest.raises(error) as raised:
        call(codec, nb, legal)
    assert raised.value.argument == argument, raised.value


def test_a_wrong_mech_is_refused_with_the_reference_message(live: Any) -> None:
    battle, nb, legal, codec = live
    action = Stay(battle.decision.mech + 1) if battle.decision.mech + 1 in battle.mechs else None
    if action is None:
        action = Stay(min(battle.mechs))
    with pytest.raises(ValueError) as ref:
        codec.reference.encode(action, battle)
    with pytest.raises(NativeArgumentError) as native:
        codec.encode(action, nb)
    assert str(native.value) == f"action: {ref.value}"


def test_no_pending_decision_is_refused(live: Any) -> None:
    battle, _nb, _legal, codec = live
    data = battle.to_dict()
    data["over"], data["winner"], data["end_reason"], data["decision"] = True, "blue", "test", None
    over = Battle.from_dict(data)
    nb = nnq.battle_from_dict(data)
    assert not codec.mask(nb, []).any()
    assert (codec.reference.mask(over) == codec.mask(nb, [])).all()
    for call in (lambda: codec.encode(Stay(0), nb), lambda: codec.nominal(3, nb)):
        with pytest.raises(NativeArgumentError, match="no decision is pending"):
            call()


@pytest.mark.parametrize(
    ("edit", "argument"),
    [
        (lambda t: t.pop("headings"), "codec.headings"),
        (lambda t: t.update(headings=True), "codec.headings"),
        (lambda t: t.update(headings=9), "codec.sizes"),
        (lambda t: t.update(max_mechs=0), "codec.max_mechs"),
        (lambda t: t.update(fractions=[0.5, "x"]), "codec.fractions[1]"),
        (lambda t: t.update(mirror=1), "codec.mirror"),
        (lambda t: t.update(sizes=dict(reversed(list(t["sizes"].items())))), "codec.sizes"),
        (lambda t: t["sizes"].pop("marksman"), "codec.sizes"),
        (lambda t: t.update(limbs=[("bite", "arm_l")] * 4), "codec.limbs[0][0]"),
        (lambda t: t.update(location_slots=["tail"] * 7), "codec.location_slots"),
        (lambda t: t.update(edges=[1, 2, 3, 4]), "codec.edges"),
        (lambda t: t.update(reverse_fraction=float("nan")), "codec.reverse_fraction"),
        (lambda t: t.update(twists="abc"), "codec.twists"),
    ],
)
def test_bad_codec_tables_are_refused(edit: Callable[[dict[str, Any]], Any], argument: str) -> None:
    tables = codec_tables(ActionCodec())
    tables["sizes"] = dict(tables["sizes"])
    edit(tables)
    with pytest.raises(NativeArgumentError) as raised:
        NativeCodec(ActionCodec(), tables)
    assert raised.value.argument == argument, raised.value


def test_a_bad_free_reach_callable_is_refused(live: Any) -> None:
    _battle, nb, _legal, _codec = live
    with pytest.raises(NativeTypeError, match="free_reach"):
        nnq.core.ActionCodec(codec_tables(ActionCodec()), 3)
    bad = nnq.core.ActionCodec(codec_tables(ActionCodec()), lambda *rules: (1.0,))
    with pytest.raises(NativeArgumentError, match="FREE_REACHES"):
        bad.free_reach(nb)


def test_a_custom_slot_codec_needs_its_slots(live: Any) -> None:
    battle, nb, legal, _codec = live
    codec = ActionCodec(6, 8, 12, battle.options, True, scrambled_slots)
    nat = NativeCodec(codec)
    with pytest.raises(ValueError, match="pass its Slots"):
        nat.mask(nb, legal)
    slots = scrambled_slots(battle, battle.decision.side, True)
    assert (nat.mask(nb, legal, slots) == codec.mask(battle)).all()
    with pytest.raises(NativeArgumentError) as raised:
        nat.mask(nb, legal, dataclasses.replace(slots, viewer="green"))
    assert raised.value.argument == "slots.viewer"
    with pytest.raises(NativeTypeError) as typed:
        nat.mask(nb, legal, dataclasses.replace(slots, own=[1.5]))
    assert typed.value.argument == "slots.own[0]"
