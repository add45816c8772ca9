"""After the Battle: what a mission did to the Company and the §23.9 aftermath (§23.9.1-23.9.6).

:class:`MissionTracker` gathers, from a mission's events as it is played, what the aftermath
needs (injuries, Leave the Battlefield results, Chest explosions, kills); :func:`aftermath`
then recovers pilots, changes Reps, finds replacement pilots, repairs Mechs and replaces lost
ones, in the book's order, writing the results into the :class:`~.campaign.Campaign`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.campaigns import campaign_events as cev
from wargym.rules.no_quarter.campaigns import campaign_rules as cr
from wargym.rules.no_quarter.campaigns.campaign import (
    Campaign,
    CompanyMech,
    CompanyPilot,
    MechState,
    PilotState,
)
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.pilots import AttributeChooser, new_pilot_logged
from wargym.rules.no_quarter.forces.setup_events import (
    CompanyRacesRolled,
    FreeCompanyRaces,
    company_pilot_created,
)
from wargym.rules.no_quarter.forces.vocab import Location, Removal, Side
from wargym.rules.no_quarter.forces.vocab import Status as VStatus
from wargym.rules.no_quarter.mission.missions import PlanetStatus


# -- what a mission did to the Company -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MechReport:
    """One Company Mech and its pilot after a mission, read from the battle (§23.9)."""

    mech: int
    pilot: int
    start_rep: int
    injury: int
    """Rep lost to injury (failed Pilot Tests, Cheating Death)."""
    removed: Removal | None
    left: bool
    """Received a Leave the Battlefield result."""
    exploded: bool
    kills: tuple[int, ...]
    """Classes of the enemy Mechs it destroyed or disabled."""
    armor: tuple[int, ...]
    speed: int
    inoperable: tuple[int, ...]
    lost_limbs: tuple[Location, ...]


@dataclass
class MissionTracker:
    """Facts the aftermath needs, gathered from a mission's events as it is played (§23.9)."""

    number: int
    slot: str
    scenario: str
    kind: str
    roster: dict[int, int]
    """Battle Mech id -> Company Mech id."""
    pilots: dict[int, int]
    """Battle Mech id -> Company pilot id."""
    start_reps: dict[int, int]
    injury: dict[int, int] = field(default_factory=dict)
    left: list[int] = field(default_factory=list)
    exploded: list[int] = field(default_factory=list)
    kills: dict[int, list[int]] = field(default_factory=dict)
    last_hit: dict[int, int] = field(default_factory=dict)
    applied_before_play: bool = True

    def observe(self, events: Iterable[Event]) -> None:
        """Note injuries, Leave the Battlefield results, explosions and kills (§23.9.1-23.9.5)."""
        for e in events:
            hurt = isinstance(e, ev.PilotTested) and not e.passed and not e.resilient_used
            if hurt or isinstance(e, ev.CheatedDeath):
                mech = getattr(e, "mech", -1)
                self.injury[mech] = self.injury.get(mech, 0) + 1
            elif isinstance(e, ev.StatusChanged) and e.status is VStatus.LEAVE_BATTLEFIELD:
                if e.mech not in self.left:
                    self.left.append(e.mech)
            elif isinstance(e, ev.CriticalHit):
                if e.kind == "chest_roll" and e.removal is Removal.DESTROYED:
                    self.exploded.append(e.mech)
            elif isinstance(e, ev.ShotFired) and e.hit:
                self.last_hit[e.target] = e.shooter
            elif isinstance(e, ev.MeleeRound) and e.winner is not None:
                loser = e.defender if e.winner == e.attacker else e.attacker
                self.last_hit[loser] = e.winner
            elif isinstance(e, ev.MechRemoved) and e.side is Side.RED:
                by = self.last_hit.get(e.mech)
                if e.reason is not Removal.LEFT_TABLE and by in self.roster:
                    self.kills.setdefault(by, []).append(e.mech_class)

    def report(self, battle: Battle) -> list[MechReport]:
        """The Company Mechs' state at the end of the mission."""
        out = []
        for bid, cid in self.roster.items():
            m = battle.mech(bid)
            left = bid in self.left or m.status is VStatus.LEAVE_BATTLEFIELD
            out.append(
                MechReport(
                    cid,
                    self.pilots[bid],
                    self.start_reps[bid],
                    self.injury.get(bid, 0),
                    m.removed,
                    left,
                    bid in self.exploded,
                    tuple(self.kills.get(bid, [])),
                    tuple(max(0, a) for a in m.armor),
                    m.speed,
                    tuple(sorted(m.inoperable)),
                    tuple(m.lost_limbs),
                )
            )
        return out


