"""The action codec and the heuristic read the rules' distances, not copies (issue 15 item 14)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.envs.no_quarter import codec
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import new_skirmish


def _with(**changes: object) -> object:
    rules = load_rules()
    fields = {name: dataclasses.replace(getattr(rules, name), **kw) for name, kw in changes.items()}  # type: ignore[arg-type]
    return dataclasses.replace(rules, **fields)


def test_16_1_3_codec_free_reach_follows_free_move_inches(monkeypatch: pytest.MonkeyPatch) -> None:
    battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
    assert codec.free_reach(battle) == (1.0, 2.0)  # the table's 2"
    rules = _with(in_sight={"free_move_inches": 4})
    monkeypatch.setattr(codec, "rules_of", lambda _battle: rules)
    assert codec.free_reach(battle) == (1.0, 4.0)


def test_17_4_heuristic_fast_moving_follows_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from wargym.agents import heuristic
    from wargym.rules.no_quarter.battle import game

    battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
    assert heuristic._fast_moving(battle) == 10.0  # the table's 10"
    rules = _with(ranged_combat={"fast_moving_inches": 6})
    monkeypatch.setattr(game, "rules_of", lambda _battle: rules)
    assert heuristic._fast_moving(battle) == 6.0
