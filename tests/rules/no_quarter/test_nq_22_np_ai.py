"""The NP enemy: tactics tables, movement goals and np_decide on real battles (§22, §20.5)."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import TableError
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Action,
    ActivateGroup,
    AssignFire,
    Charge,
    Decision,
    DecisionKind,
    DeclareMelee,
    FightMech,
    FireFirst,
    FreeMove,
    FreeWill,
    Move,
    Stay,
)
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle, new_skirmish
from wargym.rules.no_quarter.forces.vocab import Faction, Location, MeleeAttack, Side, Terrain
from wargym.rules.no_quarter.non_player.enemy import (
    MoveOrder,
    NpContext,
    NpGroupState,
    NpObjective,
    NpOptions,
    NpPosture,
    defend_goal,
    fighting_withdrawal_move,
    known_enemies,
    np_attack_move,
    np_decide,
    np_defend_move,
    np_patrol_reaction,
    on_flank_or_rear,
    parse_tactics,
    pursue_objective,
    reached_edge,
    secret_objective,
)
from wargym.rules.no_quarter.non_player.pef import Spotter
from wargym.rules.no_quarter.sight_movement.perception import line_between
from wargym.rules.tables import load_config, parse_yaml

OPEN = Battlefield()


# -- tables ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("faces", "posture", "after"),
    [
        ((1, 3), NpPosture.DEFEND, "resume_patrol"),
        ((2, 5), NpPosture.DEFEND, "withdraw"),
        ((4, 6), NpPosture.WITHDRAW, "none"),
    ],
)
def test_22_1_6_patrol_reaction_vs_campaign_morale(
    faces: tuple[int, int], posture: NpPosture, after: str
) -> None:
    result = np_patrol_reaction(ScriptedDice(list(faces)), 3)
    assert (result.faces, result.posture, result.after_beaten) == (faces, posture, after)


def test_22_1_6_morale_above_six_always_passes() -> None:
    assert np_patrol_reaction(ScriptedDice([6, 6]), 6).passes == 2


@pytest.mark.parametrize(
    ("faces", "rep", "order"),
    [((1, 4), 4, MoveOrder.FULL), ((3, 5), 4, MoveOrder.HALF), ((5, 6), 4, MoveOrder.NONE)],
)
def test_22_2_6_and_22_3_7_movement_tables(
    faces: tuple[int, int], rep: int, order: MoveOrder
) -> None:
    defend = np_defend_move(ScriptedDice(list(faces)), rep)
    attack = np_attack_move(ScriptedDice(list(faces)), rep)
    assert (defend.table, defend.order) == ("22.2.6", order)
    assert (attack.table, attack.order) == ("22.3.7", order)


@pytest.mark.parametrize(
    ("control", "face", "objective"),
    [
        ("contests", 2, NpObjective.DESTROY),  # D29
        ("controls", 5, NpObjective.BREAK_THROUGH),  # D30
        ("controls", 4, NpObjective.DESTROY),
        ("contests", 3, NpObjective.BREAK_THROUGH),
        ("no_campaign", 3, NpObjective.DESTROY),
        ("no_campaign", 4, NpObjective.BREAK_THROUGH),
    ],
)
def test_22_3_1_secret_objective(control: str, face: int, objective: NpObjective) -> None:
    roll = secret_objective(ScriptedDice([face]), control)  # type: ignore[arg-type]
    assert roll.objective is objective and roll.face == face


GROUP = [Spotter(10, (18, 30), facing=270.0)]  # facing south
FRONT = Spotter(1, (18, 22))  # straight ahead, 8" away
FLANK = Spotter(2, (26, 30))  # 90 degrees off, 8" away
FAR_FLANK = Spotter(3, (18, 44))  # behind but 14" away


def test_22_3_6_flank_or_rear_is_more_than_45_degrees_off_facing() -> None:
    assert not on_flank_or_rear(GROUP, FRONT.pos)
    assert on_flank_or_rear(GROUP, FLANK.pos)
    assert not on_flank_or_rear(GROUP, (20, 22))  # 14 degrees off


def test_22_3_6_pass_2_keeps_the_objective() -> None:
    assert pursue_objective(ScriptedDice([1, 2]), 4, GROUP, [FRONT, FLANK]).target is None


def test_22_3_6_pass_1_only_flank_or_rear_within_12() -> None:
    assert pursue_objective(ScriptedDice([1, 6]), 4, GROUP, [FRONT, FLANK]).target == 2
    assert pursue_objective(ScriptedDice([1, 6]), 4, GROUP, [FRONT, FAR_FLANK]).target is None


def test_22_3_6_pass_0_any_within_12_flank_preferred() -> None:
    assert pursue_objective(ScriptedDice([5, 6]), 4, GROUP, [FRONT]).target == 1
    assert pursue_objective(ScriptedDice([5, 6]), 4, GROUP, [FRONT, FLANK]).target == 2
    assert pursue_objective(ScriptedDice([5, 6]), 4, GROUP, [FAR_FLANK]).target is None


def test_22_1_6_fighting_withdrawal_goal() -> None:
    assert fighting_withdrawal_move(OPEN, (18, 10), 8, "north") == (18, 18)
    assert fighting_withdrawal_move(OPEN, (18, 30), 8, "north") == (18, 35.5)
    wood = Feature(Terrain.WOODS, 19, 17, 24, 22)
    assert fighting_withdrawal_move(Battlefield(features=(wood,)), (18, 10), 8, "north") == (
        19.0,
        17.5,
    )
    assert reached_edge(OPEN, (18, 35.5), "north") and not reached_edge(OPEN, (18, 30), "north")


def test_22_2_6_defend_goal_between_enemy_and_own_edge() -> None:
    cands = [(5.0, 5.0), (22.5, 19.0), (18.0, 20.0)]
    goal = defend_goal(OPEN, cands, (18, 10), "north", origin=(18, 30))
    assert goal == (18.0, 20.0)  # (5, 5) is farther from the north edge than the enemy
    wood = Feature(Terrain.WOODS, 22, 18, 26, 22)
    goal = defend_goal(Battlefield(features=(wood,)), cands, (18, 10), "north", origin=(18, 30))
    assert goal == (22.5, 19.0)  # in the wood's edge band: cover beats closer to the line


def test_22_tactics_loader_names_file_and_key() -> None:
    data = load_config("rules/no_quarter/np_tactics.yaml").value
    data["attack_objective"]["controls"]["destroy"] = [1, 3]
    with pytest.raises(TableError, match=r"np_tactics.yaml: attack_objective.controls"):
        parse_tactics(parse_yaml(yaml.safe_dump(data), "np_tactics.yaml"))
    data = load_config("rules/no_quarter/np_tactics.yaml").value
    data["defend_movement"][2] = "sprint"
    with pytest.raises(TableError, match=r"defend_movement.2"):
        parse_tactics(parse_yaml(yaml.safe_dump(data), "np_tactics.yaml"))


# -- np_decide on hand-built positions -------------------------------------------------------
def _battle(blue: int = 1, red: int = 3, bf: Battlefield = OPEN) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * blue, use_attributes=False),
        ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",) * red, use_attributes=False),
    ]
    battle = new_battle(forces, bf, np.random.default_rng(0), RandomDice.from_seed(0))
    battle.turn = 1
    for mech in battle.mechs.values():
        battle.group_of[mech.id] = min(m.id for m in battle.mechs.values() if m.team == mech.team)
    return battle


def _fresh(battle: Battle) -> None:
    """Drop the battle's caches after a test moved mechs by hand."""
    battle.options_cache = None
    if hasattr(battle, "geometry_cache"):
        battle.geometry_cache = None


