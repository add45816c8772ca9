"""NP memory (``enemy.NpContext``) as JSON data, for env snapshots (§22.4)."""

from __future__ import annotations

import json

import pytest

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.non_player.enemy import (
    MoveOrder,
    MoveRoll,
    NpActivation,
    NpContext,
    NpGroupState,
    NpObjective,
    NpOptions,
    NpPosture,
    PursuitRoll,
)


def _context() -> NpContext:
    context = NpContext(options=NpOptions(awareness="arc", beaten_away_uses_range=False))
    context.groups[3] = NpGroupState(
        posture=NpPosture.WITHDRAW,
        objective=NpObjective.BREAK_THROUGH,
        own_edge="east",
        exit_edge="west",
        after_beaten="withdraw",
        target=7,
        order=MoveOrder.HALF,
        activation=(2, 5),
    )
    context.rolls.append(
        NpActivation(
            3,
            5,
            NpPosture.ATTACK,
            True,
            PursuitRoll((1, 6), 1, 7),
            MoveRoll("22.3.7", (2, 4), 2, MoveOrder.FULL),
        )
    )
    return context


def test_22_4_np_context_round_trips_through_json() -> None:
    context = _context()
    data = json.loads(json.dumps(context.to_dict()))
    assert data["groups"]["3"]["posture"] == "withdraw"
    assert data["groups"]["3"]["activation"] == [2, 5]
    assert data["rolls"][0]["move"]["faces"] == [2, 4]
    back = NpContext.from_dict(data)
    assert back == context
    assert back.groups[3].activation == (2, 5) and back.rolls[0].pursuit == PursuitRoll(
        (1, 6), 1, 7
    )
    assert NpContext.from_dict(NpContext().to_dict()) == NpContext()


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d["groups"]["3"].update(posture="sleeping"), "np_context.groups.3.posture"),
        (lambda d: d["groups"].update({"x": d["groups"].pop("3")}), "key 'x'"),
        (lambda d: d["options"].update(awareness="radar"), "np_context.options.awareness"),
        (lambda d: d.update(extra=1), "unknown fields"),
    ],
)
def test_22_4_np_context_refuses_malformed_data(mutate, where) -> None:  # type: ignore[no-untyped-def]
    data = _context().to_dict()
    mutate(data)
    with pytest.raises(StateError, match=where):
        NpContext.from_dict(data)
    with pytest.raises(StateError):
        NpContext.from_dict([1, 2])
