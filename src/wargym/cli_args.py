"""Argument types shared by the ``wargym`` commands (docs/bad_input.md, section 7).

Each type turns a bad value into :class:`argparse.ArgumentTypeError`, which argparse prints as
``argument --flag: <message>`` and exits with status 2: no traceback. Messages quote at most
80 characters of the value. The commands are built on tyro: :func:`tyro_cli` parses a config
dataclass (field docstrings are the help text, defaults shown) and turns a bad command line
into one line on stderr and exit status 2; :func:`checked` makes these types tyro
constructors (``Annotated[int, checked(seed, "SEED")]``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from wargym.rules.errors import short_repr

T = TypeVar("T")

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


class UsageError(ValueError):
    """A command line that does not parse; the message is one line naming the option."""


_BOX = "│╭╮╰╯┃┏┓┗┛|+"  # rich draws ASCII boxes (| + -) when the terminal is not UTF-8
_RULE = frozenset("─- ")


def box_to_line(text: str) -> str:
    """The title and first section of a tyro error box as one line (plain text stays)."""
    rows = [line.strip().strip(_BOX).strip() for line in text.splitlines()]
    rows = [r for r in rows if r]
    if rows and rows[0].startswith(("─", "-")):  # a framed box: the title in the top edge
        title, rest = rows[0].strip("─- "), rows[1:]
    elif len(rows) > 1 and set(rows[1]) <= _RULE:  # no frame (ASCII): the title, then a rule
        title, rest = rows[0], rows[2:]
    else:
        return one_line(text)
    body: list[str] = []
    for row in rest:
        if set(row) <= _RULE:  # the rule before "Argument helptext" / "For full helptext"
            break
        body.append(row)
    joined = " ".join(body)
    message = re.sub(r"^Error parsing [A-Za-z_][\w.]*: ", "", joined) or title
    if title.lower() in message.lower() or joined.startswith("Error parsing"):
        return one_line(message)
    return one_line(f"{title}: {message}")


def parse_cli(
    cls: Callable[..., T],
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str,
    default: Any = None,
    registry: Any = None,
    positional: bool = False,
) -> T:
    """``tyro.cli(cls)`` over ``argv``; a bad command line raises :class:`UsageError`.

    Help (``--help``) prints to stdout and exits 0 as usual. tyro's framed error message is
    cut down to one line; a ``ValueError`` of ``cls``'s own checks (``__post_init__``) is
    a :class:`UsageError` too. Field docstrings are the options' help text. ``positional``:
    fields without a default are positional arguments (tyro's ``PositionalRequiredArgs``).
    """
    import tyro

    captured = io.StringIO()
    extra: dict[str, Any] = {} if default is None else {"default": default}
    if registry is not None:
        extra["registry"] = registry
    if positional:
        extra["config"] = (tyro.conf.PositionalRequiredArgs,)
    args = list(sys.argv[1:] if argv is None else argv)
    wide = not {"-h", "--help"} & set(args)  # an error: one unwrapped line per row, no cuts
    columns = os.environ.get("COLUMNS")
    if wide:
        os.environ["COLUMNS"] = "100000"
    try:
        with contextlib.redirect_stderr(captured):
            result: T = tyro.cli(
                cls,
                args=args,
                prog=prog,
                description=description,
                **extra,
            )
        return result
    except SystemExit as stop:
        if stop.code in (0, None):
            sys.stderr.write(captured.getvalue())
            raise
        raise UsageError(box_to_line(captured.getvalue()) or "bad command line") from None
    except ValueError as exc:
        raise UsageError(one_line(str(exc))) from None
    finally:
        if wide:
            if columns is None:
                os.environ.pop("COLUMNS", None)
            else:
                os.environ["COLUMNS"] = columns


def tyro_cli(
    cls: Callable[..., T],
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str,
    default: Any = None,
    registry: Any = None,
    positional: bool = False,
) -> T:
    """:func:`parse_cli`; a bad command line exits 2 with one line on stderr.

    The line reads ``<prog>: error: <message>``; no traceback.
    """
    try:
        return parse_cli(
            cls,
            argv,
            prog=prog,
            description=description,
            default=default,
            registry=registry,
            positional=positional,
        )
    except UsageError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def checked(parse: Callable[[str], Any], metavar: str) -> Any:
    """A tyro constructor spec built on an argparse type of this module.

    Use: ``Annotated[int, checked(seed, "SEED")]``; a bad value's message names the option
    (``Error parsing --seed: 'x' is not an integer``).
    """
    from tyro.constructors import PrimitiveConstructorSpec

    def build(args: list[str]) -> Any:
        try:
            return parse(args[0])
        except argparse.ArgumentTypeError as exc:
            raise ValueError(str(exc)) from None

    return PrimitiveConstructorSpec(
        nargs=1,
        metavar=metavar,
        instance_from_str=build,
        is_instance=lambda value: not isinstance(value, bool) and isinstance(value, int | str),
        str_from_instance=lambda value: [str(value)],
    )


__all__ = [
    "MAX_PATH_CHARS",
    "MAX_SEED",
    "UsageError",
    "box_to_line",
    "checked",
    "int_in",
    "one_line",
    "parse_cli",
    "path",
    "seed",
    "shown",
    "tyro_cli",
]
