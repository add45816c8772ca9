"""Pilot generation and pilot-derived numbers: race, Rep, attributes, activation Rep (§9, §14).

Every die is rolled through an injected :class:`~wargym.rules.dice.Dice`. The attribute
choices of §9.6 ("keep the better" of a Basic pilot, a rolled Choice, a Star's chosen second
attribute) belong to whoever builds the force: an :data:`AttributeChooser` receives each
:class:`AttributePick` and returns the attribute. The default, and the non-player forces'
chooser, is ruling D35's fixed preference list (``random_attributes.yaml: preference``).
A Free Company rolls its race and mixing roll once per force (§10.8.1, E25:
:func:`roll_company_races`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection
from dataclasses import dataclass

from wargym.rules.dice import Dice, TallyDice
from wargym.rules.errors import IllegalActionError, short_repr
from wargym.rules.no_quarter.forces.data import NoQuarterRules, activation_rep
from wargym.rules.no_quarter.forces.records import Pilot
from wargym.rules.no_quarter.forces.setup_events import FreeCompanyRaces, PilotCreated
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Race, Side

__all__ = [
    "AttributeChooser",
    "AttributePick",
    "PickKind",
    "activation_rep",
    "best_choice",
    "d35_chooser",
    "may_activate",
    "new_pilot",
    "new_pilot_logged",
    "preference_rank",
    "roll_attributes",
    "roll_company_races",
    "roll_personal_weapon",
    "roll_race",
    "roll_rep",
]


class PickKind(enum.Enum):
    """The attribute choices of pilot creation (§9.6)."""

    KEEP_BETTER = "keep_better"
    """A Basic pilot rolled two attributes and keeps one (§9.6.3)."""
    CHOICE = "choice"
    """A rolled Choice: the pilot chooses any attribute (§9.6.4, table C, 6)."""
    STAR_SECOND = "star_second"
    """A Star's second attribute is chosen, not rolled (§9.6.1)."""


@dataclass(frozen=True)
class AttributePick:
    """One attribute choice put to the force's builder: the pilot and the options."""

    kind: PickKind
    pilot: str
    """The pilot's name (``<side>-<n>`` in a battle)."""
    faction: Faction
    race: Race
    star: bool
    held: tuple[Attribute, ...]
    """Attributes the pilot already has."""
    options: tuple[Attribute, ...]
    """What may be picked, best first by D35."""


AttributeChooser = Callable[[AttributePick], "Attribute | str"]
"""Receives a pick and returns one of its ``options`` (an :class:`Attribute` or its value)."""


def d35_chooser(rules: NoQuarterRules) -> AttributeChooser:
    """Ruling D35: the option ranked best in the fixed preference list (Choice above all)."""

    def choose(pick: AttributePick) -> Attribute:
        return min(pick.options, key=lambda attribute: preference_rank(rules, attribute))

    return choose


def roll_rep(rules: NoQuarterRules, faction: Faction, race: Race, dice: Dice) -> int:
    """Roll a Grunt's Rep on table 9.4.2; Xeog pilots read the Xeog row (§9.4.2).

    Stars do not roll: they start at ``rules.star_rep`` (see :func:`new_pilot`).
    """
    (face,) = dice.roll(1)
    row = Race.XEOG.value if race is Race.XEOG else faction.value
    return rules.pilot_rep[row][face - 1]


def roll_race(
    rules: NoQuarterRules,
    faction: Faction,
    dice: Dice,
    company: FreeCompanyRaces | None = None,
) -> Race:
    """The pilot's race: fixed by faction, or rolled 1d6 for a Free Company (§9.6.3, §10.8.1).

    Rolls no die unless the faction's race is rolled. With the pilot's ``company`` (E25): a
    single-race company gives its race without a die; in a mixed one the pilot rolls 1d6 and
    re-rolls a race not of his company. Without one, a lone Free Company pilot rolls 1d6.
    """
    fixed = rules.faction_race[faction]
    if fixed is not None:
        return fixed
    if company is not None and not company.mixed:
        return company.races[0]
    while True:
        (face,) = dice.roll(1)
        race = rules.free_company_race_roll[face - 1]
        if company is None or race in company.races:
            return race


