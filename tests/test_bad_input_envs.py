"""Bad-input catalogue (issue 9): env keyword arguments and actions (docs/bad_input.md).

Every row is one entry point and one bad input: the exception type, the words its message
must hold (the offending key or value), and -- for ``step`` -- that the engine state is
unchanged. Rows that fail in files another agent owns are strict xfails naming the fix.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import wargym.envs
from wargym.envs.base import EnvArgumentError, InvalidActionError
from wargym.rules.errors import IllegalActionError, RulesError, TableError

SKIRMISH = "wargym/NoQuarter-Skirmish-v1"
PATROL = "wargym/NoQuarter-Patrol-v1"
PW = "wargym/PentagonWar-Duel-v0"
SC = "wargym/StarshipCombat-Duel-v0"
MISSIONS = (
    "wargym/NoQuarter-Patrol-v1",
    "wargym/NoQuarter-Attack-v1",
    "wargym/NoQuarter-Defend-v1",
)
NQ_PZ = ("no_quarter_v1.env", "no_quarter_v1.parallel_env")
PW_PZ = ("pentagon_war_v0.env", "pentagon_war_v0.parallel_env")
SC_PZ = ("starship_combat_v0.env", "starship_combat_v0.parallel_env")


def build(entry: str, **kwargs: Any) -> Any:
    """Build (and reset) the env of ``entry``: a Gymnasium id or ``<pz name>.<ctor>``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if entry.startswith("wargym/"):
            env = gymnasium.make(entry, **kwargs)
        else:
            name, ctor = entry.split(".")
            env = getattr(wargym.envs.pettingzoo_module(name), ctor)(**kwargs)
        env.reset(seed=0)
    return env


def _row(entry: str, kwargs: dict[str, Any], error: type[Exception], *words: str, fix: str = ""):
    what = ",".join(f"{k}={v!r}" for k, v in kwargs.items())
    marks = [pytest.mark.xfail(strict=True, reason=f"needs fix in {fix}")] if fix else []
    return pytest.param(entry, kwargs, error, words, id=f"{entry}:{what}", marks=marks)


KWARG_ROWS = []
for _entry in (SKIRMISH, *MISSIONS, PW, SC, *NQ_PZ, *PW_PZ, *SC_PZ):
    KWARG_ROWS += [
        _row(_entry, {"bad": 1}, TypeError, "bad"),
        _row(_entry, {"illegal_action": "explode"}, ValueError, "illegal_action", "explode"),
        _row(_entry, {"illegal_action": 3}, ValueError, "illegal_action"),
        _row(_entry, {"illegal_penalty": "x"}, EnvArgumentError, "illegal_penalty"),
        _row(_entry, {"illegal_penalty": float("nan")}, EnvArgumentError, "illegal_penalty"),
    ]
for _entry in (SKIRMISH, *MISSIONS, PW, SC):
    KWARG_ROWS.append(_row(_entry, {"render_mode": "bogus"}, ValueError, "render_mode"))
for _entry in (*NQ_PZ, *PW_PZ, *SC_PZ):
    # "human" is accepted: PettingZoo's render_test builds every env with it
    KWARG_ROWS.append(_row(_entry, {"render_mode": "bogus"}, ValueError, "render_mode"))
