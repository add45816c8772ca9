"""Replays you can watch: one self-contained HTML page per saved game (no network, no build).

``wargym replay FILE.json --html OUT.html`` (``main(argv)``; the top-level CLI dispatches
here) reads a replay and writes a static page with inline CSS, JavaScript and SVG that plays
it: the table or hex map, units with facing and damage, shots and lines of sight, PEF
markers and how they resolved, the event log beside the map, and step controls (buttons,
slider, arrow keys, autoplay).

Accepted inputs (:func:`frames_of`):

* ``nq-replay-v1``: what ``NoQuarterSkirmishEnv.save_replay`` writes (the set-up battle,
  every decision with its events, the outcome; an optional ``title`` string, which
  ``wargym demo`` sets to the mission's name); a step of agent ``"setup"`` holds the
  set-up's own events (PEF section rolls, the 22.3.1 objective roll), which the set-up
  battle already includes: its frame shows them without applying them again;
* a No Quarter battle with an event list: ``{"start": <Battle.to_dict()>, "events": [...]}``
  (``initial_state`` is accepted for ``start``); each event becomes one step;
* ``hex-replay-v1`` (Pentagon War / Starship Combat): ``{"format": "hex-replay-v1",
  "system", "frames": [{"label", "units": [{"id", "side", "q", "r", "facing", "label",
  "damaged", "destroyed"}], "events": [...]}]}``; :func:`record_hex_replay` writes one from a
  seeded game of a space env, played by the scripted captains until the rules end it.

No Quarter frames are computed by replaying the events on the set-up battle with the
engine's own ``Battle.apply``, so positions, armour and PEF markers are the engine's.

A replay is untrusted input (docs/bad_input.md, section 7): it is read strictly and checked
field by field (:mod:`wargym.replay_files`); a bad one is a :class:`ReplayError` naming the
field, and ``main`` prints it as one line and exits 2 without writing anything. Its strings
reach the page only as text (:mod:`wargym.replay_page`). The output may not be the input
file under any path.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from tyro.conf import Positional

from wargym import cli_args
from wargym.cli_args import checked
from wargym.describe import describe_action, describe_event, describe_index, round_numbers
from wargym.replay_files import (
    MAX_COORD,
    ReplayError,
    check_events,
    check_label,
    check_number,
    check_objects,
    check_outcome,
    load,
    refuse_same_file,
    short_text,
    write_atomic,
)
from wargym.replay_page import render_page
from wargym.rules.errors import short_repr

__all__ = [
    "HEX_REPLAY",
    "NQ_REPLAY",
    "VIEW_FORMAT",
    "ReplayError",
    "frames_of",
    "load",
    "main",
    "record_hex_replay",
    "write_html",
]

NQ_REPLAY = "nq-replay-v1"
"""Format tag of the No Quarter env's replays."""
HEX_REPLAY = "hex-replay-v1"
"""Format tag of the hex-map replays of the space games."""
VIEW_FORMAT = "wargym-replay-view/1"
"""Format tag of the data embedded in the page."""


def frames_of(data: Any) -> dict[str, Any]:
    """The page's data (:data:`VIEW_FORMAT`) from any accepted replay object.

    Every field the page draws from is checked (type, finite number, bounds); strings stay
    as they are (the page shows them as text).

    Raises:
        ReplayError: not an accepted format, a field of the wrong type, or a start state the
            engine refuses; the message names the field.
    """
    if not isinstance(data, dict):
        raise ReplayError("a replay must be a JSON object")
    kind = data.get("format")
    if kind == HEX_REPLAY:
        return _hex_view(data)
    if kind not in (None, NQ_REPLAY):
        raise ReplayError(
            f"unknown replay format {short_repr(kind)}: expected {NQ_REPLAY!r} or {HEX_REPLAY!r}"
        )
    start = data.get("start", data.get("initial_state"))
    if start is None:
        raise ReplayError(f"unknown replay: expected {NQ_REPLAY}, {HEX_REPLAY} or start + events")
    if not isinstance(start, dict):
        raise ReplayError(f"start: must be an object, not {short_repr(start)}")
    if "steps" in data:
        steps = [
            {
                "label": _step_label(i, s),
                "events": check_events(s.get("events", []), f"steps[{i}]"),
                "applied": s.get("agent") != "setup",
                "actor": (s.get("action") or {}).get("mech"),
            }
            for i, s in enumerate(check_objects(data["steps"], "steps"))
        ]
    elif isinstance(data.get("events"), list):
        events = check_events(data["events"], "")
        steps = [{"label": str(e.get("type", "event")), "events": [e]} for e in events]
    else:
        raise ReplayError("a No Quarter replay needs 'steps' or 'events'")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ReplayError(f"seed: must be an integer or null, not {short_repr(seed)}")
    name = data.get("title", "5150: No Quarter")
    if not isinstance(name, str):
        raise ReplayError(f"title: must be a string, not {short_repr(name)}")
    return _nq_view(start, steps, check_outcome(data.get("outcome")), seed, short_text(name, 200))