def roll_company_races(
    rules: NoQuarterRules,
    faction: Faction,
    dice: Dice,
    *,
    side: Side | None = None,
    members: tuple[int, ...] = (),
) -> FreeCompanyRaces | None:
    """A Free Company force's races (§10.8.1, E25); None (no die) for every other faction.

    1d6 on the race roll gives the company's race, 1d6 whether it mixes races and, if it does,
    1d6 how many (``racial_attributes.yaml: free_company_mixing``). Each further race is rolled
    on the race roll, a race already held re-rolled; a company of every race rolls none.
    With ``free_company_races="per_pilot"`` no company roll is made (None): each pilot rolls
    his own race.
    """
    if rules.faction_race[faction] is not None or rules.options.free_company_races != "company":
        return None
    table, mixing = rules.free_company_race_roll, rules.free_company_mixing
    (race_face,) = dice.roll(1)
    (mixing_face,) = dice.roll(1)
    races = [table[race_face - 1]]
    count_face: int | None = None
    extra: list[int] = []
    if mixing_face in mixing.mixed_faces:
        (count_face,) = dice.roll(1)
        every = tuple(dict.fromkeys(table))
        wanted = mixing.race_count[count_face - 1]
        if wanted >= len(every):  # every race of the roll: no die picks them
            races += [race for race in every if race not in races]
        while len(races) < wanted:
            (face,) = dice.roll(1)
            extra.append(face)
            if table[face - 1] not in races:
                races.append(table[face - 1])
    return FreeCompanyRaces(
        side, race_face, mixing_face, count_face, tuple(extra), tuple(races), members
    )


def roll_personal_weapon(rules: NoQuarterRules, faction: Faction, dice: Dice) -> str:
    """The pilot's personal weapon, rolled 1d6 (§9.5); Star Army and ISS read the Star Army row."""
    row = "star_army" if faction.table_row is Faction.STAR_ARMY else "non_star_army_grunt"
    (face,) = dice.roll(1)
    return next(name for name, faces in rules.personal_weapons[row].items() if face in faces)


def preference_rank(rules: NoQuarterRules, attribute: Attribute) -> int:
    """Rank of ``attribute`` in the D35 preference (0 = best); Choice ranks above all (§9.6.4)."""
    if rules.effect(attribute).choose_any:
        return -1
    return rules.attribute_preference.index(attribute)


def best_choice(
    rules: NoQuarterRules, *, exclude: Collection[Attribute] = (), star: bool = False
) -> Attribute:
    """The best attribute by the D35 preference not in ``exclude`` (Stars skip re-rolled ones)."""
    options = _chosen_options(rules, exclude, star)
    if not options:
        raise ValueError("no attribute left to choose")
    return options[0]


def _chosen_options(
    rules: NoQuarterRules, exclude: Collection[Attribute], star: bool
) -> tuple[Attribute, ...]:
    """Attributes a pilot may choose: not held, not Choice, Stars not the ones they re-roll."""
    return tuple(
        a
        for a in rules.attribute_preference
        if a not in exclude and not (star and rules.effect(a).star_rerolls)
    )


@dataclass
class _Creation:
    """One pilot's attribute creation: who asks, the rolls and picks made (for the event)."""

    rules: NoQuarterRules
    dice: Dice
    chooser: AttributeChooser
    name: str
    faction: Faction
    race: Race
    star: bool
    faces: list[tuple[int, int]]
    rolled: list[Attribute]
    picks: list[tuple[str, str]]

    def roll_one(self) -> Attribute:
        while True:
            first, second = self.dice.roll(2)
            self.faces.append((first, second))
            attribute = self.rules.attribute_table[first - 1][second - 1]
            if not (self.star and self.rules.effect(attribute).star_rerolls):
                self.rolled.append(attribute)
                return attribute

    def ask(
        self, kind: PickKind, options: tuple[Attribute, ...], held: tuple[Attribute, ...]
    ) -> Attribute:
        if len(options) == 1:
            return options[0]  # nothing to choose: played without asking
        pick = AttributePick(kind, self.name, self.faction, self.race, self.star, held, options)
        answer = self.chooser(pick)
        chosen = next((a for a in options if answer is a or answer == a.value), None)
        if chosen is None:
            shown = answer.value if isinstance(answer, Attribute) else short_repr(answer)
            raise IllegalActionError(
                f"{short_repr(self.name, 40)}: {shown} is not a {kind.value} option "
                f"(§9.6); options: {', '.join(a.value for a in options)}"
            )
        self.picks.append((kind.value, chosen.value))
        return chosen

    def attributes(self) -> tuple[Attribute, ...]:
        """§9.6.1-4: roll (Basic: twice, keep one), Choice, then a Star's chosen second."""
        rolls = self.rules.racial[self.race].random_attribute_rolls
        candidates = tuple(dict.fromkeys(self.roll_one() for _ in range(rolls)))
        ranked = tuple(sorted(candidates, key=lambda a: preference_rank(self.rules, a)))
        first = self.ask(PickKind.KEEP_BETTER, ranked, ())
        if self.rules.effect(first).choose_any:
            first = self.ask(PickKind.CHOICE, _chosen_options(self.rules, (), self.star), ())
        if not self.star:
            return (first,)
        second = self.ask(
            PickKind.STAR_SECOND, _chosen_options(self.rules, {first}, True), (first,)
        )
        return first, second


