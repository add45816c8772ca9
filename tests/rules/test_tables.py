"""Strict YAML loading: located errors, band tables and packaged configs (style guide 5.5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wargym.rules.errors import RulesError, TableError
from wargym.rules.tables import Band, BandTable, Node, band_table, load_config, parse_yaml

CONFIGS = Path(__file__).resolve().parents[2] / "configs"

WEAPONS = """\
# Source: a made-up table for the loader tests.
weapons:
  laser:
    wv: 3
    range: 24
    family: beam
    ammo: true
    arcs: [front, left]
  rail:
    wv: three
    range: 96
    family: kinetic
    ammo: false
    arcs: [front]
rolls:
  - {low: 1, high: 2, value: miss}
  - {low: 3, high: 4, value: hit}
  - {low: 5, high: 5, value: crit}
  - {low: 6, high: 6, value: 99}
"""


@pytest.fixture
def doc() -> Node:
    return parse_yaml(WEAPONS, "rules/test/weapons.yaml")


# -- Node: values and locations -----------------------------------------------------------
def test_node_reads_values_through_the_key_path(doc: Node) -> None:
    laser = doc["weapons"]["laser"]
    assert laser["wv"].as_int(0, 10) == 3
    assert laser["range"].as_number() == 24.0
    assert laser["family"].as_str(["beam", "kinetic"]) == "beam"
    assert laser["ammo"].as_bool() is True
    assert laser["arcs"].as_strs() == ("front", "left")
    assert laser["wv"].where == "rules/test/weapons.yaml: weapons.laser.wv"
    assert [key for key, _ in doc["weapons"].items()] == ["laser", "rail"]
    assert "laser" in doc["weapons"] and "sword" not in doc["weapons"]
    assert doc["weapons"].get("sword") is None
    assert doc.where == "rules/test/weapons.yaml"


def test_node_missing_key_names_file_and_path(doc: Node) -> None:
    with pytest.raises(TableError) as error:
        doc["weapons"]["laser"]["heat"]
    assert str(error.value) == "rules/test/weapons.yaml: weapons.laser: missing key 'heat'"
    assert isinstance(error.value, RulesError)


def test_node_keys_exactly_reports_missing_keys(doc: Node) -> None:
    with pytest.raises(TableError, match=r"^rules/test/weapons.yaml: weapons.laser: missing keys"):
        doc["weapons"]["laser"].keys_exactly({"wv", "range", "family", "ammo", "arcs", "heat"})


def test_node_keys_exactly_rejects_unknown_keys(doc: Node) -> None:
    with pytest.raises(TableError) as error:
        doc["weapons"]["laser"].keys_exactly({"wv", "range", "family"}, optional={"ammo"})
    assert str(error.value) == "rules/test/weapons.yaml: weapons.laser: unknown keys ['arcs']"
    doc["weapons"]["laser"].keys_exactly({"wv", "range", "family"}, optional={"ammo", "arcs"})


def test_node_wrong_type_names_file_path_and_value(doc: Node) -> None:
    with pytest.raises(TableError) as error:
        doc["weapons"]["rail"]["wv"].as_int()
    assert str(error.value) == (
        "rules/test/weapons.yaml: weapons.rail.wv: expected an integer, got 'three'"
    )


@pytest.mark.parametrize(
    ("key", "reader", "message"),
    [
        ("ammo", Node.as_int, "expected an integer, got True"),
        ("family", Node.as_number, "expected a number, got 'beam'"),
        ("wv", Node.as_str, "expected a string, got 3"),
        ("wv", Node.as_bool, "expected true or false, got 3"),
        ("wv", Node.mapping, "expected a mapping, got int"),
        ("wv", Node.sequence, "expected a list, got int"),
    ],
)
def test_node_type_checks_are_strict(doc: Node, key: str, reader: object, message: str) -> None:
    node = doc["weapons"]["laser"][key]
    with pytest.raises(TableError) as error:
        reader(node)  # type: ignore[operator]
    assert str(error.value) == f"rules/test/weapons.yaml: weapons.laser.{key}: {message}"


def test_node_out_of_range_names_the_bound(doc: Node) -> None:
    rng = doc["weapons"]["laser"]["range"]
    with pytest.raises(TableError, match=r"weapons.laser.range: 24 is above the maximum 12$"):
        rng.as_int(0, 12)
    with pytest.raises(TableError, match=r"weapons.laser.range: 24 is below the minimum 30$"):
        rng.as_int(30)


def test_node_choice_outside_the_list_is_rejected(doc: Node) -> None:
    with pytest.raises(TableError, match=r"weapons.rail.family: 'kinetic' is not one of \['beam'"):
        doc["weapons"]["rail"]["family"].as_str(("beam", "missile"))


def test_node_list_rows_are_located_by_index(doc: Node) -> None:
    rows = list(doc["rolls"].rows())
    assert [row.where for row in rows][:2] == [
        "rules/test/weapons.yaml: rolls[0]",
        "rules/test/weapons.yaml: rolls[1]",
    ]
    with pytest.raises(TableError) as error:
        rows[3]["value"].as_str()
    assert str(error.value) == "rules/test/weapons.yaml: rolls[3].value: expected a string, got 99"


def test_node_list_of_ints_names_the_bad_row() -> None:
    node = parse_yaml("ranges: [1, 2, 3, x]", "t.yaml")
    with pytest.raises(TableError, match=r"^t.yaml: ranges\[3\]: expected an integer, got 'x'$"):
        node["ranges"].as_ints()


def test_node_top_level_list_rows() -> None:
    node = parse_yaml("- 1\n- 2\n- oops\n", "top.yaml")
    assert [row.where for row in node.rows()] == ["top.yaml: [0]", "top.yaml: [1]", "top.yaml: [2]"]


def test_node_fail_builds_a_located_error(doc: Node) -> None:
    error = doc["weapons"]["rail"].fail("unknown weapon family")
    assert isinstance(error, TableError)
    assert str(error) == "rules/test/weapons.yaml: weapons.rail: unknown weapon family"


# -- parse_yaml / load_config -------------------------------------------------------------
def test_parse_yaml_invalid_yaml_is_a_table_error() -> None:
    with pytest.raises(TableError, match=r"^broken.yaml: not valid YAML"):
        parse_yaml("a: [1, 2\nb: 3\n", "broken.yaml")


def test_parse_yaml_is_safe() -> None:
    with pytest.raises(TableError, match="not valid YAML"):
        parse_yaml("x: !!python/object/apply:os.system ['true']\n", "evil.yaml")


def test_load_config_missing_file_names_the_path() -> None:
    with pytest.raises(TableError) as error:
        load_config("rules/no_such_system/nothing.yaml")
    assert str(error.value) == (
        "rules/no_such_system/nothing.yaml: file not found in wargym.configs"
    )


def test_every_packaged_yaml_file_loads() -> None:
    """Each YAML file under configs/ is readable through the installed package and parses."""
    problems = []
    for path in sorted(CONFIGS.rglob("*.yaml")):
        relative = path.relative_to(CONFIGS).as_posix()
        try:
            node = load_config(relative)
        except TableError as error:
            problems.append(f"{error} (new file? run `make dev-refresh`)")
            continue
        if node.value is None:
            problems.append(f"{relative}: empty document")
    assert not problems, "\n".join(problems)


# -- BandTable ----------------------------------------------------------------------------
def open_table() -> BandTable:
    return BandTable(
        "damage",
        (Band(None, -2, 0), Band(-1, 1, 1), Band(2, 4, 2), Band(5, 13, 3), Band(14, None, 6)),
    )


@pytest.mark.parametrize(
    ("roll", "value"),
    [(-50, 0), (-2, 0), (-1, 1), (1, 1), (2, 2), (4, 2), (5, 3), (13, 3), (14, 6), (99, 6)],
)
def test_band_table_open_ends_cover_every_integer(roll: int, value: int) -> None:
    assert open_table().lookup(roll) == value


def test_band_table_with_domain_covers_exactly_2_to_12() -> None:
    table = BandTable("2d6", (Band(2, 6, "miss"), Band(7, 12, "hit")), domain=(2, 12))
    assert [table.lookup(r) for r in (2, 6, 7, 12)] == ["miss", "miss", "hit", "hit"]
    with pytest.raises(TableError, match=r"^2d6: no band holds 13$"):
        table.lookup(13)


@pytest.mark.parametrize(
    ("bands", "domain", "message"),
    [
        ((), None, "no bands"),
        ((Band(1, 3, 0), Band(4, None, 1)), None, "first band must be open below"),
        ((Band(None, 3, 0), Band(4, 9, 1)), None, "last open above"),
        ((Band(None, 3, 0), Band(5, None, 1)), None, "gap or overlap"),
        ((Band(None, 3, 0), Band(3, None, 1)), None, "gap or overlap"),
        ((Band(None, 3, 0), Band(None, 5, 1), Band(6, None, 2)), None, "gap or overlap"),
        ((Band(None, 3, 0), Band(4, 2, 1), Band(3, None, 2)), None, r"empty \(low > high\)"),
        ((Band(2, 6, 0), Band(7, 1, 1), Band(2, 12, 2)), (2, 12), r"empty \(low > high\)"),
        ((Band(2, 6, 0), Band(7, 11, 1)), (2, 12), r"must cover exactly \(2, 12\)"),
        ((Band(1, 6, 0), Band(7, 12, 1)), (2, 12), r"must cover exactly \(2, 12\)"),
    ],
)
def test_band_table_rejects_gaps_overlaps_and_wrong_domains(
    bands: tuple[Band, ...], domain: tuple[int, int] | None, message: str
) -> None:
    with pytest.raises(TableError, match=message):
        BandTable("t", bands, domain)


def test_band_table_from_yaml_rows() -> None:
    node = parse_yaml(
        "damage:\n  - {high: 1, value: 0}\n  - {low: 2, high: 4, value: 2}\n"
        "  - {low: 5, value: 3}\n",
        "pw.yaml",
    )
    table = band_table(node["damage"], "damage")
    assert table.bands == (Band(None, 1, 0), Band(2, 4, 2), Band(5, None, 3))


def test_band_table_from_yaml_gap_is_located() -> None:
    node = parse_yaml("damage:\n  - {high: 1, value: 0}\n  - {low: 3, value: 3}\n", "pw.yaml")
    with pytest.raises(TableError, match=r"^pw.yaml: damage: damage: gap or overlap"):
        band_table(node["damage"], "damage")


def test_band_table_from_yaml_unknown_row_key_is_located() -> None:
    node = parse_yaml("damage:\n  - {high: 1, value: 0}\n  - {from: 2, value: 3}\n", "pw.yaml")
    with pytest.raises(TableError, match=r"^pw.yaml: damage\[1\]: unknown keys \['from'\]$"):
        band_table(node["damage"], "damage")


def test_band_table_from_yaml_domain_mismatch_is_located() -> None:
    node = parse_yaml("hit:\n  - {low: 2, high: 6, value: 0}\n  - {low: 7, value: 1}\n", "x.yaml")
    with pytest.raises(TableError, match=r"^x.yaml: hit: .*must cover exactly"):
        band_table(node["hit"], "hit", domain=(2, 12))


def test_node_quotes_a_huge_bad_value_short() -> None:
    """A table error quotes at most ~80 characters of the bad value (issue 21 item 12)."""
    node = parse_yaml("wv: " + "x" * 1_000_000 + "\n", "rules/test/huge.yaml")
    for read in (Node.as_int, Node.as_number):
        with pytest.raises(TableError) as error:
            read(node["wv"])
        assert len(str(error.value)) < 200
        assert str(error.value).startswith("rules/test/huge.yaml: wv: expected")
