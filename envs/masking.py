"""``ActionMasks``: the wrapper that makes ``gymnasium.make(id).action_masks()`` work.

gymnasium 1.x wrappers forward no attributes, so the ``TimeLimit`` / ``OrderEnforcing`` /
``PassiveEnvChecker`` stack that ``gymnasium.make`` builds hides the env's own
``action_masks()``. Every wargym id is registered with this wrapper outermost
(``additional_wrappers`` of its ``EnvSpec``), so ``env.action_masks()`` is the legal mask of
the current decision, as sb3-contrib (``get_action_masks``, ``MaskablePPO``) and users call
it. Nothing else changes: steps, observations and rewards pass through untouched.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium.envs.registration import WrapperSpec
from gymnasium.utils import RecordConstructorArgs

__all__ = ["WRAPPER_SPEC", "ActionMasks", "SingleEnvWrappers"]


class ActionMasks(gymnasium.Wrapper, RecordConstructorArgs):
    """Forwards ``action_masks()`` of the wrapped env (through any wrappers below)."""

    def __init__(self, env: gymnasium.Env) -> None:
        RecordConstructorArgs.__init__(self)
        gymnasium.Wrapper.__init__(self, env)

    def action_masks(self) -> np.ndarray:
        """The legal mask of the current decision (bool, one entry per action index)."""
        mask: np.ndarray = self.env.get_wrapper_attr("action_masks")()
        return mask


WRAPPER_SPEC = WrapperSpec(
    name="ActionMasks", entry_point="wargym.envs.masking:ActionMasks", kwargs={}
)
"""The ``additional_wrappers`` entry every wargym id is registered with."""


class SingleEnvWrappers(tuple[WrapperSpec, ...]):
    """``additional_wrappers`` of an id that also has a batched ``vector_entry_point``.

    ``gymnasium.make`` applies the wrappers (it iterates and slices the tuple) as usual, but
    ``len()`` is 0: ``gymnasium.make_vec``'s ``vector_entry_point`` mode refuses a spec with
    additional wrappers (it cannot put them on a vector env), and the batched vector envs
    (``wargym.envs.no_quarter.vector``) give ``action_masks()`` themselves, so nothing is
    lost. tests/envs/test_nq_batch.py checks both ``make`` and ``make_vec`` on the installed
    gymnasium.
    """

    def __len__(self) -> int:
        return 0
