"""*5150: No Quarter - Mech Warfare* rules engine (sections 5-27).

Glossary: **Rep** the pilot's Reputation; **active** belonging to the side now activating;
**group** mechs that act together (§13); **cause** the enemy mech that made a test necessary.

The modules sit by the book's chapters, one subpackage each:

* :mod:`.forces`: Forces (§9-§13).
* :mod:`.battle`: The battle (§13-§18).
* :mod:`.sight_movement`: Sight and movement (§6, §10.4-§10.6, §15.2, §16.1, §17.1-§17.2).
* :mod:`.battlefield`: The battlefield (§19, Appendix A).
* :mod:`.non_player`: The non-player side (§20-§22.4).
* :mod:`.mission`: Missions (§22, §23.7-§23.8).
* :mod:`.campaigns`: The campaign (§23-§26).
* :mod:`.cestus`: Cestus V (§27).

The flat import paths of before (``wargym.rules.no_quarter.game``, ``from
wargym.rules.no_quarter import game``) still resolve to the moved modules, with a
``DeprecationWarning``; code in this repository uses the new paths.
"""

# Layout written by relayout.py (issue 16).
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from typing import TYPE_CHECKING

MOVED: dict[str, str] = {
    "actions": "battle",
    "arrival_spots": "non_player",
    "battlefield_gen": "battlefield",
    "buildings": "battlefield",
    "bumping": "sight_movement",
    "campaign": "campaigns",
    "campaign_aftermath": "campaigns",
    "campaign_events": "campaigns",
    "campaign_play": "campaigns",
    "campaign_rules": "campaigns",
    "cestus_play": "cestus",
    "cestus_v": "cestus",
    "cestus_v_data": "cestus",
    "cestus_v_records": "cestus",
    "cestus_v_rolls": "cestus",
    "consequences": "battle",
    "data": "forces",
    "data_combat": "forces",
    "data_loaders": "forces",
    "design": "forces",
    "enemy": "non_player",
    "enemy_decide": "non_player",
    "events": "battle",
    "facing": "sight_movement",
    "flames": "sight_movement",
    "flow": "battle",
    "flow_charges": "battle",
    "flow_fire": "battle",
    "flow_mech": "battle",
    "flow_melee": "battle",
    "flow_move": "battle",
    "flow_react": "battle",
    "flow_turn": "battle",
    "game": "battle",
    "geometry": "sight_movement",
    "group_orders": "battle",
    "jump_landing": "sight_movement",
    "leaders": "forces",
    "luck": "battle",
    "melee": "battle",
    "mission_play": "mission",
    "missions": "mission",
    "movement_geometry": "sight_movement",
    "np_events": "non_player",
    "np_flow": "non_player",
    "pef": "non_player",
    "pef_tables": "non_player",
    "perception": "sight_movement",
    "pilots": "forces",
    "ranged_combat": "battle",
    "reaction": "battle",
    "records": "forces",
    "reinforcements": "mission",
    "roads": "battlefield",
    "saves": "campaigns",
    "scenario": "mission",
    "sections": "battlefield",
    "setup": "forces",
    "setup_events": "forces",
    "sight": "sight_movement",
    "state": "battle",
    "terrain": "battlefield",
    "terrain_generator": "battlefield",
    "terrain_tables": "battlefield",
    "validity": "battle",
    "validity_parts": "battle",
    "vocab": "forces",
    "weather": "battlefield",
}
"""Module of the flat layout -> the subpackage that holds it now."""


def _moved(name: str) -> types.ModuleType:
    new = f"{__name__}.{MOVED[name]}.{name}"
    warnings.warn(f"{__name__}.{name} moved to {new}", DeprecationWarning, stacklevel=3)
    return importlib.import_module(new)


if not TYPE_CHECKING:  # type checkers see only the new paths

    def __getattr__(name: str) -> types.ModuleType:
        """``from wargym.rules.no_quarter import game``: the moved module (deprecated)."""
        if name in MOVED:
            module = _moved(name)
            globals()[name] = module  # warned once; later lookups find it
            return module
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import wargym.rules.no_quarter.game``: the same module object as its new path."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        head, _, name = fullname.rpartition(".")
        if head != __name__ or name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        sys.modules[module.__name__] = _moved(module.__name__.rpartition(".")[2])


if not any(isinstance(f, _MovedModules) for f in sys.meta_path):
    sys.meta_path.append(_MovedModules())