def _place(battle: Battle, positions: dict[int, tuple[float, float]]) -> None:
    for mech_id, pos in positions.items():
        battle.mechs[mech_id].pos = pos
    _fresh(battle)


def _ask(battle: Battle, kind: DecisionKind, mech: int | None = None) -> None:
    battle.decision = Decision(Side.RED, kind, mech)


def test_22_4_activates_group_farthest_from_the_player_and_rolls() -> None:
    battle = _battle(blue=1, red=6)
    # blue 0; red team A = 1, 2, 3 near; team B = 4, 5, 6 far
    _place(battle, {0: (18, 4), 1: (16, 16), 2: (18, 16), 3: (20, 16)})
    _place(battle, {4: (4, 32), 5: (6, 32), 6: (8, 32)})
    _ask(battle, DecisionKind.ACTIVATE_GROUP)
    context = NpContext()  # default posture: attack
    dice = ScriptedDice([1, 2, 3, 6])  # 22.3.6 pass 2, 22.3.7 pass 1
    choice = np_decide(battle, [ActivateGroup(1), ActivateGroup(4)], context, dice)
    assert choice == ActivateGroup(4)
    state = context.groups[battle.mechs[4].team]
    assert state.order is MoveOrder.HALF and state.activation == (1, 4)
    (logged,) = context.rolls
    assert logged.pursuit is not None and logged.pursuit.faces == (1, 2)
    assert logged.move is not None and logged.move.faces == (3, 6)


