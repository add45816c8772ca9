"""The campaign loop as decision points, like the battle engine (§23, §24 steps 8-17).

:class:`CampaignGame` exposes ``decider()`` / ``legal_actions()`` / ``play(action, dice)`` for
the whole campaign: the player's campaign decisions (give spare pilots to Mechs, §23.9.4; pick
the Company Mechs for the next mission within its force limit, §23.2) and, while a mission is
on, the battle's own decisions (``game.decider`` etc.; the NP side is played by the rules).
When a mission ends the loop changes Campaign Morale (§23.5), checks the end (§23.3.1), finds
the next mission (§23.6, or the fixed order of §27.5) and plays the aftermath (§23.9).

Company state enters a battle through the scenario (Reps, Stars) and, for damage and pilot
attributes that the set-up cannot take, by writing them into the battle's Mechs right after
``new_mission`` (``MissionLaunched.state_applied_before_play`` is False when the rules had
already acted by then).
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from wargym.rules.dice import Dice
from wargym.rules.errors import IllegalActionError, StateError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Action, Decision
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.campaigns import campaign_events as cev
from wargym.rules.no_quarter.campaigns import campaign_rules as cr
from wargym.rules.no_quarter.campaigns.campaign import (
    Campaign,
    CampaignDefinition,
    CompanyMech,
    MechState,
    MissionRecord,
    MissionSlot,
    PilotState,
)
from wargym.rules.no_quarter.campaigns.campaign_aftermath import (
    MechReport,
    MissionTracker,
    aftermath,
    new_company_mech,
    new_company_pilot,
    seat,
)
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.pilots import AttributeChooser, roll_company_races
from wargym.rules.no_quarter.forces.setup_events import company_races_rolled
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.no_quarter.mission.mission_play import setup_mission
from wargym.rules.no_quarter.mission.missions import PlanetStatus, player_force_limit
from wargym.rules.no_quarter.mission.scenario import Scenario, SideSetup
from wargym.rules.serial import from_jsonable, to_jsonable


class CampaignDecisionKind(enum.Enum):
    """Decisions the player takes between missions (§23.2, §23.9.4)."""

    ASSIGN_PILOTS = "assign_pilots"
    """Give spare pilots to pilotless Mechs or to Mechs with a lower-Rep pilot (§23.9.4)."""
    SELECT_FORCE = "select_force"
    """Pick the Company Mechs for the next mission, within its force limit (§23.2)."""


@dataclass(frozen=True)
class CampaignDecision:
    """A campaign-level decision point of the player (always the blue side)."""

    side: Side
    kind: CampaignDecisionKind
    mech: int | None = None


@dataclass(frozen=True)
class AssignPilot:
    """Spare pilot ``pilot`` takes Company Mech ``mech`` (§23.9.4)."""

    pilot: int
    mech: int

    def __str__(self) -> str:
        return f"pilot {self.pilot} takes Mech {self.mech}"


@dataclass(frozen=True)
class EndAssignment:
    """No more pilot changes."""

    def __str__(self) -> str:
        return "keep the pilots as they are"


@dataclass(frozen=True)
class SelectMech:
    """Send Company Mech ``mech`` (with its pilot) on the next mission (§23.2)."""

    mech: int

    def __str__(self) -> str:
        return f"send Mech {self.mech}"


@dataclass(frozen=True)
class LaunchMission:
    """Start the mission with the Mechs selected so far."""

    def __str__(self) -> str:
        return "launch the mission"


CampaignAction: TypeAlias = AssignPilot | EndAssignment | SelectMech | LaunchMission
AnyAction: TypeAlias = Action | CampaignAction
AnyDecision: TypeAlias = Decision | CampaignDecision
CAMPAIGN_ACTIONS: dict[str, type[Any]] = {
    c.__name__: c for c in (AssignPilot, EndAssignment, SelectMech, LaunchMission)
}


def start_campaign(
    definition: CampaignDefinition,
    dice: Dice,
    *,
    faction: Faction | None = None,
    carry: int = 0,
    chooser: AttributeChooser | None = None,
) -> tuple[Campaign, list[Event]]:
    """Steps 1-8 of §24 (``chooser``: the player's §9.6 picks, default D35; E25 for races)."""
    player = faction or definition.player_factions[0]
    if player not in definition.player_factions:
        raise IllegalActionError(f"{definition.name}: {player.value} is not playable")
    enemy = definition.opponent(player)
    morale = definition.starting_morale

    def cm(f: Faction, extra: int) -> int:
        return max(1, morale[f] + extra) if f in morale else cr.starting_morale(f, extra)

    first = definition.first_slot()
    campaign = Campaign(
        definition, player, enemy, cm(player, carry), cm(enemy, 0),
        PlanetStatus.CONTESTS, PlanetStatus.CONTESTS, [], [], first.name,
    )  # fmt: skip
    events: list[Event] = [
        cev.CampaignStarted(definition.name, player, enemy, campaign.player_cm, campaign.enemy_cm)
    ]
    designs = definition.company[player]
    if definition.company_rolled:
        designs, rolled = _rolled_company(player, dice)
        events.append(rolled)
    company = roll_company_races(load_rules(), player, dice)  # a Free Company's races
    events += [company_races_rolled(company)] if company else []
    for i, design_id in enumerate(designs):
        mech = new_company_mech(campaign, design_id)
        star, name = i < definition.stars, f"{player.value}-{i + 1}"
        pilot = new_company_pilot(
            campaign, dice, star=star, name=name, chooser=chooser, company=company, log=events
        )
        seat(campaign, pilot, mech)
    status = definition.status
    if status == "rolled":
        roll = cr.roll_control(player, enemy, campaign.player_cm, campaign.enemy_cm, dice)
        events.append(roll)
        status = "player_controls" if roll.controls == "player" else "enemy_controls"
    if status != "both_contest":
        mine = status == "player_controls"
        campaign.player_status = PlanetStatus.CONTROLS if mine else PlanetStatus.CONTESTS
        campaign.enemy_status = PlanetStatus.CONTESTS if mine else PlanetStatus.CONTROLS
    campaign.events.extend(e.to_dict() for e in events)
    return campaign, events


def _rolled_company(player: Faction, dice: Dice) -> tuple[tuple[str, ...], cev.CompanyRolled]:
    """The Cestus V starting Company: one Class roll per Team, Teams of one design (§27.3)."""
    from wargym.rules.no_quarter.cestus import cestus_v_rolls as cvr
    from wargym.rules.no_quarter.cestus.cestus_v_data import campaign_definition

    rolls = cvr.starting_company_rolls(dice)
    team = load_rules().formation_size(player, "team")
    designs = tuple(cvr.company_design(player, r.mech_class) for r in rolls)
    table = cvr.company_table()
    event = cev.CompanyRolled(
        player,
        f"27 mission {campaign_definition().company_class_table[0]} {table.kind}",
        tuple(r.faces for r in rolls),
        tuple(r.split_face for r in rolls),
        tuple(r.mech_class for r in rolls),
        designs,
        team,
    )
    return tuple(d for d in designs for _ in range(team)), event


def mission_scenario(campaign: Campaign, slot: MissionSlot, mechs: list[CompanyMech]) -> Scenario:
    """The slot's scenario with the chosen Company Mechs, Reps, Stars and both CMs (§23, §27.1).

    Star pilots' Mechs go first (the scenario's first ``stars`` pilots are Stars); the player
    picks the Attack objective at play (§22.2.1).
    """
    sc = slot.load()
    pilots = [campaign.pilot(m.pilot) for m in mechs if m.pilot is not None]
    player = SideSetup(
        campaign.player,
        tuple(m.design for m in mechs),
        stars=sum(p.star for p in pilots),
        reps=tuple(p.rep for p in pilots),
        use_attributes=False,
        campaign_morale=campaign.player_cm,
    )
    enemy = dataclasses.replace(sc.enemy, faction=campaign.enemy, campaign_morale=campaign.enemy_cm)
    return dataclasses.replace(
        sc,
        player=player,
        enemy=enemy,
        np_status=campaign.enemy_status,
        attack_objective=None,
        turn_limit=slot.turn_limit or sc.turn_limit,
    )


def force_limit(campaign: Campaign, slot: MissionSlot) -> int:
    """Most Company Mechs the mission takes: the slot's limit or the mission type's (§22)."""
    kind = slot.load().mission
    assert kind is not None
    return slot.force_limit or slot.load().force_limit or player_force_limit(kind, campaign.player)


def apply_company(battle: Battle, tracker: MissionTracker, campaign: Campaign) -> bool:
    """Write carried damage and pilot records into the battle's Company Mechs (§23.9.5).

    Returns whether this happened before any rule acted (turn 0, nothing moved yet).
    """
    before = battle.turn == 0
    for bid, cid in tracker.roster.items():
        _carry(battle, tracker, campaign, bid, cid, before)
    battle.options_cache = None
    battle.geometry_cache = None
    return before


def apply_arrivals(battle: Battle, tracker: MissionTracker, campaign: Campaign) -> list[int]:
    """Company Mechs arrived as reinforcements join the roster with their record (§23.8.4).

    Each one (``reserve_used``, not yet in the roster) gets its carried damage, its pilot's
    race, attributes and Star status, and counts its kills and losses for the aftermath; damage
    taken before this is kept (the carried damage is subtracted from what is left).
    """
    mission = battle.mission
    joined = []
    for key, entry in (mission or {}).get("reserve_used", {}).items():
        bid = int(key)
        if bid in tracker.roster or bid not in battle.mechs:
            continue
        tracker.roster[bid] = int(entry["company"])
        tracker.pilots[bid] = int(entry["pilot"])
        tracker.start_reps[bid] = int(entry["rep"])
        _carry(battle, tracker, campaign, bid, int(entry["company"]), True)
        joined.append(bid)
    if joined:
        battle.options_cache = None
        battle.geometry_cache = None
    return joined


def _carry(
    battle: Battle, tracker: MissionTracker, campaign: Campaign, bid: int, cid: int, before: bool
) -> None:
    mech, company = battle.mech(bid), campaign.mech(cid)
    pilot = campaign.pilot(tracker.pilots[bid])
    design = mech.design.armor
    mech.armor = [
        max(0, now - (full - kept))
        for now, full, kept in zip(mech.armor, design, company.armor, strict=True)
    ]
    mech.inoperable = sorted(set(mech.inoperable) | set(company.inoperable))
    mech.lost_limbs = list(dict.fromkeys([*mech.lost_limbs, *company.lost_limbs]))
    mech.speed = min(mech.speed, company.speed)
    mech.pilot = pilot.as_pilot(campaign.player)
    if not before and mech.rep < pilot.rep:  # injuries before the first decision (fallback)
        tracker.injury[bid] = tracker.injury.get(bid, 0) + pilot.rep - mech.rep


class CampaignGame:
    """A campaign played through decision points: campaign decisions, then the battles (§24).

    ``stage`` is ``assign`` (spare pilots), ``select`` (the force), ``battle`` or ``over``.
    """

    def __init__(
        self,
        campaign: Campaign,
        rng: np.random.Generator,
        *,
        stage: str = "assign",
        selected: list[int] | None = None,
        battle: Battle | None = None,
        tracker: MissionTracker | None = None,
    ) -> None:
        self.campaign = campaign
        self.rng = rng
        self.stage = "over" if campaign.over else stage
        self.selected: list[int] = list(selected or [])
        self.battle = battle
        self.tracker = tracker
        self.launched: tuple[Battle, list[Event], list[Event]] | None = None
        """The last mission launched: ``(start, setup, ahead)``, the battle set up before any
        rule was played, its set-up events and the play to the first decision (not saved)."""

    @classmethod
    def start(
        cls,
        definition: CampaignDefinition,
        dice: Dice,
        rng: np.random.Generator,
        *,
        faction: Faction | None = None,
        carry: int = 0,
    ) -> CampaignGame:
        """A new campaign at its first decision (§24 steps 1-8)."""
        campaign, _ = start_campaign(definition, dice, faction=faction, carry=carry)
        new = cls(campaign, rng)
        new.settle(dice)
        return new

    # -- the decision-point API ------------------------------------------------------------
    @property
    def slot(self) -> MissionSlot:
        """The next (or current) mission's slot."""
        return self.campaign.definition.slot(self.campaign.next_mission)

    def decider(self) -> AnyDecision | None:
        """Who must decide what now; None once the campaign is over."""
        if self.stage == "battle":
            assert self.battle is not None
            return game.decider(self.battle)
        if self.stage == "assign":
            return CampaignDecision(Side.BLUE, CampaignDecisionKind.ASSIGN_PILOTS)
        if self.stage == "select":
            return CampaignDecision(Side.BLUE, CampaignDecisionKind.SELECT_FORCE)
        return None

    def legal_actions(self) -> list[AnyAction]:
        """The exact legal options now (empty once over)."""
        c = self.campaign
        if self.stage == "battle":
            assert self.battle is not None
            return list(game.legal_actions(self.battle))
        if self.stage == "assign":
            return [*self._assignments(), EndAssignment()]
        if self.stage == "select":
            options: list[AnyAction] = []
            if len(self.selected) < force_limit(c, self.slot):
                chosen = set(self.selected)
                options += [SelectMech(m.id) for m in c.available_mechs() if m.id not in chosen]
            return options + ([LaunchMission()] if self.selected else [])
        return []

    def _assignments(self) -> list[AnyAction]:
        c = self.campaign
        out: list[AnyAction] = []
        for spare in c.spare_pilots():
            for mech in c.mechs:
                if mech.state in (MechState.LOST, MechState.REPLACED):
                    continue
                seated = None if mech.pilot is None else c.pilot(mech.pilot)
                if seated is None or seated.rep < spare.rep:
                    out.append(AssignPilot(spare.id, mech.id))
        return out

    def play(self, action: AnyAction, dice: Dice) -> list[Event]:
        """Carry out ``action`` and everything that follows up to the next decision.

        An illegal action raises IllegalActionError and changes nothing.
        """
        if self.stage == "battle":
            assert self.battle is not None and self.tracker is not None
            log = game.play(self.battle, action, dice)  # type: ignore[arg-type]
            apply_arrivals(self.battle, self.tracker, self.campaign)  # before kills are noted
            self.tracker.observe(log)
            return log + self.settle(dice)
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal at the {self.stage} stage")
        events: list[Event] = []
        c = self.campaign
        if isinstance(action, AssignPilot):
            old = seat(c, c.pilot(action.pilot), c.mech(action.mech))
            events.append(cev.PilotAssigned(action.pilot, action.mech, old))
        elif isinstance(action, EndAssignment):
            self.stage = "select"
        elif isinstance(action, SelectMech):
            self.selected.append(action.mech)
            events.append(cev.MechSelected(action.mech))
        battle_events: list[Event] = []
        if isinstance(action, LaunchMission):
            launched, battle_events = self._launch(dice)
            events.append(launched)
        c.events.extend(e.to_dict() for e in events)  # the campaign's own log
        return events + battle_events + self.settle(dice)

    # -- the loop ----------------------------------------------------------------------------
    def settle(self, dice: Dice) -> list[Event]:
        """Run everything without a decision: skip empty stages, finish missions (§24)."""
        events: list[Event] = []
        while not self.campaign.over:
            if self.stage == "assign" and not self._assignments():
                self.stage = "select"
            elif self.stage == "select" and not self.campaign.available_mechs():
                events += self._finish(dice)  # nothing can go: the mission is forfeited
            elif self.stage == "battle" and self.battle is not None and self.battle.over:
                events += self._finish(dice)
            else:
                return events
        self.stage = "over"
        return events

    def _launch(self, dice: Dice) -> tuple[cev.MissionLaunched, list[Event]]:
        """Set the mission up; with it, the battle's set-up events and its play so far."""
        c, slot = self.campaign, self.slot
        stars = [m for m in self.selected if c.pilot(c.mech(m).pilot or 0).star]
        order = stars + [m for m in self.selected if m not in stars]
        mechs = [c.mech(i) for i in order]
        scenario = mission_scenario(c, slot, mechs)
        pilots = [m.pilot for m in mechs if m.pilot is not None]

        def prepare(battle: Battle) -> None:  # carried damage goes in before any rule acts
            blue = sorted(m.id for m in battle.mechs.values() if m.side is Side.BLUE)[: len(mechs)]
            self.tracker = MissionTracker(
                c.mission_number, slot.name, slot.scenario, scenario.kind,
                dict(zip(blue, order, strict=True)), dict(zip(blue, pilots, strict=True)),
                {b: c.pilot(p).rep for b, p in zip(blue, pilots, strict=True)},
            )  # fmt: skip
            self.tracker.applied_before_play = apply_company(battle, self.tracker, c)
            if battle.mission is not None:  # off-table Company mechs may come as reinforcements
                battle.mission["reserve"] = [
                    {"company": m.id, "design": m.design, "pilot": m.pilot,
                     "rep": c.pilot(m.pilot).rep}
                    for m in c.available_mechs() if m.id not in order and m.pilot is not None
                ]  # fmt: skip

        battle, setup = setup_mission(scenario, self.rng, dice, prepare=prepare)
        start = battle.clone()
        ahead = game.advance(battle, dice)  # as new_mission: the play to the first decision
        assert self.tracker is not None
        apply_arrivals(battle, self.tracker, c)  # reinforced before the first decision
        self.tracker.observe(ahead)  # the play to the first decision may already hurt or kill
        self.launched = (start, setup, ahead)
        log = setup + ahead
        self.battle, self.stage, self.selected = battle, "battle", []
        return cev.MissionLaunched(
            c.mission_number, slot.name, slot.scenario, scenario.kind, tuple(order),
            tuple(pilots), self.tracker.applied_before_play,
        ), log  # fmt: skip

    def _finish(self, dice: Dice) -> list[Event]:
        """Result, morale, end, next mission, aftermath (§24 steps 11-17)."""
        c, slot, battle, tracker = self.campaign, self.slot, self.battle, self.tracker
        kind = slot.load().mission
        assert kind is not None
        status, reason, turns = "failure", "no Company Mech available", 0
        if battle is not None and battle.mission is not None:
            found = battle.mission.get("outcome") or {}
            status = str(found.get("status", "failure"))
            reason, turns = str(found.get("reason", battle.end_reason)), battle.turn
        success = status == "success"
        if tracker is not None and battle is not None and battle.mission is not None:
            apply_arrivals(battle, tracker, c)  # §23.8.4: any not joined during play
        reports = tracker.report(battle) if tracker is not None and battle is not None else []
        c.played += 1
        events: list[Event] = [
            cev.MissionFinished(c.played, status, reason, turns)
        ]  # fmt: skip
        morale = cr.change_morale(c.player_cm, c.enemy_cm, success, dice, c.definition.rules)
        events.append(morale)
        record = MissionRecord(
            c.played, (c.played - 1) // cr.campaign_tables().missions_per_month + 1, slot.name,
            slot.scenario, kind.value, status, reason, turns,
            tuple(r.mech for r in reports), tuple(r.pilot for r in reports),
            (c.player_cm, morale.player_after), (c.enemy_cm, morale.enemy_after),
        )  # fmt: skip
        c.player_cm, c.enemy_cm, c.last_success = morale.player_after, morale.enemy_after, success
        self.battle, self.tracker, self.stage = None, None, "assign"
        result, reason = cr.campaign_end(c.player_cm, c.enemy_cm, False), "Campaign Morale 0"
        d = c.definition
        if result is None:
            if d.sequence == "fixed":
                index = [s.name for s in d.missions].index(slot.name)
                last = index + 1 >= len(d.missions)
                nxt = slot.name if last else d.missions[index + 1].name
            else:
                nxt = d.slot_for(cr.next_mission(kind, success)).name
                last = False
            events.append(cev.NextMissionChosen(slot.name, success, nxt))
            c.next_mission = nxt
            if (last and d.final_compare) or (d.max_missions and c.played >= d.max_missions):
                result = cr.compare_final(c.player_cm, c.enemy_cm)
                reason = "last mission played; the higher Campaign Morale wins"
        if result is None:
            events += aftermath(c, reports, success, dice, slot.repairs_after)
            if c.destroyed():
                result, reason = "loss", "the Company has been destroyed"
        self._record(record, reports)
        if result is not None:
            c.result, c.end_reason, c.carry_over = result, reason, cr.carry_over(result)
            events.append(cev.CampaignEnded(result, reason, c.player_cm, c.enemy_cm, c.carry_over))
        c.history.append(record)
        c.events.extend(e.to_dict() for e in events)
        return events

    def _record(self, record: MissionRecord, reports: list[MechReport]) -> None:
        c = self.campaign
        ids = {r.mech for r in reports}
        record.mechs_lost = tuple(m.id for m in c.mechs if m.id in ids and m.lost_in == c.played)
        pilots = [c.pilot(r.pilot) for r in reports]
        record.pilots_dead = tuple(p.id for p in pilots if p.state is PilotState.DEAD)
        record.pilots_lost = tuple(p.id for p in pilots if p.state is PilotState.LOST)

    # -- serialisation -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Campaign, stage, selection, a mission in progress and the generator state."""
        return {
            "campaign": self.campaign.to_dict(),
            "stage": self.stage,
            "selected": list(self.selected),
            "battle": None if self.battle is None else self.battle.to_dict(),
            "tracker": None if self.tracker is None else to_jsonable(self.tracker),
            "rng": _jsonable_rng(self.rng),
        }

    @classmethod
    def from_dict(cls, data: Any) -> CampaignGame:
        """Rebuild from :meth:`to_dict` output; malformed data raises StateError naming it."""
        if not isinstance(data, dict):
            raise StateError(f"game: expected an object, got {type(data).__name__}")
        keys = {"campaign", "stage", "selected", "battle", "tracker", "rng"}
        if set(data) != keys:
            raise StateError(f"game: keys {sorted(data)}; expected {sorted(keys)}")
        campaign = Campaign.from_dict(data["campaign"])
        stage = data["stage"]
        if stage not in ("assign", "select", "battle", "over"):
            raise StateError(f"game.stage: {stage!r} is not a stage")
        selected = from_jsonable(list[int], data["selected"], "game.selected")
        ids = {m.id for m in campaign.available_mechs()}
        if any(i not in ids for i in selected) or len(set(selected)) != len(selected):
            raise StateError(f"game.selected: {selected} are not distinct available Mechs")
        battle = None if data["battle"] is None else Battle.from_dict(data["battle"])
        tracker = None
        if data["tracker"] is not None:
            tracker = from_jsonable(MissionTracker, data["tracker"], "game.tracker")
        if (stage == "battle") != (battle is not None and tracker is not None):
            raise StateError("game.battle: a battle and its tracker exist exactly in 'battle'")
        if (stage == "over") != campaign.over:
            raise StateError(f"game.stage: {stage!r} disagrees with campaign.result")
        if (
            tracker is not None
            and battle is not None
            and any(b not in battle.mechs for b in tracker.roster)
        ):
            raise StateError("game.tracker.roster: names Mechs the battle lacks")
        return cls(campaign, _rng_from(data["rng"]), stage=stage, selected=selected,
                   battle=battle, tracker=tracker)  # fmt: skip


def _jsonable_rng(rng: np.random.Generator) -> dict[str, Any]:
    return dict(rng.bit_generator.state)


def _rng_from(data: Any) -> np.random.Generator:
    if not isinstance(data, dict) or data.get("bit_generator") != "PCG64":
        raise StateError("game.rng: expected a PCG64 generator state")
    rng = np.random.default_rng()
    try:
        rng.bit_generator.state = data
    except (TypeError, ValueError, KeyError) as error:
        raise StateError(f"game.rng: {error}") from error
    return rng


__all__ = [
    "AnyAction",
    "AnyDecision",
    "AssignPilot",
    "CAMPAIGN_ACTIONS",
    "CampaignAction",
    "CampaignDecision",
    "CampaignDecisionKind",
    "CampaignGame",
    "EndAssignment",
    "LaunchMission",
    "SelectMech",
    "apply_arrivals",
    "apply_company",
    "force_limit",
    "mission_scenario",
    "start_campaign",
]
