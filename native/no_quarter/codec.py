"""Glue for the native action codec (``native/no_quarter/envs/codec.hpp``, "nq-act-v2").

:class:`NativeCodec` wraps an env's reference ``ActionCodec`` (``envs/no_quarter/codec.py``):
it hands the core every number of the layout, read from the codec object and its module
(:func:`codec_tables`: maxima, move grid, block sizes, slot lists, ``REVERSE_FRACTION``,
``_TOL``), and answers ``free_reach`` for each ``RulesOptions`` the core meets by calling the
module's own ``free_reach`` (the rules' ``free_move_inches``, §16.1.3). native/ does not import
the envs: the codec object brings its module along.

Battles are native (:func:`~wargym.native.no_quarter.battle_from_dict`); the legal options are
the reference's action objects (``game.legal_actions``), handed in because the core does not
list them yet. A codec with a custom slot function (the mission envs' sighting order, the
shipped policy's local slots) needs the ``Slots`` that function gives, passed as ``slots=``.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from types import ModuleType, SimpleNamespace
from typing import Any, cast

import numpy as np

from wargym.native import _core
from wargym.native.no_quarter import NativeBattle
from wargym.rules.no_quarter.battle.actions import Action
from wargym.rules.no_quarter.forces.data import RulesOptions
from wargym.rules.no_quarter.forces.vocab import Side

core: Any = _core.no_quarter
"""The compiled mirrors (``wargym.native._core.no_quarter``)."""


def codec_module(codec: Any) -> ModuleType:
    """The module that defines ``codec``'s class (its layout constants)."""
    return sys.modules[type(codec).__module__]


def codec_tables(codec: Any) -> dict[str, Any]:
    """Every number of ``codec``'s layout, as the core's ``CodecTables`` reads them."""
    module = codec_module(codec)
    return {
        "max_mechs": codec.max_mechs,
        "max_weapons": codec.max_weapons,
        "max_buildings": codec.max_buildings,
        "directions": codec.directions,
        "fractions": list(codec.fractions),
        "mirror": codec.mirror,
        "sizes": dict(codec.sizes),
        "headings": module.HEADINGS,
        "free_directions": module.FREE_DIRECTIONS,
        "free_reaches": module.FREE_REACHES,
        "free_will": list(module.FREE_WILL),
        "limbs": [(attack.value, limb.value) for attack, limb in module.LIMBS],
        "edges": list(module.EDGES),
        "objectives": list(module.OBJECTIVES),
        "lucky_choices": list(module.LUCKY_CHOICES),
        "location_slots": [location.value for location in module.LOCATION_SLOTS],
        "twists": list(module.TWISTS),
        "reverse_fraction": module.REVERSE_FRACTION,
        "tol": module._TOL,
    }


RULES_FIELDS = ("zhuh_zhuh_restriction", "gun_medium_stats", "strict_mounting",
                "pdf_c4_target", "free_company_races")  # fmt: skip
"""The ``RulesOptions`` fields, in the order the core passes them to :func:`free_reach_of`."""


def free_reach_of(module: ModuleType, *rules: Any) -> tuple[float, ...]:
    """The codec module's ``free_reach`` for a battle of these ``RulesOptions`` values."""
    options = RulesOptions(**dict(zip(RULES_FIELDS, rules, strict=True)))
    battle = SimpleNamespace(options=SimpleNamespace(rules=options))  # what free_reach reads
    return tuple(module.free_reach(cast(Any, battle)))


class NativeCodec:
    """The reference ``codec``'s ``encode``/``decode``/``mask``/``table`` on native battles."""

    def __init__(self, codec: Any, tables: dict[str, Any] | None = None) -> None:
        self.reference = codec
        """The reference ``ActionCodec`` this one mirrors."""
        self.module = codec_module(codec)
        reach = functools.partial(free_reach_of, self.module)  # no cycle through self
        self.core: Any = core.ActionCodec(codec_tables(codec) if tables is None else tables, reach)
        self.n: int = self.core.n
        self.custom_slots = codec.slot_fn is not self.module.battle_slots
        """The codec numbers slots with its own function: pass its ``Slots`` as ``slots=``."""

    def _slots(self, slots: Any) -> Any:
        if slots is None and self.custom_slots:
            raise ValueError(
                f"this codec numbers slots with {self.reference.slot_fn!r}: pass its Slots"
            )
        return slots

    def slots(self, battle: NativeBattle, viewer: Side | None = None) -> Any:
        """``battle_slots`` for ``viewer`` (default: the deciding side), a ``codec.Slots``."""
        side, own, enemy, buildings, turn = self.core.slots(battle, viewer)
        return self.module.Slots(Side(side), own, enemy, buildings, turn)

    def encode(self, action: Action, battle: NativeBattle, slots: Any = None) -> int:
        """``ActionCodec.encode``."""
        index: int = self.core.encode(action, battle, self._slots(slots))
        return index

    def decode(
        self, index: int, battle: NativeBattle, legal: Sequence[Action], slots: Any = None
    ) -> Action:
        """``ActionCodec.decode``: the legal action of ``index``, else the nominal one."""
        action: Action = self.core.decode(index, battle, legal, self._slots(slots))
        return action

    def decode_many(
        self,
        indices: Sequence[int],
        battle: NativeBattle,
        legal: Sequence[Action],
        slots: Any = None,
    ) -> list[Action | tuple[str, str]]:
        """``decode`` of each index with one table; a refusal gives ``("ValueError", why)``."""
        out: list[Action | tuple[str, str]] = self.core.decode_many(
            list(indices), battle, legal, self._slots(slots)
        )
        return out

    def mask(self, battle: NativeBattle, legal: Sequence[Action], slots: Any = None) -> np.ndarray:
        """``ActionCodec.mask``: int8, 1 at the legal indices."""
        out: np.ndarray = self.core.mask(battle, legal, self._slots(slots))
        return out

    def table(
        self, battle: NativeBattle, legal: Sequence[Action], slots: Any = None
    ) -> dict[int, Action]:
        """``ActionCodec.table``: ``{index: legal action}`` (the first listed wins a clash)."""
        found: dict[int, Action] = self.core.table(battle, legal, self._slots(slots))[0]
        return found

    def collisions(self, battle: NativeBattle, legal: Sequence[Action], slots: Any = None) -> int:
        """``ActionCodec.collisions``: legal actions left out of the mask."""
        clashes: int = self.core.table(battle, legal, self._slots(slots))[1]
        return clashes

    def block_of(self, index: int) -> tuple[str, int]:
        """``ActionCodec.block_of``."""
        name, k = self.core.block_of(index)
        return str(name), int(k)

    def nominal(self, index: int, battle: NativeBattle, slots: Any = None) -> Action:
        """``ActionCodec._nominal``: the action ``index`` names now, legal or not."""
        action: Action = self.core.nominal(index, battle, self._slots(slots))
        return action

    def free_reach(self, battle: NativeBattle) -> tuple[float, ...]:
        """``codec.free_reach(battle)``."""
        return tuple(self.core.free_reach(battle))