KWARG_ROWS += [
    # scenario names
    *[_row(e, {"scenario": "nope"}, TableError, "nope") for e in MISSIONS],
    _row(PW, {"scenario": "nope"}, ValueError, "scenario", "nope"),
    _row(SC, {"scenario": "nope"}, RulesError, "scenario", "nope"),
    *[_row(e, {"scenario": "nope"}, ValueError, "scenario", "nope") for e in PW_PZ],
    *[_row(e, {"scenario": "nope"}, RulesError, "scenario", "nope") for e in SC_PZ],
    _row(SKIRMISH, {"scenario": "nope"}, TypeError, "scenario"),
    _row(PATROL, {"scenario": "skirmish"}, ValueError, "skirmish", "patrol"),
    _row(PATROL, {"scenario": 3}, TableError, "3"),
    # turn limits
    *[_row(e, {"max_turns": -1}, TableError, "turn_limit", "-1") for e in MISSIONS],
    *[_row(e, {"max_turns": "x"}, TableError, "turn_limit", "'x'") for e in MISSIONS],
    *[_row(e, {"max_turns": 1.5}, TableError, "turn_limit", "1.5") for e in MISSIONS],
    *[_row(e, {"max_turns": -1}, EnvArgumentError, "max_turns", "-1") for e in NQ_PZ],
    *[_row(e, {"max_turns": "x"}, EnvArgumentError, "max_turns", "'x'") for e in NQ_PZ],
    *[_row(e, {"max_turns": 1.5}, EnvArgumentError, "max_turns", "1.5") for e in NQ_PZ],
    _row(SKIRMISH, {"max_turns": -1}, ValueError, "max_turns"),
    _row(SKIRMISH, {"max_turns": "x"}, ValueError, "max_turns"),
    _row(SKIRMISH, {"max_turns": 1.5}, ValueError, "max_turns"),
    _row(PW, {"max_turns": -1}, ValueError, "max_turns"),
    _row(PW, {"max_turns": "x"}, ValueError, "max_turns"),
    *[_row(e, {"max_turns": 0}, ValueError, "max_turns") for e in PW_PZ],
    *[_row(e, {"max_turns": "x"}, ValueError, "max_turns") for e in PW_PZ],
    # forces
    _row(SKIRMISH, {"factions": ("nope", "hishen")}, ValueError, "nope"),
    *[
        _row(e, {"factions": ("nope", "hishen")}, EnvArgumentError, "factions[0]", "nope")
        for e in NQ_PZ
    ],
    *[_row(e, {"factions": "hishen"}, EnvArgumentError, "factions") for e in NQ_PZ],
    *[_row(e, {"mechs_per_side": 0}, EnvArgumentError, "mechs_per_side") for e in NQ_PZ],
    *[_row(e, {"mechs_per_side": -2}, EnvArgumentError, "mechs_per_side") for e in NQ_PZ],
    *[_row(e, {"stars": -1}, EnvArgumentError, "stars") for e in NQ_PZ],
    *[_row(e, {"max_mechs": 0}, EnvArgumentError, "max_mechs") for e in (*NQ_PZ, PATROL)],
    *[_row(e, {"cell": 0}, EnvArgumentError, "cell") for e in (*NQ_PZ, PATROL)],
    _row(SKIRMISH, {"mechs_per_side": 0}, ValueError, "mechs_per_side"),
    _row(SKIRMISH, {"mechs_per_side": -2}, ValueError, "mechs_per_side"),
    _row(SKIRMISH, {"stars": -1}, ValueError, "stars"),
    # options dicts
    _row(SKIRMISH, {"battle_options": {"nope": 1}}, EnvArgumentError, "battle_options", "nope"),
    _row(SKIRMISH, {"rules_options": {"nope": 1}}, EnvArgumentError, "rules_options", "nope"),
    _row(SKIRMISH, {"battle_options": {"lucky": "maybe"}}, ValueError, "lucky"),
    *[_row(e, {"battle_options": {"nope": 1}}, EnvArgumentError, "nope") for e in NQ_PZ],
    *[_row(e, {"battle_options": {"lucky": "maybe"}}, EnvArgumentError, "lucky") for e in NQ_PZ],
    _row(SKIRMISH, {"battle_options": {"marksman": "sometimes"}}, ValueError, "marksman"),
    *[
        _row(e, {"battle_options": {"marksman": "x"}}, EnvArgumentError, "marksman")
        for e in NQ_PZ
    ],
    _row(SKIRMISH, {"battle_options": {"unseen_bases": "maybe"}}, ValueError, "unseen_bases"),
    *[
        _row(e, {"battle_options": {"unseen_bases": "x"}}, EnvArgumentError, "unseen_bases")
        for e in NQ_PZ
    ],
    *[
        _row(e, {"options": {"battle": {"unseen_bases": "x"}}}, TableError, "unseen_bases")
        for e in MISSIONS
    ],
    _row(
        "wargym/NoQuarter-CestusV-v1",
        {"unseen_bases": "x", "max_missions": 1},
        EnvArgumentError,
        "unseen_bases",
    ),
    *[
        _row(e, {"battle_options": {"max_turns": "x"}}, EnvArgumentError, "max_turns")
        for e in NQ_PZ
    ],
    *[_row(e, {"rules_options": {"nope": 1}}, EnvArgumentError, "nope") for e in NQ_PZ],
    *[
        _row(e, {"rules_options": {"strict_mounting": 1}}, EnvArgumentError, "strict_mounting")
        for e in NQ_PZ
    ],
    *[_row(e, {"options": {"nope": 1}}, TableError, "options.nope") for e in MISSIONS],
    *[_row(e, {"options": {"battle": {"nope": 1}}}, TableError, "nope") for e in MISSIONS],
    *[_row(e, {"options": 3}, TableError, "options") for e in MISSIONS],
    *[_row(e, {"player": {"faction": "nope"}}, TableError, "nope") for e in MISSIONS],
    *[
        _row(e, {"options": {"nope": 1}}, EnvArgumentError, "options", "nope")
        for e in (SC, *SC_PZ, PW, *PW_PZ)
    ],
    # the advice rows' advisor (wargym.agents.advisor.TacticalAdvisor is the real one)
    *[
        _row(
            e,
            {"advisor": "wargym.agents.advisor:TacticalAdvisor"},
            EnvArgumentError,
            "advisor",
            "action_features",
        )
        for e in (SKIRMISH, *NQ_PZ)
    ],
    *[
        _row(e, {"action_features": True, "advisor": 42}, EnvArgumentError, "advisor", "42")
        for e in (SKIRMISH, *NQ_PZ)
    ],
    *[
        _row(
            e,
            {"action_features": True, "advisor": "nowhere:Nothing"},
            EnvArgumentError,
            "advisor",
            "nowhere:Nothing",
        )
        for e in (SKIRMISH, *NQ_PZ)
    ],
    # reward shaping
    *[
        _row(e, {"reward_shaping": {"nope": 1.0}}, ValueError, "nope")
        for e in (SKIRMISH, *MISSIONS, *NQ_PZ)
    ],
    *[
        _row(e, {"reward_shaping": "x"}, ValueError, "reward_shaping")
        for e in (SKIRMISH, *MISSIONS, *NQ_PZ)
    ],
    *[
        _row(e, {"reward_shaping": {"armor_lost": "x"}}, EnvArgumentError, "armor_lost")
        for e in (PATROL, *NQ_PZ)
    ],
    _row(SKIRMISH, {"reward_shaping": {"armor_lost": "x"}}, ValueError, "armor_lost"),
    _row(PW, {"reward_shaping": {"nope": 1.0}}, ValueError, "reward_shaping"),
    *[_row(e, {"reward_shaping": "x"}, ValueError, "reward_shaping") for e in PW_PZ],
    # opponents
    _row(SKIRMISH, {"opponent": "nope"}, ValueError, "opponent", "nope"),
    *[_row(e, {"opponent": "nope"}, ValueError, "opponent", "nope") for e in MISSIONS],
    _row(
        "wargym/NoQuarter-CestusV-v1",
        {"opponent": "nope", "max_missions": 1},
        EnvArgumentError,
        "opponent",
        "nope",
    ),
    _row(PW, {"opponent": "nope"}, ValueError, "opponent", "nope"),
]
# -- bounds (issue 21 items 6, 12): EnvArgumentError naming the argument and the range --------
CESTUS = "wargym/NoQuarter-CestusV-v1"
NQ_SKIRMISHES = (SKIRMISH, *NQ_PZ)
NQ_ALL = (SKIRMISH, *MISSIONS, *NQ_PZ)
NAN = float("nan")
BOUND_ERRORS = (EnvArgumentError, TableError)  # the env's bounds, or the scenario's own check
KWARG_ROWS += [
    *[
        _row(e, {"battle_options": {"max_turns": 0}}, EnvArgumentError, "max_turns", "[1, 100]")
        for e in NQ_SKIRMISHES
    ],
    *[_row(e, {"max_turns": 10**6}, EnvArgumentError, "max_turns", "[1, 100]") for e in NQ_ALL],
    *[_row(e, {"max_mechs": 10**6}, EnvArgumentError, "max_mechs", "64") for e in NQ_ALL],
    *[_row(e, {"max_weapons": 10**6}, EnvArgumentError, "max_weapons", "32") for e in NQ_ALL],
    *[_row(e, {"max_buildings": 10**6}, EnvArgumentError, "max_buildings") for e in NQ_ALL],
    *[_row(e, {"cell": 1e-4}, EnvArgumentError, "cell", "0.25") for e in NQ_ALL],
    *[_row(e, {"cell": 1e6}, EnvArgumentError, "cell", "12") for e in NQ_ALL],
    *[_row(e, {"cell": NAN}, EnvArgumentError, "cell") for e in NQ_ALL],
    *[
        _row(e, {"mechs_per_side": 10**5}, EnvArgumentError, "mechs_per_side", "32")
        for e in NQ_SKIRMISHES
    ],
    *[
        _row(e, {"mechs_per_side": 3, "stars": 4}, EnvArgumentError, "stars", "[0, 3]")
        for e in NQ_SKIRMISHES
    ],
    *[
        _row(e, {"mechs_per_side": 4, "max_mechs": 2}, EnvArgumentError, "max_mechs")
        for e in NQ_SKIRMISHES
    ],
    *[
        _row(e, {"battle_options": {"base_radius": v}}, EnvArgumentError, "base_radius", "1.0")
        for e in NQ_SKIRMISHES
        for v in (0, 30, 1e6)
    ],
    *[
        _row(e, {"options": {"battle": {"base_radius": 1e6}}}, EnvArgumentError, "base_radius")
        for e in MISSIONS
    ],
    *[
        _row(e, {"battle_options": {"move_directions": v}}, EnvArgumentError, "move_directions")
        for e in NQ_SKIRMISHES
        for v in (10**5, 0, 15)
    ],
    *[
        _row(e, {"battle_options": {"move_fractions": v}}, EnvArgumentError, "move_fractions")
        for e in NQ_SKIRMISHES
        for v in ([NAN, 0.5], [], [-1], "ab", [0.5] * 9, [1.5], 0.5)
    ],
    *[
        _row(e, {"options": {"battle": {"move_fractions": [NAN]}}}, BOUND_ERRORS, "move_fractions")
        for e in MISSIONS[:1]
    ],
    *[
        _row(CESTUS, {"max_missions": 1, k: v}, EnvArgumentError, k, str(r))
        for k, v, r in (
            ("max_mechs", 10**6, 64),
            ("cell", 1e-4, 0.25),
            ("max_company", 10**7, 128),
            ("max_spares", 10**7, 64),
            ("max_turns", 10**9, 100),
            ("carry", 10**9, 5),
            ("max_weapons", 10**6, 32),
        )
    ],
    _row(CESTUS, {"max_missions": 10**9}, EnvArgumentError, "max_missions", "100"),
    _row(CESTUS, {"max_missions": 1, "rules_options": {"nope": 1}}, EnvArgumentError, "nope"),
    _row(
        CESTUS,
        {"max_missions": 1, "reward_shaping": {"mission_success": "x"}},
        EnvArgumentError,
        "mission_success",
    ),
    *[_row(e, {"max_turns": 10**12}, EnvArgumentError, "max_turns", "100") for e in (PW, *PW_PZ)],
    *[
        _row(e, {"options": {k: 10**12}}, EnvArgumentError, f"options.{k}", str(r))
        for e in (PW, *PW_PZ)
        for k, r in (("map_radius", 200), ("missile_magazine", 100), ("max_turns", 100))
    ],
    *[
        _row(e, {"options": {"max_rounds": 10**12}}, EnvArgumentError, "max_rounds", "100")
        for e in (SC, *SC_PZ)
    ],
]


