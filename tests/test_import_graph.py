"""The import graph of ``wargym.envs`` and ``wargym.rules``: no cycles, the env core stands alone.

Imports are read with :mod:`ast` from the source, at module level and inside functions and
methods alike (a deferred import is still an edge: it runs at some point). Imports under
``if TYPE_CHECKING:`` are not cycles (they never run) but do count for "imports none of".

``wargym.rules`` still has one ring of deferred imports (the battle flow, ``game``, the NP
side and the missions call each other through function-level imports). Its modules are
recorded in :data:`KNOWN_RULES_RING`, which may only shrink: a ring with a module outside the
list fails, as does any ring of module-level imports; a module that leaves every ring must be
removed from the list.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOPS = {"rules": "wargym.rules", "envs": "wargym.envs"}
SKIP_DIRS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
NQ_ENVS = "wargym.envs.no_quarter"
ENV_MODULES = tuple(
    f"{NQ_ENVS}.{name}"
    for name in (
        "solo",
        "mission",
        "aec",
        "parallel",
        "head_to_head",
        "snapshots",
        "campaign_env",
        "campaign_snapshots",
    )
)
"""The env modules of No Quarter (and what builds their snapshots)."""
KNOWN_RULES_RING = frozenset(
    {
        "wargym.rules.no_quarter.non_player.arrival_spots",
        "wargym.rules.no_quarter.battlefield.buildings",
        "wargym.rules.no_quarter.sight_movement.bumping",
        "wargym.rules.no_quarter.cestus.cestus_play",
        "wargym.rules.no_quarter.cestus.cestus_v",
        "wargym.rules.no_quarter.cestus.cestus_v_data",
        "wargym.rules.no_quarter.cestus.cestus_v_records",
        "wargym.rules.no_quarter.cestus.cestus_v_rolls",
        "wargym.rules.no_quarter.battle.consequences",
        "wargym.rules.no_quarter.non_player.enemy",
        "wargym.rules.no_quarter.battle.events",
        "wargym.rules.no_quarter.sight_movement.facing",
        "wargym.rules.no_quarter.battle.flow",
        "wargym.rules.no_quarter.battle.flow_charges",
        "wargym.rules.no_quarter.battle.flow_fire",
        "wargym.rules.no_quarter.battle.flow_mech",
        "wargym.rules.no_quarter.battle.flow_melee",
        "wargym.rules.no_quarter.battle.flow_move",
        "wargym.rules.no_quarter.battle.flow_react",
        "wargym.rules.no_quarter.battle.flow_turn",
        "wargym.rules.no_quarter.battle.game",
        "wargym.rules.no_quarter.battle.group_orders",
        "wargym.rules.no_quarter.forces.leaders",
        "wargym.rules.no_quarter.battle.luck",
        "wargym.rules.no_quarter.mission.mission_play",
        "wargym.rules.no_quarter.non_player.np_events",
        "wargym.rules.no_quarter.non_player.np_flow",
        "wargym.rules.no_quarter.non_player.pef",
        "wargym.rules.no_quarter.sight_movement.perception",
        "wargym.rules.no_quarter.mission.scenario",
        "wargym.rules.no_quarter.forces.setup",
        "wargym.rules.no_quarter.battle.state",
        "wargym.rules.no_quarter.battle.validity",
        "wargym.rules.no_quarter.battle.validity_parts",
    }
)
"""The modules of the rules' ring of deferred imports as of issue 16 (only ever shrinks)."""


