"""A coverage-guided fuzzer of the native core's untrusted inputs (issue 16, requirement 8).

Run it on a fuzzing build (``make fuzz``, docs/native.md "Fuzzing"), where every core file is
compiled with g++'s ``-fsanitize-coverage=trace-pc`` and ``_core.fuzz`` reports the code each
input reached, and with AddressSanitizer and UBSan, so a memory error aborts loudly::

    python tests/native/fuzz_native.py --seconds 60

Targets (each takes a JSON-like document; see TARGETS):

* ``battle_from_dict``: a battle document (``Battle.to_dict()``) in the native reader.
* ``action_play``: ``{"battle": k, "action": <action dict>}`` on battle ``k`` of a set of
  skirmish decision points: the dict through ``action_from_dict`` and, built field by field
  into the reference's action class without its checks, as an action object; each into the
  native ``check_legal`` and ``play``. Outcomes: a legal play (``check_legal`` said yes; the
  new state reads back) or a typed error (``NativeTypeError``, ``NativeArgumentError``,
  ``IllegalActionError``, and ``NativeNotPortedError`` where a skirmish reaches what is not
  ported: a building struck in melee), with the battle unchanged.
* ``codec_decode``: ``{"battle": k, "index": i, "legal": [...]}``: index ``i`` (any value)
  into ``NativeCodec.decode`` with the battle's legal options (or the mutated list), then the
  decoded action played as above; an index in the mask must decode to a legal play.
* ``np_context_from_dict``: an NP memory document (``NpContext.to_dict()``) in the native
  NP procedure's reader (``_core.no_quarter.enemy.NpContext.from_dict``), seeded with the
  contexts of real NP games.

The loop is a small AFL-style one: pick an input from the corpus (seeded with documents of
real skirmishes and missions), apply 1-4 structure-aware mutations (replace a value with an
awkward one, delete or add a key, drop or repeat a list item, graft a subtree from elsewhere,
nest deeply), run the target, and keep the input when it reached a coverage bucket no earlier
input reached. On a build without ``_core.fuzz`` it still runs (blind: no input is kept), and
says so.

Every run must end in one of the target's allowed outcomes (a value, or one of its typed
errors, checked by the oracle); anything else is a finding: the input is written to
``--findings`` (a JSON file per finding) and the exit status is 1.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tyro

from wargym.native import _core
from wargym.native import no_quarter as nnq
from wargym.native.errors import (
    NativeArgumentError,
    NativeNotPortedError,
    NativeStateError,
    NativeTypeError,
)
from wargym.rules.errors import IllegalActionError

Doc = Any

AWKWARD: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 6, 7, 255, 256, 2**31, 2**63 - 1, 2**63, -(2**63) - 1,
    2**64, 10**30, 0.0, -0.0, 0.5, 1e-300, 1e308, math.inf, -math.inf, math.nan, "", "x" * 300,
    "blue", "red", "head", "left_arm", "ppg", "carry_on", "building", "choose", "mech", "0",
    [], {}, [0], [0.0, 0.0], {"kind": "turn"},
)  # fmt: skip
"""Values that sit on a boundary of some field: kinds, signs, widths, NaN, empty containers."""


@dataclass
class Target:
    """A native entry point and the outcomes it may have."""

    name: str
    run: Callable[[Doc], object]
    allowed: tuple[type[BaseException], ...]
    check: Callable[[object], None] = lambda result: None
    """Further checks on a value the target returned (raise AssertionError on a finding)."""
    corpus: Callable[[], list[Doc]] | None = None
    """The target's own seed corpus (default: :func:`seed_corpus`'s battle documents)."""


def _battle_round_trip(native: object) -> None:
    written = native.to_dict()  # type: ignore[attr-defined]
    again = nnq.battle_from_dict(written).to_dict()
    assert again == written or json.dumps(again) == json.dumps(written), "re-read differs"


# -- action decoding: action dicts, action objects and codec indices on random battles -----

PLAY_ERRORS: tuple[type[BaseException], ...] = (
    NativeTypeError,  # a NativeArgumentError too; listed for the reader
    NativeArgumentError,
    IllegalActionError,
    NativeNotPortedError,  # a skirmish's building struck in melee (docs/native.md)
)
"""The typed outcomes of a bad action: every one a ``RulesError``."""

BATTLE_GAMES = 4
"""Skirmishes whose decision points the action targets play on (every option variant cycles)."""
POINT_STRIDE = 23
"""Every this many states of those games is a decision point of the targets (about 20)."""


@dataclass
class _Point:
    """A decision point: the reference battle, its native twin and tables, legal options, codec."""

    battle: Any
    native: Any
    tables: Any
    legal: list[Any]
    codec: Any


_POINTS: list[_Point] = []


def decision_points(games: int = BATTLE_GAMES) -> list[_Point]:
    """Decision points of ``games`` random skirmishes (built once, shared by the targets)."""
    if len(_POINTS) < 2:
        from wargym.envs.no_quarter.codec import ActionCodec
        from wargym.native.no_quarter import game as native_game
        from wargym.native.no_quarter.codec import NativeCodec
        from wargym.rules.no_quarter.battle import game
        from wargym.rules.no_quarter.battle.state import Battle

        sys.path.insert(0, str(Path(__file__).parent))
        from test_state_agreement import skirmish_states

        _POINTS.clear()
        for i, (_, doc) in enumerate(skirmish_states(games, seed=11)):
            battle = Battle.from_dict(doc)
            if i % POINT_STRIDE or battle.over or battle.decision is None:
                continue
            native, tables = native_game.native_game(battle)
            codec = ActionCodec(max(1, len(battle.mechs) // 2), 8, 12, battle.options)
            legal = game.legal_actions(battle)
            _POINTS.append(_Point(battle, native, tables, legal, NativeCodec(codec)))
    return _POINTS


def _point_of(doc: Doc) -> tuple[_Point, Doc]:
    """The decision point a fuzz document names (``doc["battle"]``, wrapped), and the rest."""
    points = decision_points()
    k = doc.get("battle") if isinstance(doc, dict) else None
    index = k if isinstance(k, int) and not isinstance(k, bool) else 0
    return points[index % len(points)], doc


def _object_of(data: Doc) -> Any:
    """The reference action class built from ``data``'s fields with no check (or None).

    The dataclass takes any values: a ``Move`` whose ``to`` is ``"x"`` reaches the core's
    converter of action objects, which must refuse it by name.
    """
    from wargym.rules.no_quarter.battle import actions

    if not isinstance(data, dict):
        return None
    name = data.get("type")
    cls = actions.ACTION_CLASSES.get(name) if isinstance(name, str) else None
    if cls is None:
        return None
    fields = {key: value for key, value in data.items() if key != "type"}
    try:
        return cls(**fields)
    except TypeError:  # a field missing or unknown: nothing to hand the core
        return None


def _play_checked(point: _Point, action: Any) -> str:
    """``action`` through the native ``check_legal`` and ``play`` on a clone of the point.

    Returns ``"played"``; raises a typed error (the battle unchanged) or AssertionError (a
    finding: the engines' two answers disagree, or the battle changed on an error).
    """
    from wargym.native.no_quarter import game as native_game

    battle = point.native.clone()
    before = battle.to_dict()
    try:
        problem = native_game.core.check_legal(battle, point.tables, action)
    except BaseException:
        assert battle.to_dict() == before, "check_legal changed the battle on an error"
        raise
    assert battle.to_dict() == before, "check_legal changed the battle"
    try:
        native_game.play(battle, point.tables, action, _core.RandomDice(7))
    except IllegalActionError:
        assert problem is not None, "play refused an action check_legal allowed"
        assert battle.to_dict() == before, "the battle changed on an illegal action"
        raise
    except BaseException:
        assert battle.to_dict() == before, "the battle changed on an error"
        raise
    assert problem is None, f"play carried out an action check_legal refused: {problem}"
    nnq.battle_from_dict(battle.to_dict(), check=False)  # the new state reads back
    return "played"


def _action_play(doc: Doc) -> object:
    point, doc = _point_of(doc)
    data = doc.get("action") if isinstance(doc, dict) and "action" in doc else doc
    made = _object_of(data)
    if made is not None:
        with contextlib.suppress(PLAY_ERRORS):  # a finding (AssertionError) still escapes
            _play_checked(point, made)  # the core's converter of action objects
    action = _core.no_quarter.action_from_dict(data)
    return _play_checked(point, action)


def _codec_decode(doc: Doc) -> object:
    point, doc = _point_of(doc)
    index = doc.get("index", doc) if isinstance(doc, dict) else doc
    legal: Any = point.legal
    if isinstance(doc, dict) and isinstance(doc.get("legal"), list):  # a mutated list of actions
        legal = [_object_of(a) or a for a in doc["legal"]]
    action = point.codec.decode(index, point.native, legal)
    masked = False
    if legal is point.legal and isinstance(index, int) and 0 <= index < point.codec.n:
        masked = bool(point.codec.mask(point.native, point.legal)[index])
    if masked:
        assert action in point.legal, f"index {index} is in the mask but decodes to {action}"
        return _play_checked(point, action)
    try:
        return _play_checked(point, action)
    except IllegalActionError:
        return "illegal"


def action_corpus() -> list[Doc]:
    """``{"battle": k, "action": ...}`` for a few legal options of every decision point."""
    from wargym.rules.no_quarter.battle.actions import action_to_dict

    out: list[Doc] = []
    for k, point in enumerate(decision_points()):
        for action in point.legal[:: max(1, len(point.legal) // 4)]:
            out.append({"battle": k, "action": action_to_dict(action)})
    return out


def codec_corpus() -> list[Doc]:
    """``{"battle": k, "index": i}`` for legal and nominal indices of every decision point."""
    out: list[Doc] = []
    for k, point in enumerate(decision_points()):
        table = point.codec.table(point.native, point.legal)
        for i in list(table)[:2] + [1, point.codec.n - 1]:
            out.append({"battle": k, "index": i})
        out.append({"battle": k, "index": next(iter(table), 0), "legal": []})
    return out


def _np_context_round_trip(native: object) -> None:
    written = native.to_dict()  # type: ignore[attr-defined]
    again = _core.no_quarter.enemy.NpContext.from_dict(written).to_dict()
    assert again == written, "re-read differs"


def np_context_seeds(games: int = 3) -> list[Doc]:
    """NpContext documents of real NP games (red played by the reference NP, blue at random)."""
    import numpy as np

    from wargym.rules.dice import RandomDice
    from wargym.rules.no_quarter.battle import game
    from wargym.rules.no_quarter.forces.setup import new_skirmish
    from wargym.rules.no_quarter.forces.vocab import Side
    from wargym.rules.no_quarter.non_player.enemy import NpContext, NpGroupState, NpPosture
    from wargym.rules.no_quarter.non_player.enemy_decide import np_decide

    docs: list[Doc] = []
    for g in range(games):
        battle = new_skirmish(np.random.default_rng(g), RandomDice.from_seed(g), mechs_per_side=3)
        dice, rng = RandomDice.from_seed(g + 1), np.random.default_rng(g + 2)
        context = NpContext(
            groups={100: NpGroupState(posture=NpPosture.DEFEND, exit_sections=(7,))}
        )
        for step in range(120):
            if battle.over or battle.decision is None:
                break
            options = game.legal_actions(battle)
            if battle.decision.side is Side.RED:
                action = np_decide(battle, options, context, RandomDice(rng))
                if step % 20 == 0:
                    docs.append(context.to_dict())
            else:
                action = options[int(rng.integers(len(options)))]
            game.play(battle, action, dice)
        docs.append(context.to_dict())
    return docs


TARGETS: dict[str, Target] = {
    "battle_from_dict": Target(
        "battle_from_dict", nnq.battle_from_dict, (NativeStateError,), _battle_round_trip
    ),
    "action_play": Target("action_play", _action_play, PLAY_ERRORS, corpus=action_corpus),
    "codec_decode": Target("codec_decode", _codec_decode, PLAY_ERRORS, corpus=codec_corpus),
    "np_context_from_dict": Target(
        "np_context_from_dict",
        lambda doc: _core.no_quarter.enemy.NpContext.from_dict(doc),
        (NativeTypeError, NativeArgumentError),
        _np_context_round_trip,
        corpus=np_context_seeds,
    ),
}


def _paths(doc: Doc) -> list[tuple[Any, ...]]:
    """Every node's path, the root's ``()`` first (iterative: documents may nest deeply)."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Doc]] = [((), doc)]
    while stack:
        path, node = stack.pop()
        out.append(path)
        if isinstance(node, dict):
            stack.extend(((*path, key), value) for key, value in node.items())
        elif isinstance(node, list):
            stack.extend(((*path, index), value) for index, value in enumerate(node))
    return out


def _get(doc: Doc, path: tuple[Any, ...]) -> Doc:
    for key in path:
        doc = doc[key]
    return doc


def _set(doc: Doc, path: tuple[Any, ...], change: Callable[[Doc], Doc]) -> Doc:
    """A copy of ``doc`` with the node at ``path`` replaced by ``change(node)``.

    Only the containers on the path are copied; everything else is shared with ``doc``.
    """
    chain = [doc]
    for key in path:
        chain.append(chain[-1][key])
    node = change(chain[-1])
    for parent, key in zip(reversed(chain[:-1]), reversed(path), strict=True):
        copy: Any = dict(parent) if isinstance(parent, dict) else list(parent)
        copy[key] = node
        node = copy
    return node


class Mutator:
    """Structure-aware mutations of JSON-like documents."""

    def __init__(self, rng: random.Random, donors: list[Doc]) -> None:
        self.rng = rng
        self.donors = donors

    def mutate(self, doc: Doc) -> Doc:
        for _ in range(self.rng.randint(1, 4)):
            paths = _paths(doc)
            doc = _set(doc, self.rng.choice(paths), self._change)
        return doc

    def _change(self, node: Doc) -> Doc:
        rng = self.rng
        op = rng.randrange(9)
        if op == 0:
            return rng.choice(AWKWARD)
        if op == 1 and isinstance(node, dict) and node:
            copy = dict(node)
            del copy[rng.choice(list(copy))]
            return copy
        if op == 2 and isinstance(node, dict):
            copy = dict(node)
            copy[rng.choice(["x", "kind", "id", "", "mechs", "type"])] = rng.choice(AWKWARD)
            return copy
        if op == 3 and isinstance(node, list) and node:
            copy = list(node)
            del copy[rng.randrange(len(copy))]
            return copy
        if op == 4 and isinstance(node, list) and node:
            return [*node, rng.choice(node)] * rng.choice((1, 1, 2, 50))
        if op == 5:
            donor = rng.choice(self.donors)
            return _get(donor, rng.choice(_paths(donor)))
        if op == 6 and isinstance(node, bool):
            return not node
        if op == 6 and isinstance(node, int):
            return node + rng.choice((-1, 1, -(2**32), 2**32))
        if op == 6 and isinstance(node, float):
            return rng.choice((int(node) if math.isfinite(node) else 0, node * 2, -node))
        if op == 7:
            depth = rng.choice((3, 30, 300, 3000))
            for _ in range(depth):
                node = [node] if rng.random() < 0.5 else {"kind": node}
            return node
        if op == 8 and isinstance(node, str):
            return rng.choice((node.upper(), node + " ", node[:1], str(len(node))))
        return rng.choice(AWKWARD)


@dataclass
class Stats:
    execs: int = 0
    kept: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)


