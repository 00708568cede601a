"""The messages a player's page may send, checked before anything reads them: one JSON object of at most
MAX_BYTES, a known ``type`` and only that type's keys, each of its kind and size. A message that fails is a
:class:`BadMessage` with one line saying why (sent back to the page as an error); it never reaches the table.

    {"type": "act", "action": {"actor": ID, "action": NAME, ...params}}   take an action (the side's character)
    {"type": "preview", "action": {...}}                                  the numbers of an action, nothing taken
    {"type": "answer", "key": KEY, "i": N}                                answer the rules' question to this side
    {"type": "ping"}
"""

from __future__ import annotations

import json
import re

MAX_BYTES = 4096
MAX_PARAMS = 16
MAX_STR = 64
MAX_INT = 1 << 20
MAX_LIST = 8
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,31}$")
TYPES = {"act": {"action"}, "preview": {"action"}, "answer": {"key", "i"}, "ping": set()}


class BadMessage(ValueError):
    """A message refused before it reaches the table: its one line says why."""


def _value(path: str, v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        if not -MAX_INT <= v <= MAX_INT:
            raise BadMessage(f"{path}: a number out of range")
        return v
    if isinstance(v, float):
        raise BadMessage(f"{path}: a whole number is expected")
    if isinstance(v, str):
        if len(v) > MAX_STR:
            raise BadMessage(f"{path}: longer than {MAX_STR} characters")
        return v
    if isinstance(v, list):
        cell = 1 <= len(v) <= 3 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        names = len(v) <= MAX_LIST and all(isinstance(x, str) for x in v)
        if not (cell or names):
            raise BadMessage(f"{path}: a list is a cell of 1 to 3 whole numbers or at most {MAX_LIST} names")
        return [_value(f"{path}[{i}]", x) for i, x in enumerate(v)]
    raise BadMessage(f"{path}: not a string, whole number, true/false, cell or list of names")


def action(v, path: str = "action") -> dict:
    if not isinstance(v, dict):
        raise BadMessage(f"{path}: an object is expected")
    if len(v) > MAX_PARAMS:
        raise BadMessage(f"{path}: more than {MAX_PARAMS} keys")
    out = {}
    for k, x in v.items():
        if not _NAME.match(k):
            raise BadMessage(f"{path}: {k[:40]!r} is not a parameter name")
        if k == "rolls":
            raise BadMessage(f"{path}.rolls: dice are the table's, not a player's")
        out[k] = _value(f"{path}.{k}", x)
    for k in ("actor", "action"):
        if not isinstance(out.get(k), str) or not _NAME.match(out[k]):
            raise BadMessage(f"{path}.{k}: missing or not a name")
    return out


def parse(raw: str | bytes) -> dict:
    """One message from a page, checked (see the module's text); :class:`BadMessage` when it is not one."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_BYTES:
        raise BadMessage(f"message: longer than {MAX_BYTES} bytes")
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadMessage("message: not JSON") from None
    if not isinstance(msg, dict):
        raise BadMessage("message: a JSON object is expected")
    t = msg.get("type")
    if not isinstance(t, str) or t not in TYPES:
        raise BadMessage(f"message.type: one of {', '.join(sorted(TYPES))}")
    extra = set(msg) - TYPES[t] - {"type"}
    if extra:
        raise BadMessage(f"message: unknown key {sorted(map(str, extra))[0][:40]!r} for {t!r}")
    missing = TYPES[t] - set(msg)
    if missing:
        raise BadMessage(f"message.{sorted(missing)[0]}: missing")
    if t in ("act", "preview"):
        return {"type": t, "action": action(msg["action"])}
    if t == "answer":
        i, key = msg["i"], msg["key"]
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < 64:
            raise BadMessage("message.i: an option number 0..63")
        if not isinstance(key, str) or len(key) > MAX_STR:
            raise BadMessage("message.key: the question's key")
        return {"type": t, "key": key, "i": i}
    return {"type": t}