@pytest.mark.parametrize(("entry", "kwargs", "error", "words"), KWARG_ROWS)
def test_bad_env_kwarg(
    entry: str, kwargs: dict[str, Any], error: type[Exception], words: tuple[str, ...]
) -> None:
    with pytest.raises(error) as info:
        build(entry, **kwargs)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


# -- actions ------------------------------------------------------------------------------
def engine_state(env: Any) -> str:
    """The engine state of an env (any wrapper) as canonical JSON."""
    base = getattr(env, "unwrapped", env)
    state = next(
        getattr(base, name)
        for name in ("_battle", "_state")
        if getattr(base, name, None) is not None
    )
    return json.dumps(state.to_dict(), sort_keys=True, default=str)


MALFORMED: list[tuple[str, Any]] = [
    ("float", 1.5),
    ("str", "3"),
    ("array_shape_2", np.array([1, 2])),
    ("bool", True),
    ("np_float", np.float32(2.0)),
    ("float_array", np.array(1.0)),
    ("list", [1]),
    # only integer kinds 'i'/'u' are indices (timedelta64 is a numpy integer subclass)
    ("timedelta64", np.timedelta64(1, "s")),
    ("datetime64", np.datetime64(1, "D")),
    ("np_bool", np.bool_(True)),
    ("complex", 1 + 0j),
    ("object_array", np.array(1, dtype=object)),
    ("timedelta_array", np.array(1, dtype="m8[s]")),
    ("bool_array", np.array(True)),
]
OUT_OF_RANGE: list[tuple[str, Any]] = [
    ("none", None),
    ("negative", -1),
    ("n", "n"),
    ("huge", 10**9),
]
GYM_ACTION_ENVS = (SKIRMISH, PATROL, PW, SC)
AEC_ENVS = ("no_quarter_v1.env", "pentagon_war_v0.env", "starship_combat_v0.env")


