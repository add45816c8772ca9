"""Strict loading of rule tables from YAML under ``wargym.configs``.

Numbers and names live in YAML; this module reads them into plain Python values while
checking them, and every error names the file, the key path and the row, for example
``rules/no_quarter/weapons.yaml: weapons.beam_heavy.wv: expected an integer, got 'three'``.

The :class:`Node` wrapper carries that location while a loader walks the document:

>>> node = Node({"laser": {"wv": 3}}, "example.yaml")
>>> node["laser"]["wv"].as_int()
3
>>> node["laser"].keys_exactly({"wv", "range"})
Traceback (most recent call last):
...
wargym.rules.errors.TableError: example.yaml: laser: missing keys ['range']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from wargym.rules.errors import TableError, short_repr

CONFIG_PACKAGE = "wargym.configs"
_SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def read_config_text(relative_path: str) -> str:
    """Return the text of a packaged config file, e.g. ``rules/no_quarter/weapons.yaml``."""
    resource = resources.files(CONFIG_PACKAGE).joinpath(relative_path)
    try:
        return resource.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise TableError(f"{relative_path}: file not found in {CONFIG_PACKAGE}") from error


def parse_yaml(text: str, source: str) -> Node:
    """Parse YAML ``text`` safely and wrap it in a :class:`Node` named after ``source``."""
    try:
        data = yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 - a SafeLoader, C if built
    except yaml.YAMLError as error:
        raise TableError(f"{source}: not valid YAML: {error}") from error
    return Node(data, source)


def load_config(relative_path: str) -> Node:
    """Load a packaged YAML file as a :class:`Node` (cached text, fresh node)."""
    return parse_yaml(read_config_text(relative_path), relative_path)


@dataclass(frozen=True)
class Node:
    """A YAML value with the file and key path it came from, for precise error messages."""

    value: Any
    source: str
    path: tuple[str, ...] = ()

    # -- location -----------------------------------------------------------------------
    @property
    def where(self) -> str:
        """``file: key.path`` of this node."""
        return f"{self.source}: {'.'.join(self.path)}" if self.path else self.source

    def fail(self, message: str) -> TableError:
        """An error located at this node (raise it)."""
        return TableError(f"{self.where}: {message}")

    # -- mappings -----------------------------------------------------------------------
    def mapping(self) -> dict[Any, Any]:
        """The value as a mapping, or an error."""
        if not isinstance(self.value, dict):
            raise self.fail(f"expected a mapping, got {type(self.value).__name__}")
        return self.value

    def __getitem__(self, key: Any) -> Node:
        data = self.mapping()
        if key not in data:
            raise self.fail(f"missing key {short_repr(key)}")
        return Node(data[key], self.source, (*self.path, str(key)))

    def get(self, key: Any) -> Node | None:
        """The child under ``key``, or None when absent."""
        data = self.mapping()
        if key not in data:
            return None
        return Node(data[key], self.source, (*self.path, str(key)))

    def __contains__(self, key: Any) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def keys_exactly(
        self, required: AbstractSet[str], optional: AbstractSet[str] = frozenset()
    ) -> None:
        """Reject unknown keys and report missing ones."""
        data = self.mapping()
        keys = {str(key) for key in data}
        missing = sorted(set(required) - keys)
        unknown = sorted(keys - set(required) - set(optional))
        if missing:
            raise self.fail(f"missing keys {missing}")
        if unknown:
            raise self.fail(f"unknown keys {unknown}")

    def items(self) -> Iterator[tuple[Any, Node]]:
        """Children of a mapping as ``(key, node)`` pairs, in file order."""
        for key, value in self.mapping().items():
            yield key, Node(value, self.source, (*self.path, str(key)))

    # -- sequences ----------------------------------------------------------------------
    def sequence(self) -> list[Any]:
        """The value as a list, or an error."""
        if not isinstance(self.value, list):
            raise self.fail(f"expected a list, got {type(self.value).__name__}")
        return self.value

    def rows(self) -> Iterator[Node]:
        """Children of a list, each located as ``path[i]``."""
        for index, value in enumerate(self.sequence()):
            row_path = (
                (*self.path[:-1], f"{self.path[-1]}[{index}]") if self.path else (f"[{index}]",)
            )
            yield Node(value, self.source, row_path)

    # -- scalars ------------------------------------------------------------------------
    def as_int(self, low: int | None = None, high: int | None = None) -> int:
        """The value as an integer within ``[low, high]``."""
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"expected an integer, got {short_repr(value)}")
        if low is not None and value < low:
            raise self.fail(f"{value} is below the minimum {low}")
        if high is not None and value > high:
            raise self.fail(f"{value} is above the maximum {high}")
        return value

    def as_number(self) -> float:
        """The value as a float (integers accepted)."""
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(f"expected a number, got {short_repr(value)}")
        return float(value)

    def as_str(self, choices: Sequence[str] | None = None) -> str:
        """The value as a string, optionally one of ``choices``."""
        value = self.value
        if not isinstance(value, str):
            raise self.fail(f"expected a string, got {short_repr(value)}")
        if choices is not None and value not in choices:
            raise self.fail(f"{short_repr(value)} is not one of {sorted(choices)}")
        return value

    def as_bool(self) -> bool:
        """The value as a boolean."""
        if not isinstance(self.value, bool):
            raise self.fail(f"expected true or false, got {short_repr(self.value)}")
        return self.value

    def as_ints(self, low: int | None = None, high: int | None = None) -> tuple[int, ...]:
        """The value as a list of integers."""
        return tuple(row.as_int(low, high) for row in self.rows())

    def as_strs(self, choices: Sequence[str] | None = None) -> tuple[str, ...]:
        """The value as a list of strings."""
        return tuple(row.as_str(choices) for row in self.rows())


@dataclass(frozen=True, slots=True)
class Band:
    """One row of a table keyed by a range of a modified roll: ``low..high`` (open if None)."""

    low: int | None
    high: int | None
    value: Any


@dataclass(frozen=True, slots=True)
class BandTable:
    """A rulebook table keyed by ranges of a modified roll, e.g. "2-4" or "14+".

    Bands must tile the integers (or ``domain`` when given) with no gap or overlap.
    """

    name: str
    bands: tuple[Band, ...]
    domain: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if not self.bands:
            raise TableError(f"{self.name}: no bands")
        first, last = self.bands[0], self.bands[-1]
        if self.domain is None:
            if first.low is not None or last.high is not None:
                raise TableError(f"{self.name}: first band must be open below, last open above")
        elif first.low != self.domain[0] or last.high != self.domain[1]:
            raise TableError(f"{self.name}: bands must cover exactly {self.domain}")
        for band in self.bands:
            if band.low is not None and band.high is not None and band.low > band.high:
                raise TableError(f"{self.name}: band {band} is empty (low > high)")
        for below, above in itertools.pairwise(self.bands):
            if below.high is None or above.low != below.high + 1:
                raise TableError(f"{self.name}: gap or overlap between {below} and {above}")

    def lookup(self, roll: int) -> Any:
        """The value of the band holding ``roll``."""
        for band in self.bands:
            if (band.low is None or roll >= band.low) and (band.high is None or roll <= band.high):
                return band.value
        raise TableError(f"{self.name}: no band holds {roll}")


def band_table(node: Node, name: str, domain: tuple[int, int] | None = None) -> BandTable:
    """Read a list of ``{low?, high?, value}`` rows into a validated :class:`BandTable`."""
    bands = []
    for row in node.rows():
        row.keys_exactly({"value"}, {"low", "high"})
        low = row["low"].as_int() if "low" in row else None
        high = row["high"].as_int() if "high" in row else None
        bands.append(Band(low, high, row["value"].value))
    try:
        return BandTable(name, tuple(bands), domain)
    except TableError as error:
        raise node.fail(str(error)) from error
