"""Bad-input catalogue (issue 9): saves and serialised states (docs/bad_input.md).

Campaign saves (``rules/no_quarter/campaigns/saves.py``): damaged files and tampered fields raise
``StateError`` naming the file and the field, and leave the file's bytes as they were; a
save that fails while writing (read-only folder, I/O error, failed rename) raises
``StateError`` and leaves the previous save intact with no temporary file behind. Engine
states (``Battle.from_dict`` of the three systems) raise ``StateError`` naming the field.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.rules.dice import RandomDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.campaigns.campaign import load_definition
from wargym.rules.no_quarter.campaigns.campaign_play import CampaignGame
from wargym.rules.no_quarter.campaigns.saves import envelope, load_game, save_game, stale_temp_files


@pytest.fixture(scope="module")
def game() -> CampaignGame:
    return CampaignGame.start(
        load_definition("generic"), RandomDice.from_seed(1), np.random.default_rng(1)
    )


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    data = copy.deepcopy(data)
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


_DELETE = object()
G, C = ("game",), ("game", "campaign")
TAMPERED = [
    # (id, path, value, words the message names)
    ("format", ("format",), "other", ["format", "other"]),
    ("version_2", ("version",), 2, ["version", "2"]),
    ("version_str", ("version",), "1", ["version"]),
    ("version_bool", ("version",), True, ["version"]),
    ("envelope_unknown_key", ("extra",), 1, ["unknown keys", "extra"]),
    ("envelope_missing_game", ("game",), _DELETE, ["missing keys", "game"]),
    ("campaign_version", C + ("version",), 99, ["campaign.version", "99"]),
    ("player_cm_str", C + ("player_cm",), "x", ["campaign.player_cm", "'x'"]),
    ("player_cm_negative", C + ("player_cm",), -5, ["campaign.player_cm", "-5"]),
    ("player_cm_bool", C + ("player_cm",), True, ["campaign.player_cm", "True"]),
    ("player_cm_missing", C + ("player_cm",), _DELETE, ["player_cm", "missing"]),
    ("player_faction", C + ("player",), "nope", ["campaign.player", "nope"]),
    ("played_negative", C + ("played",), -1, ["campaign.played", "-1"]),
    ("next_mission", C + ("next_mission",), "nope", ["campaign.next_mission", "nope"]),
    ("planet_status", C + ("player_status",), "nope", ["campaign.player_status", "nope"]),
    ("carry_over_float", C + ("carry_over",), 1.5, ["campaign.carry_over", "1.5"]),
    ("campaign_unknown_field", C + ("zz",), 1, ["unknown fields", "zz"]),
    ("pilots_not_list", C + ("pilots",), "x", ["campaign.pilots", "list"]),
    ("pilot_rep", C + ("pilots", 0, "rep"), "garbage", ["campaign.pilots[0].rep"]),
    ("pilot_race", C + ("pilots", 0, "race"), "garbage", ["campaign.pilots[0].race"]),
    ("pilot_star", C + ("pilots", 0, "star"), "garbage", ["campaign.pilots[0].star"]),
    ("mech_empty", C + ("mechs", 0), {}, ["campaign.mechs[0]", "id"]),
    ("mech_design", C + ("mechs", 0, "design"), "garbage", ["campaign.mechs[0].design"]),
    ("mech_armor", C + ("mechs", 0, "armor"), "garbage", ["campaign.mechs[0].armor"]),
    ("mech_speed", C + ("mechs", 0, "speed"), "garbage", ["campaign.mechs[0].speed"]),
    ("stage", G + ("stage",), "nope", ["game.stage", "nope"]),
    ("stage_missing", G + ("stage",), _DELETE, ["stage"]),
    ("selected", G + ("selected",), "x", ["game.selected"]),
    ("rng", G + ("rng",), {}, ["game.rng"]),
]


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [pytest.param(p, v, w, id=f"load_game:{i}") for i, p, v, w in TAMPERED],
)
def test_tampered_save_is_refused_untouched(
    tmp_path: Path, game: CampaignGame, path: tuple[Any, ...], value: Any, words: list[str]
) -> None:
    file = tmp_path / "save.json"
    file.write_text(json.dumps(_set(envelope(game), path, value)), encoding="utf-8")
    before = file.read_bytes()
    with pytest.raises(StateError) as info:
        load_game(file)
    message = str(info.value)
    assert str(file) in message
    for word in words:
        assert word in message, (word, message)
    assert file.read_bytes() == before


def _raw(game: CampaignGame) -> bytes:
    return json.dumps(envelope(game)).encode()


DAMAGED = [
    ("truncated", lambda raw: raw[: len(raw) // 2], ["broken JSON", "line"]),
    ("empty", lambda raw: b"", ["empty"]),
    ("not_utf8", lambda raw: b"\xff" + raw, ["UTF-8"]),
    ("nan", lambda raw: raw.replace(b'"player_cm": 4', b'"player_cm": NaN', 1), ["NaN"]),
    ("list", lambda raw: b"[1, 2]", ["JSON object", "list"]),
    ("trailing", lambda raw: raw + b"}}", ["broken JSON"]),
]


@pytest.mark.parametrize(
    ("damage", "words"), [pytest.param(f, w, id=f"load_game:{i}") for i, f, w in DAMAGED]
)
def test_damaged_save_is_refused_untouched(
    tmp_path: Path, game: CampaignGame, damage: Any, words: list[str]
) -> None:
    file = tmp_path / "save.json"
    file.write_bytes(damage(_raw(game)))
    before = file.read_bytes()
    with pytest.raises(StateError) as info:
        load_game(file)
    for word in [str(file), *words]:
        assert word in str(info.value), (word, str(info.value))
    assert file.read_bytes() == before


def test_missing_save_and_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StateError, match="cannot read"):
        load_game(tmp_path / "missing.json")
    with pytest.raises(StateError, match="not a regular file"):
        load_game(tmp_path)


def _fail_mkstemp(*args: Any, **kwargs: Any) -> Any:
    raise PermissionError(13, "Permission denied (read-only folder)")


def _fail(*args: Any, **kwargs: Any) -> Any:
    raise OSError(5, "Input/output error")


WRITE_FAILURES = [
    pytest.param(
        tempfile, "mkstemp", _fail_mkstemp, "Permission denied", id="save_game:read_only_dir"
    ),
    pytest.param(os, "fsync", _fail, "Input/output error", id="save_game:fsync_fails_mid_write"),
    pytest.param(os, "replace", _fail, "Input/output error", id="save_game:rename_fails"),
    pytest.param(os, "chmod", _fail, "Input/output error", id="save_game:chmod_fails"),
]


@pytest.mark.parametrize(("module", "name", "patch", "words"), WRITE_FAILURES)
def test_failing_save_keeps_the_previous_file(
    tmp_path: Path,
    game: CampaignGame,
    monkeypatch: pytest.MonkeyPatch,
    module: Any,
    name: str,
    patch: Any,
    words: str,
) -> None:
    file = tmp_path / "save.json"
    save_game(file, game)
    before = file.read_bytes()
    monkeypatch.setattr(module, name, patch)
    with pytest.raises(StateError) as info:
        save_game(file, game)
    monkeypatch.undo()
    assert str(file) in str(info.value) and words in str(info.value)
    assert file.read_bytes() == before
    assert stale_temp_files(file) == []
    assert load_game(file).to_dict() == game.to_dict()


def test_save_into_a_missing_folder_is_a_state_error(tmp_path: Path, game: CampaignGame) -> None:
    target = tmp_path / "no" / "such" / "save.json"
    with pytest.raises(StateError) as info:
        save_game(target, game)
    assert str(target) in str(info.value)
    assert not target.parent.exists()


# -- engine states -----------------------------------------------------------------------
def _nq() -> tuple[Any, dict[str, Any]]:
    from wargym.rules.no_quarter.battle.state import Battle
    from wargym.rules.no_quarter.forces.setup import new_skirmish

    battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
    return Battle, battle.to_dict()


def _pw() -> tuple[Any, dict[str, Any]]:
    from wargym.rules.pentagon_war.game import new_battle
    from wargym.rules.pentagon_war.state import BattleState

    return BattleState, new_battle("duel", np.random.default_rng(0))[0].to_dict()


def _sc() -> tuple[Any, dict[str, Any]]:
    from wargym.rules.starship_combat import game
    from wargym.rules.starship_combat.state import BattleState

    return BattleState, game.new_battle("duel").to_dict()


SYSTEMS = {"no_quarter": _nq, "pentagon_war": _pw, "starship_combat": _sc}
STATE_ROWS = []
for _system, _fields in (
    ("no_quarter", ("battlefield", "options", "mechs", "turn", "first_side", "decision")),
    ("pentagon_war", ("options", "designs", "ships", "turn", "impulse", "phase", "plots")),
    ("starship_combat", ("options", "ships", "round", "orders", "detected", "nuke_hexes")),
):
    STATE_ROWS += [
        pytest.param(_system, (f,), "garbage", [f], id=f"{_system}.from_dict:{f}=garbage")
        for f in _fields
    ]
    STATE_ROWS += [
        pytest.param(_system, ("version",), 99, ["version"], id=f"{_system}.from_dict:version=99"),
        pytest.param(
            _system, ("zz",), 1, ["unknown fields", "zz"], id=f"{_system}.from_dict:unknown"
        ),
        pytest.param(
            _system,
            ("battlefield" if _system == "no_quarter" else "scenario",),
            _DELETE,
            ["missing field"],
            id=f"{_system}.from_dict:missing",
        ),
    ]
STATE_ROWS.append(
    pytest.param(
        "starship_combat",
        ("phase",),
        "garbage",
        ["phase"],
        id="starship_combat.from_dict:phase=garbage",
    )
)


@pytest.mark.parametrize(("system", "path", "value", "words"), STATE_ROWS)
def test_tampered_engine_state_is_refused(
    system: str, path: tuple[str, ...], value: Any, words: list[str]
) -> None:
    cls, data = SYSTEMS[system]()
    bad = _set(data, path, value)
    snapshot = copy.deepcopy(bad)
    with pytest.raises(StateError) as info:
        cls.from_dict(bad)
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    assert bad == snapshot  # the input is not modified


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_engine_state_that_is_not_an_object_is_refused(system: str) -> None:
    cls, _ = SYSTEMS[system]()
    with pytest.raises(StateError):
        cls.from_dict("not a state")


# -- env snapshots (issue 21, items 4-6): validate completely, then swap -----------------------
def _env(name: str) -> Any:
    import gymnasium

    import wargym.envs  # noqa: F401  (registers the ids)

    kwargs = {"max_turns": 2} if "Pentagon" in name else {"options": {"max_rounds": 3}}
    env = gymnasium.make(name, **kwargs).unwrapped
    env.reset(seed=3)
    return env


def _resealed(snapshot: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    from wargym.envs.snapshot import digest

    bad = _set(snapshot, path, value)
    payload = {k: v for k, v in bad.items() if k != "digest"}
    return {**payload, "digest": digest(payload)}


def _refused_untouched(env: Any, data: Any, words: list[str]) -> str:
    before = env.save_state()
    with pytest.raises(StateError) as info:
        env.load_state(data)
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)
    assert len(message) < 1000
    assert env.save_state() == before
    return message


PW, SC = "wargym/PentagonWar-Duel-v0", "wargym/StarshipCombat-Duel-v0"
B = ("state", "battle")
SNAPSHOT_ROWS = [
    # (id, env, path, value, words the message names)
    ("pool_size_huge", SC, ("state", "dice", "seed_seq", "pool_size"), 10**8, ["pool_size"]),
    ("pool_size_1e5", PW, ("state", "dice", "seed_seq", "pool_size"), 10**5, ["pool_size"]),
    ("spawn_key_long", SC, ("state", "dice", "seed_seq", "spawn_key"), [1] * 10_000,
     ["spawn_key"]),
    ("entropy_negative", SC, ("state", "dice", "seed_seq", "entropy"), -1, ["entropy"]),
    ("children_2_63", SC, ("state", "dice", "seed_seq", "n_children_spawned"), 2**63,
     ["n_children_spawned"]),
    ("pcg_state_2_128", PW, ("state", "dice", "state", "state", "state"), 2**128,
     ["state.dice.state.state.state"]),
    ("uinteger_2_32", PW, ("state", "dice", "state", "uinteger"), 2**32, ["uinteger"]),
    ("format_huge", PW, ("format",), "x" * 10**5, ["snapshot.format", "characters"]),
    ("nested_100", SC, (*B, "nuke_hexes"), functools.reduce(lambda a, _: [a], range(100), []),
     ["state.battle.nuke_hexes", "nested more than 64"]),
    ("has_uint32_5", PW, ("state", "dice", "state", "has_uint32"), 5, ["has_uint32"]),
    ("uinteger_inf", PW, ("state", "dice", "state", "uinteger"), math.inf, ["uinteger", "inf"]),
    ("nan_position", SC, (*B, "ships", 0, "pos", 0), math.nan, ["ships[0].pos[0]", "nan"]),
    ("int_10_400", PW, (*B, "ships", 0, "armor", 0), 10**400, ["ships[0].armor[0]"]),
    ("huge_string", PW, (*B, "scenario"), "x" * 10**6, ["state.battle.scenario", "characters"]),
    ("pw_no_ships", PW, (*B, "ships"), [], ["state.ships", "0 ships"]),
    ("pw_armor_999", PW, (*B, "ships", 0, "armor", 0), 999, ["ships[0].armor[0]", "999"]),
    ("pw_unknown_design", PW, (*B, "ships", 1, "design"), "garbage", ["ships[1].design"]),
    ("pw_system_renamed", PW, (*B, "designs", "alpha_centaurian_fighter", "systems", 0, "name"),
     "garbage", ["designs.alpha_centaurian_fighter"]),
    ("pw_intact_missing", PW, (*B, "ships", 0, "intact", "main_ctrl"), _DELETE,
     ["ships[0].intact"]),
    ("pw_slot_ship_999", PW, (*B, "plots", 0, "queue", 0, "ship"), 999, ["plots[0]", "999"]),
    ("sc_craft_999", SC, (*B, "ships", 0, "craft"), 999, ["ships[0].craft", "999"]),
    ("sc_weapon_999", SC, (*B, "ships", 0, "weapons", "meson_gun"), 999, ["weapons"]),
    ("sc_design_other", SC, (*B, "ships", 0, "design"), "garbage", ["ships[0].design"]),
    ("sc_no_ships", SC, (*B, "ships"), [], ["state.ships"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "path", "value", "words"),
    [pytest.param(n, p, v, w, id=f"load_state:{i}") for i, n, p, v, w in SNAPSHOT_ROWS],
)
def test_tampered_env_snapshot_is_refused_and_the_env_is_unchanged(
    name: str, path: tuple[Any, ...], value: Any, words: list[str]
) -> None:
    import time

    env = _env(name)
    good = env.save_state()
    node = good
    for key in path[:-1]:
        node = node[key]
    assert path[-1] in node or isinstance(node, list)  # the row mutates a real field
    start = time.perf_counter()
    message = _refused_untouched(env, _resealed(good, path, value), words)
    assert time.perf_counter() - start < 2.0, "a size read from the snapshot is unbounded"
    assert "x" * 100 not in message
    env.load_state(good)  # and the real one still loads


@pytest.mark.parametrize("name", [PW, SC])
def test_env_snapshot_load_that_fails_late_leaves_the_env_as_it_was(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A battle the checks let through that the env cannot encode: nothing is half-loaded."""
    env = _env(name)
    early = env.save_state()
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    before = env.save_state()
    assert before != early

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise IndexError("list index out of range")

    monkeypatch.setattr(env, "_obs", broken)
    with pytest.raises(StateError, match=r"snapshot\.state: .*IndexError.*nothing was loaded"):
        env.load_state(early)
    monkeypatch.undo()
    assert env.save_state() == before
    obs, _ = env.load_state(early)  # the same snapshot loads once the env can encode it
    assert env.save_state() == early


