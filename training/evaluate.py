"""Evaluate agents: one match or a round robin with Elo (thin CLI over wargym.agents.evaluation).

Run from the repository root::

    python -m training.evaluate --agents shipped rules --games 200 --out runs/eval.json
    python -m training.evaluate --agents random rules heuristic mcts:8 shipped --games 10 \
        --round-robin --out runs/elo.json
    python -m training.evaluate --game pentagon_war --agents rules random --games 20

Agent specs: random, rules (= scripted), heuristic, mcts[:budget], learned:<path.zip|onnx>,
shipped. Two agents -> one match (sides alternate unless --no-alternate); more, or
--round-robin -> every pair plus Elo (random = 0). Prints a table and writes the JSON report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Args:
    agents: list[str] = field(default_factory=lambda: ["heuristic", "rules"])
    """Agent specs (see the module docstring)."""
    game: str = "no_quarter"
    """no_quarter, pentagon_war or starship_combat."""
    games: int = 20
    """Games per pair (seeds seed .. seed + games - 1)."""
    seed: int = 0
    """First seed."""
    alternate: bool = True
    """Swap sides every other game."""
    round_robin: bool = False
    """Play every pair and fit Elo even with two agents."""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """Extra AEC env keyword arguments."""
    out: str = ""
    """Report path (JSON); empty: print only."""

    def __post_init__(self) -> None:
        """Refuse a game, count or agent spec no match can use (the message names the flag)."""
        from pathlib import Path

        from wargym.agents.evaluation import AEC_MODULES
        from wargym.rules.errors import short_repr

        if self.game not in AEC_MODULES:
            raise ValueError(f"--game {short_repr(self.game)}: one of {sorted(AEC_MODULES)}")
        if self.games < 1 or self.seed < 0:
            raise ValueError(f"--games must be >= 1 and --seed >= 0: {self.games}, {self.seed}")
        if len(self.agents) < 2:
            raise ValueError(f"--agents needs two specs or more, got {len(self.agents)}")
        for spec in self.agents:
            name, _, arg = spec.partition(":")
            ok = name in ("random", "rules", "scripted") or (
                self.game == "no_quarter" and name in ("heuristic", "shipped", "mcts")
            )
            if name == "mcts" and arg and not arg.isdecimal():
                ok = False
            if name == "learned":
                if not arg or not Path(arg).is_file():
                    raise ValueError(f"no policy file {short_repr(arg, 300)} (--agents learned:)")
                ok = True
            if not ok:
                raise ValueError(
                    f"--agents {short_repr(spec)}: not an agent spec for {self.game} (random, "
                    "rules, heuristic, mcts[:budget], learned:<file>, shipped)"
                )


def main(args: Args) -> dict[str, Any]:
    from wargym.agents import evaluation as ev

    meta = {"game": args.game, "games": args.games, "seed": args.seed, "agents": args.agents}
    if len(args.agents) == 2 and not args.round_robin:
        match = ev.play_match(args.agents[0], args.agents[1], args.game, args.games, args.seed,
                              args.alternate, args.env_kwargs)  # fmt: skip
        data = ev.report([match], None, meta)
        print(ev.summary([match]))
    else:
        table = ev.round_robin(
            {a: a for a in args.agents},
            args.game,
            args.games,
            args.seed,
            args.env_kwargs,
            progress=lambda m: print(ev.summary([m])),
        )
        data = ev.report(table["matches"], table["elo"], meta)
        print(ev.summary(table["matches"], table["elo"]))
    if args.out:
        ev.write_report(args.out, data)
    return data


if __name__ == "__main__":
    from wargym.agents.config import cli

    main(cli(Args, description=__doc__ or ""))
