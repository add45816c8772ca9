"""Replays you can watch: one self-contained HTML page per saved game (no network, no build).

``wargym replay FILE.json --html OUT.html`` (``main(argv)``; the top-level CLI dispatches
here) reads a replay and writes a static page with inline CSS, JavaScript and SVG that plays
it: the table or hex map, units with facing and damage, shots and lines of sight, PEF
markers and how they resolved, the event log beside the map, and step controls (buttons,
slider, arrow keys, autoplay).

Accepted inputs (:func:`frames_of`):

* ``nq-replay-v1``: what ``NoQuarterSkirmishEnv.save_replay`` writes (the set-up battle,
  every decision with its events, the outcome);
* a No Quarter battle with an event list: ``{"start": <Battle.to_dict()>, "events": [...]}``
  (``initial_state`` is accepted for ``start``); each event becomes one step;
* ``hex-replay-v1`` (Pentagon War / Starship Combat): ``{"format": "hex-replay-v1",
  "system", "frames": [{"label", "units": [{"id", "side", "q", "r", "facing", "label",
  "damaged", "destroyed"}], "events": [...]}]}``; :func:`record_hex_replay` writes one from a
  seeded game of a space env.

No Quarter frames are computed by replaying the events on the set-up battle with the
engine's own ``Battle.apply``, so positions, armour and PEF markers are the engine's.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from wargym.replay_page import render_page

NQ_REPLAY = "nq-replay-v1"
"""Format tag of the No Quarter env's replays."""
HEX_REPLAY = "hex-replay-v1"
"""Format tag of the hex-map replays of the space games."""
VIEW_FORMAT = "wargym-replay-view/1"
"""Format tag of the data embedded in the page."""


class ReplayError(ValueError):
    """The replay file cannot be read or played."""


def frames_of(data: Any) -> dict[str, Any]:
    """The page's data (:data:`VIEW_FORMAT`) from any accepted replay object.

    Raises:
        ReplayError: not an accepted format, or a start state the engine refuses.
    """
    if not isinstance(data, dict):
        raise ReplayError("a replay must be a JSON object")
    if data.get("format") == HEX_REPLAY:
        return _hex_view(data)
    start = data.get("start", data.get("initial_state"))
    if start is None:
        raise ReplayError(f"unknown replay: expected {NQ_REPLAY}, {HEX_REPLAY} or start + events")
    if "steps" in data:
        steps = [
            {
                "label": _step_label(i, s),
                "events": list(s.get("events", [])),
            }
            for i, s in enumerate(data["steps"])
        ]
    elif isinstance(data.get("events"), list):
        steps = [{"label": e.get("type", "event"), "events": [e]} for e in data["events"]]
    else:
        raise ReplayError("a No Quarter replay needs 'steps' or 'events'")
    return _nq_view(start, steps, data.get("outcome"), data.get("seed"))


def _step_label(i: int, step: dict[str, Any]) -> str:
    action = step.get("action") or {}
    kind = action.get("type", "illegal (no-op)")
    rest = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
    return f"{i + 1}. {step.get('agent', '?')}: {kind}" + (f" ({rest})" if rest else "")


def _nq_view(start: Any, steps: list[dict[str, Any]], outcome: Any, seed: Any) -> dict[str, Any]:
    from wargym.rules.errors import RulesError
    from wargym.rules.no_quarter.events import NO_QUARTER_EVENTS
    from wargym.rules.no_quarter.state import Battle

    try:
        battle = Battle.from_dict(start)
    except RulesError as exc:
        raise ReplayError(f"start state: {exc}") from exc
    field = battle.battlefield
    terrain = [
        {"kind": f.kind.value, "x0": f.x0, "y0": f.y0, "x1": f.x1, "y1": f.y1}
        for f in field.features
    ]
    frames = [{"label": "set-up", "events": [], **_snapshot(battle)}]
    warnings: list[str] = []
    for number, step in enumerate(steps, 1):
        before = {m["id"]: m["pos"] for m in frames[-1]["mechs"]}
        for raw in step["events"]:
            try:
                battle.apply(NO_QUARTER_EVENTS.from_dict(dict(raw)))
            except Exception as exc:  # noqa: BLE001 - show the rest of the game anyway
                if len(warnings) < 50:
                    warnings.append(f"step {number}: {raw.get('type')}: {exc}")
        frame = {"label": step["label"], "events": step["events"], **_snapshot(battle)}
        frame["shots"] = _shots(step["events"], before, frame["mechs"])
        frames.append(frame)
    return {
        "format": VIEW_FORMAT,
        "system": "no_quarter",
        "title": "5150: No Quarter" + ("" if seed is None else f", seed {seed}"),
        "map": {
            "kind": "table",
            "width": field.width,
            "height": field.height,
            "terrain": terrain,
        },  # fmt: skip
        "frames": frames,
        "outcome": outcome,
        "warnings": warnings,
    }


