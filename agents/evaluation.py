"""Evaluation harness: seeded matches, Wilson intervals, round robins with Elo.

:func:`play_match` plays two agents over ``n_games`` seeded games of one game's PettingZoo AEC
env (both sides as agents), swapping sides every other game when ``alternate`` is set, and
returns a :class:`MatchResult` (wins/draws/losses of the first agent, Wilson 95 % interval of
its win rate, mean rewards). "Agent against the rules' AI" is a match against ``"rules"``:
the book's NP procedure for No Quarter (:class:`~wargym.agents.scripted.NoQuarterScripted`, the
same procedure as the solo env's ``opponent="rules"``) and the scripted captain for the space
games. :func:`round_robin` plays every pair and fits Elo ratings (:func:`elo_ratings`:
Bradley-Terry maximum likelihood, draws as half points, ``random`` fixed at 0).

Agents are given as objects or as specs (:func:`make_agent`): ``random``, ``rules`` (alias
``scripted``), ``heuristic``, ``mcts`` or ``mcts:<budget>``, ``learned:<path>`` and
``shipped`` (the packaged No Quarter policy). The JSON written by :func:`write_report` follows
:data:`SCHEMA`.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from wargym.agents.base import Agent, EngineAgent, as_agent
from wargym.agents.envspecs import resolve_callables

SCHEMA = "wargym-eval-v1"
"""Version tag of the evaluation JSON."""
Z95 = 1.959963984540054
"""Normal quantile of a two-sided 95 % interval."""
AEC_MODULES = {
    "no_quarter": "wargym.envs.no_quarter.aec",
    "pentagon_war": "wargym.envs.pentagon_war.aec",
    "starship_combat": "wargym.envs.starship_combat.aec",
}
"""The AEC env module of each game."""
DEFAULT_ENV_KWARGS: dict[str, dict[str, Any]] = {
    "no_quarter": {"battle_factory": "mirror_skirmish"},
    "pentagon_war": {},
    "starship_combat": {},
}
"""Evaluation set-ups: No Quarter with mirror forces, the space games' defaults."""
MAX_STEPS = 20_000
"""Safety cap of AEC steps per game (counted as a draw)."""
AgentSpec = str | Agent | EngineAgent
AgentFactory = Callable[[np.random.Generator], Any]


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n`` (``(0, 1)`` when ``n`` is 0).

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def make_agent(spec: AgentSpec, game: str, rng: np.random.Generator) -> Any:
    """An agent object from a spec string (module docstring); objects pass through."""
    if not isinstance(spec, str):
        return spec
    name, _, arg = spec.partition(":")
    if name == "random":
        from wargym.agents.random_agent import RandomAgent

        return RandomAgent(rng)
    if name in ("rules", "scripted"):
        from wargym.agents.scripted import scripted_agent

        return scripted_agent(game, rng)
    if name == "heuristic" and game == "no_quarter":
        from wargym.agents.heuristic import NoQuarterHeuristic

        return NoQuarterHeuristic(rng)
    if name == "mcts" and game == "no_quarter":
        from wargym.agents.mcts import NoQuarterMCTS

        return NoQuarterMCTS(rng, budget=int(arg) if arg else 16)
    if name == "learned" and arg:
        from wargym.agents.learned import LearnedAgent

        return LearnedAgent(arg, rng)
    if name == "shipped" and game == "no_quarter":
        from wargym.agents.learned import LearnedAgent, shipped_model

        return LearnedAgent(shipped_model(".zip"), rng)
    raise ValueError(f"unknown agent spec {spec!r} for {game}")


