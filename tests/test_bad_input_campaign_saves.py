"""Bad-input catalogue (issue 21): the campaign command line, the demo command, campaign saves.

* ``campaign start`` refuses to overwrite an existing save (``--force`` overwrites it);
* two processes saving the same campaign never fail and never leave a broken file: every
  write holds a ``fcntl.flock`` on a sidecar lock file, temporary names are unique and the
  stale-temp sweep (under the lock) only removes the temps of dead writers;
* a second ``campaign start|continue`` on a save in use waits briefly, then refuses with one
  clear line (exit 2); no mission is ever lost;
* the human player's prompt re-prompts on anything that is not an ASCII number in range
  (``'²'.isdigit()`` is true but ``int('²')`` fails); end of input saves the state at the
  prompt and exits cleanly;
* bad flag values (``--seed -1``, ``--seed 10**30``, ``--max-turns`` beyond the engine's
  limit, a save that is a folder, an empty path, an output folder that does not exist) exit
  with status 2 and one line naming the flag or file, no traceback, no file written or changed.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym import campaign_cli
from wargym.cli import main
from wargym.rules.dice import RandomDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.campaigns import saves
from wargym.rules.no_quarter.campaigns.campaign import load_definition
from wargym.rules.no_quarter.campaigns.campaign_play import CampaignGame
from wargym.rules.no_quarter.campaigns.saves import load_game, save_game, stale_temp_files


@pytest.fixture(scope="module")
def game() -> CampaignGame:
    return CampaignGame.start(
        load_definition("generic"), RandomDice.from_seed(1), np.random.default_rng(1)
    )


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[Any, str]:
    code: Any
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    return code, capsys.readouterr().err


# -- bad flag values: exit 2, one clear line, no file written or changed -----------------
HUGE = str(10**30)
ROWS = [
    # (id, argv with {tmp} for the test folder, words stderr must hold)
    ("campaign start:seed_negative",
     ["campaign", "start", "--save", "{tmp}/n.json", "--seed", "-1"], ["--seed", "-1"]),
    ("campaign start:seed_huge", ["campaign", "start", "--save", "{tmp}/n.json", "--seed", HUGE],
     ["--seed", "outside"]),
    ("campaign start:seed_5000_digits",
     ["campaign", "start", "--save", "{tmp}/n.json", "--seed", "9" * 5000], ["--seed"]),
    ("campaign continue:seed_negative", ["campaign", "continue", "--save", "{tmp}/run.json",
     "--seed", "-5"], ["--seed", "-5"]),
    ("campaign continue:seed_huge", ["campaign", "continue", "--save", "{tmp}/run.json",
     "--seed", HUGE], ["--seed", "outside"]),
    ("campaign start:carry_huge", ["campaign", "start", "--save", "{tmp}/n.json", "--carry", HUGE],
     ["--carry", "outside"]),
    ("campaign start:carry_2", ["campaign", "start", "--save", "{tmp}/n.json", "--carry", "2"],
     ["--carry", "outside"]),
    ("campaign start:save_empty", ["campaign", "start", "--save", ""], ["--save", "empty"]),
    ("campaign start:save_is_a_folder", ["campaign", "start", "--save", "{tmp}/adir"],
     ["adir", "folder"]),
    ("campaign start:save_is_a_folder_force",
     ["campaign", "start", "--save", "{tmp}/adir", "--force"], ["adir", "folder"]),
    ("campaign start:save_exists", ["campaign", "start", "--save", "{tmp}/run.json"],
     ["run.json", "already exists", "--force"]),
    ("campaign start:save_exists_not_a_save", ["campaign", "start", "--save", "{tmp}/keep.json"],
     ["keep.json", "already exists", "--force"]),
    ("campaign continue:save_is_a_folder", ["campaign", "continue", "--save", "{tmp}/adir"],
     ["adir", "not a regular file"]),
    ("campaign continue:save_empty", ["campaign", "continue", "--save", ""], ["--save", "empty"]),
    ("campaign inspect:save_is_a_folder", ["campaign", "inspect", "--save", "{tmp}/adir"],
     ["adir", "not a regular file"]),
    ("campaign save:to_a_folder", ["campaign", "save", "--save", "{tmp}/run.json", "--to",
     "{tmp}/adir"], ["adir", "folder"]),
    ("campaign save:to_a_missing_folder", ["campaign", "save", "--save", "{tmp}/run.json", "--to",
     "{tmp}/no/copy.json"], ["no/copy.json", "cannot write"]),
    ("campaign save:to_empty", ["campaign", "save", "--save", "{tmp}/run.json", "--to", ""],
     ["--to", "empty"]),
    ("campaign start:campaign_5000_chars",
     ["campaign", "start", "--save", "{tmp}/n.json", "--campaign", "x" * 5000], ["error"]),
    ("campaign start:enemy_5000_chars",
     ["campaign", "start", "--save", "{tmp}/n.json", "--enemy", "x" * 5000], ["--enemy"]),
    ("campaign start:campaign_broken_yaml",
     ["campaign", "start", "--save", "{tmp}/n.json", "--campaign", "{tmp}/bad.yaml"],
     ["bad.yaml"]),
    ("demo:mission_5000_chars", ["demo", "--mission", "x" * 5000, "--html", ""], ["--mission"]),
    ("demo:seed_negative", ["demo", "--seed", "-1", "--html", ""], ["--seed", "-1"]),
    ("demo:seed_huge", ["demo", "--seed", HUGE, "--html", ""], ["--seed", "outside"]),
    ("demo:max_turns_huge", ["demo", "--max-turns", HUGE, "--html", ""],
     ["--max-turns", "outside"]),
    ("demo:max_turns_negative", ["demo", "--max-turns", "-1", "--html", ""],
     ["--max-turns", "-1"]),
    ("demo:html_a_folder", ["demo", "--html", "{tmp}/adir"], ["--html", "adir", "folder"]),
    ("demo:html_missing_folder", ["demo", "--html", "{tmp}/no/r.html"],
     ["--html", "no/r.html", "folder"]),
    ("demo:replay_a_folder", ["demo", "--replay", "{tmp}/adir", "--html", ""],
     ["--replay", "adir", "folder"]),
    ("demo:replay_missing_folder", ["demo", "--replay", "{tmp}/no/r.json", "--html", ""],
     ["--replay", "no/r.json", "folder"]),
    ("demo:html_is_the_replay", ["demo", "--replay", "{tmp}/r.json", "--html", "{tmp}/r.json"],
     ["--html", "--replay", "same file"]),
    ("demo:html_is_the_replay_other_spelling",
     ["demo", "--replay", "{tmp}/r.json", "--html", "{tmp}/adir/../r.json"],
     ["--html", "--replay", "same file"]),
]  # fmt: skip


@pytest.fixture
def folder(tmp_path: Path, game: CampaignGame) -> Path:
    save_game(tmp_path / "run.json", game)
    (tmp_path / "keep.json").write_text('{"a": 1}')
    (tmp_path / "bad.yaml").write_text("name: [unclosed\n  sides: {\n")
    (tmp_path / "adir").mkdir()
    (tmp_path / "adir" / "inside.txt").write_text("x")
    return tmp_path


@pytest.mark.parametrize(("argv", "words"), [pytest.param(a, w, id=i) for i, a, w in ROWS])
def test_bad_flag_exits_2_with_one_clear_line(
    folder: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]
) -> None:
    args = [a.replace("{tmp}", str(folder)) for a in argv]
    before = _snapshot(folder)
    code, err = _run(args, capsys)
    assert code == 2, (code, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()  # argparse: the usage, then one line; ours: one line
    assert "error:" in lines[-1] and sum("error:" in line for line in lines) == 1, err
    for word in words:
        assert word in lines[-1], (word, err)
    assert len(lines[-1]) < 1100, err  # a 5000-character value is not echoed
    assert _snapshot(folder) == before  # no new, changed or half-written file


def test_unreadable_save_exits_2(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def denied(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", denied)  # root reads anything: simulate chmod 000
    for command in ("continue", "inspect"):
        code, err = _run(["campaign", command, "--save", str(folder / "run.json")], capsys)
        assert code == 2 and "run.json" in err and "Permission denied" in err, err
        assert "Traceback" not in err


# -- item 7: campaign start does not overwrite a campaign in progress ---------------------
def test_start_refuses_an_existing_save_and_force_overwrites_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "run.json"
    assert campaign_cli.main(["start", "--save", str(save), "--seed", "1", "--missions", "1"]) == 0
    played = load_game(save).to_dict()
    assert load_game(save).campaign.played == 1
    before = save.read_bytes()
    capsys.readouterr()
    code = campaign_cli.main(["start", "--save", str(save), "--seed", "2", "--missions", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "already exists" in err and "--force" in err and str(save) in err
    assert save.read_bytes() == before and load_game(save).to_dict() == played
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]
    code = campaign_cli.main(
        ["start", "--save", str(save), "--seed", "2", "--missions", "1", "--force", "--player",
         "random"]
    )  # fmt: skip
    assert code == 0
    assert load_game(save).to_dict() != played
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]  # no lock or temp left


# -- item 9: two writers of the same save --------------------------------------------------
WRITER = textwrap.dedent(
    """
    import sys, time
    from wargym.rules.errors import StateError
    from wargym.rules.no_quarter.campaigns.saves import load_game, save_game
    source, target, count, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    game = load_game(source)
    failures = 0
    while time.time() < start:
        time.sleep(0.005)
    for _ in range(count):
        try:
            save_game(target, game)
            load_game(target)  # the file is always a whole, valid save
        except StateError as error:
            failures += 1
            print(error, file=sys.stderr)
    print(failures)
    """
)


SAVES = 60
"""Saves per writer (without the lock, about one in six failed: issue 21, item 9)."""


def test_two_processes_saving_the_same_campaign_never_fail(
    tmp_path: Path, game: CampaignGame
) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    save_game(first, game)
    other = CampaignGame.start(
        load_definition("generic"), RandomDice.from_seed(2), np.random.default_rng(2)
    )
    save_game(second, other)
    target = tmp_path / "shared" / "run.json"
    target.parent.mkdir()
    start = time.time() + 1.5  # both interpreters are up by then: the writes overlap
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(src), str(target), str(SAVES), str(start)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for src in (first, second)
    ]  # fmt: skip
    valid = 0
    while any(p.poll() is None for p in procs):
        if target.exists():
            loaded = load_game(target).to_dict()  # a reader never sees a partial file
            assert loaded in (game.to_dict(), other.to_dict())
            valid += 1
        time.sleep(0.01)
    results = [p.communicate(timeout=60) for p in procs]
    for proc, (out, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err
        assert out.strip() == "0", f"{out.strip()} of {SAVES} saves failed: {err[:2000]}"
    assert valid > 0
    assert load_game(target).to_dict() in (game.to_dict(), other.to_dict())
    assert sorted(p.name for p in target.parent.iterdir()) == ["run.json"]


HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from wargym.rules.no_quarter.campaigns.saves import save_lock
    target = Path(sys.argv[1])
    with save_lock(target):
        temp = target.parent / f".{target.name}.abcd1234.tmp"  # a live writer's temp file
        temp.write_text("half")
        print("locked", flush=True)
        sys.stdin.readline()
        temp.unlink()
    """
)