def test_22_4_those_with_los_fire_others_move_toward_the_enemy() -> None:
    battle = _battle()
    _place(battle, {0: (18, 10), 1: (18, 30), 2: (30, 34), 3: (4, 34)})
    red = battle.mechs[1]
    context = NpContext(groups={red.team: NpGroupState(order=MoveOrder.FULL, activation=(1, 1))})
    _ask(battle, DecisionKind.MECH_ACTION, 1)
    fire = FireFirst(1)
    moves: list[Action] = [Stay(1), Move(1, (18, 26)), Move(1, (22, 30)), fire]
    assert np_decide(battle, moves, context, ScriptedDice([])) == fire
    moves.remove(fire)
    assert np_decide(battle, moves, context, ScriptedDice([])) == Move(1, (18, 26))
    red.fired_this_activation = True
    assert np_decide(battle, moves, context, ScriptedDice([])) == Stay(1)


def test_22_4_no_move_order_stays_and_half_speed_caps_the_move() -> None:
    battle = _battle()
    _place(battle, {0: (18, 10), 1: (18, 30), 2: (30, 34), 3: (4, 34)})
    team = battle.mechs[1].team
    speed = battle.mechs[1].speed
    moves: list[Action] = [Stay(1), Move(1, (18, 30 - speed)), Move(1, (18, 30 - speed / 2))]
    _ask(battle, DecisionKind.MECH_ACTION, 1)
    none = NpContext(groups={team: NpGroupState(order=MoveOrder.NONE, activation=(1, 1))})
    assert np_decide(battle, moves, none, ScriptedDice([])) == Stay(1)
    half = NpContext(groups={team: NpGroupState(order=MoveOrder.HALF, activation=(1, 1))})
    assert np_decide(battle, moves, half, ScriptedDice([])) == Move(1, (18, 30 - speed / 2))


def test_22_4_unseen_enemy_is_not_chased() -> None:
    battle = _battle(bf=Battlefield(night=True))  # 12" night limit
    _place(battle, {0: (15, 12), 1: (15, 28), 2: (30, 34), 3: (32, 34)})
    assert known_enemies(battle, Side.RED) == []
    team = battle.mechs[1].team
    ctx = NpContext(groups={team: NpGroupState(order=MoveOrder.FULL, activation=(1, 1))})
    _ask(battle, DecisionKind.MECH_ACTION, 1)
    moves: list[Action] = [Stay(1), Move(1, (10, 24)), Move(1, (15, 24)), Move(1, (20, 24))]
    # no enemy in sight: the destroy objective heads for the enemy's home edge (straight south)
    assert np_decide(battle, moves, ctx, ScriptedDice([])) == Move(1, (15, 24))
    state = NpGroupState(NpPosture.DEFEND, order=MoveOrder.FULL, activation=(1, 1))
    hold = NpContext(groups={team: state}, options=NpOptions(unseen_defender="hold"))
    assert np_decide(battle, moves, hold, ScriptedDice([])) == Stay(1)  # option "hold" (E17)


