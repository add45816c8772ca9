"""``wargym demo``: the shipped learned opponent plays a Cestus V mission against the rules' AI.

What the package is for, in about ten seconds: a learned policy (the shipped MaskablePPO No
Quarter policy) commands the player's side of a Cestus V mission through
:class:`~wargym.agents.battle_policy.PolicyPlayer` (a local three-mech view at each
decision); the enemy comes as PEFs and is played by the book's non-player procedure inside
the engine (§20, §22.4). The default is mission 2, *The Troll* (an Attack: seize the
bridgehead), with seed 0, a mission the policy wins (measured: it won it with seeds 0, 1, 2
and 7, while it fails mission 1, *Trip Wire*, with every seed tried).

The demo prints the forces, the outcome, who took the decisions, the turning points of the
battle in words (:mod:`wargym.describe`), a summary of the event log and the policy's
evaluation table (``agents/models/nq_skirmish_ppo_eval.json``); it writes a replay (JSON and
a self-contained HTML page) and ends with the commands to play yourself: the same mission
(``wargym play cestus-v --mission N``) and a skirmish against the same policy
(``wargym play skirmish --opponent shipped``).
"""

from __future__ import annotations

import argparse
import collections
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from tyro.conf import arg

from wargym import cli_args
from wargym.cli_args import checked


class DemoError(ValueError):
    """A demo option names no mission or no policy file."""


DEFAULT_MISSION = "mission_02_the_troll"
"""The Cestus V mission the demo plays when none is given (one the shipped policy wins)."""
DEFAULT_SEED = 0
"""The demo's seed when none is given (the policy wins the default mission with it)."""
HIGHLIGHTS = frozenset(
    {"MechRemoved", "PefResolved", "MechsArrived", "CriticalHit", "MissionEnded", "BattleEnded"}
)
"""Event types told in words as the battle's turning points."""
MAX_TURNS = 100
"""Largest ``--max-turns`` (the engine's largest ``max_turns``)."""


