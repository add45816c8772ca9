"""Calibrate the difficulty tiers of an exported policy by Elo (wargym.agents.tiers).

Run from the repository root once a policy is exported (``python -m wargym.export_onnx``)::

    python -m training.calibrate_tiers --model agents/models/nq_skirmish_ppo.onnx --games 20

Every tier of ``wargym.agents.tiers.TIERS`` (an ``OnnxPolicy`` played through a
``TieredAgent``) and the reference agents (``random``, ``rules``, ``heuristic`` by default)
play a round robin with the evaluation harness (sides alternate, seeded games); Elo is fitted
with ``random`` fixed at 0. The report (``wargym-eval-v1`` plus a ``tiers`` table: each
tier's temperature, epsilon and Elo, and whether the Elos rise from easy to expert) is
printed and written to ``--out``. Without a model the script says so and exits 1.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Args:
    model: str = "agents/models/nq_skirmish_ppo.onnx"
    """Exported policy (.onnx with its .onnx.json sidecar)."""
    game: str = "no_quarter"
    """no_quarter, pentagon_war or starship_combat (must match the policy's env)."""
    games: int = 10
    """Games per pair."""
    seed: int = 0
    """First seed."""
    references: list[str] = field(default_factory=lambda: ["random", "rules", "heuristic"])
    """Reference agent specs of the evaluation harness."""
    tiers: list[str] = field(default_factory=list)
    """Tier names to calibrate (empty: all)."""
    out: str = "runs/tiers.json"
    """Report path (JSON)."""


def main(args: Args) -> dict[str, Any]:
    from wargym.agents import evaluation as ev
    from wargym.agents.onnx_runner import OnnxPolicy
    from wargym.agents.tiers import TIERS, TieredAgent

    if not Path(args.model).is_file():
        print(f"no exported model at {args.model}; export one with python -m wargym.export_onnx")
        sys.exit(1)
    policy = OnnxPolicy(args.model)
    skip = ("opponent", "reward_shaping", "illegal_action", "illegal_penalty")
    env_kwargs = {k: v for k, v in policy.sidecar.env_kwargs.items() if k not in skip}
    names = args.tiers or list(TIERS)
    agents: dict[str, Any] = {ref: ref for ref in args.references}
    for i, name in enumerate(names):
        agents[f"tier:{name}"] = TieredAgent(policy, name, args.game, rng=args.seed + 1000 + i)
    table = ev.round_robin(agents, args.game, args.games, args.seed, env_kwargs,
                           progress=lambda m: print(ev.summary([m]), flush=True))  # fmt: skip
    elo = table["elo"]
    rows = [{"tier": n, "temperature": TIERS[n].temperature, "epsilon": TIERS[n].epsilon,
             "elo": elo.get(f"tier:{n}")} for n in names]  # fmt: skip
    elos = [r["elo"] for r in rows]
    meta = {"game": args.game, "games": args.games, "seed": args.seed, "model": args.model,
            "sha256": policy.sidecar.sha256}  # fmt: skip
    data = ev.report(table["matches"], elo, meta)
    data["tiers"] = rows
    data["monotone"] = all(a <= b for a, b in zip(elos, elos[1:], strict=False))
    print(ev.summary(table["matches"], elo))
    print(json.dumps(rows, indent=2))
    ev.write_report(args.out, data)
    return data


if __name__ == "__main__":
    from wargym.agents.config import cli

    main(cli(Args, description=__doc__ or ""))