def test_22_2_6_a_defender_seeing_no_enemy_moves_to_regain_los_of_the_nearest() -> None:
    """Ruling 22.2.6: the defender heads for a spot with LOS to the nearest player mech."""
    battle = _battle(bf=Battlefield(night=True))  # 12" night limit
    _place(battle, {0: (15, 12), 1: (15, 28), 2: (30, 34), 3: (32, 34)})
    assert known_enemies(battle, Side.RED) == []
    team = battle.mechs[1].team
    state = NpGroupState(NpPosture.DEFEND, order=MoveOrder.FULL, activation=(1, 1))
    _ask(battle, DecisionKind.MECH_ACTION, 1)
    moves: list[Action] = [Stay(1), Move(1, (10, 24)), Move(1, (15, 23)), Move(1, (20, 24))]
    # before: it held its ground (Stay); (15, 23) is 11" from blue 0: LOS regained
    choice = np_decide(battle, moves, NpContext(groups={team: state}), ScriptedDice([]))
    assert choice == Move(1, (15, 23))


def test_22_1_6_beaten_away_patrol_withdraws() -> None:
    battle = _battle()
    _place(battle, {0: (18, 2), 1: (18, 30), 2: (20, 30), 3: (22, 30)})
    wall = Feature(Terrain.BUILDING, 14, 12, 20, 16)
    battle.battlefield = Battlefield(features=(wall,))
    _fresh(battle)
    team = battle.mechs[1].team
    context = NpContext(groups={team: NpGroupState(NpPosture.DEFEND, after_beaten="withdraw")})
    _ask(battle, DecisionKind.ACTIVATE_GROUP)
    np_decide(battle, [ActivateGroup(1)], context, ScriptedDice([]))
    assert context.groups[team].posture is NpPosture.WITHDRAW
    assert context.rolls[0].beaten_away and context.rolls[0].move is None


def test_22_4_reaction_decisions() -> None:
    battle = _battle(blue=3, red=1)
    _place(battle, {0: (18, 20), 1: (18, 14), 2: (30, 10), 3: (18, 30)})
    battle.mechs[1].armor[0] -= 1  # mech 1 is damaged
    _fresh(battle)
    _ask(battle, DecisionKind.ASSIGN_FIRE, 3)
    shots: list[Action] = [AssignFire(3, 0, 1), AssignFire(3, 0, 0), AssignFire(3, 1, 0)]
    assert np_decide(battle, shots, NpContext(), ScriptedDice([])) == AssignFire(3, 0, 0)
    _ask(battle, DecisionKind.FREE_MOVE, 3)
    frees: list[Action] = [FreeMove(3, (18, 31)), FreeMove(3, None)]
    assert np_decide(battle, frees, NpContext(), ScriptedDice([])) == FreeMove(3, None)
    _ask(battle, DecisionKind.CHARGE_TARGET, 3)
    charges: list[Action] = [Charge(3, 1), Charge(3, 0)]
    assert np_decide(battle, charges, NpContext(), ScriptedDice([])) == Charge(3, 0)
    _ask(battle, DecisionKind.FREE_WILL, 3)
    wills: list[Action] = [FreeWill(3, p) for p in (0, 1, 2)]
    assert np_decide(battle, wills, NpContext(), ScriptedDice([])) == FreeWill(3, 2)
    _ask(battle, DecisionKind.MELEE_TARGET, 3)
    foes: list[Action] = [FightMech(3, 0), FightMech(3, 1)]
    assert np_decide(battle, foes, NpContext(), ScriptedDice([])) == FightMech(3, 1)
    _ask(battle, DecisionKind.MELEE_DECLARE, 3)
    red = battle.mechs[3]
    red.armor[list(Location).index(Location.ARM_L)] = 0
    limbs: list[Action] = [
        DeclareMelee(3, MeleeAttack.PUNCH, Location.ARM_L),
        DeclareMelee(3, MeleeAttack.PUNCH, Location.ARM_R),
        DeclareMelee(3, MeleeAttack.KICK, Location.LEG_L),
    ]
    strongest = max(limbs, key=lambda o: red.armor_at(o.limb) if isinstance(o, DeclareMelee) else 0)
    assert np_decide(battle, limbs, NpContext(), ScriptedDice([])) == strongest


