"""NP forces draw only designs the battle's rules offer (§20.4, option strict_mounting)."""

from __future__ import annotations

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.forces.data import RulesOptions, load_rules
from wargym.rules.no_quarter.forces.vocab import Faction
from wargym.rules.no_quarter.non_player.pef_tables import np_enemy_mechs


def test_20_4_np_enemy_mechs_use_only_designs_offered_under_strict_mounting() -> None:
    strict = load_rules(RulesOptions(strict_mounting=True))
    assert strict.rejected_mechs, "strict mounting rejects some pre-generated designs"
    dice = RandomDice.from_seed(3)
    drawn = set()
    for faction in Faction:
        if not strict.mechs_of(faction):
            continue
        for _ in range(40):
            force = np_enemy_mechs(6, faction, dice, rules=strict)
            drawn.update(m.design for m in force.mechs)
    assert drawn and drawn <= set(strict.mechs)
    default = load_rules()
    loose = {m.design for m in np_enemy_mechs(60, Faction.STAR_ARMY, RandomDice.from_seed(3)).mechs}
    assert loose & set(strict.rejected_mechs) and loose <= set(default.mechs)
