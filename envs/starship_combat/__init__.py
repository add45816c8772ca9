"""Gymnasium and PettingZoo environments over the *Alternate Starship Combat v2* engine.

* ``wargym/StarshipCombat-Duel-v0``: :class:`gym_env.StarshipCombatDuelEnv` (side 0 against the
  scripted captain); ``scenario=`` picks ``duel``, ``fleet``, ``duel_kestrel`` or ``strike``.
* :func:`aec.env` and :func:`parallel.parallel_env`: both sides as agents.
"""

GYM_IDS = {
    "wargym/StarshipCombat-Duel-v0": "wargym.envs.starship_combat.gym_env:StarshipCombatDuelEnv"
}
