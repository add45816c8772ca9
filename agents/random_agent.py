"""The uniform random player: any legal index, equally likely (the Elo reference, 0)."""

from __future__ import annotations

from typing import Any

import numpy as np

from wargym.agents.base import SeededAgent


class RandomAgent(SeededAgent):
    """Picks uniformly among the indices its mask allows.

    >>> agent = RandomAgent(0)
    >>> agent.act(None, np.array([0, 1, 0, 1], dtype=np.int8)) in (1, 3)
    True
    """

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        """A uniformly random legal index.

        Raises:
            ValueError: the mask allows nothing.
        """
        legal = np.flatnonzero(np.asarray(action_mask))
        if legal.size == 0:
            raise ValueError("the action mask allows no action")
        return int(legal[int(self.rng.integers(legal.size))])
