"""Snapshot fuzzing: one field of a real ``save_state()`` snapshot changed, then ``load_state``.

Used by the fuzz runners (:mod:`wargym.envs.fuzzing_runners`, with the chance
``FuzzSettings.snapshot_chance`` before a step) and by the hypothesis test
``tests/envs/test_snapshot_mutations.py``. A mutation (:data:`MUTATIONS`) deletes a key or list
item, or puts NaN, infinity, ``10**400``, ``-1``, ``999``, a huge string, an empty list or
object, ``null`` or a value of another type in place of one field (:func:`field_paths`: every
key and item of the snapshot but its digest); the digest is then recomputed, as anyone editing
a snapshot can (it guards against accidents, not against tampering).

The invariant (:func:`probe`): ``load_state`` either raises
:class:`~wargym.rules.errors.StateError` whose message names the field's top-level part and
quotes no huge value, with the env exactly as before (``save_state()`` equal), or it succeeds
and the env can step (a legal action, when the mask has one, raises nothing). The env is put
back to the unmutated snapshot afterwards, so a fuzz run goes on as if nothing happened.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from wargym.envs.snapshot import digest
from wargym.rules.errors import RulesError, StateError

Path = tuple[Any, ...]
HUGE_STRING = "x" * 200_000
"""The huge string a mutation puts in (a message must not quote it)."""
MUTATIONS: dict[str, Any] = {
    "delete": None,  # the key or item is removed
    "nan": math.nan,
    "inf": math.inf,
    "minus_inf": -math.inf,
    "huge_int": 10**400,
    "int64": 2**63,
    "minus_one": -1,
    "zero": 0,
    "n999": 999,
    "float": 0.5,
    "huge_string": HUGE_STRING,
    "string": "garbage",
    "empty_list": [],
    "empty_object": {},
    "null": None,
    "true": True,
    "list": [1, 2],
    "object": {"x": 1},
}
"""Mutation name -> the value put in place of the field (``delete`` removes it)."""
MESSAGE_LIMIT = 2000
"""A refusal's message is at most this long (no huge value quoted)."""


def field_paths(snapshot: Any) -> list[Path]:
    """Every key and list item of ``snapshot`` (depth first), but its ``digest``."""
    out: list[Path] = []

    def walk(node: Any, path: Path) -> None:
        items: Iterator[tuple[Any, Any]]
        if isinstance(node, dict):
            items = iter(node.items())
        elif isinstance(node, list):
            items = enumerate(node)
        else:
            return
        for key, value in items:
            if path or key != "digest":
                out.append((*path, key))
                walk(value, (*path, key))

    walk(snapshot, ())
    return out


def mutate(snapshot: dict[str, Any], path: Path, mutation: str) -> dict[str, Any]:
    """A copy of ``snapshot`` with the field at ``path`` mutated and the digest recomputed.

    Only the containers along ``path`` are copied; the rest is shared with ``snapshot``.
    """
    root: dict[str, Any] = dict(snapshot)
    node: Any = root
    for key in path[:-1]:
        child = node[key]
        node[key] = child = dict(child) if isinstance(child, dict) else list(child)
        node = child
    if mutation == "delete":
        del node[path[-1]]
    else:
        value = MUTATIONS[mutation]
        node[path[-1]] = type(value)(value) if isinstance(value, (list, dict)) else value
    payload = {k: v for k, v in root.items() if k != "digest"}
    return {**payload, "digest": digest(payload)}


def named_part(path: Path) -> str:
    """What a refusal of a mutation at ``path`` must name: ``state.<key>`` or the header key."""
    if path[0] == "state" and len(path) > 1:
        return f"state.{path[1]}"
    if path[0] == "config" and len(path) > 1:
        return f"config.{path[1]}"
    return str(path[0])