def _covered(run: Callable[[], object]) -> tuple[BaseException | None, list[int]]:
    """Run ``run``; its exception (or None) and the coverage buckets it reached."""
    probe = getattr(_core, "fuzz", None)
    if probe is not None:
        probe.begin()
    try:
        run()
        error: BaseException | None = None
    except Exception as caught:  # noqa: BLE001 - the caller judges it
        error = caught
    buckets: list[int] = probe.end() if probe is not None else []
    return error, buckets


def fuzz(
    target: Target,
    corpus: list[Doc],
    *,
    seconds: float,
    seed: int,
    max_execs: int | None = None,
    findings_dir: Path | None = None,
) -> Stats:
    """Fuzz ``target`` from ``corpus`` for ``seconds`` (or ``max_execs`` runs)."""
    rng = random.Random(seed)
    mutator = Mutator(rng, list(corpus))
    pool = list(corpus)
    seen: set[int] = set()
    stats = Stats()
    for doc in corpus:  # the seeds' own coverage first
        _one(target, doc, seen, stats, findings_dir)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (max_execs is None or stats.execs < max_execs):
        doc = mutator.mutate(rng.choice(pool))
        if _one(target, doc, seen, stats, findings_dir):
            pool.append(doc)
            stats.kept += 1
    return stats