def _holder(target: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(target)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def _release(proc: subprocess.Popen[str]) -> None:
    proc.communicate("go\n", timeout=60)
    assert proc.returncode == 0


def test_a_save_waits_for_the_lock_and_spares_a_live_writers_temp(
    tmp_path: Path, game: CampaignGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "run.json"
    save_game(target, game)
    before = target.read_bytes()
    holder = _holder(target)
    try:
        monkeypatch.setattr(saves, "LOCK_WAIT", 0.3)
        with pytest.raises(StateError) as info:
            save_game(target, game)
        assert str(target) in str(info.value) and "in use" in str(info.value)
        assert str(holder.pid) in str(info.value)
        assert target.read_bytes() == before
        assert [p.name for p in stale_temp_files(target)] == [".run.json.abcd1234.tmp"]
    finally:
        _release(holder)
    save_game(target, game)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_the_sweep_removes_only_a_dead_writers_temps(tmp_path: Path, game: CampaignGame) -> None:
    target = tmp_path / "run.json"
    dead = tmp_path / ".run.json.k3j_9x0q.tmp"  # the mkstemp pattern: a killed writer's temp
    dead.write_text("half")
    mine = tmp_path / ".run.json.notes.tmp"  # not the pattern: somebody else's file
    mine.write_text("keep")
    lock = tmp_path / ".run.json.lock"
    lock.write_text("4242\n")  # a killed writer's lock file (no process holds its lock)
    save_game(target, game)
    assert not dead.exists() and mine.read_text() == "keep"
    assert not lock.exists()
    assert load_game(target).to_dict() == game.to_dict()


def test_a_second_cli_on_a_save_in_use_refuses(
    tmp_path: Path, game: CampaignGame, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    target = tmp_path / "run.json"
    save_game(target, game)
    before = target.read_bytes()
    monkeypatch.setattr(campaign_cli, "SESSION_WAIT", 0.3)
    holder = _holder(target)
    try:
        for argv in (
            ["continue", "--save", str(target), "--missions", "1"],
            ["start", "--save", str(target), "--force"],
        ):
            code = campaign_cli.main(argv)
            err = capsys.readouterr().err
            assert code == 2 and "in use" in err and str(target) in err, err
            assert len(err.strip().splitlines()) == 1
            assert target.read_bytes() == before
    finally:
        _release(holder)


def _cli(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "wargym.campaign_cli", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_two_cli_sessions_on_one_save_never_lose_a_mission(
    tmp_path: Path, game: CampaignGame
) -> None:
    target = tmp_path / "run.json"
    save_game(target, game)
    procs = [
        _cli("continue", "--save", str(target), "--seed", str(s), "--missions", "1",
             "--player", "random")
        for s in (1, 2)
    ]  # fmt: skip
    results = [p.communicate(timeout=300) for p in procs]
    done = 0
    for proc, (_, err) in zip(procs, results, strict=True):
        if proc.returncode == 0:
            done += 1
        else:  # it waited, then refused: one clear line
            assert proc.returncode == 2 and "in use" in err and "Traceback" not in err, err
    game = load_game(target)
    assert done >= 1
    assert game.campaign.played == done or game.campaign.over  # every mission played is kept


# -- item 11: the human player's prompt ------------------------------------------------------
def _prompt(answers: str, n: int = 3) -> tuple[Any, str]:
    out = io.StringIO()
    pick = campaign_cli.human(io.StringIO(answers), out)

    class Fake:
        @staticmethod
        def decider() -> str:
            return "blue decides"

    return pick(Fake(), list(range(n))), out.getvalue()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    ["²", "³", "١", "٣", "-1", "3", "1.0", "1e1", "x", "0x1", "9" * 5000, " ", "１", "\x00"],
)
def test_human_prompt_reprompts_on_a_bad_entry(bad: str) -> None:
    choice, text = _prompt(f"{bad}\n2\n")
    assert choice == 2
    assert text.count("choice (q saves and quits)> ") == 2
    assert "enter one of the numbers 0..2" in text
    assert len(text) < 2000  # the bad entry is not echoed in full


def test_human_prompt_eof_and_q_stop() -> None:
    for answers in ("", "²\n"):  # end of input at once, or after a bad entry
        with pytest.raises(campaign_cli.EndOfInputError):
            _prompt(answers)
    assert _prompt(" Q \n")[0] is None
    assert _prompt(" 1 \n")[0] == 1


def _human_session(
    save: Path, answers: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code = campaign_cli.main(["continue", "--save", str(save), "--player", "human"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_campaign_continue_survives_a_non_ascii_digit_and_eof(
    tmp_path: Path, game: CampaignGame, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    save = tmp_path / "run.json"
    save_game(save, game)
    code, out, err = _human_session(save, "²\n0\n", monkeypatch, capsys)
    assert code == 0, err
    assert "Traceback" not in err and "enter one of the numbers" in out
    first = load_game(save)
    assert first.to_dict() != game.to_dict()  # the one choice was played and saved
    expected = json.dumps(first.to_dict())
    code, out, err = _human_session(save, "", monkeypatch, capsys)  # end of input at once
    assert code == 0 and "Traceback" not in err
    assert "end of input" in err
    assert json.dumps(load_game(save).to_dict()) == expected  # saved at the prompt, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_interrupt_at_the_prompt_keeps_the_last_save(
    tmp_path: Path, game: CampaignGame, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    save = tmp_path / "run.json"
    save_game(save, game)
    before = save.read_bytes()

    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupting())
    code = campaign_cli.main(["continue", "--save", str(save), "--player", "human"])
    err = capsys.readouterr().err
    assert code == 130 and "interrupted" in err and "Traceback" not in err
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_lock_files_are_private_to_their_save(tmp_path: Path, game: CampaignGame) -> None:
    """Saving one campaign never waits for, or sweeps the temps of, another one."""
    target, other = tmp_path / "a.json", tmp_path / "b.json"
    save_game(other, game)
    holder = _holder(other)
    try:
        start = time.monotonic()
        save_game(target, game)
        assert time.monotonic() - start < 5
    finally:
        _release(holder)
    assert load_game(target).to_dict() == game.to_dict()
    assert sorted(os.listdir(tmp_path)) == ["a.json", "b.json"]


def test_bytes_that_are_not_utf8_at_the_prompt_ask_again(
    tmp_path: Path, game: CampaignGame
) -> None:
    save = tmp_path / "run.json"
    save_game(save, game)
    done = subprocess.run(
        [sys.executable, "-m", "wargym.campaign_cli", "continue", "--save", str(save),
         "--player", "human"],
        input=b"\xff\xfe\n0\nq\n", capture_output=True, timeout=120, check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0 and "Traceback" not in err, err
    assert out.count("choice (q saves and quits)> ") == 3  # bad bytes, 0, q: no line lost
    assert "enter one of the numbers" in out
    assert load_game(save).to_dict() != game.to_dict()  # the choice 0 was played and saved


def test_carry_bound_is_the_rules_largest_carry_over() -> None:
    from wargym.rules.no_quarter.campaigns.campaign_rules import campaign_tables

    assert max(campaign_tables().carry_over.values()) == campaign_cli.MAX_CARRY


def test_a_planted_lock_symlink_is_refused_and_its_target_untouched(
    tmp_path: Path, game: CampaignGame
) -> None:
    target = tmp_path / "run.json"
    save_game(target, game)
    before = target.read_bytes()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / ".run.json.lock").symlink_to(victim)
    with pytest.raises(StateError) as info:
        save_game(target, game)
    assert str(target) in str(info.value) and "cannot write" in str(info.value)
    assert victim.read_text() == "precious" and target.read_bytes() == before
