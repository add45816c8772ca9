"""The browser client's words (src/wargym/server/static/describe.js) cover the whole engine.

Every No Quarter event class, action class and decision kind has a sentence in the page's
tables; and run in node on the events, actions and decisions of real games (skirmishes with a
Star, every shipped mission), each sentence renders without an exception and reads as words:
no ``undefined``, ``NaN``, ``[object ...]``, braces or ``key=value``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as battle_events
from wargym.rules.no_quarter.battle.actions import ACTION_CLASSES, DecisionKind
from wargym.rules.no_quarter.forces import setup_events
from wargym.rules.no_quarter.non_player import np_events
from wargym.server import Handler

DESCRIBE = Path(__file__).resolve().parents[2] / "src" / "wargym" / "server" / "static"
P = "wargym-protocol/1"


def _table_keys(name: str) -> set[str]:
    text = (DESCRIBE / "describe.js").read_text()
    start = text.index(f"const {name} = {{")
    block = text[start : text.index("\n};", start)]
    return set(re.findall(r"^  (\w+):", block, re.M))


def _event_classes() -> set[str]:
    found = set()
    for module in (battle_events, np_events, setup_events):
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, Event) and value is not Event
                    and value.__module__ == module.__name__):  # fmt: skip
                found.add(value.__name__)
    return found


def test_every_event_action_and_decision_has_a_sentence() -> None:
    assert _event_classes() - _table_keys("EVENTS") == set()
    assert set(ACTION_CLASSES) - _table_keys("ACTIONS") == set()
    assert {kind.value for kind in DecisionKind} - _table_keys("DECISIONS") == set()


def _games() -> list[dict[str, Any]]:
    """Positions of a few quick games (random choices for both sides), as the page gets them."""
    handler = Handler()
    starts: list[dict[str, Any]] = [
        {"skirmish": {"mechs_per_side": 3, "stars": 1, "max_turns": 4}, "seed": seed}
        for seed in range(4)
    ]
    shipped = handler.handle({"protocol": P, "type": "info"})["scenarios"]["no_quarter"]
    starts += [{"scenario": name, "seed": 1} for name in shipped if name != "skirmish"]
    rng = np.random.default_rng(0)
    games = []
    for start in starts:
        position = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                                   **start})  # fmt: skip
        steps = [{"state": position["state"], "events": position["events"], "action": None,
                  "decision": position["decision"]}]  # fmt: skip
        for _ in range(60):
            if position["over"]:
                break
            legal = position["legal_actions"]
            action = legal[int(rng.integers(len(legal)))]
            position = handler.handle({"protocol": P, "type": "act", "state": position["state"],
                                       "action": action, "seed": len(steps)})  # fmt: skip
            assert "error" not in position, position
            steps.append({"state": position["state"], "events": position["events"],
                          "action": action, "decision": position["decision"]})  # fmt: skip
        games.append({"start": start, "steps": steps})
    return games


def test_sentences_of_real_games_render_as_words(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (the Debian package nodejs)")
    data = tmp_path / "games.json"
    data.write_text(json.dumps(_games()))
    script = tmp_path / "run.mjs"
    script.write_text(
        "import { readFileSync } from 'node:fs';\n"
        f"const w = await import({json.dumps((DESCRIBE / 'describe.js').as_uri())});\n"
        "const games = JSON.parse(readFileSync(process.argv[2], 'utf8'));\n"
        "const out = [];\n"
        "for (const game of games) for (const step of game.steps) {\n"
        "  const name = w.namer(step.state);\n"
        "  for (const e of step.events) out.push(['event', e.type, w.EVENTS[e.type](e, name)]);\n"
        "  if (step.action) out.push(['action', step.action.type,\n"
        "                             w.ACTIONS[step.action.type](step.action, name)]);\n"
        "  if (step.decision) out.push(['decision', step.decision.kind,\n"
        "                               w.describeDecision(step.decision, name)]);\n"
        "}\n"
        "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run([node, str(script), str(data)], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = json.loads(done.stdout)
    seen = {(kind, name) for kind, name, _ in lines}
    assert len({n for k, n in seen if k == "event"}) >= 25  # the games touch most of the rules
    for kind, name, text in lines:
        assert text and isinstance(text, str), (kind, name)
        bad = re.search(r"undefined|NaN|null|\[object|[{}]|\w=\w|\b\w+_\w+\b|mech -\d", text)
        assert bad is None, (kind, name, text)


def test_reaction_tests_read_as_the_terminal_and_the_replay_read_them(tmp_path: Path) -> None:
    """'takes a damage test (rolled 3, 5): ducking back', not 'a "takes damage" reaction test'."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (the Debian package nodejs)")
    script = tmp_path / "run.mjs"
    script.write_text(
        f"const w = await import({json.dumps((DESCRIBE / 'describe.js').as_uri())});\n"
        "const n = w.namer({mechs: {'3': {pilot: {name: 'blue-2'}}}});\n"
        "const e = {type: 'ReactionTaken', mech: 3, test: 'takes_damage', faces: [3, 5],\n"
        "           result: 'duck_back'};\n"
        "console.log(JSON.stringify([w.EVENTS.ReactionTaken(e, n),\n"
        "  w.EVENTS.ReactionTaken({...e, test: 'fired_on', result: 'rush_shot'}, n)]));\n"
    )
    done = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    damage, fired_on = json.loads(done.stdout)
    assert damage == "blue-2 takes a damage test (rolled 3, 5): ducking back.", damage
    assert fired_on == "blue-2 takes a fired on test (rolled 3, 5): rush shot.", fired_on