def test_every_state_the_space_engines_reach_passes_their_checks() -> None:
    """No false refusals: random legal play of both space engines stays within the checks."""
    from wargym.rules.pentagon_war.state import BattleState as PWState
    from wargym.rules.starship_combat.state import BattleState as SCState

    rng = np.random.default_rng(0)
    for name, cls in ((PW, PWState), (SC, SCState)):
        env = _env(name)
        for _ in range(120):
            cls.from_dict(env.save_state()["state"]["battle"])
            _, _, done, cut, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if done or cut:
                env.reset(seed=int(rng.integers(1000)))


def _nq_env(name: str) -> Any:
    import gymnasium

    import wargym.envs  # noqa: F401  (registers the ids)

    small = {"max_turns": 1, "max_missions": 1} if "Cestus" in name else {"max_turns": 2}
    env = gymnasium.make(name, **small).unwrapped
    env.reset(seed=3)
    return env


def test_no_quarter_snapshot_of_a_battle_with_no_pending_decision_is_refused() -> None:
    """A set-up-looking battle (turn 0, no frames, no decision) in an env never ends: refused."""
    env = _nq_env("wargym/NoQuarter-Skirmish-v1")
    good = env.save_state()
    bad = copy.deepcopy(good)
    bad["state"]["battle"].update(decision=None, frames=[], turn=0)
    data = _resealed(bad, ("state", "battle", "turn"), 0)
    _refused_untouched(env, data, ["state.battle", "decision", "no decision is pending"])


