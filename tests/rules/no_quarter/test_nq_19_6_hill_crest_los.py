"""Hill-crest line of sight (§19.6, campaign ruling 2): the digest's vectors D42-D45.

Crest (14, 30)-(22, 30); LOS is blocked iff the sight line crosses the crest and both mechs are
more than 1" from it. Each vector is checked both ways (LOS is symmetric here) through ``sight``.
"""

from __future__ import annotations

import pytest

from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature, sight
from wargym.rules.no_quarter.forces.vocab import Terrain

CREST = ((14.0, 30.0), (22.0, 30.0))
FIELD = Battlefield(features=(Feature(Terrain.HILL, 14.0, 26.0, 22.0, 34.0, crest=CREST),))


@pytest.mark.parametrize(
    ("a", "b", "blocked"),
    [
        ((18.0, 27.0), (18.0, 33.0), True),
        ((18.0, 29.5), (18.0, 34.0), False),
        ((10.0, 26.0), (10.0, 34.0), False),
        ((16.0, 20.0), (20.0, 35.0), True),
    ],
    ids=["D42", "D43", "D44", "D45"],
)
def test_19_6_hill_crest_los_d42_d45(
    a: tuple[float, float], b: tuple[float, float], blocked: bool
) -> None:
    assert FIELD.features[0].crest == CREST
    assert sight(FIELD, a, b).visible is not blocked
    assert sight(FIELD, b, a).visible is not blocked
    # the hill is what decides: on an open table every pair sees
    assert sight(Battlefield(), a, b).visible


def test_19_6_d42_every_sight_line_crosses_the_crest() -> None:
    s = sight(FIELD, (18.0, 27.0), (18.0, 33.0))
    assert s.clear_lines == 0 and s.building_blocked_lines == 0 and s.mech_blocked_lines == 0


def test_19_6_d43_one_mech_in_the_band_sees_over_with_all_three_lines() -> None:
    assert sight(FIELD, (18.0, 29.5), (18.0, 34.0)).clear_lines == 3
