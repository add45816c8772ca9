"""wargym play's words read as the replay's (wargym.describe) and the browser's do.

The terminal's own sentences (wargym.play.words) and the shared describer name hit locations,
reaction tests and statuses alike, with no raw enum keys (``takes_damage``, ``duck_back``).
"""

from __future__ import annotations

import re

from wargym.describe import describe_event
from wargym.play.games import Settings
from wargym.play.session import Session
from wargym.play.words import event_words
from wargym.rules.no_quarter.battle.events import ReactionTaken, StatusChanged
from wargym.rules.no_quarter.forces.vocab import ReactionResult, ReactionTest, Status

RAW_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")


def _session() -> Session:
    return Session(Settings(game="skirmish", opponent="rules", mechs=1, seed=1))


def test_reaction_tests_and_statuses_read_as_words_in_the_terminal_and_the_replay() -> None:
    session = _session()
    mech = min(session.table.battle.mechs)
    duck = ReactionResult.DUCK_BACK
    taken = ReactionTaken(mech, ReactionTest.TAKES_DAMAGE, (), (3, 5), 4, 0, False, (duck,), duck,
                          0, (), ())  # fmt: skip
    status = StatusChanged(mech, Status.DUCK_BACK, "ranged damage")
    for event in (taken, status):
        terminal = event_words(session.table, event, ()) or ""
        replay = describe_event("no_quarter", event)
        for text in (terminal, replay):
            assert RAW_KEY.search(text) is None, text
    assert "damage test" in (event_words(session.table, taken, ()) or "")
    assert "ducking back" in (event_words(session.table, taken, ()) or "")
    assert "ducking back" in (event_words(session.table, status, ()) or "")


def test_a_skirmish_title_counts_its_mechs_in_good_english() -> None:
    one = Session(Settings(game="skirmish", opponent="rules", mechs=1, seed=1))
    assert "1 mech a side" in one.table.mission_title
    three = Session(Settings(game="skirmish", opponent="rules", mechs=3, seed=1))
    assert "3 mechs a side" in three.table.mission_title


def test_events_said_by_the_shared_describer_name_mechs_as_the_board_does() -> None:
    """The terminal names mechs 'blue #3' everywhere, also in the describer's sentences."""
    from wargym.rules.no_quarter.battle.events import TeamJoined

    session = Session(Settings(game="skirmish", opponent="rules", mechs=3, seed=1))
    battle = session.table.battle
    blue = sorted(m.id for m in battle.mechs.values() if m.side.value == "blue")
    event = TeamJoined(battle.mechs[blue[0]].side, blue[0], (blue[1], blue[2]),
                       tuple(blue))  # fmt: skip
    text = event_words(session.table, event, ()) or ""
    assert f"blue #{blue[0]}" in text and f"blue #{blue[1]}" in text, text
    assert not re.search(r"\bmechs? \d", text), text
    hidden = event_words(session.table, event, {blue[1]}) or ""
    assert f"blue #{blue[1]}" not in hidden, hidden
