"""Players: random, scripted, heuristic, search and learned agents (``wargym.agents``).

* :mod:`.base`: the :class:`~.base.Agent` protocol (``act(observation, action_mask) -> int``),
  the :class:`~.base.EngineAgent` protocol (``act_engine(state, legal_actions, side)``) and
  :class:`~.base.EngineAdapter`, which seats an engine agent in any wargym env.
* :mod:`.random_agent`, :mod:`.scripted` (the rules' NP procedure and the space captains as
  players of either side), :mod:`.heuristic` (a hand-written No Quarter tactician;
  :mod:`.advisor` turns its evaluation into per-action observation rows for learned policies),
  :mod:`.mcts` with :mod:`.determinise` (search that never reads hidden information),
  :mod:`.learned` (SB3 zip or ONNX policies; the shipped one is in :mod:`.models`).
* :mod:`.evaluation` (seeded matches, Wilson intervals, round robins with Elo),
  :mod:`.selfplay` (opponent pool), :mod:`.config` (validated YAML presets),
  :mod:`.envspecs` (mirror-force battles), :mod:`.neural` (torch-only: network settings,
  behaviour cloning, ONNX export), :mod:`.training_entry` (runs the ``training/`` scripts).

Nothing here is imported by ``wargym.rules`` or ``wargym.envs`` (rules -> envs -> agents ->
training); torch is imported only inside :mod:`.neural` and lazily by :mod:`.learned`.
"""

if __name__ != "wargym.agents":  # this folder is installed as wargym.agents (README: Layout)
    raise ImportError(f"import wargym.agents, not {__name__!r}")
