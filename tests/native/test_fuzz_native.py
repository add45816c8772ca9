"""The native fuzzer's driver (tests/native/fuzz_native.py): mutations, oracle, findings.

The coverage-guided run itself needs the fuzzing build (``make sanitize``, which .ci/run calls);
here the driver runs blind on the normal build and is checked on targets with a planted bug.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import fuzz_native  # noqa: E402
from fuzz_native import Mutator, Target, fuzz  # noqa: E402

from wargym.native.errors import NativeStateError  # noqa: E402

SEED_DOC: dict[str, Any] = {"a": [1, 2, {"b": "blue", "c": 0.5}], "d": {"e": None, "f": True}}


def test_a_mutation_copies_the_path_and_leaves_its_input_alone() -> None:
    before = copy.deepcopy(SEED_DOC)
    mutator = Mutator(random.Random(3), [SEED_DOC])
    out = [mutator.mutate(SEED_DOC) for _ in range(200)]
    assert before == SEED_DOC
    assert sum(doc != SEED_DOC for doc in out) > 150  # most mutations change something
    kinds = {type(doc).__name__ for doc in out}
    assert "dict" in kinds


def test_an_unexpected_error_is_a_finding_and_is_written(tmp_path: Path) -> None:
    def planted(doc: Any) -> object:
        if isinstance(doc, dict) and "a" not in doc:
            raise KeyError("a")  # the planted bug: a bare KeyError instead of a typed error
        if isinstance(doc, dict) and doc.get("d") is None:
            raise NativeStateError("battle.d", "refused")  # an allowed outcome
        return doc

    target = Target("planted", planted, (NativeStateError,))
    stats = fuzz(target, [SEED_DOC], seconds=30, seed=1, max_execs=400, findings_dir=tmp_path)
    assert stats.findings and all(f.startswith("KeyError") for f in stats.findings)
    written = sorted(tmp_path.glob("planted-*.json"))
    assert len(written) == len(stats.findings)
    finding = json.loads(written[0].read_text())
    assert finding["target"] == "planted" and "a" not in finding["input"]
    assert stats.outcomes.get("NativeStateError", 0) > 0 and stats.outcomes.get("value", 0) > 0


def test_a_target_check_failure_is_a_finding() -> None:
    def check(result: object) -> None:
        assert result != 7, "seven"

    target = Target("check", lambda doc: doc, (), check)
    stats = fuzz(target, [7, [7]], seconds=30, seed=0, max_execs=50)
    assert any(f.startswith("AssertionError: seven") for f in stats.findings)


def test_the_native_reader_survives_a_short_blind_run() -> None:
    corpus = fuzz_native.seed_corpus(games=2, missions=False)
    stats = fuzz(fuzz_native.TARGETS["battle_from_dict"], corpus, seconds=60, seed=2, max_execs=300)
    assert not stats.findings, stats.findings
    assert stats.outcomes.get("NativeStateError", 0) > 0 and stats.outcomes.get("value", 0) > 0


def test_the_action_targets_survive_a_short_blind_run() -> None:
    """Action dicts and objects into check_legal/play, codec indices into decode: no finding."""
    for name in ("action_play", "codec_decode"):
        target = fuzz_native.TARGETS[name]
        assert target.corpus is not None
        corpus = target.corpus()
        assert len({doc["battle"] for doc in corpus}) >= 4  # several battles
        stats = fuzz(target, corpus, seconds=6, seed=4, max_execs=len(corpus) + 100)
        assert not stats.findings, (name, stats.findings)
        typed = sum(stats.outcomes.get(e.__name__, 0) for e in fuzz_native.PLAY_ERRORS)
        assert stats.outcomes.get("value", 0) > 0 and typed > 0, (name, stats.outcomes)


def test_the_play_oracle_reports_a_battle_changed_on_an_error(monkeypatch: Any) -> None:
    """A planted fault: the native play changes the battle, then refuses the action."""
    from wargym.native.no_quarter import game as native_game
    from wargym.rules.errors import IllegalActionError

    real = native_game.play

    def planted(battle: Any, tables: Any, action: Any, dice: Any, events: bool = False) -> Any:
        found = real(battle, tables, action, dice, events)
        raise IllegalActionError("planted: refused after playing")  # the battle has changed
        return found

    monkeypatch.setattr(native_game, "play", planted)
    target = fuzz_native.TARGETS["action_play"]
    corpus = target.corpus()  # type: ignore[misc]
    stats = fuzz(target, corpus[:6], seconds=30, seed=5, max_execs=12)
    assert stats.findings and all(f.startswith("AssertionError") for f in stats.findings)
    assert any("check_legal allowed" in f or "changed" in f for f in stats.findings)


def test_the_native_np_context_reader_survives_a_short_blind_run() -> None:
    target = fuzz_native.TARGETS["np_context_from_dict"]
    assert target.corpus is not None
    stats = fuzz(target, target.corpus(), seconds=60, seed=3, max_execs=400)
    assert not stats.findings, stats.findings
    assert stats.outcomes.get("value", 0) > 0
    outcomes = stats.outcomes
    assert outcomes.get("NativeArgumentError", 0) + outcomes.get("NativeTypeError", 0) > 0
