"""Readable log lines as templates: ``say("{@who} is stable{r}")`` is the line of an event, written once.

A template is a ``str.format`` string whose fields are the event's own keys (``{wound}``, ``{metres:g}``),
``{@key}`` for the display name of the character whose id is at ``key`` (``{@who}``, ``{@target}``), and ``{r}``
for the rule suffix (`` [XYZ-22]``). The runner's table of lines (``GENERIC_LINES``, a ruleset's ``EVENT_LINES``)
holds either such a line or a function ``fn(session, event, name_of, rule_suffix)`` for a line that needs logic.
"""

from __future__ import annotations

import string

_FORMATTER = string.Formatter()


class _Fields:
    __slots__ = ("e", "n", "r")

    def __init__(self, e, n, r) -> None:
        self.e, self.n, self.r = e, n, r

    def __getitem__(self, key: str):
        if key == "r":
            return self.r
        if key.startswith("@"):
            return self.n(key[1:])
        return self.e[key]


def say(template: str):
    """The line function of ``template`` (see the module's docstring)."""
    def line(session, e, n, r):
        return _FORMATTER.vformat(template, (), _Fields(e, n, r))
    line.template = template  # type: ignore[attr-defined]
    return line


def sources_text(e: dict) -> str:
    """Where a roll's bonus came from (an event's ``sources``: source, value, rule), as " (Dex +3, proficiency +2)";
    the entries on the other side (``on``: the AC, said by the line itself) are left out."""
    bits = [f"{s['source']} {s['value']:+d}" for s in e.get("sources") or () if not s.get("on")]
    return f" ({', '.join(bits)})" if bits else ""