def module_files(tops: Iterable[str] = TOPS) -> dict[str, tuple[Path, bool]]:
    """``{dotted name: (file, is a package)}`` of every module under the mapped folders."""
    found = {}
    for top in tops:
        for path in sorted((ROOT / top).rglob("*.py")):
            if SKIP_DIRS & set(path.relative_to(ROOT).parts):
                continue
            parts = list(path.relative_to(ROOT / top).with_suffix("").parts)
            package = parts[-1] == "__init__"
            if package:
                parts.pop()
            found[".".join([TOPS[top], *parts])] = (path, package)
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_names(
    source: str, module: str, package: bool, functions: bool = True
) -> Iterator[tuple[str, bool]]:
    """``(dotted name, under TYPE_CHECKING)`` of everything ``source`` may import.

    ``from a.b import c`` yields ``a.b`` and ``a.b.c`` (``c`` may be a module); relative
    imports are resolved against ``module``. ``functions=False``: only what runs at import
    time (module and class bodies, not function bodies).
    """
    base = module.split(".") if package else module.split(".")[:-1]

    def walk(node: ast.AST, typing_only: bool) -> Iterator[tuple[str, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for item in child.body:
                    yield from walk_one(item, True)
                for item in child.orelse:
                    yield from walk_one(item, typing_only)
            else:
                yield from walk_one(child, typing_only)

    def walk_one(node: ast.AST, typing_only: bool) -> Iterator[tuple[str, bool]]:
        if not functions and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, typing_only
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                head = base[: len(base) - (node.level - 1)]
                target = ".".join([*head, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            yield target, typing_only
            for alias in node.names:
                yield f"{target}.{alias.name}", typing_only
        yield from walk(node, typing_only)

    yield from walk(ast.parse(source), False)


def graph_of(
    sources: dict[str, tuple[str, bool]], *, typing_imports: bool, functions: bool = True
) -> dict[str, set[str]]:
    """Edges between the modules of ``sources`` (``{name: (source, is a package)}``)."""
    return {
        name: {
            target
            for target, typing_only in imported_names(source, name, package, functions)
            if target in sources and target != name and (typing_imports or not typing_only)
        }
        for name, (source, package) in sources.items()
    }


def import_graph(*, typing_imports: bool, functions: bool = True) -> dict[str, set[str]]:
    """Edges between the modules of ``wargym.rules`` and ``wargym.envs``."""
    sources = {
        name: (path.read_text(encoding="utf-8"), package)
        for name, (path, package) in module_files().items()
    }
    return graph_of(sources, typing_imports=typing_imports, functions=functions)


def rings(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    counter = itertools.count()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = next(counter)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = next(counter)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                ring = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    ring.add(member)
                    if member == node:
                        break
                if len(ring) > 1:
                    found.append(frozenset(ring))
    return found


def cycle_through(graph: dict[str, set[str]], ring: frozenset[str], start: str = "") -> list[str]:
    """A shortest cycle inside ``ring`` from ``start`` (default: its first module) back to it."""
    start = start or min(ring)
    came: dict[str, str] = {}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for target in sorted(graph[node] & ring):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return [start, *reversed(path[:-1]), start] if node != start else [start, start]
            if target not in came:
                came[target] = node
                todo.append(target)
    raise AssertionError(f"{start} is in no cycle of {sorted(ring)}")


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    out: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in out:
                out.add(target)
                todo.append(target)
    return out


RUNTIME = import_graph(typing_imports=False)
EVERYTHING = import_graph(typing_imports=True)


# -- the detector itself ----------------------------------------------------------------------
SAMPLE = {
    "pkg": ("", True),
    "pkg.a": ("from . import b\n", False),
    "pkg.b": ("def f():\n    from .a import x\n", False),
    "pkg.c": (
        "import pkg.a\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import y\n",
        False,
    ),
    "pkg.d": ("class K:\n    from pkg.c import z\n", False),
}


def test_the_detector_sees_module_and_function_level_cycles() -> None:
    graph = graph_of(SAMPLE, typing_imports=False)
    assert graph == {"pkg": set(), "pkg.a": {"pkg", "pkg.b"}, "pkg.b": {"pkg.a"},
                     "pkg.c": {"pkg.a"}, "pkg.d": {"pkg.c"}}  # fmt: skip
    assert rings(graph) == [frozenset({"pkg.a", "pkg.b"})]
    assert cycle_through(graph, rings(graph)[0]) == ["pkg.a", "pkg.b", "pkg.a"]
    assert rings(graph_of(SAMPLE, typing_imports=False, functions=False)) == []
    typed = graph_of(SAMPLE, typing_imports=True, functions=False)
    assert set(rings(typed)) == {frozenset({"pkg.c", "pkg.d"})}  # a class body runs at import
    assert rings({"x": {"y"}, "y": {"z"}, "z": set()}) == []


def test_the_graph_reads_the_real_tree() -> None:
    assert f"{NQ_ENVS}.core" in RUNTIME[f"{NQ_ENVS}.solo"]
    assert f"{NQ_ENVS}.parallel" in RUNTIME[f"{NQ_ENVS}.aec"]
    assert "wargym.rules.no_quarter.battle.state" in RUNTIME[f"{NQ_ENVS}.core"]


# -- wargym.envs ------------------------------------------------------------------------------
def test_envs_have_no_import_cycle() -> None:
    found = [ring for ring in rings(RUNTIME) if any(m.startswith("wargym.envs") for m in ring)]
    assert not found, "import cycles in wargym.envs: " + "; ".join(
        " -> ".join(cycle_through(RUNTIME, ring)) for ring in found
    )


@pytest.mark.parametrize("base", [f"{NQ_ENVS}.core", f"{NQ_ENVS}.snapshots"])
def test_the_env_core_and_snapshots_import_no_env_module(base: str) -> None:
    """The core (and the snapshot builder) stand below the envs: no import back, even typed."""
    below = reachable(EVERYTHING, base)
    back = sorted(m for m in ENV_MODULES if m in below and m != base)
    assert not back, f"{base} imports (directly or not) the env modules {back}"


@pytest.mark.parametrize("env", [f"{NQ_ENVS}.{n}" for n in ("solo", "aec", "parallel", "mission")])
def test_every_battle_env_stands_on_the_core(env: str) -> None:
    assert f"{NQ_ENVS}.core" in reachable(RUNTIME, env)


# -- wargym.rules -----------------------------------------------------------------------------
def test_rules_have_no_module_level_import_cycle() -> None:
    graph = import_graph(typing_imports=False, functions=False)
    found = [ring for ring in rings(graph) if any(m.startswith("wargym.rules") for m in ring)]
    assert not found, "module-level import cycles in wargym.rules: " + "; ".join(
        " -> ".join(cycle_through(graph, ring)) for ring in found
    )


def test_rules_ring_of_deferred_imports_only_shrinks() -> None:
    found = [ring for ring in rings(RUNTIME) if any(m.startswith("wargym.rules") for m in ring)]
    now = frozenset().union(*found)
    joined = sorted(now - KNOWN_RULES_RING)
    assert not joined, "modules joined the rules' import ring: " + "; ".join(
        " -> ".join(cycle_through(RUNTIME, next(r for r in found if m in r), m)) for m in joined
    )
    left = sorted(KNOWN_RULES_RING - now)
    assert not left, f"in no import cycle now, remove from KNOWN_RULES_RING: {left}"
