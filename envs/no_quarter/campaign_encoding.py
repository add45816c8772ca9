"""The campaign phase of ``wargym/NoQuarter-CestusV-v1``: its observation block and actions.

Between missions the player takes the campaign's own decisions (§23.2, §23.9.4): give spare
pilots to Mechs (:class:`~wargym.rules.no_quarter.campaigns.campaign_play.AssignPilot`, ending with
``EndAssignment``) and pick the Company Mechs for the next mission (``SelectMech``, then
``LaunchMission``). :class:`CampaignActionCodec` maps them into a block of indices placed
after the battle actions ("nq-act-v2") of the same ``Discrete(n)``;
:func:`campaign_features` is the campaign block appended to every observation (layout
"nq-campaign-v1", docs/encodings.md).

Company Mechs have stable *roster slots* (:class:`CompanySlots`): a Mech keeps its slot for
the whole campaign; a Mech replaced after its loss (§23.9.6) frees its slot, which the next
new Mech takes (the lowest free slot). Spare pilots are numbered in the order of
``Campaign.spare_pilots()`` (pilot id order); the observation shows them in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wargym.rules.no_quarter.campaigns.campaign import Campaign, MechState
from wargym.rules.no_quarter.campaigns.campaign_play import (
    AnyAction,
    AssignPilot,
    CampaignAction,
    CampaignGame,
    EndAssignment,
    LaunchMission,
    SelectMech,
    force_limit,
)
from wargym.rules.no_quarter.campaigns.campaign_rules import campaign_tables
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.mission.missions import PlanetStatus

from .mission_encoding import MISSION_KINDS

CAMPAIGN_VERSION = "nq-campaign-v1"
"""Version of the campaign block of the observation and of the campaign action block."""
PHASES = ("battle", "assign", "select", "over")
"""Phases in one-hot order: a mission in play, then the stages of ``CampaignGame``."""
MECH_STATES = (MechState.READY, MechState.REPAIRING, MechState.DISABLED, MechState.LOST)
"""Company Mech states in one-hot order (a replaced Mech leaves its slot)."""
MAX_MISSION_SLOTS = 10
"""Missions of the definition shown one-hot (Cestus V has ten, §27.2)."""
MISSION_SCALE, MORALE_SCALE, REP_SCALE, COUNT_SCALE, UNAVAILABLE_SCALE = 10.0, 10.0, 6.0, 10.0, 6.0
CAMPAIGN_GLOBALS = (
    *(f"phase_{p}" for p in PHASES),
    "mission_number",
    "missions_played",
    "month",
    *(f"next_slot_{i + 1}" for i in range(MAX_MISSION_SLOTS)),
    *(f"next_{kind}" for kind in MISSION_KINDS),
    "force_limit",
    "selected",
    "player_cm",
    "enemy_cm",
    "player_controls",
    "enemy_controls",
    "last_success",
    "last_failure",
    "successes",
    "failures",
    "active_pilots",
    "spare_pilots",
    "dead_pilots",
    "lost_pilots",
    "mechs_available",
    "mechs_lost",
)
"""Campaign globals, in order (all in [0, 1])."""
MECH_FIELDS = (
    "present",
    *(f"state_{s.value}" for s in MECH_STATES),
    "unavailable",
    "class",
    "armor",
    "speed",
    "damaged",
    "piloted",
    "pilot_rep",
    "pilot_star",
    "pilot_missions",
    "pilot_kills",
    "selected",
    "selectable",
)
"""Columns of one roster slot."""
PILOT_FIELDS = ("present", "rep", "star", "missions", "kills", "assignable")
"""Columns of one spare-pilot slot."""


class CompanySlots:
    """Stable roster slots of the Company Mechs (module docstring)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.slot_of: dict[int, int] = {}
        self._mech_at: dict[int, int] = {}

    def reset(self) -> None:
        """Forget every Mech (a new campaign)."""
        self.slot_of.clear()
        self._mech_at.clear()

    def update(self, campaign: Campaign) -> None:
        """Free the slots of replaced Mechs; give new Mechs the lowest free slots."""
        live = [m.id for m in campaign.mechs if m.state is not MechState.REPLACED]
        keep = set(live)
        for mech in [i for i in self.slot_of if i not in keep]:
            del self._mech_at[self.slot_of.pop(mech)]
        free = iter([s for s in range(self.size) if s not in self._mech_at])
        for mech in live:
            if mech not in self.slot_of:
                slot = next(free, None)
                if slot is None:
                    break  # more Mechs than slots: the rest are not shown nor offered
                self.slot_of[mech], self._mech_at[slot] = slot, mech
        return None

    def mech_at(self, slot: int) -> int | None:
        """The Mech id in ``slot`` (None: empty)."""
        return self._mech_at.get(slot)


