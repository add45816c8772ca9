"""PettingZoo env ``no_quarter_v1``: *5150: No Quarter*.

Imported as PettingZoo's own envs are::

    from wargym.envs import no_quarter_v1

    aec = no_quarter_v1.env()  # AEC: one agent acts at a time
    par = no_quarter_v1.parallel_env()  # Parallel: all agents at once

Both take the env's keyword arguments. They are
:func:`wargym.envs.no_quarter.aec.env` and :func:`wargym.envs.no_quarter.aec.parallel_env`;
``wargym.envs.PETTINGZOO_ENVS["no_quarter_v1"]`` names the module that defines them.
"""

from wargym.envs.no_quarter.aec import env, parallel_env

__all__ = ["env", "parallel_env"]
