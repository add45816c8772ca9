"""wargym: reinforcement-learning environments for three tabletop wargames.

Where things live (one import name over the repository's top-level folders):

* ``wargym.rules``   (``rules/``)   the pure rules engines: stdlib, numpy and PyYAML only;
* ``wargym.envs``    (``envs/``)    Gymnasium and PettingZoo adapters over the engines;
* ``wargym.agents``  (``agents/``)  baseline and learned players;
* ``wargym.configs`` (``configs/``) the rulebooks' tables as validated YAML data.

This module imports nothing, so ``import wargym.rules`` never pulls in gymnasium or torch.
"""

__version__ = "0.1.0"
