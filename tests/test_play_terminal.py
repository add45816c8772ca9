"""``wargym play`` driven through a pseudo-terminal (pexpect), as a person would play it.

The board, the numbered options, the events in words, undo, save, quit, loading and
continuing, whole short games against every kind of opponent, bad input at the prompt, and
bad arguments and save files (exit status 2, one line, the file unchanged).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest

PROMPT = r"your choice \(1-(\d+), u undo, s save, q quit, h help\)> "
OVER = r"Game over: ([^\r\n]*)"
OVER_PROMPT = "game over (u undo, s save, q quit)> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
OPTION = re.compile(r"^\s*(\d+)\. (.+?)\s*$", re.MULTILINE)


def plain(text: str) -> str:
    """Terminal output without colour codes and carriage returns."""
    return ANSI.sub("", text).replace("\r", "")


class Player:
    """A ``python -m wargym.play`` child in a pty and what it last showed."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
        env.update(TERM="xterm-256color", PYTHONIOENCODING="utf-8")
        self.child = pexpect.spawn(
            sys.executable, ["-m", "wargym.play", *args], encoding="utf-8", timeout=90,
            dimensions=(60, 200), env=env, cwd=str(cwd) if cwd else None,
        )  # fmt: skip
        self.raw = ""
        self.screen = ""
        self.count = 0

    def wait(self) -> bool:
        """Read up to the next prompt (True) or the end of the game (False)."""
        which = self.child.expect([PROMPT, OVER])
        self.raw = self.child.before + self.child.after
        self.screen = plain(self.raw)
        assert "Traceback" not in self.screen, self.screen
        if which == 0:
            self.count = int(self.child.match.group(1))
            return True
        self.result = self.child.match.group(1)
        return False

    def options(self) -> list[str]:
        """The numbered options of the last screen, in order."""
        listed = OPTION.findall(self.screen.split(" to decide: ")[-1].split(" to plot: ")[-1])
        return [text for _, text in listed]

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def answer(self, line: str) -> str:
        """Send ``line`` and read the one-line answer up to the prompt (no new screen)."""
        self.send(line)
        self.child.expect(PROMPT)
        return plain(self.child.before)

    def answer_over(self, line: str) -> str:
        """Send ``line`` at the game-over prompt and read the answer up to it."""
        self.send(line)
        self.child.expect_exact(OVER_PROMPT)
        return plain(self.child.before)

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus is not None
        return self.child.exitstatus


def test_board_options_undo_save_quit_load_and_continue(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    p = Player("skirmish", "--mechs", "2", "--turns", "2", "--opponent", "rules", "--seed", "4",
               "--save", str(save))  # fmt: skip
    assert p.wait()
    assert "\x1b[" in p.raw  # drawn with colour
    assert "north up" in p.screen and "woods" in p.screen  # the board and its key
    assert "blue #0" in p.screen and "armour" in p.screen  # the forces table
    assert "Set-up:" in p.screen and "Turn 1 begins." in p.screen  # events in words
    first = p.options()
    assert len(first) == p.count >= 2
    assert not any("(" in o and "Action" in o for o in first)  # words, not reprs
    p.send("1")
    assert p.wait()
    assert f"You: {first[0]}" in p.screen
    second = p.options()
    p.send(str(len(second)))
    assert p.wait()
    assert f"You: {second[-1]}" in p.screen
    p.send("u")  # take the second decision back: the same options again
    assert p.wait()
    assert f"undone: {second[-1]}" in p.screen
    assert p.options() == second
    p.send("1")
    assert p.wait()
    at_save = p.options()
    assert "saved to" in p.answer("s")
    p.send("q")
    assert p.finish() == 0
    assert "quitting (saved in" in plain(p.child.before)
    data = json.loads(save.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == ("wargym-play", 1)
    assert [c["index"] for c in data["choices"]] == [0, 0]
    assert data["choices"][1]["words"] == second[0]
    assert data["settings"]["opponent"] == "rules" and "frames" in json.dumps(data["state"])
    again = Player("--load", str(save))
    assert again.wait()
    assert again.options() == at_save  # the same decision, the same options
    play_on(again)
    assert again.result
    assert "the game is over" in again.answer_over("1")
    again.send("u")  # the end of the game can be undone too
    assert again.wait()
    again.send("q")
    assert again.finish() == 0


def play_on(p: Player) -> None:
    """Choose the first option until the game ends (its prompt then reads u, s, q)."""
    while True:
        p.send("1")
        if not p.wait():
            p.child.expect_exact(OVER_PROMPT)
            return


def _play_out(*args: str) -> Player:
    p = Player(*args)
    assert p.wait()
    play_on(p)
    return p


@pytest.mark.parametrize("opponent", ["shipped", "rules", "tactician"])
def test_whole_skirmish_against_each_opponent(opponent: str) -> None:
    p = _play_out("skirmish", "--mechs", "1", "--turns", "2", "--opponent", opponent)
    assert p.result.startswith(("you win", "you lose", "a draw"))
    p.send("q")
    assert p.finish() == 0


def test_whole_skirmish_as_red_against_the_shipped_policy() -> None:
    p = _play_out("skirmish", "--mechs", "1", "--turns", "2", "--side", "red", "--seed", "3")
    assert p.result.startswith(("you win", "you lose", "a draw"))
    p.send("q")
    assert p.finish() == 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("starship", "--scenario", "duel_kestrel"), "Starship Combat"),
        (("pentagon", "--turns", "1"), "The Pentagon War"),
    ],
)
def test_whole_space_duel_against_the_captain(args: tuple[str, ...], words: str) -> None:
    p = Player(*args)  # --opponent shipped (the default) falls back with a note
    assert p.wait()
    assert "No learned policy is shipped for space duels yet" in p.screen
    assert words in p.screen and "heading" in p.screen
    play_on(p)
    assert p.result.startswith(("you win", "you lose", "a draw"))
    p.send("q")
    assert p.finish() == 0


