"""The terminal loop of ``wargym play``: the board, what happened, the numbered options, a prompt.

At each of the human's decisions the screen shows the board and the forces (:mod:`.board`),
the events since the human's previous decision in words (:mod:`.words`), what is to be decided
and the legal options numbered from 1. The prompt reads a number, ``u`` (undo the last
decision), ``s`` (save to the save file, or ``s FILE``), ``q`` (quit; ``sq`` saves first) or
``h`` (help). Anything else is answered with one line and asked again. When the game ends
the result is shown and the prompt still takes ``u``, ``s`` and ``q``.
"""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.rule import Rule

from .board import board
from .session import PlayError, Session, save
from .words import decision_words, event_words

HELP = (
    "a number plays that option; u undoes your last decision; s saves (s FILE: to FILE); "
    "sq saves and quits; q quits"
)
PROMPT = "your choice (1-{n}, u undo, s save, q quit, h help)> "
OVER_PROMPT = "game over (u undo, s save, q quit)> "
MAX_EVENT_LINES = 60
"""Most event lines shown after one decision (the rest are counted)."""


def read_line(stdin: TextIO) -> str | None:
    """One line of input (None at the end of input); undecodable bytes become U+FFFD."""
    raw = getattr(stdin, "buffer", None)
    try:
        data = (
            raw.readline().decode("utf-8", errors="replace")
            if raw is not None
            else (stdin.readline())
        )
    except UnicodeDecodeError:
        return "?"
    except OSError:  # input that cannot be read (closed, not readable) ends the session
        return None
    return data if data else None


def show(console: Console, session: Session) -> None:
    """The screen of the current decision."""
    table = session.table
    console.print(Rule(table.title()))
    drawn, forces = board(table)
    console.print(drawn)
    console.print(forces)
    _events(console, session)


def _events(console: Console, session: Session) -> None:
    table = session.table
    lines: list[tuple[str, str]] = []
    for step in session.recent:
        if step.side != "setup":
            who = "You" if step.side == table.human else f"{step.side.capitalize()} (opponent)"
            lines.append((f"{who}: {step.words}", "bold"))
        for event in step.events:
            text = event_words(table, event, step.hidden)
            if text:
                lines.append(("  " + text, ""))
    if not lines:
        return
    heading = "Since your last decision:" if session.choices else "Set-up:"
    console.print(heading, style="bold", markup=False)
    for text, style in lines[:MAX_EVENT_LINES]:
        console.print(text, style=style or None, markup=False, highlight=False)
    if len(lines) > MAX_EVENT_LINES:
        console.print(f"  ... and {len(lines) - MAX_EVENT_LINES} more events", style="dim")


def _options(console: Console, session: Session) -> int:
    table = session.table
    console.print(decision_words(table, table.human), style="bold cyan", markup=False)
    options = session.options()
    width = len(str(len(options)))
    for i, text in enumerate(options, 1):
        console.print(f"  {i:>{width}}. {text}", markup=False, highlight=False)
    return len(options)


def _finish(console: Console, session: Session) -> None:
    table = session.table
    show(console, session)
    side, how = table.winner()
    if side is None:
        verdict = "a draw"
    elif side == table.human:
        verdict = "you win"
    else:
        verdict = "you lose"
    console.print(f"Game over: {verdict} ({how}).", style="bold", markup=False)


def play(session: Session, save_path: str | None, stdin: TextIO = sys.stdin,
         console: Console | None = None, loaded: bool = False) -> int:  # fmt: skip
    """Run the loop until the human quits or the input ends; the exit status.

    ``loaded``: the session comes from ``save_path`` (so quitting at once loses nothing).
    """
    console = console or Console(highlight=False)
    table = session.table
    for note in table.notes:
        console.print(note, style="yellow", markup=False)
    console.print(
        f"You play {table.human} against {table.opponent_name}; seed {session.settings.seed}.",
        markup=False,
    )
    saved = list(session.choices) if loaded else None
    while True:
        over = session.table.over()
        if over:
            _finish(console, session)
            count, prompt = 0, OVER_PROMPT
        else:
            show(console, session)
            count = _options(console, session)
            prompt = PROMPT.format(n=count)
        while True:
            console.print(prompt, end="", markup=False)
            line = read_line(stdin)
            if line is None:
                console.print("\nend of input: quitting" + _unsaved(session, saved, save_path))
                return 0
            answer = line.strip()
            word = answer.lower()
            if answer.isascii() and answer.isdecimal() and len(answer) <= 9:
                number = int(answer)
                if 1 <= number <= count:
                    session.choose(number - 1)
                    break
                if over:
                    console.print("the game is over: u undoes your last decision, q quits")
                else:
                    console.print(f"there is no option {number}: enter a number from 1 to {count}")
                continue
            if word == "u":
                undone = session.undo()
                if undone is None:
                    console.print("nothing to undo: you have made no decision yet")
                    continue
                console.print(f"undone: {undone}", markup=False)
                break
            if word in ("s", "sq") or word.startswith("s "):
                target = answer[2:].strip() if word.startswith("s ") else save_path
                if not target:
                    console.print("no save file: give one (s FILE) or start with --save FILE")
                    continue
                try:
                    save(session, target)
                except (PlayError, OSError) as exc:
                    console.print(f"not saved: {exc}", markup=False)
                    continue
                saved, save_path = list(session.choices), target
                console.print(f"saved to {target}", markup=False)
                if word == "sq":
                    return 0
                continue
            if word == "q":
                console.print("quitting" + _unsaved(session, saved, save_path))
                return 0
            if word in ("h", "help", "?"):
                console.print(HELP)
                continue
            what = "u, s, q" if over else f"a number from 1 to {count}, or u, s, q"
            console.print(f"not understood: enter {what} (h for help)")


def _unsaved(session: Session, saved: list[int] | None, path: str | None) -> str:
    if saved == session.choices and path:
        return f" (saved in {path})"
    return " without saving"


__all__ = ["play", "read_line", "show"]
