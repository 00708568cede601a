"""How chatty the command line is: ``aerie --quiet`` / ``aerie --verbose``.

Results go to stdout whatever the level; errors always go to stderr. ``--quiet`` silences progress bars and notes
on stderr; ``--verbose`` adds details (where Aerie's files are, how long a command took).
"""

from __future__ import annotations

import sys

QUIET, NORMAL, VERBOSE = -1, 0, 1
_level = NORMAL


def set_level(level: int) -> None:
    global _level
    _level = level


def level() -> int:
    return _level


def quiet() -> bool:
    return _level <= QUIET


def verbose() -> bool:
    return _level >= VERBOSE


def note(message: str) -> None:
    """An informational line on stderr, unless --quiet."""
    if not quiet():
        print(message, file=sys.stderr)


def detail(message: str) -> None:
    """A line on stderr only with --verbose."""
    if verbose():
        print(message, file=sys.stderr)


def is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