def new_company_pilot(
    campaign: Campaign,
    dice: Dice,
    *,
    star: bool = False,
    name: str = "",
    chooser: AttributeChooser | None = None,
    company: FreeCompanyRaces | None = None,
    log: list[Event] | None = None,
) -> CompanyPilot:
    """Roll a new pilot for the Company: race, Rep on 9.4.2 (Stars 5), attributes (§9, §24).

    ``chooser`` makes the player's §9.6 picks (default D35); a Free Company pilot's race
    follows ``company`` (default: the campaign's ``CompanyRacesRolled`` event, E25). The
    ``CompanyPilotCreated`` event goes to ``log``.
    """
    pid = max((p.id for p in campaign.pilots), default=-1) + 1
    rules = load_rules()
    use = campaign.definition.use_attributes
    company = company or company_races(campaign)
    p, created = new_pilot_logged(
        rules, campaign.player, dice, star=star, use_attributes=use, name=name,
        chooser=chooser, company=company,
    )  # fmt: skip
    pilot = CompanyPilot(pid, p.name or f"pilot {pid}", p.race, p.rep, p.star, p.attributes)
    campaign.pilots.append(pilot)
    if log is not None:
        log.append(company_pilot_created(created, pid))
    return pilot


def company_races(campaign: Campaign) -> FreeCompanyRaces | None:
    """The Company's races as rolled at its start (§10.8.1); None if it rolled none."""
    for data in reversed(campaign.events):
        if data.get("type") == CompanyRacesRolled.__name__:
            event = cev.CAMPAIGN_EVENTS.from_dict(data)
            assert isinstance(event, CompanyRacesRolled)
            return event
    return None


def new_company_mech(campaign: Campaign, design_id: str) -> CompanyMech:
    """A new, undamaged Company Mech of ``design_id`` (§23.2, §23.9.6)."""
    design = load_rules().mech(design_id)
    mid = max((m.id for m in campaign.mechs), default=-1) + 1
    mech = CompanyMech(mid, design_id, design.armor, design.speed)
    campaign.mechs.append(mech)
    return mech


def seat(campaign: Campaign, pilot: CompanyPilot | None, mech: CompanyMech) -> int | None:
    """Put ``pilot`` in ``mech`` (None empties it); returns the displaced pilot's id."""
    old = mech.pilot
    if old is not None:
        campaign.pilot(old).mech = None
    if pilot is not None:
        if pilot.mech is not None:
            campaign.mech(pilot.mech).pilot = None
        pilot.mech = mech.id
    mech.pilot = None if pilot is None else pilot.id
    return old


