"""How often a policy trained with advice rows overrules the tactician, per decision kind.

A policy that reads the tactician's advice rows ("advice-v1", docs/encodings.md) may follow
its pick or overrule it. This plays ``games`` seeded games of the policy (blue) against the
rules' AI in the env its sidecar names and counts, for every decision kind, the decisions and
those where the policy's (deterministic) choice differs from ``t_pick``. Run from the
repository root::

    python -m training.advice_agreement --policy agents/models/nq_skirmish_ppo.zip --games 20

Prints a table and writes JSON to ``--out``.
"""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Args:
    policy: str = "agents/models/nq_skirmish_ppo.zip"
    """Policy file with its sidecar (.zip or .onnx)."""
    games: int = 20
    """Seeded games."""
    seed: int = 50000
    """First seed."""
    out: str = "runs/advice_agreement.json"
    """Report path (JSON)."""


def main(args: Args) -> dict[str, Any]:
    from wargym.agents.learned import LearnedAgent
    from wargym.envs.no_quarter.action_features import ACTION_FEATURES
    from wargym.export_onnx import make_sidecar_env

    agent = LearnedAgent(args.policy)
    kwargs = dict(agent.meta.get("env_kwargs") or {})
    if not kwargs.get("advisor"):
        raise SystemExit(f"{args.policy} was not trained with advice rows (no advisor)")
    env = make_sidecar_env(agent.meta["env_id"], kwargs)  # imports nothing the card names
    core: Any = env.unwrapped
    n = int(env.action_space.n)  # type: ignore[attr-defined]
    pick_row = len(ACTION_FEATURES) + 1
    rows = core.encoder.af_rows
    total: collections.Counter[str] = collections.Counter()
    overruled: collections.Counter[str] = collections.Counter()
    for game in range(args.games):
        obs, _ = env.reset(seed=args.seed + game)
        agent.reset(args.seed + game)
        done = False
        while not done:
            kind = core.battle.decision.kind.value
            pick = obs["observation"][-rows * n :].reshape(rows, n)[pick_row]
            action = int(agent.act(obs["observation"], obs["action_mask"]))
            total[kind] += 1
            overruled[kind] += bool(pick[action] != 1.0)
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
    report = {
        "policy": args.policy,
        "games": args.games,
        "seed": args.seed,
        "kinds": {k: {"decisions": total[k], "overruled": overruled[k]} for k in sorted(total)},
        "decisions": sum(total.values()),
        "overruled": sum(overruled.values()),
    }
    print(f"{'decision kind':<16} {'decisions':>9} {'overruled':>9}")
    for k in sorted(total):
        print(f"{k:<16} {total[k]:>9} {overruled[k]:>9}")
    print(f"{'all':<16} {report['decisions']:>9} {report['overruled']:>9}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    from wargym.agents.config import cli

    main(cli(Args, description=__doc__ or ""))
