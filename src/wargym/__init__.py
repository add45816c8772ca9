"""wargym: reinforcement-learning environments for three tabletop wargames.

Where things live (one import name over the repository's top-level folders):

* ``wargym.rules``   (``rules/``)   the pure rules engines: stdlib, numpy and PyYAML only;
* ``wargym.envs``    (``envs/``)    Gymnasium and PettingZoo adapters over the engines;
* ``wargym.agents``  (``agents/``)  baseline and learned players;
* ``wargym.configs`` (``configs/``) the rulebooks' tables as validated YAML data.

``import wargym`` registers the Gymnasium ids (``wargym/NoQuarter-Skirmish-v1``, ...) without
importing gymnasium itself: at once when gymnasium is already loaded, else as soon as it is
(:mod:`wargym._autoregister`, standard library only). So ``import wargym.rules`` never pulls in
gymnasium or torch, and ``import wargym, gymnasium; gymnasium.make("wargym/...")`` works.
"""

from wargym._autoregister import install as _install

__version__ = "0.1.0"

_install()
