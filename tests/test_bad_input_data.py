"""Bad-input catalogue (issue 9): YAML tables, scenarios, campaigns, presets (docs/bad_input.md).

* ``wargym.rules.tables`` (``parse_yaml`` / ``load_config`` / ``Node``): ``TableError`` naming
  the file, the key path and the row.
* The system loaders (No Quarter ``load_rules`` and ``mission_tables``, Pentagon War and
  Starship Combat ``load_rules``): every packaged table file is fed back with an unknown key,
  a value of the wrong type and a missing key at its first leaf (generated rows); the error
  is a ``TableError`` naming the file and the key.
* Scenarios (``load_scenario`` / ``scenario_from_dict``), campaign definitions
  (``load_definition``) and training presets (``agents/config.py:load_preset``).
Files handed to a loader are never modified.
"""

from __future__ import annotations

import copy
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml

from wargym.rules import tables
from wargym.rules.errors import TableError
from wargym.rules.tables import Node, parse_yaml

# -- Node and parse_yaml ---------------------------------------------------------------------
DOC = "weapons:\n  - {name: laser, wv: 3, range: 12}\n  - {name: gun, wv: three, range: 6}\n"
NODE_ROWS: list[tuple[str, Callable[[], Any], list[str]]] = [
    ("parse_yaml:malformed", lambda: parse_yaml("a: [1, 2\n", "t.yaml"), ["t.yaml", "YAML"]),
    ("parse_yaml:tab_indent", lambda: parse_yaml("a:\n\t- 1\n", "t.yaml"), ["t.yaml", "YAML"]),
    (
        "load_config:missing_file",
        lambda: tables.load_config("rules/no_such.yaml"),
        ["rules/no_such.yaml", "not found"],
    ),
    (
        "Node.as_int:wrong_type_in_row",
        lambda: [r["wv"].as_int() for r in parse_yaml(DOC, "t.yaml")["weapons"].rows()],
        ["t.yaml", "weapons", "1", "wv", "three"],
    ),
    ("Node.as_int:below_min", lambda: Node({"a": 0}, "t.yaml")["a"].as_int(1), ["t.yaml: a", "0"]),
    ("Node.as_int:above_max", lambda: Node({"a": 9}, "t.yaml")["a"].as_int(1, 6), ["a", "9"]),
    ("Node.as_int:bool", lambda: Node({"a": True}, "t.yaml")["a"].as_int(), ["a", "True"]),
    ("Node.as_int:float", lambda: Node({"a": 1.5}, "t.yaml")["a"].as_int(), ["a", "1.5"]),
    ("Node.as_number:str", lambda: Node({"a": "x"}, "t.yaml")["a"].as_number(), ["a", "'x'"]),
    ("Node.as_str:int", lambda: Node({"a": 3}, "t.yaml")["a"].as_str(), ["a", "3"]),
    (
        "Node.as_str:not_a_choice",
        lambda: Node({"a": "z"}, "t.yaml")["a"].as_str(["x", "y"]),
        ["a", "'z'", "x"],
    ),
    ("Node.as_bool:str", lambda: Node({"a": "yes"}, "t.yaml")["a"].as_bool(), ["a", "yes"]),
    ("Node.getitem:missing", lambda: Node({"a": 1}, "t.yaml")["b"], ["t.yaml", "'b'"]),
    ("Node.mapping:list", lambda: Node([1], "t.yaml").mapping(), ["t.yaml", "mapping"]),
    ("Node.rows:not_list", lambda: list(Node({"a": 1}, "t.yaml")["a"].rows()), ["a", "list"]),
    (
        "Node.keys_exactly:unknown",
        lambda: Node({"a": 1, "zz": 2}, "t.yaml").keys_exactly({"a"}),
        ["t.yaml", "unknown", "zz"],
    ),
    (
        "Node.keys_exactly:missing",
        lambda: Node({"a": 1}, "t.yaml").keys_exactly({"a", "b"}),
        ["t.yaml", "missing", "b"],
    ),
    ("Node.as_ints:str_item", lambda: Node({"a": [1, "x"]}, "t.yaml")["a"].as_ints(), ["a", "x"]),
]


@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in NODE_ROWS])
def test_node_errors_name_file_key_and_row(call: Callable[[], Any], words: list[str]) -> None:
    with pytest.raises(TableError) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