def _step_label(i: int, step: dict[str, Any]) -> str:
    action = step.get("action") or {}
    if not isinstance(action, dict):
        raise ReplayError(f"steps[{i}].action: must be an object or null, not {short_repr(action)}")
    quiet = {"setup": "set-up rolls", "rules": "the rules play on"}.get(str(step.get("agent")))
    what = describe_action("no_quarter", action) if action else quiet or "illegal (no-op)"
    return f"{i + 1}. {short_text(step.get('agent', '?'))}: {short_text(what, 160)}"


def outcome_words(outcome: dict[str, Any] | None) -> str:
    """``"blue wins (side eliminated)"``, ``"side 0 wins (defeat)"``, ``"a draw (...)"``."""
    if outcome is None:
        return "unfinished"
    winner, reason = outcome.get("winner"), outcome.get("reason")
    if winner is None or winner == "":
        text = "a draw"
    elif isinstance(winner, int) and not isinstance(winner, bool):
        text = f"side {winner} wins"
    else:
        text = f"{short_text(winner, 40)} wins"
    return text + ("" if reason in (None, "") else f" ({short_text(reason, 80)})")


def _finish(view: dict[str, Any]) -> dict[str, Any]:
    """Every event also in words (``log``), numbers rounded, the outcome in the title."""
    for frame in view["frames"]:
        if "log" not in frame:
            frame["log"] = [describe_event(view["system"], e) for e in frame["events"]]
    view["title"] = f"{view['title']} — {outcome_words(view['outcome'])}"
    rounded: dict[str, Any] = round_numbers(view, 2)
    return rounded


def _nq_view(
    start: Any, steps: list[dict[str, Any]], outcome: Any, seed: Any, title: str
) -> dict[str, Any]:
    from wargym.rules.errors import RulesError
    from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
    from wargym.rules.no_quarter.battle.state import Battle

    try:
        battle = Battle.from_dict(start)
    except RulesError as exc:
        raise ReplayError(f"start state: {short_text(str(exc), 240)}") from exc
    field = battle.battlefield
    terrain = [
        {"kind": f.kind.value, "x0": f.x0, "y0": f.y0, "x1": f.x1, "y1": f.y1}
        for f in field.features
    ]
    frames = [{"label": "set-up", "events": [], **_snapshot(battle)}]
    warnings: list[str] = []
    for number, step in enumerate(steps, 1):
        before = {m["id"]: m["pos"] for m in frames[-1]["mechs"]}
        applied = step.get("applied", True)
        for raw in step["events"]:
            try:  # set-up events are in the start state already: only read them
                event = NO_QUARTER_EVENTS.from_dict(dict(raw))
                if applied:
                    battle.apply(event)
            except Exception as exc:  # noqa: BLE001 - show the rest of the game anyway
                if len(warnings) < 50:
                    warnings.append(
                        f"step {number}: {short_text(raw.get('type'))}: {short_text(str(exc))}"
                    )
        frame = {
            "label": _weapons_named(battle, step["label"], step.get("actor")),
            "events": step["events"],
            "log": [
                _weapons_named(battle, describe_event("no_quarter", e), e.get("shooter"))
                for e in step["events"]
            ],
            **_snapshot(battle),
        }
        frame["shots"] = _shots(step["events"], before, frame["mechs"])
        frames.append(frame)
    return _finish({
        "format": VIEW_FORMAT,
        "system": "no_quarter",
        "title": title + ("" if seed is None else f", seed {seed}"),
        "map": {
            "kind": "table",
            "width": field.width,
            "height": field.height,
            "terrain": terrain,
        },  # fmt: skip
        "frames": frames,
        "outcome": outcome,
        "warnings": warnings,
    })  # fmt: skip


def _weapons_named(battle: Any, text: str, mech: Any) -> str:
    """``weapon 2`` of ``mech`` in ``text`` as ``the medium laser`` (its design's item)."""
    if type(mech) is not int or mech not in battle.mechs:
        return text
    items = battle.mechs[mech].design.items

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1))
        if index >= len(items):
            return match.group(0)
        item = items[index]
        return "the " + short_text(str(item.label or item.item.value).replace("_", " "), 40)

    return re.sub(r"\bweapon (\d{1,3})\b", name, text)


