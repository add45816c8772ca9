"""A game of ``wargym play`` in progress: the human's decisions, the opponent's, undo and saves.

A session is its :class:`~.games.Settings` (game, opponent, side, seed) and the list of the
human's choices (indices into the engine's legal list at each of the human's decisions).
Everything else follows from them: the set-up, the dice and the opponent's generator come from
the seed, and the opponent answers the same positions the same way. So

* **undo** goes back to the copy of the game kept before the human's last decision (the
  opponent's replies and the dice after it undone, the opponent's memory as it was); beyond
  the last :data:`MAX_CHECKPOINTS` copies it rebuilds the game from the earlier choices,
  which gives the same position;
* a **save** (:func:`save`) is versioned JSON: the settings, the choices (with their words,
  for a reader) and the engine's own state (``to_dict``); **loading** rebuilds the game from
  the settings and choices and refuses the file (a typed :class:`~wargym.rules.errors.StateError`
  naming what is wrong) unless the rebuilt state equals the saved one.

Saves are written atomically (temporary file, fsync, rename).
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from wargym.rules.errors import StateError, short_repr

from .games import GAMES, OPPONENTS, SIDES, Settings, Table, copy_table, new_table
from .words import action_words

FORMAT = "wargym-play"
VERSION = 1
MAX_SAVE_BYTES = 64 * 1024 * 1024
"""Largest save file read."""
MAX_CHECKPOINTS = 100
"""Undo checkpoints kept (copies of the game before each of the human's last decisions);
an undo beyond them rebuilds the game from the choices."""
MAX_OPPONENT_STEPS = 100_000
"""Safety valve: opponent decisions in a row before the human decides again."""


class PlayError(ValueError):
    """A bad setting of ``wargym play`` (exit status 2, one line)."""


@dataclasses.dataclass
class Step:
    """One decision taken: who, the option in words, and the events it produced."""

    side: str
    words: str
    events: list[Any]
    hidden: frozenset[int] = frozenset()


MISSIONS = 10
"""Cestus V missions (§27.2)."""
LIMITS = {"mechs": (1, 6), "turns": (1, 50), "mission": (1, MISSIONS)}


def check_settings(s: Settings) -> None:
    """Raise :class:`PlayError` naming the first bad setting."""
    if s.game not in GAMES:
        raise PlayError(f"game {short_repr(s.game)}: one of {', '.join(GAMES)}")
    if s.opponent not in OPPONENTS:
        raise PlayError(f"--opponent {short_repr(s.opponent)}: one of {', '.join(OPPONENTS)}")
    if s.side not in SIDES:
        raise PlayError(f"--side {short_repr(s.side)}: one of {', '.join(SIDES)}")
    if not 0 <= s.seed <= 2**63 - 1:
        raise PlayError(f"--seed {short_repr(s.seed)}: outside 0..2**63-1")
    for name, (low, high) in LIMITS.items():
        value = getattr(s, name)
        if value is None:
            continue
        if not low <= value <= high:
            raise PlayError(f"--{name} {short_repr(value)}: outside {low}..{high}")
    if s.game in ("patrol", "attack", "defend", "cestus-v") and s.side != "blue":
        raise PlayError(
            f"--side {s.side}: in a mission you command blue; the engine plays the enemy"
        )
    if s.turns is not None and s.game in ("patrol", "attack", "defend"):
        raise PlayError(f"--turns: a {s.game} mission keeps its scenario's turn limit")
    if s.scenario is not None:
        known = scenarios(s.game)
        if s.scenario not in known:
            raise PlayError(
                f"--scenario {short_repr(s.scenario)}: {s.game} offers {', '.join(known) or 'none'}"
            )


def scenarios(game: str) -> list[str]:
    """The scenarios ``--scenario`` accepts for ``game``."""
    if game == "starship":
        from wargym.rules.starship_combat.data import load_rules

        return sorted(load_rules().scenarios)
    if game == "pentagon":
        from wargym.rules.pentagon_war.data import load_rules as pentagon_rules

        return sorted(pentagon_rules().scenarios)
    if game in ("patrol", "attack", "defend"):
        from wargym.rules.no_quarter.mission.scenario import scenario_names

        return [n for n in scenario_names() if n.startswith(game + "_")]
    return []


class Session:
    """The game, the human's choices so far and the steps since the human last decided."""

    def __init__(self, settings: Settings, choices: list[int] | None = None) -> None:
        check_settings(settings)
        self.settings = settings
        self._rebuild(list(choices or []))

    # -- play ------------------------------------------------------------------------------
    def _rebuild(self, choices: list[int]) -> None:
        self.table: Table = new_table(self.settings)
        self.choices: list[int] = []
        self.words: list[str] = []
        self.recent: list[Step] = [Step("setup", "", list(self.table.setup_events))]
        self._checkpoints: list[tuple[int, Table, list[Step]]] = []
        self._opponent()
        for number, index in enumerate(choices, 1):
            legal = self.legal()
            if not legal:
                raise StateError(
                    f"choices[{number - 1}]: the game has no decision of yours there "
                    "(the save does not match these rules)"
                )
            if not isinstance(index, int) or isinstance(index, bool):
                raise StateError(f"choices[{number - 1}]: expected an integer option index")
            if not 0 <= index < len(legal):
                raise StateError(
                    f"choices[{number - 1}]: option {index} of {len(legal)} does not exist "
                    "(the save does not match these rules)"
                )
            self.choose(index)

    def legal(self) -> list[Any]:
        """The human's legal options now (empty while nobody asks the human, or over)."""
        table = self.table
        return table.legal(table.human) if table.pending() == table.human else []

    def options(self) -> list[str]:
        """The human's options in words, in the engine's order."""
        return [action_words(self.table, a, ()) for a in self.legal()]

    def choose(self, index: int) -> None:
        """Play the human's option ``index`` (0-based) and the opponent's replies."""
        legal = self.legal()
        if not 0 <= index < len(legal):
            raise IndexError(f"option {index} of {len(legal)}")
        table = self.table
        action = legal[index]
        words = action_words(table, action, ())
        self._checkpoints.append((len(self.choices), copy_table(table), self.recent))
        del self._checkpoints[:-MAX_CHECKPOINTS]
        events = table.play(table.human, action)
        self.choices.append(index)
        self.words.append(words)
        self.recent = [Step(table.human, words, events)]
        self._opponent()

    def _opponent(self) -> None:
        table = self.table
        for _ in range(MAX_OPPONENT_STEPS):
            side = table.pending()
            if side is None or side == table.human:
                return
            hidden = self._hidden()
            action = table.opponent_action()
            words = action_words(table, action, hidden)
            events = table.play(side, action)
            self.recent.append(Step(side, words, events, hidden | self._hidden()))
        raise StateError(f"the opponent took {MAX_OPPONENT_STEPS} decisions in a row")

    def _hidden(self) -> frozenset[int]:
        battle = getattr(self.table, "battle", None)
        if battle is None:
            return frozenset()
        from .board import hidden_enemies

        return hidden_enemies(battle, self.table.human)

    def undo(self) -> str | None:
        """Take back the human's last decision; its words, or None when there is none."""
        if not self.choices:
            return None
        last = self.words[-1]
        if self._checkpoints and self._checkpoints[-1][0] == len(self.choices) - 1:
            _, self.table, self.recent = self._checkpoints.pop()
            del self.choices[-1], self.words[-1]
        else:
            self._rebuild(self.choices[:-1])
        return last

    # -- saves -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The save: format, version, settings, choices and the engine's state."""
        from wargym import __version__

        return {
            "format": FORMAT,
            "version": VERSION,
            "wargym_version": __version__,
            "settings": self.settings.to_dict(),
            "choices": [
                {"index": i, "words": w} for i, w in zip(self.choices, self.words, strict=True)
            ],
            "state": self.table.state_dict(),
        }


def save(session: Session, path: str | os.PathLike[str]) -> None:
    """Write the session to ``path`` atomically."""
    from wargym.envs.no_quarter.core import write_json_atomic

    write_json_atomic(check_save_path(path), session.to_dict())


def check_save_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a save file to write; PlayError when it cannot be one."""
    text = os.fspath(path)
    if not text or "\x00" in text or len(text) > 4096:
        raise PlayError(f"--save {short_repr(text)}: not a usable file path")
    target = Path(text)
    if target.is_dir():
        raise PlayError(f"--save {short_repr(text)}: is a folder, not a save file")
    if not target.parent.is_dir():
        raise PlayError(
            f"--save {short_repr(text)}: no such folder {short_repr(str(target.parent))}"
        )
    return target


def load(path: str | os.PathLike[str]) -> Session:
    """The session saved in ``path``; StateError (or OSError) naming what is wrong."""
    where = short_repr(str(path))
    size = os.path.getsize(path)
    if size > MAX_SAVE_BYTES:
        raise StateError(f"{where}: {size} bytes, more than a save holds ({MAX_SAVE_BYTES})")
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise StateError(f"{where}: not a JSON save ({short_repr(str(exc))})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StateError(f"{where}: not a wargym play save (format must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise StateError(
            f"{where}: save version {short_repr(data.get('version'))}; this wargym reads {VERSION}"
        )
    for key in ("settings", "choices", "state"):
        if key not in data:
            raise StateError(f"{where}: the save has no {key!r}")
    raw_settings = data["settings"]
    fields = {f.name for f in dataclasses.fields(Settings)}
    if not isinstance(raw_settings, dict) or not set(raw_settings) <= fields:
        raise StateError(f"{where}: settings must be an object with keys among {sorted(fields)}")
    types: dict[str, type | tuple[type, ...]] = {
        "game": str, "opponent": str, "side": str, "seed": int, "mission": int, "mechs": int,
        "turns": (int, type(None)), "scenario": (str, type(None)),
    }  # fmt: skip
    for key, value in raw_settings.items():
        if not isinstance(value, types[key]) or isinstance(value, bool):
            raise StateError(f"{where}: settings.{key}: {short_repr(value)} has the wrong type")
    if "game" not in raw_settings:
        raise StateError(f"{where}: settings.game is missing")
    try:
        settings = Settings(**raw_settings)
        check_settings(settings)
    except PlayError as exc:
        raise StateError(f"{where}: settings: {exc}") from None
    choices = data["choices"]
    if not isinstance(choices, list):
        raise StateError(f"{where}: choices must be a list")
    indices = []
    for i, item in enumerate(choices):
        index = item.get("index") if isinstance(item, dict) else None
        if not isinstance(index, int) or isinstance(index, bool):
            raise StateError(f"{where}: choices[{i}].index must be an integer")
        indices.append(index)
    session = Session(settings, indices)
    rebuilt = json.loads(json.dumps(session.table.state_dict()))
    if rebuilt != data["state"]:
        raise StateError(
            f"{where}: the saved state differs from the game its choices rebuild "
            "(edited, or saved by another version of the rules)"
        )
    return session


__all__ = [
    "FORMAT", "VERSION", "PlayError", "Session", "Step", "check_save_path", "check_settings",
    "load", "save",
]  # fmt: skip