def test_mission_with_the_tactician_in_the_np_seat() -> None:
    p = Player("cestus-v", "--mission", "1", "--opponent", "tactician")
    assert p.wait()
    assert "Cestus V, mission 1" in p.screen
    assert "your opponent takes the enemy's decisions" in p.screen  # the NP seat (§22.4)
    assert "against the tactician" in p.screen
    options = p.options()
    p.send("1")
    assert p.wait()
    p.send("u")
    assert p.wait()
    assert p.options() == options
    p.send("q")
    assert p.finish() == 0


def test_bad_input_at_the_prompt_asks_again_with_one_line() -> None:
    p = Player("skirmish", "--mechs", "1", "--turns", "1", "--opponent", "rules")
    assert p.wait()
    options, count = p.options(), p.count
    for line, expected in [
        ("0", "there is no option 0"),
        (str(count + 1), f"there is no option {count + 1}"),
        ("99999999999999999999", "not understood"),
        ("abc", "not understood"),
        ("", "not understood"),
        ("１", "not understood"),  # a full-width digit is no ASCII number
        ("-1", "not understood"),
        ("u", "nothing to undo"),
    ]:
        said = [x for x in p.answer(line).split("\n") if x.strip() not in ("", line)]
        assert len(said) == 1, said  # one line (the pty's echo of the input left out)
        assert expected in said[0], said
    assert "u undoes" in p.answer("h")
    p.send("1")  # still the same decision: the first option plays
    assert p.wait()
    assert f"You: {options[0]}" in p.screen
    p.send("q")
    assert p.finish() == 0


def test_save_to_a_missing_folder_is_refused_and_play_goes_on(tmp_path: Path) -> None:
    p = Player("skirmish", "--mechs", "1", "--turns", "1", "--opponent", "rules")
    assert p.wait()
    answer = p.answer(f"s {tmp_path / 'nowhere' / 'x.json'}")
    assert "not saved" in answer and "no such folder" in answer
    assert not (tmp_path / "nowhere").exists()
    p.send("q")
    assert p.finish() == 0


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``wargym.play.main(args)`` in this process: the exit status and stderr."""
    from wargym.play import main

    status = main(list(args))
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("skirmish", "--seed", "x"), "--seed"),
        (("nosuchgame",), "nosuchgame"),
        (("skirmish", "--mechs", "0"), "--mechs 0: outside 1..6"),
        (("skirmish", "--seed", "-1"), "--seed -1"),
        (("cestus-v", "--mission", "11"), "--mission 11: outside 1..10"),
        (("patrol", "--side", "red"), "--side red: in a mission you command blue"),
        (("patrol", "--turns", "3"), "--turns"),
        (("starship", "--scenario", "nope"), "--scenario 'nope'"),
        (("skirmish", "--bogus", "1"), "--bogus"),
        ((), "name a game"),
        (("skirmish", "--load", "x.json"), "not both"),
        (("--load", "missing.json"), "missing.json"),
        (("--load", "."), "IsADirectoryError"),
        (("skirmish", "--save", "."), "--save '.': is a folder"),
        (("skirmish", "--save", "no/such/x.json"), "no such folder"),
        (("skirmish", "--scenario", "z" * 5000), "zzz"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    status, err = _run(capsys, *args)
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("wargym play: error: ") and words in lines[0]
    assert len(lines[0]) < 400 and "None" not in lines[0]


def _saved(tmp_path: Path) -> Path:
    """A save of a skirmish two decisions in (made through the session API)."""
    from wargym.play.games import Settings
    from wargym.play.session import Session, save

    session = Session(Settings(game="skirmish", opponent="rules", mechs=1, turns=2, seed=5))
    session.choose(0)
    session.choose(0)
    path = tmp_path / "good.json"
    save(session, path)
    return path


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda d: "not json {", "not a JSON save"),
        (lambda d: {**d, "format": "other"}, "not a wargym play save"),
        (lambda d: {**d, "version": 99}, "save version 99"),
        (lambda d: {k: v for k, v in d.items() if k != "choices"}, "no 'choices'"),
        (lambda d: {**d, "choices": [{"index": 10**6}]}, "choices[0]: option 1000000"),
        (lambda d: {**d, "choices": [{"index": "1"}]}, "choices[0].index"),
        (lambda d: {**d, "settings": {**d["settings"], "mechs": 60}}, "--mechs 60"),
        (lambda d: {**d, "settings": {**d["settings"], "seed": True}}, "settings.seed"),
        (lambda d: {**d, "settings": {**d["settings"], "x": 1}}, "settings must be"),
        (lambda d: {**d, "state": {**d["state"], "turn": 7}}, "saved state differs"),
    ],
)
def test_bad_save_files_exit_2_and_stay_unchanged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, edit: Any, words: str
) -> None:
    good = json.loads(_saved(tmp_path).read_text(encoding="utf-8"))
    bad = tmp_path / "bad.json"
    changed = edit(good)
    bad.write_text(changed if isinstance(changed, str) else json.dumps(changed), "utf-8")
    before = bad.read_bytes()
    status, err = _run(capsys, "--load", str(bad))
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], err
    assert "StateError" in lines[0]
    assert bad.read_bytes() == before


@pytest.mark.parametrize("args", [("--mechs", "7"), ("--seed", "x" * 500)])
def test_wargym_play_through_the_main_command(args: tuple[str, ...]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wargym.cli", "play", "skirmish", *args],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and args[0] in lines[0] and len(lines[0]) < 400, done.stderr