@pytest.mark.parametrize(
    ("name", "late"),
    [
        pytest.param("wargym/NoQuarter-Skirmish-v1", "_finish", id="skirmish"),
        pytest.param("wargym/NoQuarter-Patrol-v1", "_finish", id="mission"),
        pytest.param("wargym/NoQuarter-CestusV-v1", "_finish", id="campaign"),
        pytest.param("no_quarter_v1:aec", "observe", id="aec"),
        pytest.param("no_quarter_v1:parallel", "_agent_obs", id="parallel"),
    ],
)
def test_no_quarter_load_that_fails_late_leaves_the_env_as_it_was(
    name: str, late: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever fails after the parts are in place (here the observation), nothing changed."""
    if ":" in name:
        from wargym.envs import pettingzoo_module

        module = pettingzoo_module(name.split(":")[0])
        env = (module.env if name.endswith("aec") else module.parallel_env)(max_turns=2)
        env.reset(seed=3)
    else:
        env = _nq_env(name)
    early = env.save_state()
    env.reset(seed=4)
    before = env.save_state()
    assert before != early

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise IndexError("list index out of range")

    monkeypatch.setattr(env, late, broken)
    with pytest.raises(StateError, match=r"snapshot\.state: .*IndexError.*nothing was loaded"):
        env.load_state(early)
    monkeypatch.undo()
    assert env.save_state() == before
    env.load_state(early)
    assert env.save_state() == early


def test_snapshot_values_that_are_not_json_data_are_refused_by_path() -> None:
    from wargym.envs.snapshot_guard import check_plain

    with pytest.raises(StateError, match=r"snapshot\.state\.a\[1\]: set is not JSON data"):
        check_plain("snapshot", {"state": {"a": [1, {2}]}})
    with pytest.raises(StateError, match=r"snapshot\.state: key 3 is not a short string"):
        check_plain("snapshot", {"state": {3: 1}})
