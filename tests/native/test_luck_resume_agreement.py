"""A Lucky or Marksman answer after earlier answers in the same unit replays natively (luck.resume).

luck.py plays a choice inside a roll by re-execution (E21): each answer re-runs the paused unit
from the battle before it, replaying the faces rolled so far and the answers given so far, in
order. Skirmishes whose pilots are all Lucky and Marksman (``lucky``/``marksman`` "choose") are
played by the reference with random legal actions; at every pause that already holds answers,
every option is played in both engines from the same document with the reference's d6 faces
(``game.play``: the answer and every rule after it). Events, faces consumed, the document after
(floats bit for bit) and the options after must be equal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.game import game_tables, legal_actions, play
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import DecisionKind, action_to_dict
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.setup import new_skirmish

PAUSES = (DecisionKind.LUCKY_REROLL, DecisionKind.MARKSMAN_LOCATION)


class _Counting:
    def __init__(self, inner: Any) -> None:
        self.inner, self.used = inner, []

    def roll(self, n: int) -> tuple[int, ...]:
        faces = self.inner.roll(n)
        self.used.extend(faces)
        return tuple(faces)


def _pauses(games: int, most: int = 300) -> Iterator[tuple[str, Battle]]:
    """Pause decisions whose frame already holds answers, in random skirmishes of choosers."""
    factions = list(vocab.Faction)
    attrs = (vocab.Attribute.LUCKY, vocab.Attribute.MARKSMAN)
    for g in range(games):
        rng = np.random.default_rng(900 + g)
        dice = RandomDice.from_seed(900 + g)
        per_side = 2 + g % 3
        battle = new_skirmish(
            rng, dice, blue=factions[g % len(factions)], red=factions[(g * 3 + 1) % len(factions)],
            mechs_per_side=per_side, stars=g % (per_side + 1),
            options=BattleOptions(lucky="choose", marksman="choose"),
        )  # fmt: skip
        for i, mech in enumerate(battle.mechs.values()):
            mech.pilot = dataclasses.replace(
                mech.pilot, attributes=attrs if (i + g) % 3 else attrs[1:]
            )
        battle.frames, battle.decision, battle.options_cache = [], None, None  # a turn with them
        game.advance(battle, dice)
        for d in range(most):
            if battle.over:
                break
            decision = battle.decision
            if decision is not None and decision.kind in PAUSES and battle.frames[-1]["answers"]:
                yield f"game {g} decision {d}", battle
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)


def test_an_answer_after_earlier_answers_replays_the_unit() -> None:
    checked, deepest = 0, 0
    for label, battle in _pauses(24):
        doc = battle.to_dict()
        tables = game_tables(battle)
        deepest = max(deepest, len(doc["frames"][-1]["answers"]))
        for k, action in enumerate(game.legal_actions(battle)):
            where = f"{label}: {action_to_dict(action)} after {doc['frames'][-1]['answers']}"
            reference = Battle.from_dict(doc)
            native = battle_from_dict(doc)
            counting = _Counting(RandomDice.from_seed(checked * 7 + k))
            events = [e.to_dict() for e in game.play(reference, action, counting)]
            scripted = _core.ScriptedDice(list(counting.used))
            found = play(native, tables, action, scripted, events=True)
            assert found is not None
            assert [e.to_dict() for e in found] == events, where
            assert len(scripted.used) == len(counting.used), where
            assert native.to_dict() == reference.to_dict(), where
            assert [action_to_dict(a) for a in legal_actions(native, tables)] == [
                action_to_dict(a) for a in game.legal_actions(reference)
            ], where
        checked += 1
    assert checked >= 20 and deepest >= 2, (checked, deepest)
