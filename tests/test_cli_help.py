"""Issue 20, requirement 6: every command's ``--help`` shows each option's text and default.

The commands are built on tyro over config dataclasses whose field docstrings are the help:
``wargym campaign`` (and each subcommand), ``wargym export-onnx``, ``wargym train <script>``
for every script of ``training/``, ``wargym evaluate``, ``demo``, ``replay``, ``play`` and
``serve``. For each field of the command's
dataclass the help names the option, holds its docstring, and follows it with
``(default: <value>)`` (or ``(required)``).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from wargym.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p.stem for p in (ROOT / "training").glob("*.py") if p.stem != "__init__")
BOX = "│╭╮╰╯─•"


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide terminal: long defaults (paths) are not wrapped mid-value."""
    monkeypatch.setenv("COLUMNS", "200")


def _flat(text: str) -> str:
    """Help text without the frame, whitespace collapsed (wrapped lines rejoin)."""
    return " ".join(text.translate({ord(c): " " for c in BOX}).split())


def _docstrings(cls: type) -> dict[str, str]:
    """Field name -> the docstring under it, for ``cls`` and its dataclass bases."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not dataclasses.is_dataclass(klass):
            continue
        tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        body = tree.body[0].body  # type: ignore[attr-defined]
        for node, after in zip(body, body[1:], strict=False):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
            ):
                docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The command's ``--help`` text; the command ends with status 0 (returned or raised)."""
    try:
        code: Any = main([*argv, "--help"])
    except SystemExit as stop:
        code = stop.code
    out = capsys.readouterr().out
    assert code in (0, None), out
    return _flat(out)


def _check(cls: type, text: str, positional: tuple[str, ...] = ()) -> None:
    docs = _docstrings(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    assert fields and set(docs) >= {f.name for f in fields}, "every field has a docstring"
    for f in fields:
        if f.name not in positional:
            flag = "--" + f.name.replace("_", "-")
            assert re.search(rf"{re.escape(flag)}\b", text), (flag, text[:400])
        doc = _flat(docs[f.name])
        at = text.find(doc)
        assert at >= 0, (f.name, doc, text[:2000])
        tail = text[at + len(doc) :].lstrip()
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            assert tail.startswith("(required)"), (f.name, tail[:80])
            continue
        assert tail.startswith("(default: "), (f.name, tail[:80])
        value: Any = f.default if f.default is not dataclasses.MISSING else None
        if isinstance(value, bool | int | float | str) and value != "":
            shown = getattr(value, "value", value)  # an enum shows its value
            assert tail.startswith(f"(default: {shown})"), (f.name, tail[:80])


def test_wargym_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    text = _flat(capsys.readouterr().out)
    from wargym.cli import COMMANDS

    for name, (_, _, summary) in COMMANDS.items():
        assert f"{name} {summary}" in text, name


@pytest.mark.parametrize("script", SCRIPTS)
def test_training_script_help_shows_every_field(
    script: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sys.path.insert(0, str(ROOT))
    try:
        module = importlib.import_module(f"training.{script}")
    finally:
        sys.path.remove(str(ROOT))
    text = _help(["train", script], capsys)
    assert "--config PATH" in text and "(default: none)" in text
    _check(module.Args, text)


def test_evaluate_command_help(capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(ROOT))
    try:
        from training.evaluate import Args
    finally:
        sys.path.remove(str(ROOT))
    _check(Args, _help(["evaluate"], capsys))


def test_export_onnx_help(capsys: pytest.CaptureFixture[str]) -> None:
    from wargym.export_cli import ExportArgs

    text = _help(["export-onnx"], capsys)
    assert "CHECKPOINT" in text and "OUT" in text
    _check(ExportArgs, text, positional=("checkpoint", "out"))


@pytest.mark.parametrize("command", ["start", "continue", "inspect", "save"])
def test_campaign_subcommand_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    from wargym import campaign_cli

    cls = {
        "start": campaign_cli.Start,
        "continue": campaign_cli.Continue,
        "inspect": campaign_cli.Inspect,
        "save": campaign_cli.Save,
    }[command]
    _check(cls, _help(["campaign", command], capsys))


def test_campaign_help_lists_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(["campaign"], capsys)
    for command in ("start", "continue", "inspect", "save"):
        assert command in text


def test_train_help_lists_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--help"]) == 0
    text = capsys.readouterr().out
    for script in SCRIPTS:
        assert script in text, script


def test_demo_help(capsys: pytest.CaptureFixture[str]) -> None:
    from wargym.demo import DemoArgs

    _check(DemoArgs, _help(["demo"], capsys))


def test_replay_help(capsys: pytest.CaptureFixture[str]) -> None:
    from wargym.replay import ReplayArgs

    _check(ReplayArgs, _help(["replay"], capsys), positional=("file",))


def test_play_help(capsys: pytest.CaptureFixture[str]) -> None:
    from wargym.play import PlayArgs

    _check(PlayArgs, _help(["play"], capsys), positional=("game",))


def test_serve_help(capsys: pytest.CaptureFixture[str]) -> None:
    from wargym.server.__main__ import ServeConfig

    _check(ServeConfig, _help(["serve"], capsys))
