"""PettingZoo env ``starship_combat_v0``: *Alternate Starship Combat v2*.

Imported as PettingZoo's own envs are::

    from wargym.envs import starship_combat_v0

    aec = starship_combat_v0.env()  # AEC: one agent acts at a time
    par = starship_combat_v0.parallel_env()  # Parallel: all agents at once

Both take the env's keyword arguments. They are
:func:`wargym.envs.starship_combat.aec.env` and
:func:`wargym.envs.starship_combat.parallel.parallel_env`;
``wargym.envs.PETTINGZOO_ENVS["starship_combat_v0"]`` names the module that defines them.
"""

from wargym.envs.starship_combat.aec import env
from wargym.envs.starship_combat.parallel import parallel_env

__all__ = ["env", "parallel_env"]