def _pefs(battle: Any) -> list[dict[str, Any]]:
    if battle.np is None:
        return []
    pefs = battle.np.get("pefs", [])
    if not isinstance(pefs, list):
        raise ReplayError(f"np.pefs: must be a list, not {short_repr(pefs)}")
    out = []
    for i, p in enumerate(pefs):
        where = f"np.pefs[{i}]"
        if not isinstance(p, dict):
            raise ReplayError(f"{where}: must be an object, not {short_repr(p)}")
        pos = p.get("pos")
        if not isinstance(pos, list | tuple) or len(pos) != 2:
            raise ReplayError(f"{where}.pos: must be [x, y], not {short_repr(pos)}")
        xy = [check_number(c, f"{where}.pos", MAX_COORD) for c in pos]
        out.append({"id": check_label(p.get("id"), f"{where}.id"), "pos": xy})
    return out


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
    return {"turn": battle.turn, "mechs": mechs, "pefs": _pefs(battle),
            "flames": [list(map(list, f)) for f in battle.flames]}  # fmt: skip


def _shots(
    events: Iterable[dict[str, Any]], before: dict[int, Any], after: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    now = {m["id"]: m["pos"] for m in after}
    lines = []
    for e in events:
        shooter, target = e.get("shooter"), e.get("target")
        if e.get("type") != "ShotFired" or type(shooter) is not int or type(target) is not int:
            continue
        a, b = before.get(shooter, now.get(shooter)), before.get(target) or now.get(target)
        if a is not None and b is not None:
            lines.append({"from": a, "to": b, "hit": bool(e.get("hit")),
                          "shooter": shooter, "target": target})  # fmt: skip
    return lines


_REQUIRED = object()
_HEX_UNIT: dict[str, Any] = {"q": _REQUIRED, "r": _REQUIRED, "facing": 0, "armor": None}
"""The number fields of a hex unit and their defaults (``armor`` may be null)."""


def _hex_view(data: dict[str, Any]) -> dict[str, Any]:
    frames = data.get("frames")
    if not isinstance(frames, list) or not frames:
        raise ReplayError(f"{HEX_REPLAY}: 'frames' must be a non-empty list")
    for key in ("title", "system"):
        if not isinstance(data.get(key, ""), str):
            bad = short_repr(data[key])
            raise ReplayError(f"{HEX_REPLAY}: {key}: must be a string, not {bad}")
    view_frames = []
    for i, frame in enumerate(check_objects(frames, f"{HEX_REPLAY}: frames")):
        where = f"{HEX_REPLAY}: frames[{i}]"
        units = check_objects(frame.get("units"), f"{where}.units")
        name = check_label(frame.get("label", i), f"{where}.label", optional=True)
        view_frames.append(
            {
                "label": "" if name is None else str(name),
                "events": check_events(frame.get("events", []), where),
                "units": [_hex_unit(u, f"frames[{i}].units[{j}]") for j, u in enumerate(units)],
            }
        )
    return _finish({
        "format": VIEW_FORMAT,
        "system": data.get("system", "hex"),
        "title": data.get("title", data.get("system", "hex replay")),
        "map": {"kind": "hex", "layout": "flat-topped axial (q, r): A north, clockwise"},
        "frames": view_frames,
        "outcome": check_outcome(data.get("outcome")),
        "warnings": [],
    })  # fmt: skip


def _hex_unit(unit: dict[str, Any], where: str) -> dict[str, Any]:
    """The fields of one hex unit the page uses, checked; nothing else is kept."""
    where = f"{HEX_REPLAY}: {where}"
    out: dict[str, Any] = {
        "id": check_label(unit.get("id"), f"{where}.id"),
        "side": check_label(unit.get("side", 0), f"{where}.side"),
        "label": check_label(unit.get("label"), f"{where}.label", optional=True),
    }
    for key, default in _HEX_UNIT.items():
        if key not in unit and default is _REQUIRED:
            raise ReplayError(f"{where}.{key}: missing")
        value = unit.get(key, default)
        if value is None and key == "armor":
            out[key] = None
        else:
            out[key] = check_number(value, f"{where}.{key}", MAX_COORD)
    for key in ("destroyed", "damaged"):
        value = unit.get(key, False)
        if value is not None and not isinstance(value, bool):
            raise ReplayError(f"{where}.{key}: must be true or false, not {short_repr(value)}")
        out[key] = bool(value)
    return out


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


RECORD_STEPS = 5000
"""Default step cap of :func:`record_hex_replay`: captain-against-captain default duels end
by their rules well before it (seeds 0-29: at most 896 decisions of side 0 in Pentagon War,
176 in Starship Combat)."""
PLAYERS = ("captain", "random")
"""Who plays side 0 in :func:`record_hex_replay`."""


def record_hex_replay(
    env_id: str, seed: int = 0, max_steps: int = RECORD_STEPS, player: str = "captain"
) -> dict[str, Any]:
    """A :data:`HEX_REPLAY` of one seeded game of a space env, played until it ends.

    Side 0 is played by the game's scripted captain (``player="captain"``, the default) or
    by uniformly random legal orders (``player="random"``); side 1 by the env's own opponent
    (the scripted captain by default). The game runs until its rules end it (destruction,
    loss of control, leaving the map, the turn limit) or ``max_steps`` decisions of side 0;
    the replay's ``outcome`` is ``None`` (the page says "unfinished") only in the latter case.

    Raises:
        ValueError: ``player`` is not one of :data:`PLAYERS`.
    """
    import gymnasium  # noqa: TID251 (a layer above envs)
    import numpy as np

    import wargym.envs  # noqa: F401
    from wargym.agents.base import EngineAdapter, engine_state
    from wargym.agents.scripted import PentagonWarCaptain, StarshipCombatCaptain

    if player not in PLAYERS:
        raise ValueError(f"player: must be one of {PLAYERS}, not {short_repr(player)}")
    env = gymnasium.make(env_id)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    system = "pentagon_war" if "PentagonWar" in env_id else "starship_combat"
    kind = PentagonWarCaptain if system == "pentagon_war" else StarshipCombatCaptain
    captain = EngineAdapter(kind(seed), env, 0) if player == "captain" else None
    frames = [{"label": "set-up", "units": _hex_units(engine_state(env).to_dict()), "events": []}]
    for step in range(max_steps):
        legal = np.flatnonzero(obs["action_mask"])
        if legal.size == 0:
            break
        action = int(rng.choice(legal)) if captain is None else captain.act(obs)
        what = describe_index(env, action)
        obs, _, terminated, truncated, info = env.step(action)
        events = [e for e in info.get("events", []) if isinstance(e, dict)]
        frames.append({"label": f"{step + 1}. side 0: {what}", "events": events,
                       "units": _hex_units(engine_state(env).to_dict())})  # fmt: skip
        if terminated or truncated:
            break
    outcome = _space_outcome(system, engine_state(env))
    env.close()
    return {"format": HEX_REPLAY, "system": system,
            "title": f"{env_id}, seed {seed}, side 0: {player}",
            "frames": frames, "outcome": outcome}  # fmt: skip


def _space_outcome(system: str, state: Any) -> dict[str, Any] | None:
    """``{"winner": side or None, "reason"}`` of a finished space battle, else ``None``."""
    if system == "pentagon_war":
        result = state.outcome
    else:
        from wargym.rules.starship_combat import game

        result = game.outcome(state)
    if result is None:
        return None
    reason = result.termination.value
    if system == "pentagon_war" and reason == "defeat":  # how the loser was defeated
        from wargym.rules.pentagon_war import power

        ships = [s for s in state.ships if s.side != result.winner]
        if any(s.destroyed for s in ships):
            reason += ": destroyed"
        elif any(s.disengaged for s in ships):
            reason += ": left the map"
        elif any(not power.in_control(s, state.design_of(s)) for s in ships):
            reason += ": out of control"
    return {"winner": result.winner, "reason": reason}


def write_html(replay: Any, out: str | Path) -> Path:
    """Render ``replay`` (a replay object or a path to one) as a page at ``out``.

    The page is written to a temporary file next to ``out`` and renamed over it, so a
    failure leaves ``out`` as it was; nothing is written unless the whole page was made.

    Raises:
        ReplayError: a bad replay (see :func:`load` and :func:`frames_of`), an output that
            is the input file (under any path: symlink, hard link, ``..``), or an output
            that cannot be written.
    """
    path = Path(out)
    if isinstance(replay, str | Path):
        refuse_same_file(Path(replay), path)
        replay = load(replay)
    view = frames_of(replay)
    try:
        page = render_page(view)
    except RecursionError as exc:
        raise ReplayError("the replay is nested too deeply to show") from exc
    except ValueError as exc:  # not JSON: only a replay object passed from Python can do this
        raise ReplayError(
            f"the replay holds a value that is not JSON: {short_text(str(exc))}"
        ) from exc
    write_atomic(path, page)
    return path


@dataclass
class ReplayArgs:
    """Turn a saved replay into a self-contained HTML page (``wargym replay FILE --html OUT``)."""

    file: Annotated[str, Positional, checked(cli_args.path, "FILE")]
    """Replay JSON: nq-replay-v1, a No Quarter start+events document, or hex-replay-v1."""
    html: Annotated[str, checked(cli_args.path, "OUT")]
    """Output page (never the input file)."""


def main(argv: Sequence[str] | None = None) -> int:
    """``wargym replay FILE.json --html OUT.html``; a bad replay or output exits 2."""
    args = cli_args.tyro_cli(
        ReplayArgs, argv, prog="wargym replay", description=__doc__.splitlines()[0]
    )
    try:
        path = write_html(args.file, args.html)
    except ReplayError as exc:
        message = " ".join(str(exc).split())
        print(f"wargym replay: error: {message}", file=sys.stderr)
        raise SystemExit(2) from None
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
