"""*5150: No Quarter* leaders: formations, ranks at set-up and succession (§11.0, §12.0).

Teams are numbered from 0 on blue and from 100 on red (``Mech.team``); Squads, Platoons and
the Company are read from them with the faction's row of table 11.0 (``organization.yaml``).
Succession follows ``leaders.yaml``: for each rank a list of candidate specs, tried in order:

- ``highest_rep_pilot_in_team``: the highest-Rep pilot of the lost leader's Team;
- ``highest_rep_team_leader_in_squad``: the highest-Rep Team Leader of his Squad;
- ``squad_leader_<n>`` / ``platoon_leader_<n>``: the Squad Leader of the n-th Squad of his
  Platoon / the Platoon Leader of the n-th Platoon of the Company.

Ties go to the lowest mech id (the digest's non-player ruling).
"""

from __future__ import annotations

from collections.abc import Sequence

from wargym.rules.no_quarter.battle.state import Mech
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.records import SUCCESSION_SPEC, FormationRow
from wargym.rules.no_quarter.forces.vocab import Faction, Rank

RED_TEAMS = 100
"""Red Team numbers start here (``setup.new_battle``)."""


def formation_row(rules: NoQuarterRules, faction: Faction) -> FormationRow:
    """The faction's row of table 11.0 (ISS reads the Star Army row where it has none)."""
    row = rules.organization.get(faction)
    return row if row is not None else rules.organization[faction.table_row]


def squad_of(rules: NoQuarterRules, mech: Mech) -> int:
    """Index of the mech's Squad in its side's order of battle (§11.0)."""
    return (mech.team % RED_TEAMS) // formation_row(rules, mech.pilot.faction).squad_teams


def platoon_of(rules: NoQuarterRules, mech: Mech) -> int:
    """Index of the mech's Platoon in its side's order of battle (§11.0)."""
    return squad_of(rules, mech) // formation_row(rules, mech.pilot.faction).platoon_squads


def commands(rules: NoQuarterRules, leader: Mech, mech: Mech) -> bool:
    """Whether ``leader`` is a higher leader of ``mech``'s formation (§12.0, §12.2).

    A Squad Leader of its Squad, a Platoon Leader of its Platoon, the Company Commander of all.
    """
    if leader.rank is None or leader.side is not mech.side:
        return False
    if leader.rank is Rank.SQUAD_LEADER:
        return squad_of(rules, leader) == squad_of(rules, mech)
    if leader.rank is Rank.PLATOON_LEADER:
        return platoon_of(rules, leader) == platoon_of(rules, mech)
    return leader.rank is Rank.COMPANY_COMMANDER


def initial_ranks(teams: int, row: FormationRow) -> list[Rank]:
    """Ranks of the Team leaders (first mech of each Team), Team by Team (§11.0, §12.0).

    The first mech leads the largest formation the force makes up (a Squad from 2 Teams, a
    Platoon from more); in a Platoon the first Team Leader of every other Squad is its Squad
    Leader (the Platoon Leader leads his own Squad).
    """
    if teams <= 1:
        return [Rank.TEAM_LEADER] * teams
    if teams <= row.squad_teams:
        return [Rank.SQUAD_LEADER] + [Rank.TEAM_LEADER] * (teams - 1)
    top = Rank.PLATOON_LEADER
    if teams > row.squad_teams * row.platoon_squads:
        top = Rank.COMPANY_COMMANDER
    ranks = [top]
    for team in range(1, teams):
        leads_squad = team % row.squad_teams == 0
        ranks.append(Rank.SQUAD_LEADER if leads_squad else Rank.TEAM_LEADER)
    return ranks


def _best(candidates: Sequence[Mech]) -> Mech | None:
    return max(candidates, key=lambda m: (m.rep, -m.id), default=None)


def _candidate(rules: NoQuarterRules, spec: str, lost: Mech, friends: list[Mech]) -> Mech | None:
    match = SUCCESSION_SPEC.fullmatch(spec)
    if match is None:  # the loader refuses these; a hand-edited rule set too
        raise ValueError(f"unknown succession spec {spec[:80]!r}")
    if spec == "highest_rep_pilot_in_team":
        return _best([m for m in friends if m.team == lost.team])
    if spec == "highest_rep_team_leader_in_squad":
        squad = squad_of(rules, lost)
        return _best(
            [m for m in friends if m.rank is Rank.TEAM_LEADER and squad_of(rules, m) == squad]
        )
    nth = int(match["n"]) - 1
    row = formation_row(rules, lost.pilot.faction)
    if match["rank"] == "squad_leader":
        first = platoon_of(rules, lost) * row.platoon_squads
        rank, unit, wanted = Rank.SQUAD_LEADER, squad_of, first + nth
    else:
        first = (platoon_of(rules, lost) // row.company_platoons) * row.company_platoons
        rank, unit, wanted = Rank.PLATOON_LEADER, platoon_of, first + nth
    return _best([m for m in friends if m.rank is rank and unit(rules, m) == wanted])


def successor(rules: NoQuarterRules, lost: Mech, rank: Rank, friends: list[Mech]) -> Mech | None:
    """Who takes over ``rank`` from ``lost`` among ``friends`` in play (§12.0), or nobody."""
    others = [  # nobody is demoted: the heir holds a lower rank or none
        m for m in friends if m.id != lost.id and (m.rank is None or m.rank.order < rank.order)
    ]
    for spec in rules.leaders.succession.get(rank.value, ()):
        heir = _candidate(rules, spec, lost, others)
        if heir is not None:
            return heir
    return None


__all__ = [
    "commands",
    "formation_row",
    "initial_ranks",
    "platoon_of",
    "squad_of",
    "successor",
]
