"""Bad buffers and arguments of the native observation encoder raise a typed error; nothing aborts.

A value of the wrong type raises ``NativeTypeError``, a bad value, shape or size
``NativeArgumentError``; the message starts with the argument's name, and the buffer handed
in is left unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from wargym.envs.no_quarter.encoding import ObservationEncoder, visible_enemies
from wargym.envs.no_quarter.mission_encoding import MissionObservationEncoder
from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter import encoding as glue
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side

BATTLE = new_skirmish(np.random.default_rng(4), RandomDice.from_seed(4), mechs_per_side=2)
NATIVE = nnq.battle_from_dict(BATTLE.to_dict())
SEEN = visible_enemies(BATTLE, Side.BLUE)
ENCODER = glue.NativeObservationEncoder(ObservationEncoder(2))
SIZE = ENCODER.size
CORE = ENCODER._core


def call(**changes: Any) -> None:
    args: dict[str, Any] = {
        "battle": NATIVE,
        "viewer": "blue",
        "visible": SEEN,
        "out": np.zeros(SIZE, np.float32),
        "slots": None,
        "markers": (),
    }
    args.update(changes)
    CORE.encode(**args)


BAD_CALLS: list[tuple[str, dict[str, Any], type[Exception], str]] = [
    ("out a list", {"out": [0.0] * SIZE}, NativeTypeError, "out"),
    ("out float64", {"out": np.zeros(SIZE)}, NativeTypeError, "out"),
    ("out int32", {"out": np.zeros(SIZE, np.int32)}, NativeTypeError, "out"),
    ("out big-endian", {"out": np.zeros(SIZE, ">f4")}, NativeTypeError, "out"),
    ("out too short", {"out": np.zeros(SIZE - 1, np.float32)}, NativeArgumentError, "out"),
    ("out too long", {"out": np.zeros(SIZE + 1, np.float32)}, NativeArgumentError, "out"),
    ("out 2-D", {"out": np.zeros((1, SIZE), np.float32)}, NativeArgumentError, "out"),
    ("out strided", {"out": np.zeros(2 * SIZE, np.float32)[::2]}, NativeArgumentError, "out"),
    ("out None", {"out": None}, NativeTypeError, "out"),
    ("battle a dict", {"battle": BATTLE.to_dict()}, NativeTypeError, "battle"),
    ("battle the reference's", {"battle": BATTLE}, NativeTypeError, "battle"),
    ("viewer green", {"viewer": "green"}, NativeArgumentError, "viewer"),
    ("viewer an int", {"viewer": 0}, NativeTypeError, "viewer"),
    ("visible not iterable", {"visible": 3}, NativeTypeError, "visible"),
    ("visible a float id", {"visible": [1.0]}, NativeTypeError, "visible[0]"),
    ("visible an unknown id", {"visible": [99]}, NativeArgumentError, "visible"),
    ("visible a bool", {"visible": [True]}, NativeTypeError, "visible[0]"),
    ("slots a list", {"slots": [[0], [1], 0.0]}, NativeTypeError, "slots"),
    ("slots unknown own id", {"slots": ((77,), (), 0.0)}, NativeArgumentError, "slots.own"),
    ("slots unknown enemy", {"slots": ((), (78,), 0.0)}, NativeArgumentError, "slots.enemy"),
    ("slots turn nan", {"slots": ((), (), float("nan"))}, NativeArgumentError, "slots.turn"),
    ("markers a point", {"markers": (1.0, 2.0)}, NativeTypeError, "markers[0]"),
    ("markers a string", {"markers": ["ab"]}, NativeTypeError, "markers[0]"),
    ("markers inf", {"markers": [(1.0, float("inf"))]}, NativeArgumentError, "markers[0][1]"),
    ("markers not iterable", {"markers": 5}, NativeTypeError, "markers"),
]


@pytest.mark.parametrize(("case", "changes", "error", "argument"), BAD_CALLS,
                         ids=[c[0] for c in BAD_CALLS])  # fmt: skip
def test_a_bad_argument_raises_a_typed_error(
    case: str, changes: dict[str, Any], error: type[Exception], argument: str
) -> None:
    with pytest.raises(error) as info:
        call(**changes)
    assert info.value.argument == argument, (case, str(info.value))  # type: ignore[attr-defined]
    assert str(info.value).startswith(argument + ": ")


def test_a_read_only_buffer_is_refused_and_every_refusal_leaves_out_unchanged() -> None:
    out = np.full(SIZE, 7.0, np.float32)
    out.flags.writeable = False
    with pytest.raises(NativeArgumentError, match="^out: the array is read-only"):
        call(out=out)
    out = np.full(SIZE, 7.0, np.float32)
    for changes in ({"visible": [99]}, {"slots": ((77,), (), 0.0)}, {"markers": [(1.0, "x")]}):
        with pytest.raises(NativeArgumentError):
            call(out=out, **changes)
        assert (out == 7.0).all()
    call(out=out)  # still usable
    assert not (out == 7.0).all()


def test_a_row_of_a_batch_array_is_a_buffer() -> None:
    batch = np.zeros((3, SIZE), np.float32)
    ENCODER.encode_into(NATIVE, Side.BLUE, SEEN, batch[1])
    assert np.array_equal(batch[1], ObservationEncoder(2).encode(BATTLE, Side.BLUE, SEEN))
    assert not batch[0].any() and not batch[2].any()
    with pytest.raises(NativeArgumentError, match="^out: "):
        ENCODER.encode_into(NATIVE, Side.BLUE, SEEN, batch[:, 0])


def test_a_table_of_another_size_is_refused() -> None:
    small = glue.NativeObservationEncoder(ObservationEncoder(2, width=24.0, height=24.0))
    with pytest.raises(NativeArgumentError, match="^battle: the battlefield has 36 x 36 cells"):
        small.encode(NATIVE, Side.BLUE, SEEN)


def config_change(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(config: dict[str, Any]) -> None:
        config[key] = value

    return change


BAD_CONFIGS: list[tuple[str, Callable[[dict[str, Any]], None], type[Exception], str]] = [
    ("missing key", lambda c: c.pop("cell"), NativeArgumentError, "config.cell"),
    ("cell a string", config_change("cell", "1"), NativeTypeError, "config.cell"),
    ("cell zero", config_change("cell", 0.0), NativeArgumentError, "config.cell"),
    ("rows zero", config_change("rows", 0), NativeArgumentError, "config.rows"),
    ("mirror an int", config_change("mirror", 1), NativeTypeError, "config.mirror"),
    ("size off by one", lambda c: c.update(size=c["size"] + 1), NativeArgumentError, "config"),
    ("a table short", lambda c: c["cover"].pop(), NativeArgumentError, "config.cover"),
    (
        "terrain out of range",
        config_change("terrain_planes", [99]),
        NativeArgumentError,
        "config.terrain_planes[0]",
    ),  # fmt: skip
    (
        "speed scale nan",
        config_change("speed_scale", float("nan")),
        NativeArgumentError,
        "config.speed_scale",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("case", "change", "error", "argument"), BAD_CONFIGS,
                         ids=[c[0] for c in BAD_CONFIGS])  # fmt: skip
def test_a_bad_config_is_refused(
    case: str, change: Callable[[dict[str, Any]], None], error: type[Exception], argument: str
) -> None:
    config = glue.encoder_config(ObservationEncoder(2))
    change(config)
    with pytest.raises(error) as info:
        glue.core.ObservationEncoder(config)
    assert info.value.argument == argument, (case, str(info.value))  # type: ignore[attr-defined]
    with pytest.raises(NativeTypeError, match="^config: expected a dict"):
        glue.core.ObservationEncoder([])


class Advisor:
    rows = ("value", "pick")
    version = "test-advisor"


FEATURES = glue.NativeObservationEncoder(
    ObservationEncoder(2, action_table=lambda b, v: {}, n_actions=8)
)
DECIDER = BATTLE.decision.side.value if BATTLE.decision else "blue"
BAD_ACTIONS: list[tuple[str, Any, type[Exception], str]] = [
    ("not iterable", 5, NativeTypeError, "actions"),
    ("a row a list", [[0, "stay", 1, None, None]], NativeTypeError, "actions[0]"),
    ("a row too short", [(0, "stay", 1, None)], NativeTypeError, "actions[0]"),
    ("index a float", [(0.0, "stay", 1, None, None)], NativeTypeError, "actions[0].index"),
    ("kind unknown", [(0, "jump", 1, None, None)], NativeArgumentError, "actions[0].kind"),
    ("kind an int", [(0, 1, 1, None, None)], NativeTypeError, "actions[0].kind"),
    ("mech None", [(0, "stay", None, None, None)], NativeTypeError, "actions[0].mech"),
    ("move without to", [(0, "move", 1, None, None)], NativeTypeError, "actions[0].to"),
    (
        "to nan",
        [(0, "move", 1, (1.0, float("nan")), None)],
        NativeArgumentError,
        "actions[0].to[1]",
    ),
    ("target a str", [(0, "other", None, None, "1")], NativeTypeError, "actions[0].target"),
    ("index out of range", [(8, "other", None, None, None)], NativeArgumentError, "actions"),
    ("index negative", [(-1, "other", None, None, None)], NativeArgumentError, "actions"),
    ("index twice", [(1, "other", None, None, None)] * 2, NativeArgumentError, "actions"),
    ("unknown mech", [(0, "stay", 99, None, None)], NativeArgumentError, "actions"),
]


@pytest.mark.parametrize(("case", "actions", "error", "argument"), BAD_ACTIONS,
                         ids=[c[0] for c in BAD_ACTIONS])  # fmt: skip
def test_a_bad_action_table_is_refused(
    case: str, actions: Any, error: type[Exception], argument: str
) -> None:
    out = np.full(FEATURES.size, 7.0, np.float32)
    with pytest.raises(error) as info:
        FEATURES._core.encode(NATIVE, DECIDER, SEEN, out, None, (), actions)
    assert info.value.argument == argument, (case, str(info.value))  # type: ignore[attr-defined]
    assert (out == 7.0).all()


def test_encoders_not_mirrored_and_missing_hook_results_are_refused() -> None:
    with pytest.raises(NativeTypeError, match="^encoder: "):
        glue.NativeObservationEncoder(object())  # type: ignore[arg-type]

    class Custom(ObservationEncoder):
        pass

    with pytest.raises(NativeArgumentError, match="^encoder: Custom is not mirrored"):
        glue.NativeObservationEncoder(Custom(2))
    advised = ObservationEncoder(2, action_table=lambda b, v: {}, n_actions=4, advisor=Advisor())
    with pytest.raises(NativeArgumentError, match="^encoder: the advisor rows"):
        glue.NativeObservationEncoder(advised)
    with_features = glue.NativeObservationEncoder(
        ObservationEncoder(2, action_table=lambda b, v: {}, n_actions=4)
    )
    with pytest.raises(NativeArgumentError, match="^actions: "):
        with_features.encode(NATIVE, Side.BLUE, SEEN)
    hooked = glue.NativeObservationEncoder(ObservationEncoder(2, markers=lambda b, v: ()))
    with pytest.raises(NativeArgumentError, match="^markers: "):
        hooked.encode(NATIVE, Side.BLUE, SEEN)
    ordered = glue.NativeObservationEncoder(ObservationEncoder(2, slots=lambda b, v, m: None))
    with pytest.raises(NativeArgumentError, match="^slots: "):
        ordered.encode(NATIVE, Side.BLUE, SEEN)


def mission_document() -> dict[str, Any]:
    from wargym.rules.no_quarter.mission.mission_play import new_mission

    name = "patrol_star_army_vs_hishen"
    return new_mission(name, np.random.default_rng(0), RandomDice.from_seed(0)).to_dict()


@pytest.mark.parametrize(
    ("case", "change", "path"),
    [
        ("no kind", lambda d: d["mission"].pop("kind"), "mission.kind"),
        ("unknown kind", lambda d: d["mission"].update(kind="raid"), "mission.kind"),
        ("recon not a list", lambda d: d["mission"].update(recon=3), "mission.recon"),
        ("morale a string", lambda d: d["np"].update(player_morale="x"), "np.player_morale"),
        ("no pefs", lambda d: d["np"].pop("pefs"), "np.pefs"),
        ("a PEF without pos", lambda d: d["np"]["pefs"][0].pop("pos"), "np.pefs.0.pos"),
    ],
)
def test_mission_data_the_mission_encoder_cannot_read_is_refused(
    case: str, change: Callable[[dict[str, Any]], Any], path: str
) -> None:
    """Mission and NP data are not checked on load (validity_parts is not mirrored)."""
    data = mission_document()
    change(data)
    battle = nnq.battle_from_dict(data)
    encoder = glue.NativeObservationEncoder(MissionObservationEncoder(6))
    out = np.full(encoder.size, 7.0, np.float32)
    with pytest.raises(NativeArgumentError, match=f"^battle: {path}") as info:
        encoder.encode_into(battle, Side.BLUE, (), out)
    assert info.value.argument == "battle", case
    assert (out == 7.0).all()
