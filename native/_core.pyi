"""Type stubs of the compiled core (native/bindings.cpp); test_native_stub.py checks them."""

from typing import Any

MAX_DICE_PER_ROLL: int

no_quarter: Any
"""The No Quarter mirrors (geometry, sight, the battle state ``Battle``/``StateLimits``, and
``perception``: perception, leaders, activation Rep, group orders): typed through
wargym.native.no_quarter's glue (``NativeBattle``, ``battle_from_dict``). Its submodule
``combat`` (the combat resolvers, ``CombatTables``) is typed through
wargym.native.no_quarter.combat and .combat_tables. Its submodule ``game`` (``legal_actions``,
``check_legal``, ``play``, ``advance``, ``act``, ``eliminated``, ``distinct``) is typed through
wargym.native.no_quarter.game; the rule tables it takes are ``fire.FireTables``. Its submodule
``skirmish_batch`` (``SkirmishBatch``: ``set_buffers``, ``start``, ``prepare``, ``set_tables``,
``step``, ``resume``, ``battle``, ``seen``, ``states``, ``final_info``, ``battlefield_changed``;
``READY``, ``NEEDS_TABLES``, ``NEEDS_REDRAW``) is driven and typed through
wargym.envs.no_quarter.batch.NativeSkirmishBatch."""

fuzz: Any
"""Only in a fuzzing build (``-DWARGYM_FUZZ=ON``, ``make sanitize``): ``begin()``, ``end()`` (the
coverage buckets reached since ``begin``) and ``BUCKETS`` (native/fuzz/coverage.hpp)."""

class RandomDice:
    """The core's seeded d6 generator (xoshiro256**; not numpy's stream)."""

    def __init__(self, seed: int) -> None: ...
    def roll(self, n: int) -> tuple[int, ...]: ...
    @property
    def seed(self) -> int: ...

class NumpyDice:
    """rules.dice.RandomDice over a numpy Generator, bit for bit.

    ``rng.integers(1, 7, size=n)`` on the PCG64 mirror.
    """

    def __init__(self, state: dict[str, Any]) -> None: ...
    def roll(self, n: int) -> tuple[int, ...]: ...
    @property
    def state(self) -> dict[str, Any]: ...

class ScriptedDice:
    """Dice that replay recorded faces in order (rules.dice.ScriptedDice)."""

    def __init__(self, faces: list[int] | tuple[int, ...]) -> None: ...
    def roll(self, n: int) -> tuple[int, ...]: ...
    @property
    def remaining(self) -> int: ...
    @property
    def faces(self) -> list[int]: ...
    @property
    def used(self) -> list[int]: ...

class NumpyGenerator:
    """numpy's PCG64 Generator (integers, random, uniform), bit for bit (numpy_random.hpp)."""

    def __init__(self, state: dict[str, Any]) -> None: ...
    @property
    def state(self) -> dict[str, Any]: ...
    def integers(self, low: int, high: int, size: int | None = None) -> int | list[int]: ...
    def random(self) -> float: ...
    def uniform(self, low: float, high: float) -> float: ...
