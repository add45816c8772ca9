"""Argument types shared by the ``wargym`` commands (docs/bad_input.md, section 7).

Each type turns a bad value into :class:`argparse.ArgumentTypeError`, which argparse prints as
``argument --flag: <message>`` and exits with status 2: no traceback. Messages quote at most
80 characters of the value.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from wargym.rules.errors import short_repr

MAX_SEED = 2**63 - 1
"""Largest seed a command accepts (as the opponent server: ``wargym.server.validation``)."""
MAX_PATH_CHARS = 4096
"""Longest file path a command accepts."""


def _integer(text: str) -> int | None:
    """The integer ``text`` spells in ASCII digits; None when it has over 40 digits."""
    stripped = text.strip()
    digits = stripped[1:] if stripped[:1] in ("+", "-") else stripped
    if not (digits.isascii() and digits.isdecimal()):
        raise argparse.ArgumentTypeError(f"{short_repr(text)} is not an integer")
    return int(stripped) if len(digits) <= 40 else None


def int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high`` (``high`` None: no upper bound)."""

    def parse(text: str) -> int:
        value = _integer(text)
        if value is None or value < low or (high is not None and value > high):
            span = f"{low}.." if high is None else f"{low}..{high}"
            raise argparse.ArgumentTypeError(f"{short_repr(text)} is outside {span}")
        return value

    return parse


seed = int_in(0, MAX_SEED)
"""An argparse type: a seed, ``0..2**63-1``."""


def shown(text: str) -> str:
    """A path or value for a message: as it is up to 300 characters, else a cut repr."""
    return text if len(text) <= 300 and text.isprintable() else short_repr(text, 300)


def one_line(text: str, limit: int = 1000) -> str:
    """An error message as one line (line breaks become spaces), cut to ``limit`` characters."""
    flat = " ".join(part.strip() for part in text.splitlines() if part.strip())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def path(text: str) -> str:
    """An argparse type: a non-empty file path without NUL bytes."""
    if not text:
        raise argparse.ArgumentTypeError("the path is empty")
    if "\x00" in text or len(text) > MAX_PATH_CHARS:
        raise argparse.ArgumentTypeError(f"{short_repr(text)} is not a usable file path")
    return text


__all__ = ["MAX_PATH_CHARS", "MAX_SEED", "int_in", "one_line", "path", "seed", "shown"]