def env_kwargs_for(
    game: str, agents: Sequence[Any], extra: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Env kwargs: the game's defaults, a learned agent's training env, then ``extra``."""
    kwargs = dict(DEFAULT_ENV_KWARGS[game])
    for agent in agents:
        meta = getattr(agent, "meta", None) or {}
        trained = {
            k: v
            for k, v in (meta.get("env_kwargs") or {}).items()
            if k not in ("opponent", "reward_shaping", "illegal_action", "illegal_penalty")
        }
        kwargs.update(trained)
    kwargs.update(extra or {})
    return kwargs


def make_env(game: str, env_kwargs: Mapping[str, Any]) -> Any:
    """The AEC env of ``game`` (illegal actions raise, so a bad agent fails loudly)."""
    import importlib

    if game not in AEC_MODULES:
        raise ValueError(f"unknown game {game!r}; one of {sorted(AEC_MODULES)}")
    module = importlib.import_module(AEC_MODULES[game])
    return module.env(illegal_action="raise", **resolve_callables(env_kwargs))


@dataclass
class MatchResult:
    """Outcome of a match, from the first agent's point of view."""

    agent_a: str
    agent_b: str
    game: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_low: float
    win_high: float
    score: float
    """(wins + draws / 2) / games."""
    mean_reward_a: float
    mean_reward_b: float
    mean_steps: float
    seconds: float
    seeds: list[int] = field(default_factory=list)
    outcomes: list[int] = field(default_factory=list)
    """Per game: +1 win, 0 draw, -1 loss of agent a."""
    a_sides: list[str] = field(default_factory=list)
    """Per game: the seat agent a took."""


def _seat(agent: Any, env: Any, game: str, name: str, index: int) -> Any:
    return as_agent(agent, env, None if game == "no_quarter" else index)


def play_game(env: Any, game: str, players: Mapping[str, Any], seed: int) -> dict[str, float]:
    """One seeded game; ``players`` maps the env's agent names to agents; returns total rewards."""
    env.reset(seed=seed)
    names = list(env.possible_agents)
    seats = {n: _seat(players[n], env, game, n, i) for i, n in enumerate(names)}
    for n, seat in enumerate(seats.values()):
        seat.reset(seed * 2 + n)
    totals = dict.fromkeys(names, 0.0)
    steps = 0
    while env.agents and steps < MAX_STEPS:
        name = env.agent_selection
        if env.terminations.get(name) or env.truncations.get(name):
            env.step(None)
            continue
        seat = seats[name]
        if getattr(seat, "needs_observation", True):
            view = env.observe(name)
            obs, mask = view["observation"], view["action_mask"]
        else:
            obs = mask = None
        env.step(int(seat.act(obs, mask)))
        steps += 1
        for n in names:
            totals[n] += float(env.rewards.get(n, 0.0))
    totals["_steps"] = float(steps)
    return totals


def play_match(
    agent_a: AgentSpec,
    agent_b: AgentSpec,
    game: str = "no_quarter",
    n_games: int = 20,
    seed: int = 0,
    alternate: bool = True,
    env_kwargs: Mapping[str, Any] | None = None,
    names: tuple[str, str] | None = None,
) -> MatchResult:
    """Play ``n_games`` seeded games (seeds ``seed .. seed + n - 1``) of ``a`` against ``b``."""
    rng = np.random.default_rng(seed)
    a = make_agent(agent_a, game, rng.spawn(1)[0])
    b = make_agent(agent_b, game, rng.spawn(1)[0])
    label_a, label_b = names or (_label(agent_a), _label(agent_b))
    env = make_env(game, env_kwargs_for(game, [a, b], env_kwargs))
    seat_names = list(env.possible_agents)
    outcomes, rewards_a, rewards_b, steps, sides, seeds = [], [], [], [], [], []
    t0 = time.time()
    for g in range(n_games):
        swap = alternate and g % 2 == 1
        first, second = (seat_names[1], seat_names[0]) if swap else tuple(seat_names)
        totals = play_game(env, game, {first: a, second: b}, seed + g)
        ra, rb = totals[first], totals[second]
        outcomes.append(int(np.sign(ra - rb)))
        rewards_a.append(ra)
        rewards_b.append(rb)
        steps.append(totals["_steps"])
        sides.append(first)
        seeds.append(seed + g)
    env.close()
    wins = sum(1 for o in outcomes if o > 0)
    draws = sum(1 for o in outcomes if o == 0)
    low, high = wilson(wins, n_games)
    return MatchResult(
        agent_a=label_a, agent_b=label_b, game=game, games=n_games, wins=wins, draws=draws,
        losses=n_games - wins - draws, win_rate=wins / max(1, n_games), win_low=low,
        win_high=high, score=(wins + draws / 2) / max(1, n_games),
        mean_reward_a=float(np.mean(rewards_a)) if rewards_a else 0.0,
        mean_reward_b=float(np.mean(rewards_b)) if rewards_b else 0.0,
        mean_steps=float(np.mean(steps)) if steps else 0.0, seconds=time.time() - t0,
        seeds=seeds, outcomes=outcomes, a_sides=sides,
    )  # fmt: skip


def _label(spec: Any) -> str:
    return spec if isinstance(spec, str) else type(spec).__name__


def elo_ratings(
    results: Sequence[MatchResult], reference: str = "random", iterations: int = 3000
) -> dict[str, float]:
    """Elo ratings fitted to all results (Bradley-Terry MLE, draws = half a win).

    ``reference`` is fixed at 0. One virtual draw per pair played keeps ratings finite when an
    agent won or lost every game.
    """
    names = sorted({r.agent_a for r in results} | {r.agent_b for r in results})
    index = {n: i for i, n in enumerate(names)}
    pairs: dict[tuple[int, int], list[float]] = {}
    for r in results:
        key = (index[r.agent_a], index[r.agent_b])
        got = pairs.setdefault(key, [0.0, 0.0])
        got[0] += r.wins + r.draws / 2 + 0.5
        got[1] += r.games + 1
    scale = math.log(10) / 400
    rating = np.zeros(len(names))
    for _ in range(iterations):
        grad = np.zeros(len(names))
        for (i, j), (score, games) in pairs.items():
            p = 1.0 / (1.0 + math.exp(-scale * (rating[i] - rating[j])))
            grad[i] += score - games * p
            grad[j] -= score - games * p
        rating += 20.0 * grad / max(1.0, max(g for _, g in pairs.values()))
        if reference in index:
            rating -= rating[index[reference]]
    return {n: round(float(rating[index[n]]), 1) for n in names}


def round_robin(
    agents: Mapping[str, AgentSpec],
    game: str = "no_quarter",
    n_games: int = 10,
    seed: int = 0,
    env_kwargs: Mapping[str, Any] | None = None,
    reference: str = "random",
    progress: Callable[[MatchResult], None] | None = None,
) -> dict[str, Any]:
    """Every pair plays ``n_games`` (sides alternating); returns matches and Elo."""
    names = list(agents)
    results = []
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            result = play_match(agents[x], agents[y], game, n_games, seed, True, env_kwargs, (x, y))
            results.append(result)
            if progress is not None:
                progress(result)
    return {"matches": results, "elo": elo_ratings(results, reference)}


def report(
    matches: Sequence[MatchResult],
    elo: Mapping[str, float] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON document (:data:`SCHEMA`)."""
    return {
        "schema": SCHEMA,
        "meta": dict(meta or {}),
        "matches": [asdict(m) for m in matches],
        "elo": dict(elo or {}),
    }


def write_report(path: str | Path, data: Mapping[str, Any]) -> None:
    """Write the report JSON (indented)."""
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def summary(matches: Sequence[MatchResult], elo: Mapping[str, float] | None = None) -> str:
    """A plain-text table of the matches and ratings."""
    lines = [
        f"{'agent':<14} {'vs':<14} {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
        f"{'win %':>6} {'95% CI':>13} {'reward':>7}"
    ]
    for m in matches:
        lines.append(
            f"{m.agent_a:<14} {m.agent_b:<14} {m.games:>5} {m.wins:>4} {m.draws:>4} "
            f"{m.losses:>4} {100 * m.win_rate:>6.1f} "
            f"[{100 * m.win_low:>4.1f}, {100 * m.win_high:>4.1f}] {m.mean_reward_a:>7.3f}"
        )
    if elo:
        lines.append(
            "Elo (random = 0): "
            + ", ".join(f"{k} {v:+.0f}" for k, v in sorted(elo.items(), key=lambda t: -t[1]))
        )
    return "\n".join(lines)
