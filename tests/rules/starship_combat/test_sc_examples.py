"""Worked examples of the digest that had no test (issue 19): TR-R20, TR-R6, §2.10, tr-hit-1."""

from __future__ import annotations

import numpy as np

from wargym.rules.dice import FallbackDice, ScriptedDice
from wargym.rules.starship_combat import combat as cb
from wargym.rules.starship_combat import game
from wargym.rules.starship_combat.damage import Effect, apply_effect
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.events import DamageRolled, FireCancelled, ToHitRolled
from wargym.rules.starship_combat.fire import fire_step, resolve_fire, to_hit_dm
from wargym.rules.starship_combat.state import FireOrder, Options, ShipOrders

RULES = load_rules()
OPTS = Options()


def test_tr_r20_batteries_per_arc_share_bear_and_batt() -> None:
    # The Kestrel's lasers: Batt 6, Bear 3 (the TR-R20 example has Batt 6 / Bear 4): two
    # targets in the forward arc share at most 3; the other 3 fire only into other arcs.
    state = game.new_battle("fleet")
    kestrel = state.ships[1]
    kestrel.pos, kestrel.heading = (0, 0), 0
    ahead, also_ahead, behind = state.ships[3], state.ships[4], state.ships[5]
    ahead.pos, also_ahead.pos, behind.pos = (0, -3), (0, -5), (0, 3)
    fire = [FireOrder("laser", 3, 2), FireOrder("laser", 4, 2), FireOrder("laser", 5, 3)]
    state.orders[1] = ShipOrders(0, 0, 0, 0, fire)
    events, _ = fire_step(state, state.clone(), FallbackDice([], np.random.default_rng(0)), RULES,
                          OPTS)  # fmt: skip
    fired = [(e.target, e.batteries) for e in events if isinstance(e, ToHitRolled)]
    assert fired == [(3, 2), (4, 1), (5, 3)]
    assert not [e for e in events if isinstance(e, FireCancelled) and e.ship == 1]


def test_tr_r6_a_model_1_fighter_hits_a_liikargi_only_on_a_natural_12() -> None:
    state = game.new_battle("fleet")
    squadron, liikargi = state.ships[2], state.ships[3]
    squadron.pos, liikargi.pos = (0, 0), (0, -1)
    dm = to_hit_dm(state, squadron, liikargi, RULES, OPTS)
    assert dm == -3  # 2D + gunnery 2 + computer 1 - DefDM 7 + large 1, range 1
    assert cb.batch_tenths(11 + dm, 11, 11, RULES) == 0  # a natural 11 misses
    assert cb.batch_tenths(12 + dm, 11, 12, RULES) == 1  # a natural 12: 10 %


def test_2_10_hull_inoperative_crew_hit_of_2_sections_kills_3() -> None:
    state = game.new_battle("duel")
    ship = state.ships[1]
    ship.hull_dmg = 20  # inoperative
    apply_effect(state, Effect(1, "crew", 9, 9), ScriptedDice([]), RULES, OPTS)  # band 2
    assert ship.crew == 17


def test_tr_hit_1_exceptional_batch_adds_1_dp_to_every_battery() -> None:
    state = game.new_battle("duel")
    a, b = state.ships
    b.pos = a.pos
    # fusion guns (no defence): 2D 12 + 5 = 17 vs 11, margin 6: exceptional, 2 of 2 hit;
    # each battery's armour roll 5+5 (need 10) and its surface roll
    dice = FallbackDice([6, 6, 5, 5, 1, 2, 5, 5, 1, 2], np.random.default_rng(0))
    events, effects = resolve_fire(state, a, "fusion_gun", b, 2, dice, RULES, OPTS)
    hit = [e for e in events if isinstance(e, ToHitRolled)]
    assert [(e.hits, e.exceptional) for e in hit] == [(2, True)]
    assert [e.dp for e in events if isinstance(e, DamageRolled)] == [10, 10]  # 9 + 1 each
    assert [e.dp for e in effects if e.what == "armor"] == [1]  # armour -1 once per batch
