"""One definition of a valid No Quarter battle state (``validity.check_battle``).

Every state the engine produces is valid: 200 random games (100 skirmishes, 50 games over the
five shipped missions, 50 over the ten Cestus V missions; random legal decisions, each game
cut after 16 (skirmish) or 10 (mission) decisions except five skirmishes played to their end:
about 3,400 states, some 30 s of CPU) round-trip through ``Battle.from_dict`` (JSON in
between) and pass the opponent server's ``load_battle``. Tampered states are refused with an
``InvalidBattleError`` (a ``StateError``) naming the field, by ``from_dict`` and the server
alike.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from wargym.rules.dice import RandomDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battle.validity import InvalidBattleError, check_battle
from wargym.rules.no_quarter.campaigns.campaign import _scenario
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.rules.no_quarter.mission.scenario import scenario_names
from wargym.server.validation import ProtocolError, load_battle

MISSIONS = tuple(n for n in scenario_names() if not n.startswith("skirmish"))
CESTUS = tuple(f"cestus_v:{n}" for n in range(1, 11))


def _games() -> list[tuple[str, int, int]]:
    """(kind, seed, decision cap): 200 games."""
    games = [("skirmish", seed, 400 if seed < 5 else 16) for seed in range(100)]
    games += [(MISSIONS[i % len(MISSIONS)], i, 10) for i in range(50)]
    games += [(CESTUS[i % len(CESTUS)], i, 10) for i in range(50)]
    return games


def _start(kind: str, seed: int) -> tuple[Battle, RandomDice]:
    rng, dice = np.random.default_rng(seed), RandomDice.from_seed(seed)
    if kind == "skirmish":
        return new_skirmish(rng, dice), dice
    return new_mission(_scenario(kind), rng, dice), dice


def _round_trip(battle: Battle, where: str) -> None:
    data = battle.to_dict()
    text = json.dumps(data)
    again = Battle.from_dict(json.loads(text))
    assert again.to_dict() == data, where
    load_battle(json.loads(text))  # the server's validation (rule-table designs, started)


def test_every_state_of_200_random_games_is_valid() -> None:
    games = _games()
    assert len(games) == 200
    states = ended = 0
    for kind, seed, cap in games:
        battle, dice = _start(kind, seed)
        chooser = np.random.default_rng(10_000 + seed)
        for step in range(cap + 1):
            _round_trip(battle, f"{kind} seed {seed} step {step}")
            states += 1
            if battle.over or step == cap:
                break
            options = game.legal_actions(battle)
            game.play(battle, options[int(chooser.integers(len(options)))], dice)
        ended += battle.over
    assert states > 3000 and ended >= 5  # the five full skirmishes end (turn limit or a win)


# -- tampered states -------------------------------------------------------------------


@pytest.fixture(scope="module")
def start() -> dict[str, Any]:
    battle, _ = _start("skirmish", 4)
    return battle.to_dict()


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *head, last = path.split(".")
        node: Any = data
        for key in head:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _both(*changes: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for one in changes:
            one(data)

    return change


TAMPERED = [
    ("armour 999", _set("mechs.0.armor.2", 999), "battle.mechs.0.armor.2", "999"),
    ("armour -1", _set("mechs.1.armor.0", -1), "battle.mechs.1.armor.0", "-1"),
    (
        "inoperable item 999",
        _set("mechs.0.inoperable", [999]),
        "battle.mechs.0.inoperable.0",
        "999",
    ),
    (
        "inoperable item twice",
        _set("mechs.0.inoperable", [0, 0]),
        "battle.mechs.0.inoperable",
        "twice",
    ),
    ("null decision mid-game", _set("decision", None), "battle.decision", "no decision"),
    (
        "decision for a removed mech",
        _both(_set("decision.mech", 0), _set("mechs.0.removed", "destroyed")),
        "battle.decision.mech",
        "off the table",
    ),
    ("decision after the end", _set("over", True), "battle.decision", "over"),
    ("position not finite", _set("mechs.0.pos", [1e309, 3.0]), "battle.mechs.0.pos", "finite"),
    ("position off the table", _set("mechs.0.pos", [500.0, 3.0]), "battle.mechs.0.pos", "off the"),
    ("speed above the design's", _set("mechs.0.speed", 99), "battle.mechs.0.speed", "99"),
    ("rep 11", _set("mechs.0.rep", 11), "battle.mechs.0.rep", "11"),
    ("twist 45", _set("mechs.0.twist", 45), "battle.mechs.0.twist", "45"),
    (
        "lost limb the head",
        _set("mechs.0.lost_limbs", ["head"]),
        "battle.mechs.0.lost_limbs.0",
        "head",
    ),
    (
        "reaction at unknown mech",
        _set("mechs.0.reaction_fired_at", [77]),
        "battle.mechs.0.reaction_fired_at.0",
        "77",
    ),
    (
        "hidden from unknown mech",
        _set("mechs.0.hidden_from", [88]),
        "battle.mechs.0.hidden_from.0",
        "88",
    ),
    ("group of unknown mech", _set("group_of", {"0": 55}), "battle.group_of.0", "55"),
    ("seen pair unknown", _set("seen_pairs", [[0, 66]]), "battle.seen_pairs.0", "66"),
    ("activation die 7", _set("dice", {"blue": 7, "red": 2}), "battle.dice.blue", "7"),
    ("turn past the limit", _set("turn", 500), "battle.turn", "500"),
    ("losses negative", _set("losses", {"blue": -1, "red": 0}), "battle.losses.blue", "-1"),
    ("more lost than fielded", _set("losses", {"blue": 0, "red": 7}), "battle.losses.red", "7"),
    ("home edge unknown", _set("home_edges", {"blue": "up"}), "battle.home_edges.blue", "up"),
    (
        "building armour on no feature",
        _set("building_armor", {"999": 3}),
        "battle.building_armor.999",
        "999",
    ),
    ("flame not finite", _set("flames", [[[0.0, 0.0], [1e309, 1.0]]]), "battle.flames.0", "finite"),
    ("frame without kind", _set("frames", [{"stage": 1}]), "battle.frames.0", "kind"),
    ("frame of no procedure", _set("frames", [{"kind": "cheat"}]), "battle.frames.0.kind", "cheat"),
    (
        "design armour raised",
        _set("mechs.0.design.armor.0", 9),
        "battle.mechs.0.design",
        "rule tables",
    ),
    ("max turns 10^6", _set("options.max_turns", 10**6), "battle.options.max_turns", "1000000"),
]


@pytest.mark.parametrize(("change", "path", "word"), [c[1:] for c in TAMPERED],
                         ids=[c[0] for c in TAMPERED])  # fmt: skip
def test_tampered_states_are_refused_naming_the_field(
    start: dict[str, Any], change: Callable[[dict[str, Any]], None], path: str, word: str
) -> None:
    data = copy.deepcopy(start)
    change(data)
    before = copy.deepcopy(data)
    with pytest.raises(InvalidBattleError) as caught:
        Battle.from_dict(data)
    assert caught.value.path == path and word in str(caught.value)
    assert isinstance(caught.value, StateError) and len(str(caught.value)) < 300
    assert data == before  # the input is not changed
    with pytest.raises(ProtocolError) as refused:  # the server, same definition
        load_battle(data)
    assert refused.value.code == "invalid_state"
    assert refused.value.field == "state" + path.removeprefix("battle")


def test_a_battle_not_yet_started_is_valid_for_the_engine_not_the_server() -> None:
    from wargym.rules.no_quarter.battlefield.terrain import Battlefield
    from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
    from wargym.rules.no_quarter.forces.vocab import Faction, Side

    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",)),
        ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",)),
    ]
    dice = RandomDice.from_seed(0)
    battle = new_battle(forces, Battlefield(), np.random.default_rng(0), dice)
    assert battle.decision is None and not battle.over
    check_battle(battle)  # env snapshots keep such a start state
    with pytest.raises(InvalidBattleError, match="no decision"):
        check_battle(battle, started=True)
    game.advance(battle, dice)
    check_battle(battle, started=True)


def test_a_design_of_another_id_must_be_a_legal_build(start: dict[str, Any]) -> None:
    data = copy.deepcopy(start)
    data["mechs"]["0"]["design"]["id"] = "homebrew"
    Battle.from_dict(copy.deepcopy(data))  # a legal build under a new name: fine for the engine
    with pytest.raises(ProtocolError, match="unknown design"):
        load_battle(copy.deepcopy(data))  # the server takes rule-table designs only
    data["mechs"]["0"]["design"]["speed"] = 40
    with pytest.raises(InvalidBattleError, match="not a legal design"):
        Battle.from_dict(data)