def refusal_problem(error: StateError, path: Path) -> str | None:
    """What is wrong with the message of a refusal (``None``: it names the field, briefly)."""
    message = str(error)
    wanted = named_part(path)
    names = wanted in message or (
        wanted.startswith("state.") and "snapshot.state" in message and repr(path[1]) in message
    )
    if not names:
        return f"the message does not name {wanted!r}: {message[:300]}"
    if len(message) > MESSAGE_LIMIT or HUGE_STRING[:1000] in message:
        return f"the message quotes a huge value ({len(message)} characters)"
    return None


def masks_after_load(kind: str, env: Any, loaded: Any) -> list[np.ndarray]:
    """The masks of the deciding agents right after ``load_state`` returned ``loaded``."""
    if kind == "gym":
        return [np.asarray(loaded[0]["action_mask"])]
    if kind == "parallel":
        return [np.asarray(loaded[0][a]["action_mask"]) for a in env.agents]
    if not env.agents:
        return []
    return [np.asarray(env.observe(env.agent_selection)["action_mask"])]


def step_legal(kind: str, env: Any, masks: Sequence[np.ndarray]) -> Any:
    """One step with the first legal action of every mask (0 for an empty one); its result."""
    picks = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks]
    if kind == "gym":
        return env.step(picks[0])
    if kind == "parallel":
        return env.step(dict(zip(env.agents, picks, strict=True)))
    if not env.agents:
        return None
    agent = env.agent_selection
    done = env.terminations.get(agent) or env.truncations.get(agent)
    env.step(None if done else picks[0])
    return (env.rewards, env.terminations, env.truncations)


def probe(
    kind: str,
    env: Any,
    pick: Callable[[int], int],
    violate: Callable[[str, str], None],
    outcome: Callable[[str], None],
) -> None:
    """Load one mutated snapshot of ``env``; report broken invariants; restore the snapshot.

    ``pick(n)`` draws an index below ``n``; ``violate(name, detail)`` records a broken
    invariant, ``outcome(text)`` counts what happened. ``env`` is the unwrapped env.
    """
    good = env.save_state()
    paths = field_paths(good)
    path = paths[pick(len(paths))]
    names = list(MUTATIONS)
    mutation = names[pick(len(names))]
    bad = mutate(good, path, mutation)
    where = f"{'.'.join(str(p) for p in path)} <- {mutation}"
    try:
        loaded = env.load_state(bad)
    except StateError as error:
        outcome(f"snapshot {mutation}: refused")
        problem = refusal_problem(error, path)
        if problem is not None:
            violate("snapshot_refusal_unnamed", f"{where}: {problem}")
        if env.save_state() != good:
            violate("snapshot_half_load", f"{where}: refused, but the env changed")
        return
    except Exception as error:  # noqa: BLE001 - any other exception is a finding
        violate("snapshot_untyped_error", f"{where}: {type(error).__name__}: {str(error)[:300]}")
        if _changed(env, good):
            violate("snapshot_half_load", f"{where}: {type(error).__name__} left the env changed")
        env.load_state(good)
        return
    outcome(f"snapshot {mutation}: loaded")
    try:
        step_legal(kind, env, masks_after_load(kind, env, loaded))
    except RulesError as error:  # an illegal-action refusal of an empty mask
        outcome(f"snapshot {mutation}: loaded, step refused ({type(error).__name__})")
    except Exception as error:  # noqa: BLE001
        violate(
            "snapshot_loaded_cannot_step", f"{where}: {type(error).__name__}: {str(error)[:300]}"
        )
    env.load_state(good)


def _changed(env: Any, good: dict[str, Any]) -> bool:
    try:
        return bool(env.save_state() != good)
    except Exception:  # noqa: BLE001 - an env that cannot even save was changed
        return True


__all__ = [
    "HUGE_STRING",
    "MESSAGE_LIMIT",
    "MUTATIONS",
    "field_paths",
    "masks_after_load",
    "mutate",
    "named_part",
    "probe",
    "refusal_problem",
    "step_legal",
]