def _action_row(entry: str, label: str, action: Any, fix: str = ""):
    marks = [pytest.mark.xfail(strict=True, reason=f"needs fix in {fix}")] if fix else []
    return pytest.param(entry, action, id=f"{entry}.step:{label}", marks=marks)


MALFORMED_ROWS = [
    _action_row(e, label, a) for e in (*GYM_ACTION_ENVS, *AEC_ENVS) for label, a in MALFORMED
]


def _current(env: Any) -> tuple[Any, Callable[[Any], Any]]:
    """(state key, a function stepping ``env`` with one action of the acting agent)."""
    if hasattr(env, "agent_selection"):
        return env.agent_selection, env.step
    return None, env.step


@pytest.mark.parametrize(("entry", "action"), MALFORMED_ROWS)
def test_malformed_action_raises_whatever_the_policy(entry: str, action: Any) -> None:
    env = build(entry, illegal_action="noop")
    before = engine_state(env)
    with pytest.raises(InvalidActionError) as info:
        env.step(action)
    assert "action" in str(info.value) and type(action).__name__ in str(info.value)
    assert engine_state(env) == before


def _n(env: Any) -> int:
    """``n`` of the acting agent's ``Discrete`` space (PettingZoo: a method per agent)."""
    space = env.action_space
    if callable(space):
        space = space(env.agent_selection)
    return int(space.n)


