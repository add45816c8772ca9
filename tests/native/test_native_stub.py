"""native/_core.pyi names exactly what the compiled module defines (so mypy sees the real API)."""

from __future__ import annotations

import ast
from pathlib import Path

from wargym.native import _core

STUB = Path(__file__).resolve().parents[2] / "native" / "_core.pyi"


def stub_names() -> dict[str, set[str]]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names: dict[str, set[str]] = {"": set()}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[""].add(node.name)
            names[node.name] = {
                item.name for item in node.body if isinstance(item, ast.FunctionDef)
            } - {"__init__"}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[""].add(node.target.id)
    return names


def test_the_stub_lists_every_public_name_of_the_module() -> None:
    names = stub_names()
    public = {n for n in dir(_core) if not n.startswith("_")}
    if not hasattr(_core, "fuzz"):
        names[""].discard("fuzz")  # the coverage probe exists in a fuzzing build only
    assert names[""] == public
    for cls in ("RandomDice", "ScriptedDice"):
        members = {n for n in dir(getattr(_core, cls)) if not n.startswith("_")}
        assert names[cls] == members, cls
