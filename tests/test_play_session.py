"""``wargym.play.session``: undo restores the game exactly, saves rebuild it, across opponents."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from wargym.play.games import Settings
from wargym.play.session import Session, load, save
from wargym.play.ui import play
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.forces.vocab import Side


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


class _Input:
    """A stdin whose ``buffer`` holds ``data`` (bytes, as a terminal gives them)."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, force_terminal=False, color_system=None), out


def test_bytes_that_are_not_utf8_and_nul_ask_again_and_lose_no_later_line() -> None:
    session = Session(Settings(game="skirmish", opponent="rules", mechs=1, turns=1))
    first = session.options()[0]
    console, out = _console()
    status = play(session, None, _Input(b"\xff\xfe\n\x00\n1\nq\n"), console)
    text = out.getvalue()
    assert status == 0
    assert text.count("not understood") == 2 and f"You: {first}" in text
    assert session.choices == [0] and "quitting without saving" in text


def test_end_of_input_at_the_prompt_quits_cleanly(tmp_path) -> None:
    session = Session(Settings(game="starship", opponent="rules"))
    console, out = _console()
    assert play(session, str(tmp_path / "x.json"), _Input(b"1\n"), console) == 0
    assert "end of input: quitting without saving" in out.getvalue()
    assert not (tmp_path / "x.json").exists()


def test_save_command_writes_the_file_and_quitting_says_so(tmp_path) -> None:
    session = Session(Settings(game="pentagon", opponent="rules", turns=1))
    console, out = _console()
    target = tmp_path / "p.json"
    assert play(session, str(target), _Input(b"2\ns\nq\n"), console) == 0
    assert "quitting (saved in" in out.getvalue()
    assert load(target).choices == [1]


def test_a_save_larger_than_the_limit_is_refused(tmp_path, monkeypatch) -> None:
    import wargym.play.session as module

    path = tmp_path / "big.json"
    path.write_text(" " * 2000, encoding="utf-8")
    monkeypatch.setattr(module, "MAX_SAVE_BYTES", 1000)
    with pytest.raises(StateError, match="2000 bytes, more than a save holds"):
        load(path)


def test_a_save_nested_too_deep_is_refused(tmp_path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(StateError, match="not a JSON save"):
        load(path)


def test_the_shipped_opponent_without_onnxruntime_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    import wargym.play.games as games
    from wargym.play import main

    monkeypatch.setattr(games, "_SHIPPED", [])
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import onnxruntime fails
    assert main(["skirmish", "--mechs", "1"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "needs onnxruntime" in lines[0] and "wargym[export]" in lines[0]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the other opponents still play
    assert main(["skirmish", "--mechs", "1", "--turns", "1", "--opponent", "rules"]) == 0


def test_input_that_cannot_be_read_ends_the_session() -> None:
    class Broken:
        def readline(self) -> str:
            raise OSError("reading from stdin while output is captured")

    session = Session(Settings(game="skirmish", opponent="rules", mechs=1, turns=1))
    console, out = _console()
    assert play(session, None, Broken(), console) == 0  # type: ignore[arg-type]
    assert "end of input" in out.getvalue()


def test_the_humans_own_in_between_decisions_are_asked_in_words() -> None:
    """Lucky re-rolls, Marksman hit locations, free moves: the human decides them."""
    session = Session(Settings(game="skirmish", opponent="rules", mechs=3, turns=4, seed=6))
    asked: dict[str, list[str]] = {}
    while not session.table.over():
        decision = session.table.battle.decision
        assert decision.side.value == "blue"  # the opponent's replies never stop at red
        if decision.kind.value in ("lucky_reroll", "marksman_location", "free_move"):
            asked.setdefault(decision.kind.value, session.options())
        session.choose(0)
    assert {"lucky_reroll", "marksman_location"} <= set(asked)
    assert sorted(o.split(": ")[1] for o in asked["lucky_reroll"]) == [
        "keep the roll", "spend Lucky to re-roll",
    ]  # fmt: skip
    assert all("(Marksman)" in o for o in asked["marksman_location"])


def test_help_lists_the_games_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    from wargym.play import main

    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for word in ("skirmish", "cestus-v", "pentagon", "--opponent", "--load", "--save", "--side"):
        assert word in out
    assert "tactician" in out and "shipped" in out


def _render(*things: object) -> str:
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    for thing in things:
        console.print(thing)
    return console.export_text()


def test_the_board_and_the_words_show_only_the_enemies_in_sight() -> None:
    from wargym.play.board import board, glyph, hidden_enemies
    from wargym.play.words import event_words

    session = Session(Settings(game="skirmish", opponent="rules", side="red", seed=1))
    battle = session.table.battle
    hidden = hidden_enemies(battle, "red")
    assert hidden  # the blue force deploys out of red's sight on this table
    drawn, forces = board(session.table)
    text = _render(drawn, forces)
    assert f"{len(hidden)} enemy mech(s) out of sight" in text
    for mech in battle.mechs.values():
        row = f"{mech.side.value} #{mech.id} "
        assert (row in text) is (mech.id not in hidden), row
    board_rows = text.split("north up")[0]
    for mech_id in hidden:
        assert not any(glyph(mech_id) + arrow in board_rows for arrow in "→↗↑↖←↙↓↘")
    from wargym.rules.no_quarter.battle.events import MechMoved

    unseen, seen = min(hidden), min(m.id for m in battle.mechs_of(Side.RED))
    for mech_id, words in ((unseen, "An enemy mech out of sight moved."), (seen, "red #")):
        event = MechMoved(mech_id, ((1.0, 1.0), (2.0, 2.0)), 45.0, 1.4, 1.4, "voluntary")
        assert event_words(session.table, event, hidden).startswith(words)


def _every_start() -> list[Settings]:
    from wargym.play.session import scenarios

    found = [Settings(game="cestus-v", mission=n, opponent="rules") for n in range(1, 11)]
    found += [Settings(game="skirmish", opponent="rules", side=side) for side in ("blue", "red")]
    for game in ("patrol", "attack", "defend", "starship", "pentagon"):
        found += [Settings(game=game, scenario=name, opponent="rules") for name in scenarios(game)]
    found += [Settings(game="starship", side="red", opponent="rules")]
    return found


@pytest.mark.parametrize(
    "settings", _every_start(), ids=lambda s: f"{s.game}-{s.scenario or s.mission}-{s.side}"
)
def test_every_game_starts_draws_and_words_its_options(settings: Settings) -> None:
    from wargym.play.board import board
    from wargym.play.words import decision_words, event_words

    session = Session(settings)
    table = session.table
    text = _render(*board(table))
    assert "heading" in text or "north up" in text
    if table.over():
        return
    options = session.options()
    assert options and len(options) == len(session.legal())
    said = [decision_words(table, table.human), *options]
    said += [event_words(table, e, ()) or "" for step in session.recent for e in step.events]
    for line in said:
        assert "object at" not in line and "Action(" not in line and len(line) < 300, line