# -- system loaders, generated rows ---------------------------------------------------------
def _first_leaf(data: Any, path: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """Path of the first scalar leaf reached through mappings (and list rows)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(value, (dict, list)):
                return (*path, key)
            found = _first_leaf(value, (*path, key))
            if found is not None:
                return found
    elif isinstance(data, list):
        for i, value in enumerate(data):
            if isinstance(value, dict):
                found = _first_leaf(value, (*path, i))
                if found is not None:
                    return found
    return None


def _mutated(data: Any, kind: str) -> tuple[Any, tuple[Any, ...], str]:
    """(broken copy, path of the leaf, the key the error must name)."""
    data = copy.deepcopy(data)
    path = _first_leaf(data)
    assert path is not None
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if kind == "unknown_key":
        parent["zz_bogus_key"] = 1
        return data, path, "zz_bogus_key"
    if kind == "wrong_type":
        old = parent[key]
        parent[key] = [1, 2, {"x": None}] if isinstance(old, str) else "garbage"
    else:
        del parent[key]
    return data, path, str(key)


def _nq_rules() -> Any:
    from wargym.rules.no_quarter.forces import data

    return data.load_rules.__wrapped__(data.RulesOptions())


def _nq_missions() -> Any:
    from wargym.rules.no_quarter.mission import missions

    return missions.mission_tables.__wrapped__()


def _pw_rules() -> Any:
    from wargym.rules.pentagon_war import data

    return data.load_rules.__wrapped__()


def _sc_rules() -> Any:
    from wargym.rules.starship_combat import data

    return data.load_rules.__wrapped__()


def _nq_files() -> list[str]:
    from wargym.rules.no_quarter.forces.data import TABLE_FILES

    return [f"rules/no_quarter/{f}.yaml" for f in TABLE_FILES]


def _pw_files() -> list[str]:
    from wargym.rules.pentagon_war.data import FILES

    return [f"rules/pentagon_war/{f}.yaml" for f in FILES]


SC_FILES = ["core", "damage_record", "damage_tables", "boarding", "sensors", "ships", "scenarios"]
LOADERS: list[tuple[Callable[[], list[str]], Callable[[], Any]]] = [
    (_nq_files, _nq_rules),
    (lambda: ["rules/no_quarter/missions.yaml"], _nq_missions),
    (_pw_files, _pw_rules),
    (lambda: [f"rules/starship_combat/{f}.yaml" for f in SC_FILES], _sc_rules),
]
SKIP = {
    # optional keys: leaving them out is not an error
    ("rules/no_quarter/faction_restrictions.yaml", "missing_key"),
}
XFAIL: dict[tuple[str, str], str] = {}  # (file, kind) -> "file:function: what to fix"


def _loader_rows() -> list[Any]:
    rows = []
    for files, loader in LOADERS:
        for rel in files():
            if _first_leaf(yaml.safe_load(tables.read_config_text(rel))) is None:
                continue  # no mapping leaf to break (a file of plain lists)
            for kind in ("unknown_key", "wrong_type", "missing_key"):
                if (rel, kind) in SKIP:
                    continue
                fix = XFAIL.get((rel, kind))
                marks = (
                    [pytest.mark.xfail(strict=True, reason=f"needs fix in {fix}")] if fix else []
                )
                rows.append(pytest.param(rel, kind, loader, id=f"{rel}:{kind}", marks=marks))
    return rows


@pytest.mark.parametrize(("rel", "kind", "loader"), _loader_rows())
def test_broken_table_file_names_file_and_key(
    monkeypatch: pytest.MonkeyPatch, rel: str, kind: str, loader: Callable[[], Any]
) -> None:
    original = tables.read_config_text
    bad, path, named = _mutated(yaml.safe_load(original(rel)), kind)
    text = yaml.safe_dump(bad)
    monkeypatch.setattr(tables, "read_config_text", lambda r: text if r == rel else original(r))
    with pytest.raises(TableError) as info:
        loader()
    message = str(info.value)
    assert ".yaml" in message
    # the file and key, or (a broken cross-reference) the file and value that use them
    assert rel.rsplit("/", 1)[1] in message or named in message, message
    assert any(str(p) in message for p in (named, *path[-2:])), message


# -- scenarios -------------------------------------------------------------------------------
def _scenario_data() -> dict[str, Any]:
    from wargym.rules.no_quarter.mission.scenario import load_scenario

    return load_scenario("patrol_star_army_vs_hishen").to_dict()


SCENARIO_ROWS: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    ("unknown_key", lambda d: d.update(zz=1), ["zz"]),
    ("turn_limit_str", lambda d: d.update(turn_limit="x"), ["turn_limit", "'x'"]),
    ("turn_limit_zero", lambda d: d.update(turn_limit=0), ["turn_limit", "0"]),
    ("player_faction", lambda d: d["player"].update(faction="nope"), ["faction", "nope"]),
    (
        "player_mechs_unknown",
        lambda d: d["player"].update(mechs=["no_such_mech"]),
        ["no_such_mech"],
    ),
    ("player_unknown_key", lambda d: d["player"].update(zz=1), ["player", "zz"]),
    ("options_group", lambda d: d["options"].update(zz={}), ["options", "zz"]),
    ("options_battle_field", lambda d: d["options"].setdefault("battle", {}).update(zz=1), ["zz"]),
    ("missing_player", lambda d: d.pop("player"), ["player"]),
    ("mission", lambda d: d.update(mission="picnic"), ["mission", "picnic"]),
    ("np_status", lambda d: d.update(np_status="bored"), ["np_status", "bored"]),
]


@pytest.mark.parametrize(
    ("edit", "words"),
    [pytest.param(e, w, id=f"scenario_from_dict:{i}") for i, e, w in SCENARIO_ROWS],
)
def test_bad_scenario_data(
    tmp_path: Path, edit: Callable[[dict[str, Any]], None], words: list[str]
) -> None:
    from wargym.rules.no_quarter.mission.scenario import load_scenario

    data = _scenario_data()
    edit(data)
    file = tmp_path / "bad_scenario.yaml"
    file.write_text(yaml.safe_dump(data), encoding="utf-8")
    before = file.read_bytes()
    with pytest.raises(TableError) as info:
        load_scenario(file)
    for word in [str(file), *words]:
        assert word in str(info.value), (word, str(info.value))
    assert file.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "words"),
    [
        pytest.param(b"name: [1, 2\n", ["YAML"], id="load_scenario:malformed_yaml"),
        pytest.param(b"- 1\n- 2\n", ["mapping"], id="load_scenario:top_level_list"),
        pytest.param(b"\xff\xfe", ["cannot read"], id="load_scenario:not_utf8"),
    ],
)
def test_unreadable_scenario_file(tmp_path: Path, content: bytes, words: list[str]) -> None:
    from wargym.rules.no_quarter.mission.scenario import load_scenario

    file = tmp_path / "s.yaml"
    file.write_bytes(content)
    with pytest.raises(TableError) as info:
        load_scenario(file)
    for word in [str(file), *words]:
        assert word in str(info.value)
    assert file.read_bytes() == content


def test_unknown_and_missing_scenarios() -> None:
    from wargym.rules.no_quarter.mission.scenario import load_scenario

    with pytest.raises(TableError, match="no_such: *.*no such scenario|no_such.yaml: no such"):
        load_scenario("no_such")
    with pytest.raises(TableError, match="cannot read"):
        load_scenario(Path("/nonexistent/s.yaml"))


# -- campaign definitions -------------------------------------------------------------------
def _generic() -> dict[str, Any]:
    text = tables.read_config_text("campaigns/generic.yaml")
    return yaml.safe_load(text)


CAMPAIGN_ROWS: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    ("unknown_key", lambda d: d.update(zz=1), ["zz"]),
    ("missing_sides", lambda d: d.pop("sides"), ["sides"]),
    ("sides_faction", lambda d: d.update(sides=["star_army", "nope"]), ["nope"]),
    ("same_sides", lambda d: d.update(sides=["hishen", "hishen"]), ["sides"]),
    ("stars_str", lambda d: d.update(stars="x"), ["stars"]),
    ("max_missions_zero", lambda d: d.update(max_missions=0), ["max_missions"]),
    ("company_unknown_mech", lambda d: d["company"].update(star_army=["no_such"]), ["no_such"]),
    ("mission_scenario", lambda d: d["missions"][0].update(scenario="no_such"), ["no_such"]),
    ("mission_turn_limit", lambda d: d["missions"][0].update(turn_limit=0), ["turn_limit"]),
    ("no_missions", lambda d: d.update(missions=[]), ["missions"]),
    ("playable_not_side", lambda d: d.update(playable=["pdf"]), ["playable", "pdf"]),
    ("sequence", lambda d: d.update(sequence="shuffle"), ["sequence", "shuffle"]),
]


@pytest.mark.parametrize(
    ("edit", "words"),
    [pytest.param(e, w, id=f"load_definition:{i}") for i, e, w in CAMPAIGN_ROWS],
)
def test_bad_campaign_definition(
    tmp_path: Path, edit: Callable[[dict[str, Any]], None], words: list[str]
) -> None:
    from wargym.rules.no_quarter.campaigns.campaign import load_definition

    data = _generic()
    edit(data)
    file = tmp_path / "camp.yaml"
    file.write_text(yaml.safe_dump(data), encoding="utf-8")
    before = file.read_bytes()
    with pytest.raises(TableError) as info:
        load_definition(file)
    for word in [str(file), *words]:
        assert word in str(info.value), (word, str(info.value))
    assert file.read_bytes() == before


@pytest.mark.parametrize(
    ("target", "words"),
    [
        pytest.param("no_such_campaign", ["no_such_campaign", "no such campaign"], id="name"),
        pytest.param(Path("/nonexistent/c.yaml"), ["c.yaml", "cannot read"], id="missing_file"),
    ],
)
def test_unknown_campaign(target: Any, words: list[str]) -> None:
    from wargym.rules.no_quarter.campaigns.campaign import load_definition

    with pytest.raises(TableError) as info:
        load_definition(target)
    for word in words:
        assert word in str(info.value)


# -- training presets (agents/config.py) ------------------------------------------------------
@dataclasses.dataclass
class Args:
    """A stand-in for a training script's ``Args`` (same field kinds)."""

    env_id: str = "wargym/NoQuarter-Skirmish-v1"
    env_kwargs: dict[str, Any] = dataclasses.field(default_factory=dict)
    total_timesteps: int = 1000
    learning_rate: float = 3e-4
    net_arch: list[int] = dataclasses.field(default_factory=lambda: [64, 64])
    tensorboard: bool = False
    device: Literal["cpu", "cuda"] = "cpu"
    eval_seed: int | None = None


PRESET_ROWS = [
    ("malformed_yaml", "a: [1, 2\n", ["not valid YAML"]),
    ("top_level_list", "- 1\n", ["mapping"]),
    ("unknown_key", "zz: 1\n", ["unknown key", "zz"]),
    ("int_as_str", "total_timesteps: lots\n", ["total_timesteps", "integer", "lots"]),
    ("int_as_bool", "total_timesteps: true\n", ["total_timesteps", "True"]),
    ("int_as_float", "total_timesteps: 1.5\n", ["total_timesteps", "1.5"]),
    ("float_as_str", "learning_rate: fast\n", ["learning_rate", "number"]),
    ("bool_as_str", "tensorboard: maybe\n", ["tensorboard", "true or false"]),
    ("list_as_int", "net_arch: 64\n", ["net_arch", "list"]),
    ("list_item", "net_arch: [64, x]\n", ["net_arch[1]", "x"]),
    ("mapping_as_list", "env_kwargs: [1]\n", ["env_kwargs", "mapping"]),
    ("literal_choice", "device: tpu\n", ["device", "tpu", "cpu"]),
    ("optional_int", "eval_seed: x\n", ["eval_seed", "x"]),
]


@pytest.mark.parametrize(
    ("text", "words"), [pytest.param(t, w, id=f"load_preset:{i}") for i, t, w in PRESET_ROWS]
)
def test_bad_training_preset(tmp_path: Path, text: str, words: list[str]) -> None:
    from wargym.agents.config import ConfigError, load_preset

    file = tmp_path / "preset.yaml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_preset(Args, file)
    for word in [str(file), *words]:
        assert word in str(info.value), (word, str(info.value))
    assert file.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    ("content", "words"),
    [
        pytest.param(None, ["cannot read"], id="load_preset:missing_file"),
        pytest.param(b"\xff\xfe", ["cannot read"], id="load_preset:not_utf8"),
    ],
)
def test_unreadable_preset(tmp_path: Path, content: bytes | None, words: list[str]) -> None:
    from wargym.agents.config import ConfigError, load_preset

    file = tmp_path / "preset.yaml"
    if content is not None:
        file.write_bytes(content)
    with pytest.raises(ConfigError) as info:
        load_preset(Args, file)
    for word in [str(file), *words]:
        assert word in str(info.value)


SHIPPED_PRESET_ROWS = [
    ("vec_env", "garbage", "Args.vec_env is a Literal"),
    ("activation", "sigmoidish", "Args.activation is a Literal"),
    ("bc_teacher", "nobody", "Args.__post_init__ matches TEACHERS"),
    ("total_timesteps", -5, "Args.__post_init__ range check"),
    ("n_envs", 0, "Args.__post_init__ range check"),
]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        pytest.param(
            k,
            v,
            id=f"load_preset(ppo_masked.Args):{k}={v}",
        )
        for k, v, _check in SHIPPED_PRESET_ROWS
    ],
)
def test_shipped_preset_with_a_bad_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, value: Any
) -> None:
    import importlib.util

    from wargym.agents.config import ConfigError, load_preset

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "wargym_training_ppo_masked_bad_input", root / "training" / "ppo_masked.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # string annotations resolve through it
    spec.loader.exec_module(module)
    preset = yaml.safe_load((root / "configs" / "training" / "nq_skirmish.yaml").read_text())
    preset[key] = value
    file = tmp_path / "preset.yaml"
    file.write_text(yaml.safe_dump(preset), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_preset(module.Args, file)
    assert key in str(info.value)