def _one(target: Target, doc: Doc, seen: set[int], stats: Stats, out: Path | None) -> bool:
    stats.execs += 1
    error, buckets = _covered(lambda: target.check(target.run(doc)))
    outcome = "value" if error is None else type(error).__name__
    stats.outcomes[outcome] = stats.outcomes.get(outcome, 0) + 1
    if error is not None and not isinstance(error, target.allowed):
        _finding(target, doc, f"{outcome}: {str(error)[:200]}", stats, out)
        return False
    fresh = [b for b in buckets if b not in seen]
    seen.update(fresh)
    return bool(fresh)


def _finding(target: Target, doc: Doc, what: str, stats: Stats, out: Path | None) -> None:
    stats.findings.append(what)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{target.name}-{len(stats.findings)}.json"
        try:
            text = json.dumps({"target": target.name, "what": what, "input": doc})
        except (RecursionError, ValueError):
            try:
                shown = repr(doc)[:100_000]
            except RecursionError:  # nested past repr's own limit: its outline only
                shown = _outline(doc)
            text = json.dumps({"target": target.name, "what": what, "input": shown})
        path.write_text(text)


def _outline(doc: Doc, limit: int = 200) -> str:
    """The first ``limit`` nodes of a deeply nested document, as text (no recursion)."""
    parts: list[str] = []
    for path in _paths(doc)[:limit]:
        node = _get(doc, path)
        kind = type(node).__name__ if isinstance(node, dict | list) else repr(node)[:40]
        parts.append(f"{'/'.join(map(str, path)) or '$'}={kind}")
    return "; ".join(parts)


