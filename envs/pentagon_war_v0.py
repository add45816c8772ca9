"""PettingZoo env ``pentagon_war_v0``: *The Pentagon War*.

Imported as PettingZoo's own envs are::

    from wargym.envs import pentagon_war_v0

    aec = pentagon_war_v0.env()  # AEC: one agent acts at a time
    par = pentagon_war_v0.parallel_env()  # Parallel: all agents at once

Both take the env's keyword arguments. They are
:func:`wargym.envs.pentagon_war.aec.env` and :func:`wargym.envs.pentagon_war.aec.parallel_env`;
``wargym.envs.PETTINGZOO_ENVS["pentagon_war_v0"]`` names the module that defines them.
"""

from wargym.envs.pentagon_war.aec import env, parallel_env

__all__ = ["env", "parallel_env"]