def _turn_limit(text: str) -> int:
    """An argparse type: ``--max-turns``, the mission's turn_limit, ``1..MAX_TURNS``."""
    from wargym.cli_args import int_in

    try:
        return int_in(1, MAX_TURNS)(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error} (the mission's turn_limit)") from None


def check_output(flag: str, path: str) -> None:
    """Refuse an output path that is a folder or lies in a missing folder (before playing)."""
    from wargym.cli_args import shown

    if not path:
        return
    target = Path(path)
    if "\x00" in path:
        raise DemoError(f"{flag} {shown(path)}: not a usable file path")
    if target.is_dir():
        raise DemoError(f"{flag} {shown(path)}: is a folder, not a file")
    if not target.parent.is_dir():
        raise DemoError(f"{flag} {shown(path)}: no such folder {shown(str(target.parent))}")


@dataclass
class DemoArgs:
    """The shipped learned opponent plays a Cestus V mission against the rules' AI."""

    seed: Annotated[int, checked(cli_args.seed, "SEED")] = DEFAULT_SEED
    """Seed of the battle's dice and the policy's sampling (0..2**63-1)."""
    mission: Annotated[str, arg(metavar="STEM")] = DEFAULT_MISSION
    """Cestus V mission file stem, mission_01_trip_wire ... mission_10_knockout_punch."""
    policy: Annotated[str | None, arg(metavar="FILE")] = None
    """Policy file, .onnx or .zip (None: the shipped one)."""
    max_turns: Annotated[int | None, checked(_turn_limit, "N")] = None
    """Turn limit override, 1..100 (None: the mission's turn_limit)."""
    replay: Annotated[str, arg(metavar="FILE")] = ""
    """Also write the replay as JSON here ('' to skip)."""
    html: Annotated[str, arg(metavar="FILE")] = "wargym-demo-replay.html"
    """Write a self-contained HTML replay here ('' to skip)."""


def main(argv: Sequence[str] | None = None) -> int:
    """``wargym demo [OPTIONS]``: parse the options (tyro; exit 2 on a bad one) and :func:`run`."""
    args = cli_args.tyro_cli(
        DemoArgs, argv, prog="wargym demo", description=(__doc__ or "").split("\n\n")[0]
    )
    return run(args)


def run(args: DemoArgs) -> int:
    """Play the mission, print the summaries, write the replay; 0 on success."""
    import numpy as np

    from wargym.agents.battle_policy import PolicyPlayer
    from wargym.agents.learned import shipped_model
    from wargym.rules.dice import RandomDice
    from wargym.rules.errors import TableError
    from wargym.rules.no_quarter.battle import game
    from wargym.rules.no_quarter.battle.actions import action_to_dict
    from wargym.rules.no_quarter.cestus.cestus_v_data import load_mission
    from wargym.rules.no_quarter.cestus.cestus_v_rolls import mission_scenario
    from wargym.rules.no_quarter.forces.vocab import Faction
    from wargym.rules.no_quarter.mission.mission_play import setup_mission

    check_output("--replay", args.replay)
    check_output("--html", args.html)
    if args.replay and args.html:
        from wargym.replay_files import ReplayError, refuse_same_file

        try:
            refuse_same_file(Path(args.replay), Path(args.html))
        except ReplayError as exc:
            raise DemoError(f"--html and --replay name the same file: {exc}") from exc
    try:
        mission = load_mission(args.mission)
    except (TableError, OSError, KeyError) as exc:
        from wargym.cli_args import one_line
        from wargym.rules.errors import short_repr

        raise DemoError(
            f"--mission: unknown Cestus V mission {short_repr(args.mission)}: "
            f"{one_line(str(exc), 200)}"
        ) from None
    policy_path = Path(args.policy) if args.policy else shipped_model(".onnx")
    if policy_path.suffix not in (".onnx", ".zip") or not policy_path.is_file():
        raise DemoError(f"--policy {policy_path}: no such .onnx or .zip policy file")
    player = PolicyPlayer(policy_path, rng=args.seed)
    rng = np.random.default_rng(args.seed)
    setup_rng, dice_rng = rng.spawn(2)
    dice = RandomDice(dice_rng)
    scenario = mission_scenario(mission, faction=Faction.STAR_ARMY, turn_limit=args.max_turns)
    battle, setup = setup_mission(scenario, setup_rng, dice)
    start = battle.to_dict()  # the set-up's events are in it; the "setup" step shows them
    title = f"Cestus V, mission {mission.number}: {mission.name} ({mission.kind.value})"
    print(f"{title}, seed {args.seed}")
    print(f"Player (blue, Star Army): the learned policy {policy_path.name}")
    print("Enemy (red, Hishen): the rules' non-player AI, arriving as PEFs (§20, §22.4)")
    for side in ("blue", "red"):
        mechs = [m for m in battle.mechs.values() if m.side.value == side]
        designs = collections.Counter(m.design.name for m in mechs)
        listed = ", ".join(f"{n} x {d}" for d, n in sorted(designs.items()))
        if mechs:
            print(f"  {side} at the start: {len(mechs)} mechs ({listed})")
    pefs = len((battle.np or {}).get("pefs", []))
    print(f"  red at the start: {pefs} PEFs (possible enemy forces) on the table")
    steps: list[dict[str, Any]] = [
        {"agent": "setup", "index": None, "action": None, "events": setup},
        {"agent": "rules", "index": None, "action": None, "events": game.advance(battle, dice)},
    ]
    while not battle.over:
        decision = battle.decision
        assert decision is not None
        legal = game.legal_actions(battle)
        before = sum(player.counts.values())
        policy_before = player.counts["policy"]
        action = player.act_engine(battle, legal, decision.side)
        assert sum(player.counts.values()) == before + 1
        who = "policy" if player.counts["policy"] > policy_before else "procedure"
        events = game.play(battle, action, dice)
        steps.append(
            {"agent": who, "index": None, "action": action_to_dict(action), "events": events}
        )
    result = game.outcome(battle)
    assert result is not None
    winner, reason = result
    log = [e.to_dict() for step in steps for e in step["events"]]
    verdict = {None: "a draw", "blue": "mission success", "red": "mission failure"}[
        None if winner is None else winner.value
    ]
    print(f"Outcome: {verdict} ({reason}) after {battle.turn} turns and {len(log)} events.")
    print(
        f"Decisions: {player.counts['policy']} by the learned policy, "
        f"{player.counts['procedure']} by the book's procedure (choices outside its skirmish view)."
    )
    for side in ("blue", "red"):
        mechs = [m for m in battle.mechs.values() if m.side.value == side]
        left = sum(1 for m in mechs if m.removed is None)
        gone = [
            f"#{m.id} {m.design.name} ({m.removed.value.replace('_', ' ')})"
            for m in mechs
            if m.removed is not None
        ]
        print(f"  {side}: {left} of {len(mechs)} on the table; lost: {', '.join(gone) or 'none'}")
    print_highlights(log)
    print("Event log summary:")
    for name, count in collections.Counter(e["type"] for e in log).most_common(8):
        print(f"  {name:20} {count}")
    print_evaluation(policy_path)
    replay = {
        "format": "nq-replay-v1",
        "title": title,
        "seed": args.seed,
        "start": start,
        "steps": [{**step, "events": [e.to_dict() for e in step["events"]]} for step in steps],
        "outcome": {"winner": None if winner is None else winner.value, "reason": reason},
    }
    if args.replay:
        from wargym.envs.no_quarter.solo import write_json_atomic

        write_json_atomic(args.replay, replay)
        print(f"Replay written to {args.replay}")
    if args.html:
        from wargym.replay import write_html

        path = write_html(replay, args.html)
        print(f"Replay page written to {path}: open {path.resolve().as_uri()} in a browser")
        print("  (every decision and event in words, the map with terrain, facing and shots)")
    print_play_commands(mission.number, args.seed)
    return 0


def print_highlights(log: list[dict[str, Any]], limit: int = 12) -> None:
    """The battle's turning points (:data:`HIGHLIGHTS`) in words, in order."""
    from wargym.describe import describe_event

    chosen = [e for e in log if e.get("type") in HIGHLIGHTS]
    print("Turning points:")
    for event in chosen[:limit]:
        print(f"  - {describe_event('no_quarter', event)}")
    if len(chosen) > limit:
        print(f"  ... and {len(chosen) - limit} more (see the replay)")


def play_commands(mission: int, seed: int) -> list[str]:
    """The ``wargym play`` command lines the demo ends with (:mod:`wargym.play` flags)."""
    return [
        f"wargym play cestus-v --mission {mission} --seed {seed}",
        "wargym play skirmish --opponent shipped",
    ]


def print_play_commands(mission: int, seed: int) -> None:
    """How to play yourself: the same mission, and a skirmish against the shipped policy."""
    same, skirmish = play_commands(mission, seed)
    print("Play it yourself in the terminal:")
    print(f"  {same}    # command the Star Army in this mission")
    print(f"  {skirmish}    # a skirmish against this policy")


def print_evaluation(policy_path: Path) -> None:
    """The policy's shipped evaluation table (``<stem>_eval.json`` beside it), if any."""
    report = policy_path.with_name(policy_path.stem + "_eval.json")
    if not report.is_file():
        print(f"(no evaluation report beside {policy_path.name})")
        return
    data = json.loads(report.read_text(encoding="utf-8"))
    print(f"Evaluation of the policy in the mirror skirmish ({report.name}):")
    print(f"  {'agent':10} {'vs':10} {'games':>5} {'W':>4} {'D':>4} {'L':>4}  win %  95% CI")
    for m in data.get("matches", []):
        print(
            f"  {m['agent_a']:10} {m['agent_b']:10} {m['games']:>5} {m['wins']:>4} "
            f"{m['draws']:>4} {m['losses']:>4}  {100 * m['win_rate']:5.1f}  "
            f"[{100 * m['win_low']:.1f}, {100 * m['win_high']:.1f}]"
        )
    elo = data.get("elo") or {}
    if elo:
        print("  Elo (random = 0): " + ", ".join(f"{k} {v:+.0f}" for k, v in elo.items()))