def seed_corpus(games: int = 6, missions: bool = True) -> list[Doc]:
    """Documents of real skirmishes (every option variant) and the shipped missions."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_state_agreement import mission_states, skirmish_states

    docs = [doc for i, (_, doc) in enumerate(skirmish_states(games, seed=5)) if i % 9 == 0]
    if missions:
        docs += [doc for i, (_, doc) in enumerate(mission_states(seed=5)) if i % 10 == 0]
    return docs


@dataclass
class Args:
    """A coverage-guided fuzzer of the native core's untrusted inputs."""

    seconds: float = 60.0
    """Time per target."""
    seed: int = 0
    """Seed of the mutations."""
    findings: Path = Path("build/fuzz-findings")
    """Folder for the inputs of findings (one JSON file each)."""
    target: tuple[str, ...] = ()
    """Targets to fuzz (default: all of TARGETS)."""


def main(argv: list[str] | None = None) -> int:
    args = tyro.cli(Args, args=argv)
    unknown = sorted(set(args.target) - set(TARGETS))
    if unknown:
        print(f"--target: unknown {unknown}; choose from {sorted(TARGETS)}", file=sys.stderr)
        return 2
    guided = getattr(_core, "fuzz", None) is not None
    mode = "coverage-guided" if guided else "BLIND (no _core.fuzz: not a fuzzing build)"
    print(f"native fuzzer: {mode}")
    failed = False
    documents: list[Doc] | None = None
    for name in args.target or sorted(TARGETS):
        target = TARGETS[name]
        if target.corpus is not None:
            corpus = target.corpus()
        else:
            documents = seed_corpus() if documents is None else documents
            corpus = documents
        stats = fuzz(
            target, corpus, seconds=args.seconds, seed=args.seed, findings_dir=args.findings
        )
        print(
            f"{name}: {stats.execs} runs, {stats.kept} inputs kept for new coverage, "
            f"outcomes {stats.outcomes}, {len(stats.findings)} findings"
        )
        for what in stats.findings[:10]:
            print(f"  finding: {what}")
        failed |= bool(stats.findings)
        if guided and stats.kept == 0:
            print(f"  {name}: no input reached new coverage: the coverage probe is broken")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