# -- whole battles ---------------------------------------------------------------------------
POSTURES = [NpPosture.ATTACK, NpPosture.DEFEND, NpPosture.WITHDRAW, NpPosture.PATROL]


def test_22_4_np_decide_always_legal_and_battles_end() -> None:
    seen: set[DecisionKind] = set()
    for seed in range(200):
        rng = np.random.default_rng(seed)
        dice = RandomDice(np.random.default_rng(seed + 7))
        battle = new_skirmish(
            rng,
            dice,
            mechs_per_side=int(rng.integers(1, 4)),
            stars=int(rng.integers(0, 2)),
            options=BattleOptions(max_turns=8),
        )
        context = NpContext(default=NpGroupState(posture=POSTURES[seed % 4]))
        for _ in range(5000):
            decision = game.decider(battle)
            if decision is None:
                break
            options = game.legal_actions(battle)
            if decision.side is Side.RED:
                choice = np_decide(battle, options, context, dice)
                assert choice in options, (seed, decision, choice)
                seen.add(decision.kind)
            else:
                choice = options[int(rng.integers(0, len(options)))]
            game.play(battle, choice, dice)
        assert battle.over, seed
    assert {DecisionKind.ACTIVATE_GROUP, DecisionKind.MECH_ACTION, DecisionKind.ASSIGN_FIRE} <= seen


def _unseen_by_red(battle: Battle, mech_id: int) -> bool:
    blue = battle.mechs[mech_id]
    return not any(line_between(battle, red, blue).visible for red in battle.mechs_of(Side.RED))


def test_22_4_np_decide_ignores_blue_mechs_it_cannot_see() -> None:
    compared = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        dice = RandomDice(np.random.default_rng(seed + 3))
        battle = new_skirmish(rng, dice, mechs_per_side=3, options=BattleOptions(max_turns=6))
        context = NpContext()
        for _ in range(400):
            decision = game.decider(battle)
            if decision is None:
                break
            options = game.legal_actions(battle)
            if decision.side is Side.BLUE:
                game.play(battle, options[int(rng.integers(0, len(options)))], dice)
                continue
            hidden = [m.id for m in battle.mechs_of(Side.BLUE) if _unseen_by_red(battle, m.id)]
            if hidden and compared < 40:
                twin = battle.clone()
                mover = twin.mechs[hidden[0]]
                for _try in range(20):
                    spot = (float(rng.uniform(1, 35)), float(rng.uniform(1, 35)))
                    mover.pos = spot
                    _fresh(twin)
                    fine = (
                        _unseen_by_red(twin, mover.id)
                        and game.legal_actions(twin) == options
                        and all(
                            min(abs(spot[0] - r.pos[0]), abs(spot[1] - r.pos[1])) > 13
                            for r in twin.mechs_of(Side.RED)
                        )
                        and [e.id for e in known_enemies(twin, Side.RED)]
                        == [e.id for e in known_enemies(battle, Side.RED)]
                    )
                    if fine:
                        a = np_decide(
                            battle, options, copy.deepcopy(context), RandomDice.from_seed(seed)
                        )
                        b = np_decide(
                            twin, options, copy.deepcopy(context), RandomDice.from_seed(seed)
                        )
                        assert a == b, (seed, decision)
                        compared += 1
                        break
            game.play(battle, np_decide(battle, options, context, dice), dice)
    assert compared >= 20