def _snapshot(battle: Any) -> dict[str, Any]:
    mechs = []
    for m in battle.mechs.values():
        mechs.append(
            {
                "id": m.id,
                "side": m.side.value,
                "name": m.name,
                "design": m.design.id,
                "pos": [round(m.pos[0], 3), round(m.pos[1], 3)],
                "heading": m.heading,
                "armor": sum(m.armor),
                "max_armor": sum(m.design.armor),
                "status": m.status.value,
                "prone": m.prone,
                "removed": None if m.removed is None else m.removed.value,
            }
        )
    pefs = [] if battle.np is None else [
        {"id": p["id"], "pos": list(p["pos"])} for p in battle.np.get("pefs", [])
    ]  # fmt: skip
    return {"turn": battle.turn, "mechs": mechs, "pefs": pefs,
            "flames": [list(map(list, f)) for f in battle.flames]}  # fmt: skip


def _shots(
    events: Iterable[dict[str, Any]], before: dict[int, Any], after: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    now = {m["id"]: m["pos"] for m in after}
    lines = []
    for e in events:
        if e.get("type") != "ShotFired":
            continue
        a, b = before.get(e["shooter"], now.get(e["shooter"])), before.get(e["target"])
        b = b or now.get(e["target"])
        if a is not None and b is not None:
            lines.append({"from": a, "to": b, "hit": bool(e.get("hit")),
                          "shooter": e["shooter"], "target": e["target"]})  # fmt: skip
    return lines


def _hex_view(data: dict[str, Any]) -> dict[str, Any]:
    frames = data.get("frames")
    if not isinstance(frames, list) or not frames:
        raise ReplayError(f"{HEX_REPLAY}: 'frames' must be a non-empty list")
    for i, frame in enumerate(frames):
        if not isinstance(frame, dict) or not isinstance(frame.get("units"), list):
            raise ReplayError(f"{HEX_REPLAY}: frames[{i}].units must be a list")
    return {
        "format": VIEW_FORMAT,
        "system": str(data.get("system", "hex")),
        "title": str(data.get("title", data.get("system", "hex replay"))),
        "map": {"kind": "hex"},
        "frames": [
            {
                "label": str(f.get("label", i)),
                "events": list(f.get("events", [])),
                "units": f["units"],
            }
            for i, f in enumerate(frames)
        ],  # fmt: skip
        "outcome": data.get("outcome"),
        "warnings": [],
    }


def _hex_units(state: dict[str, Any]) -> list[dict[str, Any]]:
    units = []
    for ship in state.get("ships", []):
        q, r = (ship["q"], ship["r"]) if "q" in ship else tuple(ship.get("pos", (0, 0)))
        armor = ship.get("armor")
        units.append({
            "id": ship["id"], "side": ship.get("side", 0), "q": q, "r": r,
            "facing": ship.get("facing", ship.get("heading", 0)),
            "label": f"{ship['id']} {ship.get('design', '')}",
            "armor": sum(armor) if isinstance(armor, list) else armor,
            "destroyed": bool(ship.get("destroyed")) or bool(ship.get("disengaged")),
        })  # fmt: skip
    return units


def record_hex_replay(env_id: str, seed: int = 0, max_steps: int = 300) -> dict[str, Any]:
    """A :data:`HEX_REPLAY` of one seeded game of a space env, random legal play."""
    import gymnasium  # noqa: TID251 (a layer above envs)
    import numpy as np

    import wargym.envs  # noqa: F401
    from wargym.agents.base import engine_state

    env = gymnasium.make(env_id)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    system = "pentagon_war" if "PentagonWar" in env_id else "starship_combat"
    frames = [{"label": "set-up", "units": _hex_units(engine_state(env).to_dict()), "events": []}]
    for step in range(max_steps):
        legal = np.flatnonzero(obs["action_mask"])
        if legal.size == 0:
            break
        action = int(rng.choice(legal))
        obs, _, terminated, truncated, info = env.step(action)
        events = [e for e in info.get("events", []) if isinstance(e, dict)]
        frames.append({"label": f"{step + 1}. action {action}", "events": events,
                       "units": _hex_units(engine_state(env).to_dict())})  # fmt: skip
        if terminated or truncated:
            break
    env.close()
    return {"format": HEX_REPLAY, "system": system, "title": f"{env_id}, seed {seed}",
            "frames": frames, "outcome": info.get("outcome")}  # fmt: skip


def write_html(replay: Any, out: str | Path) -> Path:
    """Render ``replay`` (a replay object or a path to one) as a page at ``out``."""
    if isinstance(replay, str | Path):
        try:
            replay = json.loads(Path(replay).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ReplayError(f"cannot read {replay}: {exc}") from exc
    view = frames_of(replay)
    path = Path(out)
    path.write_text(render_page(view), encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``wargym replay FILE.json --html OUT.html``."""
    parser = argparse.ArgumentParser(prog="wargym replay", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="replay JSON (nq-replay-v1, start+events, hex-replay-v1)")
    parser.add_argument("--html", required=True, help="output page")
    args = parser.parse_args(argv)
    try:
        path = write_html(args.file, args.html)
    except ReplayError as exc:
        parser.exit(2, f"wargym replay: {exc}\n")
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