def roll_attributes(
    rules: NoQuarterRules,
    race: Race,
    dice: Dice,
    *,
    star: bool,
    chooser: AttributeChooser | None = None,
    name: str = "",
    faction: Faction = Faction.STAR_ARMY,
) -> tuple[Attribute, ...]:
    """Random attributes: one rolled for a Grunt; a Star rolls one and chooses one (§9.6.1-2).

    Each roll is 2d6 (sub-table, then row); a Star re-rolls Hard as Nails. A Basic pilot rolls
    twice and keeps one (§9.6.3), a rolled Choice becomes any attribute not held; the picks
    are ``chooser``'s (default: D35's preference list).
    """
    creation = _Creation(
        rules, dice, chooser or d35_chooser(rules), name, faction, race, star, [], [], []
    )
    return creation.attributes()


def new_pilot(
    rules: NoQuarterRules,
    faction: Faction,
    dice: Dice,
    *,
    star: bool = False,
    use_attributes: bool = True,
    name: str = "",
    race: Race | None = None,
    chooser: AttributeChooser | None = None,
    company: FreeCompanyRaces | None = None,
) -> Pilot:
    """Generate a pilot (§9): race (unless given), Rep (Stars: ``star_rep``), attributes.

    Dice are rolled in that order. ``use_attributes=False`` plays the "vanilla" game (§9.6).
    ``chooser`` makes the §9.6 picks (default D35); ``company``: his Free Company's races.
    The rolls' event: :func:`new_pilot_logged`.
    """
    return new_pilot_logged(
        rules, faction, dice, star=star, use_attributes=use_attributes, name=name, race=race,
        chooser=chooser, company=company,
    )[0]  # fmt: skip


def new_pilot_logged(
    rules: NoQuarterRules,
    faction: Faction,
    dice: Dice,
    *,
    star: bool = False,
    use_attributes: bool = True,
    name: str = "",
    race: Race | None = None,
    chooser: AttributeChooser | None = None,
    company: FreeCompanyRaces | None = None,
    mech: int | None = None,
) -> tuple[Pilot, PilotCreated]:
    """:func:`new_pilot` and its :class:`PilotCreated` event (every die, every pick)."""
    fixed = rules.faction_race[faction]
    if race is not None and fixed is not None and race is not fixed:
        raise ValueError(f"{faction.value} pilots are {fixed.value}, not {race.value} (§9.6.3)")
    if race is not None and fixed is None and race not in rules.free_company_race_roll:
        raise ValueError(f"a {faction.value} pilot cannot be {race.value} (§10.8.1)")
    tally = TallyDice(dice, [])
    race = race if race is not None else roll_race(rules, faction, tally, company)
    race_faces = tally.take()
    rep = rules.star_rep if star else roll_rep(rules, faction, race, tally)
    rep_faces = tally.take()
    creation = _Creation(
        rules, dice, chooser or d35_chooser(rules), name, faction, race, star, [], [], []
    )
    attributes = creation.attributes() if use_attributes else ()
    pilot = Pilot(name=name, faction=faction, race=race, rep=rep, star=star, attributes=attributes)
    event = PilotCreated(
        mech, name, faction, star, race, race_faces, rep,
        rep_faces[0] if rep_faces else None,
        tuple(creation.faces), tuple(creation.rolled), tuple(creation.picks), attributes,
    )  # fmt: skip
    return pilot, event


def may_activate(leader_activation_rep: int, side_die: int) -> bool:
    """A group may activate when its leader's activation Rep >= its side's die (§14.0)."""
    return leader_activation_rep >= side_die
