"""Gymnasium and PettingZoo environments over *The Pentagon War* engine.

* ``wargym/PentagonWar-Duel-v0`` (:class:`~wargym.envs.pentagon_war.gym_env.PentagonWarDuelEnv`):
  one side against the scripted captain; other scenarios via ``scenario="fleet"`` etc.
* PettingZoo: :func:`wargym.envs.pentagon_war.aec.env` (AEC, sides plot in turn with hidden
  plots) and :func:`wargym.envs.pentagon_war.aec.parallel_env` (simultaneous plotting).

``GYM_IDS`` maps each Gymnasium id to its entry point, for registration by ``wargym.envs``.
"""

GYM_IDS = {"wargym/PentagonWar-Duel-v0": "wargym.envs.pentagon_war.gym_env:PentagonWarDuelEnv"}
"""Gymnasium ids of this package and their entry points."""
