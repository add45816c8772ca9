"""Gymnasium and PettingZoo environments over the *5150: No Quarter* engine.

* ``wargym/NoQuarter-Skirmish-v1``
  (:class:`~wargym.envs.no_quarter.solo.NoQuarterSkirmishEnv`): the agent commands blue
  against the rules' non-player AI (or any agent object) in a skirmish without PEFs.
* ``wargym/NoQuarter-Patrol-v1``, ``wargym/NoQuarter-Attack-v1``,
  ``wargym/NoQuarter-Defend-v1`` (:mod:`.mission`): the agent plays a mission (§22) of a
  scenario file against the rules' NP side (PEFs, NP tactics, reinforcements, weather); with
  ``opponent=`` another player (an agent object, "scripted", "random") sits in the NP seat.
* ``wargym/NoQuarter-CestusV-v1`` (:mod:`.campaign_env`): one episode is the whole
  ten-mission Cestus V campaign (§27), campaign decisions between missions included.
* PettingZoo ``no_quarter_v1``: :func:`wargym.envs.no_quarter.aec.env` (AEC: the side at the
  current decision point acts, reactions included) and
  :func:`wargym.envs.no_quarter.aec.parallel_env` (Parallel: the other side waits).

Building blocks: :mod:`.codec` (the flat action space "nq-act-v2"), :mod:`.encoding` (the
observation "nq-obs-v3" and the event filter of the fog of war), :mod:`.mission_encoding`
(the mission observation "nq-obs-v4"), :mod:`.campaign_encoding` (the campaign block and its
actions); docs/encodings.md.

``gymnasium.make_vec(id, num_envs=N)`` of the skirmish and mission ids steps all N battles in
one call (:mod:`.batch`, :mod:`.vector`).

``GYM_IDS``, ``GYM_VECTOR_IDS`` and ``PETTINGZOO_MODULES`` are for registration by ``wargym.envs``.
"""

GYM_IDS = {
    "wargym/NoQuarter-Skirmish-v1": "wargym.envs.no_quarter.solo:NoQuarterSkirmishEnv",
    "wargym/NoQuarter-Patrol-v1": "wargym.envs.no_quarter.mission:NoQuarterPatrolEnv",
    "wargym/NoQuarter-Attack-v1": "wargym.envs.no_quarter.mission:NoQuarterAttackEnv",
    "wargym/NoQuarter-Defend-v1": "wargym.envs.no_quarter.mission:NoQuarterDefendEnv",
    "wargym/NoQuarter-CestusV-v1": "wargym.envs.no_quarter.campaign_env:NoQuarterCampaignEnv",
}
"""Gymnasium ids of this package and their entry points."""

GYM_VECTOR_IDS = {
    "wargym/NoQuarter-Skirmish-v1": "wargym.envs.no_quarter.vector:NoQuarterSkirmishVectorEnv",
    "wargym/NoQuarter-Patrol-v1": "wargym.envs.no_quarter.vector:NoQuarterPatrolVectorEnv",
    "wargym/NoQuarter-Attack-v1": "wargym.envs.no_quarter.vector:NoQuarterAttackVectorEnv",
    "wargym/NoQuarter-Defend-v1": "wargym.envs.no_quarter.vector:NoQuarterDefendVectorEnv",
}
"""Batched ``vector_entry_point`` of the ids that have one (:mod:`.vector`, :mod:`.batch`)."""

PETTINGZOO_MODULES = {"no_quarter_v1": "wargym.envs.no_quarter.aec"}
"""PettingZoo names and the modules exposing ``env(**kwargs)`` and ``parallel_env(**kwargs)``."""