ILLEGAL_ROWS = []
for _entry in (*GYM_ACTION_ENVS, *AEC_ENVS):
    for _label, _action in OUT_OF_RANGE:
        ILLEGAL_ROWS.append(_action_row(_entry, _label, _action))


def _resolve(env: Any, action: Any) -> Any:
    return _n(env) if isinstance(action, str) else action


@pytest.mark.parametrize(("entry", "action"), ILLEGAL_ROWS)
def test_illegal_action_raise_mode_names_action_and_keeps_state(entry: str, action: Any) -> None:
    env = build(entry, illegal_action="raise")
    action = _resolve(env, action)
    before = engine_state(env)
    with pytest.raises(IllegalActionError) as info:
        env.step(action)
    assert f"action {action}" in str(info.value) or f"action {action!r}" in str(info.value)
    assert engine_state(env) == before


@pytest.mark.parametrize(("entry", "action"), ILLEGAL_ROWS)
def test_illegal_action_noop_mode_penalises_and_keeps_state(entry: str, action: Any) -> None:
    env = build(entry, illegal_action="noop", illegal_penalty=-0.5)
    action = _resolve(env, action)
    before = engine_state(env)
    agent, step = _current(env)
    result = step(action)
    if agent is None:
        _obs, reward, terminated, _truncated, info = result
        assert info["illegal_action"] is True and not terminated
    else:
        reward = env.rewards[agent]
        assert env.infos[agent]["illegal_action"] is True
    assert reward == pytest.approx(-0.5)
    assert engine_state(env) == before