class CampaignActionCodec:
    """The campaign decisions as a block of ``n`` indices starting at ``offset``.

    Block layout (relative to ``offset``): ``0`` EndAssignment, ``1`` LaunchMission,
    ``2 .. 2+C-1`` SelectMech of roster slot ``c``, then ``AssignPilot`` of spare pilot ``s``
    to roster slot ``c`` at ``2 + C + s * C + c`` (``C`` roster slots, ``S`` spare slots).
    """

    def __init__(self, offset: int, company_slots: int, spare_slots: int) -> None:
        self.offset, self.company, self.spares = offset, company_slots, spare_slots
        self.sizes = {
            "end_assignment": 1,
            "launch": 1,
            "select": company_slots,
            "assign": spare_slots * company_slots,
        }
        self.offsets: dict[str, int] = {}
        start = offset
        for name, size in self.sizes.items():
            self.offsets[name] = start
            start += size
        self.n = start - offset

    def encode(self, action: CampaignAction, game: CampaignGame, slots: CompanySlots) -> int:
        """The index of ``action``; ValueError when it has no slot."""
        if isinstance(action, EndAssignment):
            return self.offsets["end_assignment"]
        if isinstance(action, LaunchMission):
            return self.offsets["launch"]
        if isinstance(action, SelectMech):
            slot = slots.slot_of.get(action.mech)
            if slot is None:
                raise ValueError(f"Mech {action.mech} has no roster slot")
            return self.offsets["select"] + slot
        spares = [p.id for p in game.campaign.spare_pilots()]
        slot = slots.slot_of.get(action.mech)
        if action.pilot not in spares or spares.index(action.pilot) >= self.spares or slot is None:
            raise ValueError(f"{action} has no slot")
        return self.offsets["assign"] + spares.index(action.pilot) * self.company + slot

    def decode(self, index: int, game: CampaignGame, slots: CompanySlots) -> CampaignAction:
        """The (nominal) campaign action of ``index``; ValueError when it names nothing."""
        name, k = self.block_of(index)
        if name == "end_assignment":
            return EndAssignment()
        if name == "launch":
            return LaunchMission()
        mech = slots.mech_at(k % self.company)
        if mech is None:
            raise ValueError(f"index {index}: roster slot {k % self.company} is empty")
        if name == "select":
            return SelectMech(mech)
        spares = game.campaign.spare_pilots()
        if k // self.company >= len(spares):
            raise ValueError(f"index {index}: spare pilot slot {k // self.company} is empty")
        return AssignPilot(spares[k // self.company].id, mech)

    def block_of(self, index: int) -> tuple[str, int]:
        """``(block name, offset inside it)``; ValueError outside the campaign block."""
        for name, start in self.offsets.items():
            if start <= index < start + self.sizes[name]:
                return name, index - start
        raise ValueError(f"index {index} is outside the campaign block")

    def table(
        self, game: CampaignGame, slots: CompanySlots, options: Sequence[AnyAction]
    ) -> dict[int, CampaignAction]:
        """``{index: legal action}`` of a campaign decision (actions without a slot left out)."""
        found: dict[int, CampaignAction] = {}
        for action in options:
            if isinstance(action, AssignPilot | EndAssignment | SelectMech | LaunchMission):
                try:
                    found.setdefault(self.encode(action, game, slots), action)
                except ValueError:
                    continue
        return found

    def describe(self, index: int, game: CampaignGame, slots: CompanySlots) -> str:
        """A readable name of ``index``."""
        try:
            return str(self.decode(index, game, slots))
        except ValueError as error:
            return str(error)


def campaign_size(company_slots: int, spare_slots: int) -> int:
    """Length of the campaign block of the observation."""
    return (
        len(CAMPAIGN_GLOBALS) + company_slots * len(MECH_FIELDS) + spare_slots * len(PILOT_FIELDS)
    )


def campaign_features(
    game: CampaignGame, slots: CompanySlots, spare_slots: int, legal: Sequence[AnyAction]
) -> np.ndarray:
    """The campaign block (:data:`CAMPAIGN_GLOBALS`, roster slots, spare pilots), in [0, 1].

    ``legal`` are the legal options now (used for the ``selectable``/``assignable`` flags;
    empty during a battle).
    """
    c = game.campaign
    out = np.zeros(campaign_size(slots.size, spare_slots), dtype=np.float32)
    out[PHASES.index(game.stage)] = 1.0
    k = len(PHASES)
    per_month = campaign_tables().missions_per_month
    out[k] = c.mission_number / MISSION_SCALE
    out[k + 1] = c.played / MISSION_SCALE
    out[k + 2] = (c.played // per_month + 1) / MISSION_SCALE
    k += 3
    names = [s.name for s in c.definition.missions]
    index = names.index(c.next_mission)
    if index < MAX_MISSION_SLOTS:
        out[k + index] = 1.0
    k += MAX_MISSION_SLOTS
    kind = game.slot.load().mission
    if kind is not None:
        out[k + MISSION_KINDS.index(kind.value)] = 1.0
    k += len(MISSION_KINDS)
    out[k] = force_limit(c, game.slot) / slots.size
    out[k + 1] = len(game.selected) / slots.size
    out[k + 2] = c.player_cm / MORALE_SCALE
    out[k + 3] = c.enemy_cm / MORALE_SCALE
    out[k + 4] = float(c.player_status is PlanetStatus.CONTROLS)
    out[k + 5] = float(c.enemy_status is PlanetStatus.CONTROLS)
    out[k + 6] = float(c.last_success is True)
    out[k + 7] = float(c.last_success is False)
    out[k + 8] = sum(r.status == "success" for r in c.history) / MISSION_SCALE
    out[k + 9] = sum(r.status != "success" for r in c.history) / MISSION_SCALE
    states = [p.state.value for p in c.pilots]
    spares = c.spare_pilots()
    out[k + 10] = states.count("active") / slots.size
    out[k + 11] = len(spares) / spare_slots
    out[k + 12] = states.count("dead") / slots.size
    out[k + 13] = states.count("lost") / slots.size
    out[k + 14] = len(c.available_mechs()) / slots.size
    out[k + 15] = sum(m.state is MechState.LOST for m in c.mechs) / slots.size
    k += 16
    selectable = {a.mech for a in legal if isinstance(a, SelectMech)}
    targets = {a.mech for a in legal if isinstance(a, AssignPilot)}
    assignable = {a.pilot for a in legal if isinstance(a, AssignPilot)}
    selected = set(game.selected)
    rules = load_rules()
    width = len(MECH_FIELDS)
    for slot in range(slots.size):
        mech_id = slots.mech_at(slot)
        if mech_id is None:
            continue
        mech = c.mech(mech_id)
        design = rules.mech(mech.design)
        row = out[k + slot * width : k + (slot + 1) * width]
        row[0] = 1.0
        if mech.state in MECH_STATES:
            row[1 + MECH_STATES.index(mech.state)] = 1.0
        j = 1 + len(MECH_STATES)
        row[j] = mech.unavailable / UNAVAILABLE_SCALE
        row[j + 1] = design.mech_class / 5.0
        row[j + 2] = sum(mech.armor) / max(1, sum(design.armor))
        row[j + 3] = mech.speed / max(1, design.speed)
        row[j + 4] = float(mech.damaged())
        if mech.pilot is not None:
            pilot = c.pilot(mech.pilot)
            row[j + 5] = 1.0
            row[j + 6] = pilot.rep / REP_SCALE
            row[j + 7] = float(pilot.star)
            row[j + 8] = pilot.missions / COUNT_SCALE
            row[j + 9] = pilot.kills / COUNT_SCALE
        row[j + 10] = float(mech_id in selected)
        row[j + 11] = float(mech_id in selectable or mech_id in targets)
    k += slots.size * width
    width = len(PILOT_FIELDS)
    for s, pilot in enumerate(spares[:spare_slots]):
        row = out[k + s * width : k + (s + 1) * width]
        row[:] = (
            1.0,
            pilot.rep / REP_SCALE,
            float(pilot.star),
            pilot.missions / COUNT_SCALE,
            pilot.kills / COUNT_SCALE,
            float(pilot.id in assignable),
        )
    np.clip(out, 0.0, 1.0, out=out)
    return out


def roster_text(game: CampaignGame, slots: CompanySlots) -> str:
    """A text summary of the campaign between missions (``render_mode="ansi"``)."""
    c = game.campaign
    lines = [
        f"campaign {c.definition.name}: {c.player.value} vs {c.enemy.value}; "
        f"stage {game.stage}; mission {c.mission_number} ({c.next_mission}), "
        f"played {c.played}",
        f"Campaign Morale: player {c.player_cm} ({c.player_status.value}), "
        f"enemy {c.enemy_cm} ({c.enemy_status.value})",
    ]
    if c.over:
        lines.append(f"OVER: {c.result} ({c.end_reason})")
    elif game.stage == "select":
        lines.append(f"force limit {force_limit(c, game.slot)}; selected {list(game.selected)}")
    for slot in range(slots.size):
        mech_id = slots.mech_at(slot)
        if mech_id is None:
            continue
        m = c.mech(mech_id)
        pilot = "-" if m.pilot is None else f"pilot {m.pilot} Rep {c.pilot(m.pilot).rep}"
        extra = f" for {m.unavailable}" if m.unavailable else ""
        lines.append(f"  [{slot:>2}] Mech {m.id}: {m.design} {m.state.value}{extra}, {pilot}")
    spares = c.spare_pilots()
    lines.append("spare pilots: " + (", ".join(f"{p.id} (Rep {p.rep})" for p in spares) or "-"))
    for r in c.history:
        lines.append(f"  mission {r.number} {r.name}: {r.status} ({r.reason})")
    return "\n".join(lines)