def aftermath(
    campaign: Campaign,
    reports: list[MechReport],
    success: bool,
    dice: Dice,
    repairs: bool,
    chooser: AttributeChooser | None = None,
) -> list[Event]:
    """After the Battle, in the book's order (§23.9, §24 steps 13-17).

    New pilots' §9.6 picks are ``chooser``'s (default D35); their rolls follow as
    ``CompanyPilotCreated`` events.
    """
    c, o = campaign, campaign.definition.rules
    out: list[Event] = []
    rules, number = load_rules(), campaign.played
    controls = c.player_status is PlanetStatus.CONTROLS
    for r in reports:  # the Mechs' state; recovery from the field (§23.9.5)
        mech, pilot = c.mech(r.mech), c.pilot(r.pilot)
        pilot.missions, pilot.kills = pilot.missions + 1, pilot.kills + len(r.kills)
        mech.armor, mech.speed = r.armor, r.speed
        mech.inoperable, mech.lost_limbs = r.inoperable, r.lost_limbs
        if r.removed is Removal.DESTROYED:
            pilot.state = PilotState.DEAD
            seat(c, None, mech)
        if r.removed not in (None, Removal.LEFT_TABLE) or r.left:
            recovered = cr.mech_recoverable(r.exploded, r.left, success)
            why = "exploded" if r.exploded else ("abandoned" if not recovered else "recovered")
            out.append(cev.MechRecovered(mech.id, recovered, why))
            if not recovered:
                mech.state, mech.lost_in = MechState.LOST, number
                seat(c, None, mech)
            elif r.removed not in (None, Removal.LEFT_TABLE):
                mech.state = MechState.DISABLED
    for r in reports:  # recovering pilots (§23.9.1)
        pilot = c.pilot(r.pilot)
        if pilot.state is not PilotState.ACTIVE:
            continue
        bailed = r.removed in (Removal.INOPERABLE, Removal.CHEATED_DEATH)
        gone = r.left or (bailed and o.bailed_out_as_left)
        current = max(1, r.start_rep - r.injury)
        pilot.rep = r.start_rep
        if r.injury > 0 or gone:
            roll = cr.recover_pilot(pilot.id, current, controls=controls, success=success,
                                    left=gone, dice=dice)  # fmt: skip
            out.append(roll)
            pilot.rep = r.start_rep if roll.rep_restored else current
            if roll.outcome == "lost":
                pilot.state = PilotState.LOST
                if pilot.mech is not None:
                    seat(c, None, c.mech(pilot.mech))
    for r in reports:  # Rep increase and decrease (§23.9.2-23.9.3)
        pilot, mech = c.pilot(r.pilot), c.mech(r.mech)
        if pilot.state is not PilotState.ACTIVE:
            continue
        lost_mech = r.removed in (Removal.DESTROYED, Removal.CHEATED_DEATH) or (
            mech.state is MechState.LOST
        )
        own = rules.mech(mech.design).mech_class
        personal = cr.personal_result(r.kills, own, lost_mech, r.left, o.rep_increase_threshold)
        check = cr.change_rep(pilot.id, pilot.rep, personal, dice)
        out.append(check)
        pilot.rep = check.rep_after
    if repairs or o.count_down_without_repairs:
        for mech in c.mechs:
            if mech.state is MechState.REPAIRING:
                mech.unavailable -= 1
                if mech.unavailable <= 0:
                    mech.state, mech.unavailable = MechState.READY, 0
    if not repairs:
        out.append(cev.AftermathSkipped(number, "no replacements or repairs after this mission"))
        return out
    fielded = [m for m in c.mechs if m.state not in (MechState.LOST, MechState.REPLACED)]
    for mech in fielded:  # replacement pilots (§23.9.4)
        if mech.pilot is None:
            passed, faces = cr.roll_replacement_pilot(mech.id, c.player_cm, dice, o)
            pid = rep = None
            created: list[Event] = []
            if passed:
                recruit = new_company_pilot(c, dice, chooser=chooser, log=created)
                seat(c, recruit, mech)
                pid, rep = recruit.id, recruit.rep
            out.append(cev.ReplacementPilotRolled(mech.id, faces, passed, pid, rep))
            out += created
    for mech in fielded:  # repairs (§23.9.5)
        if mech.damaged():
            cls = rules.mech(mech.design).mech_class
            fix = cr.repair_mech(mech.id, c.player_cm, cls, controls=controls, dice=dice, options=o)
            out.append(fix)
            mech.repair()
            mech.state = MechState.REPAIRING if fix.unavailable else MechState.READY
            mech.unavailable = fix.unavailable
    lost = [m.id for m in c.mechs if m.state is MechState.LOST]
    if o.replace_lost == "this_mission":
        lost = [i for i in lost if c.mech(i).lost_in == number]
    if lost:  # replacement Mechs (§23.9.6)
        found = cr.replace_mechs(c.player_cm, lost, dice)
        new, created_pilots = [], list[Event]()
        for old in found.replaced:
            c.mech(old).state = MechState.REPLACED
            mech = new_company_mech(c, c.mech(old).design)
            seat(c, new_company_pilot(c, dice, chooser=chooser, log=created_pilots), mech)
            new.append(mech.id)
        out.append(dataclasses.replace(found, new_mechs=tuple(new)))
        out += created_pilots
    return out


__all__ = [
    "MechReport",
    "MissionTracker",
    "aftermath",
    "company_races",
    "new_company_mech",
    "new_company_pilot",
    "seat",
]