PARALLEL_CASES = (
    ("not_a_dict", [0, 1], InvalidActionError, "dict"),
    ("unknown_agent", {"nobody": 0}, InvalidActionError, "nobody"),
    ("float", "FLOAT", InvalidActionError, "float"),
)
PARALLEL_ROWS = [
    pytest.param(e, bad, error, word, id=f"{e}.step:{label}")
    for e in ("no_quarter_v1.parallel_env", "starship_combat_v0.parallel_env", *PW_PZ[1:])
    for label, bad, error, word in PARALLEL_CASES
]


@pytest.mark.parametrize(("entry", "actions", "error", "word"), PARALLEL_ROWS)
def test_parallel_bad_actions(entry: str, actions: Any, error: type[Exception], word: str) -> None:
    env = build(entry, illegal_action="noop")
    if actions == "FLOAT":
        actions = dict.fromkeys(env.agents, 0.5)
    before = engine_state(env)
    with pytest.raises(error) as info:
        env.step(actions)
    assert word in str(info.value)
    assert engine_state(env) == before


# -- issue 21 item 12: use before reset, huge values quoted short ----------------------------
def _before_reset_rows() -> list[Any]:
    rows = []
    for entry in (*GYM_ACTION_ENVS, CESTUS):
        rows += [(entry, "step()", lambda e: e.unwrapped.step(0))]
        rows += [(entry, "action_masks()", lambda e: e.unwrapped.action_masks())]
    for entry in AEC_ENVS:
        rows += [
            (entry, "step()", lambda e: e.step(0)),
            (entry, "observe()", lambda e: e.observe(e.possible_agents[0])),
            (entry, "last()", lambda e: e.last()),
            (entry, "state()", lambda e: e.state()),
        ]
    for entry in (NQ_PZ[1], PW_PZ[1], SC_PZ[1]):
        rows += [
            (entry, "step()", lambda e: e.step(dict.fromkeys(e.possible_agents, 0))),
            (entry, "state()", lambda e: e.state()),
        ]
    return [pytest.param(e, c, f, id=f"{e}:{c}") for e, c, f in rows]


