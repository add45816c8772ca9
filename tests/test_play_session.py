"""``wargym.play.session``: undo restores the game exactly, saves rebuild it, across opponents."""

from __future__ import annotations

import json

import pytest

from wargym.play.games import Settings
from wargym.play.session import Session, load, save


def _pick(session: Session, step: int) -> int:
    """A varied but reproducible choice: the last, first or middle option in turn."""
    n = len(session.legal())
    return (n - 1, 0, n // 2)[step % 3]


def _state(session: Session) -> str:
    return json.dumps(session.table.state_dict(), sort_keys=True)


@pytest.mark.parametrize(
    "settings",
    [
        Settings(game="skirmish", opponent="rules", mechs=2, turns=3, seed=11),
        Settings(game="skirmish", opponent="tactician", mechs=2, turns=3, seed=12),
        Settings(game="skirmish", opponent="shipped", mechs=2, turns=3, seed=13, side="red"),
        Settings(game="patrol", opponent="tactician", seed=14),
        Settings(game="pentagon", opponent="rules", turns=2, seed=15),
        Settings(game="starship", opponent="rules", scenario="duel_kestrel", seed=16),
    ],
    ids=lambda s: f"{s.game}-{s.opponent}",
)
def test_undo_gives_the_position_and_the_future_of_a_game_never_played_on(
    settings: Settings,
) -> None:
    played = Session(settings)
    for step in range(12):
        if played.table.over():
            break
        played.choose(_pick(played, step))
    assert len(played.choices) >= 3
    if played.table.over():  # undo the end of the game too
        assert played.table.winner()[1] != "not over"
    before = list(played.choices)
    undone = played.undo()
    assert undone is not None and played.choices == before[:-1]
    fresh = Session(settings, before[:-1])  # the same choices, never undone
    assert _state(played) == _state(fresh)
    assert played.options() == fresh.options()
    for step in range(12, 24):  # the opponent's memory and the dice were restored too
        if played.table.over():
            break
        index = _pick(played, step)
        played.choose(index)
        fresh.choose(index)
        assert _state(played) == _state(fresh)


def test_undo_with_nothing_to_undo_changes_nothing() -> None:
    session = Session(Settings(game="skirmish", opponent="rules", mechs=1, turns=2))
    state = _state(session)
    assert session.undo() is None
    assert _state(session) == state and session.choices == []


def test_a_save_loads_to_the_same_game(tmp_path) -> None:
    session = Session(Settings(game="skirmish", opponent="tactician", mechs=2, turns=3, seed=3))
    for step in range(5):
        session.choose(_pick(session, step))
    save(session, tmp_path / "s.json")
    again = load(tmp_path / "s.json")
    assert _state(again) == _state(session) and again.choices == session.choices
    assert again.settings == session.settings
    index = _pick(session, 5)
    session.choose(index)
    again.choose(index)
    assert _state(again) == _state(session)
