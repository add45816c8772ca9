"""Dice: the single source of randomness for every rules engine (No Quarter §5).

The engines never touch a global random number generator. They roll through a :class:`Dice`
object that the caller injects: :class:`RandomDice` over an explicit
``numpy.random.Generator`` in environments, :class:`ScriptedDice` fed exact faces in tests.

>>> dice = ScriptedDice([1, 5])
>>> faces = dice.roll(2)
>>> faces, passed_dice(faces, target=4)
((1, 5), 1)
>>> successes((1, 3, 3, 4, 4))
3
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from wargym.rules.errors import DiceScriptExhaustedError

PASS_CAP = 2
"""A test passes at most 2d6, however many dice were rolled (§5.1)."""


class Dice(Protocol):
    """Source of d6 results; rules code rolls through this and nothing else."""

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` d6 and return the faces in the order rolled (``n <= 0`` gives ``()``)."""
        ...


@dataclass
class RandomDice:
    """Dice backed by an explicit generator; whoever owns the generator owns the seed."""

    rng: np.random.Generator

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` d6 from the generator."""
        if n <= 0:
            return ()
        return tuple(int(face) for face in self.rng.integers(1, 7, size=n))

    @classmethod
    def from_seed(cls, seed: int | None) -> RandomDice:
        """Dice over ``numpy.random.default_rng(seed)``."""
        return cls(np.random.default_rng(seed))


@dataclass
class ScriptedDice:
    """Dice that replay ``faces`` in order, for tests and rulebook examples.

    Raises :class:`~wargym.rules.errors.DiceScriptExhaustedError` when the script runs out, so a
    test that supplies too few faces fails loudly instead of silently rolling at random.
    """

    faces: list[int]
    used: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for face in self.faces:
            if not 1 <= face <= 6:
                raise ValueError(f"a d6 face must be 1..6, got {face!r}")

    def roll(self, n: int) -> tuple[int, ...]:
        """Return the next ``n`` scripted faces."""
        if n <= 0:
            return ()
        if n > len(self.faces):
            raise DiceScriptExhaustedError(
                f"script ran out: wanted {n}d6, {len(self.faces)} left (used so far {self.used})"
            )
        rolled, self.faces = self.faces[:n], self.faces[n:]
        self.used.extend(rolled)
        return tuple(rolled)

    @property
    def remaining(self) -> int:
        """Faces not yet rolled."""
        return len(self.faces)


@dataclass
class TallyDice:
    """Passes rolls through to ``dice`` and keeps every face rolled, for an event's record."""

    dice: Dice
    faces: list[int]

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` d6 on the wrapped dice and note the faces."""
        out = self.dice.roll(n)
        self.faces.extend(out)
        return out

    def take(self) -> tuple[int, ...]:
        """The faces noted since the last ``take``, and forget them."""
        out, self.faces[:] = tuple(self.faces), []
        return out


@dataclass
class FallbackDice:
    """Scripted faces first, then random ones: for tests that pin down only the first rolls."""

    scripted: list[int]
    rng: np.random.Generator

    def roll(self, n: int) -> tuple[int, ...]:
        """Return scripted faces while they last, then random ones."""
        if n <= 0:
            return ()
        take = min(n, len(self.scripted))
        head, self.scripted = self.scripted[:take], self.scripted[take:]
        tail = tuple(int(face) for face in self.rng.integers(1, 7, size=n - take))
        return tuple(head) + tail


def passed_dice(faces: Iterable[int], target: int, cap: int = PASS_CAP) -> int:
    """Count the d6 scoring ``target`` or less, capped at ``cap`` (§5.1)."""
    return min(cap, sum(1 for face in faces if face <= target))


def successes(faces: Iterable[int]) -> int:
    """Count the d6 scoring 1, 2 or 3; successes are not capped (§5.2)."""
    return sum(1 for face in faces if face <= 3)


def possibility(face: int, options: Mapping[str, Sequence[int]]) -> str:
    """Return the option whose range holds ``face``, e.g. ``Class 1 (1-2)`` (§5.3)."""
    for name, faces in options.items():
        if face in faces:
            return name
    raise ValueError(f"no option covers the roll {face}: {dict(options)}")


def half_d6(face: int) -> int:
    """Read one d6 as 1/2d6: 1-2 is 1, 3-4 is 2, 5-6 is 3 (§5.5)."""
    if not 1 <= face <= 6:
        raise ValueError(f"a d6 face must be 1..6, got {face!r}")
    return (face + 1) // 2