@pytest.mark.parametrize(("entry", "call", "use"), _before_reset_rows())
def test_use_before_reset_raises_not_reset_error(
    entry: str, call: str, use: Callable[[Any], Any]
) -> None:
    from wargym.envs.base import NotResetError

    kwargs = {"max_missions": 1} if entry == CESTUS else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if entry.startswith("wargym/"):
            env = gymnasium.make(entry, **kwargs)
        else:
            name, ctor = entry.split(".")
            env = getattr(wargym.envs.pettingzoo_module(name), ctor)()
    with pytest.raises(NotResetError) as info:
        use(env)
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, RulesError)
    assert call in str(info.value) and "reset()" in str(info.value)


@pytest.mark.parametrize("entry", AEC_ENVS)
@pytest.mark.parametrize("agent", ["nobody", None, 3, "x" * 10_000_000])
def test_observe_an_unknown_agent_names_the_argument(entry: str, agent: Any) -> None:
    """``observe`` of a name that is no agent: EnvArgumentError naming ``agent`` (a ValueError,
    as PettingZoo callers expect), the value cut short; the env still plays."""
    name, ctor = entry.split(".")
    env = getattr(wargym.envs.pettingzoo_module(name), ctor)()
    env.reset(seed=0)
    before = env.observe(env.agent_selection)
    with pytest.raises(EnvArgumentError) as info:
        env.observe(agent)
    assert isinstance(info.value, ValueError)
    assert "agent" in str(info.value) and len(str(info.value)) < 300
    after = env.observe(env.agent_selection)
    assert all(np.array_equal(before[k], after[k]) for k in before)


HUGE = "x" * 10_000_000
HUGE_ROWS = [
    *[
        pytest.param(e, {"illegal_action": HUGE}, id=f"{e}:illegal_action")
        for e in (SKIRMISH, PATROL, PW, SC, *NQ_PZ, *PW_PZ, *SC_PZ)
    ],
    *[
        pytest.param(e, {"render_mode": HUGE}, id=f"{e}:render_mode")
        for e in (SKIRMISH, PW, SC, *NQ_PZ, *PW_PZ, *SC_PZ)
    ],
    *[
        pytest.param(e, kw, id=f"{e}:{next(iter(kw))}")
        for e in NQ_PZ
        for kw in (
            {"factions": (HUGE, "hishen")},
            {"battle_options": {HUGE: 1}},
            {"battle_options": {"lucky": HUGE}},
            {"reward_shaping": {"armor_lost": HUGE}},
            {"max_mechs": HUGE},
            {"cell": HUGE},
            {"battle_options": {"move_fractions": [HUGE]}},
        )
    ],
    *[pytest.param(e, {"scenario": HUGE}, id=f"{e}:scenario") for e in (PW, *PW_PZ)],
    *[pytest.param(e, {"options": {HUGE: 1}}, id=f"{e}:options") for e in (PW, SC, *SC_PZ)],
    pytest.param(CESTUS, {"faction": HUGE, "max_missions": 1}, id="cestus:faction"),
    pytest.param(CESTUS, {"opponent": HUGE, "max_missions": 1}, id="cestus:opponent"),
    *[pytest.param(e, {"opponent": HUGE}, id=f"{e}:opponent") for e in (SKIRMISH, PATROL)],
]
HUGE_TABLE_ROWS = [
    pytest.param(PATROL, kw, id=f"{PATROL}:{name}")
    for name, kw in (
        ("scenario", {"scenario": HUGE}),
        ("player.faction", {"player": {"faction": HUGE}}),
        ("options.key", {"options": {HUGE: 1}}),
        ("options.battle.key", {"options": {"battle": {HUGE: 1}}}),
        ("options.battle.lucky", {"options": {"battle": {"lucky": HUGE}}}),
        ("enemy.key", {"enemy": {HUGE: 1}}),
    )
]


@pytest.mark.parametrize(("entry", "kwargs"), HUGE_TABLE_ROWS)
def test_mission_scenario_errors_quote_huge_values_short(
    entry: str, kwargs: dict[str, Any]
) -> None:
    with pytest.raises(TableError) as info:
        build(entry, **kwargs)
    assert len(str(info.value)) <= 400 and "xxxxx" in str(info.value)


