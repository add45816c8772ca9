"""The rules tests on both engines (issue 16, item 5).

The No Quarter tests that go through the public game API (``legal_actions``, ``check_legal``,
``play``, ``advance`` of :mod:`wargym.rules.no_quarter.battle.game`) run twice: ``[reference]``
as written, and ``[native]`` with the native core answering those four functions
(``no_quarter/native_engine.py``'s :class:`NativeShim`: the battle goes to the core, is played
there on the test's own dice object, and is written back into the same ``Battle``; the
reference's events come back). The selection is :data:`BOTH`, module by module; a test of such a
module is left out of the native run only by name in :data:`REFERENCE_ONLY`, with its reason
(it reaches a mission or Cestus V procedure, which the core has not yet, or it never calls the
API, or it tests the reference's internals). A native run that never calls the API fails: the
lists stay exact.

``--rules-engine=reference`` (or ``native``) runs one half only; ``--rules-engine=survey``
runs every No Quarter rules test once with the shim and writes, per test, the API calls made
and the outcome to ``build/rules-engine-survey.jsonl`` (how the lists were drawn up).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "no_quarter"))
import native_engine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SURVEY = ROOT / "build" / "rules-engine-survey.jsonl"
ENGINES = ("reference", "native")
MODES = ("both", "reference", "native", "survey")
MODE_VARIABLE = "WARGYM_RULES_ENGINE"

BOTH: dict[str, dict[str, str]] = {}
"""Module -> {test name: why it runs on the reference only}: the tests run on both engines."""

REFERENCE_ONLY: dict[str, dict[str, str]] = BOTH
"""(The same table, read by test name.)"""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--rules-engine",
        choices=MODES,
        default=None,
        help="the engines of the No Quarter rules tests that use the game API "
        f"(tests/rules/conftest.py; default ${MODE_VARIABLE} or both)",
    )


def _mode(config: pytest.Config) -> str:
    # getoption's default: this conftest's options exist only when it is an initial conftest
    # (pytest started on tests/rules or below); from the top the variable still chooses
    chosen = config.getoption("--rules-engine", default=None)
    mode = str(chosen or os.environ.get(MODE_VARIABLE, "") or "both")
    if mode not in MODES:
        raise pytest.UsageError(f"{MODE_VARIABLE}={mode!r}: expected one of {MODES}")
    return mode


def _module(definition: Any) -> str:
    return Path(str(definition.fspath)).name


def _native_excluded(module: str, name: str) -> str | None:
    table = BOTH.get(module)
    if table is None:
        return "module not in the selection"
    return table.get(name)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "rules_engine" not in metafunc.fixturenames:
        return
    mode = _mode(metafunc.config)
    if mode == "survey":
        return
    module = _module(metafunc.definition)
    if _native_excluded(module, metafunc.definition.originalname) is not None:
        return
    engines = ENGINES if mode == "both" else (mode,)
    metafunc.parametrize("rules_engine", engines, indirect=True, ids=list(engines))


@pytest.fixture(autouse=True)
def rules_engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The engine answering the game API in this test: ``reference`` or ``native``."""
    mode = _mode(request.config)
    survey = mode == "survey" and "no_quarter" in Path(str(request.node.fspath)).parts
    engine = "native" if survey else getattr(request, "param", "reference")
    if engine == "reference":
        yield engine
        return
    shim = native_engine.NativeShim()
    native_engine.install(monkeypatch, shim)
    request.node.stash[_SHIM] = shim
    yield engine
    if not survey and not shim.calls:
        pytest.fail(
            "this test ran on the native engine but never called the game API: add it to "
            "REFERENCE_ONLY in tests/rules/conftest.py",
            pytrace=False,
        )


_SHIM = pytest.StashKey[native_engine.NativeShim]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    if _mode(item.config) != "survey" or call.when != "call":
        return
    shim = item.stash.get(_SHIM, None)
    if shim is None:
        return
    report = outcome.get_result()
    excinfo = call.excinfo
    error = None if excinfo is None else f"{excinfo.typename}: {str(excinfo.value)[:200]}"
    line = {
        "module": Path(str(item.fspath)).name,
        "test": getattr(item, "originalname", item.name),
        "id": item.nodeid,
        "calls": dict(shim.calls),
        "outcome": report.outcome,
        "error": error,
    }
    SURVEY.parent.mkdir(exist_ok=True)
    with SURVEY.open("a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