@pytest.mark.parametrize(
    ("entry", "kwargs", "word"),
    [
        (SKIRMISH, {"max_mechs": 10**6}, "max_mechs"),
        (PATROL, {"cell": 1e-4}, "cell"),
        (PW, {"max_turns": 10**6}, "max_turns"),
        (SC, {"options": {"max_rounds": 10**6}}, "max_rounds"),
    ],
)
def test_make_vec_checks_the_env_kwargs(entry: str, kwargs: dict[str, Any], word: str) -> None:
    with warnings.catch_warnings(), pytest.raises(EnvArgumentError) as info:
        warnings.simplefilter("ignore")
        gymnasium.make_vec(entry, num_envs=2, vectorization_mode="sync", **kwargs)
    assert word in str(info.value)


@pytest.mark.parametrize(("entry", "kwargs"), HUGE_ROWS)
def test_error_messages_quote_huge_values_short(entry: str, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as info:
        build(entry, **kwargs)
    assert len(str(info.value)) < 600, str(info.value)[:200]
    assert "xxxxx" in str(info.value) or "str" in str(info.value)


HUGE_ACTIONS: list[tuple[str, Any, type[Exception]]] = [
    ("huge_int", 10**5000, IllegalActionError),  # str() of it raises ValueError
    ("big_array", np.zeros(1_000_000, dtype=np.int64), InvalidActionError),
    ("huge_str", HUGE, InvalidActionError),
]


@pytest.mark.parametrize(
    ("entry", "action", "error"),
    [
        pytest.param(e, a, err, id=f"{e}:{label}")
        for e in (*GYM_ACTION_ENVS, *AEC_ENVS)
        for label, a, err in HUGE_ACTIONS
    ],
)
def test_action_messages_quote_huge_actions_short(
    entry: str, action: Any, error: type[Exception]
) -> None:
    env = build(entry, illegal_action="raise")
    before = engine_state(env)
    with pytest.raises(error) as info:
        env.step(action)
    assert "action" in str(info.value) and len(str(info.value)) < 600
    assert engine_state(env) == before


def test_short_repr_bounds_every_value() -> None:
    from wargym.rules.errors import short_repr

    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    assert short_repr(5) == "5" and short_repr("ab") == "'ab'"
    for value in (HUGE, HUGE.encode(), list(range(10**6)), {i: i for i in range(10**5)},
                  np.zeros(10**6), 10**5000, Broken()):  # fmt: skip
        text = short_repr(value)
        assert len(text) <= 80, text
    assert short_repr(HUGE, 20) == "'" + "x" * 16 + "..."
    assert short_repr(Broken()) == "<Broken object>"


def test_largest_allowed_skirmish_builds_resets_and_steps() -> None:
    """The documented maximums build a working env (the bounds are not too tight)."""
    env = build(
        SKIRMISH,
        mechs_per_side=32,
        max_mechs=64,
        stars=32,
        max_turns=100,
        max_weapons=32,
        max_buildings=64,
        cell=0.25,
        action_features=True,
        battle_options={"base_radius": 1.0, "move_directions": 64, "move_fractions": [1.0] * 8},
    )
    mask = env.unwrapped.action_masks()
    assert mask.any()
    _obs, _r, _term, _cut, info = env.step(int(np.flatnonzero(mask)[0]))
    assert info["illegal_action"] is False


def test_opponent_agent_index_must_be_an_integer_kind() -> None:
    """An opponent agent's ``act`` answer is an action like the agent's own (was: int())."""

    class TimedeltaAgent:
        def act(self, observation: Any, action_mask: np.ndarray) -> Any:
            return np.timedelta64(int(np.flatnonzero(action_mask)[0]), "s")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make(SKIRMISH, opponent=TimedeltaAgent())
    with pytest.raises(InvalidActionError) as info:
        obs, _ = env.reset(seed=0)
        for _ in range(500):
            obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "timedelta64" in str(info.value)
