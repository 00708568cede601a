"""Helpers for the rules tests: scenes from Python data, sessions, stepping with forced dice."""

from __future__ import annotations

import json

import pytest

from engine.rules.session import Session
from engine.scene import parse_scene

pytestmark = pytest.mark.unit


def _toml(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def scene_text(chars, size=(12, 12, 10), fill=(), options=None, seed=1, extra=""):
    lines = ['name = "test"', 'ruleset = "dnd5e"', f"seed = {seed}", "[map]", f"size = {_toml(list(size))}"]
    if fill:
        lines.append("fill = [" + ", ".join(_toml({"material": m, "from": list(a), "to": list(b)}) for m, a, b in fill) + "]")
    if options:
        lines.append("[options]")
        lines += [f"{k} = {_toml(v)}" for k, v in options.items()]
    for i, c in enumerate(chars):
        lines.append("[[characters]]")
        c = dict(c)
        c.setdefault("initiative", 30 - i)       # listed order = turn order unless given (None: rolled)
        if c["initiative"] is None:
            del c["initiative"]
        lines += [f"{k} = {_toml(v)}" for k, v in c.items()]
    return "\n".join(lines) + "\n" + extra


def make_scene(chars, file: str = "<test>", **kw):
    """The parsed scene of ``scene_text(chars, **kw)``."""
    return parse_scene(scene_text(chars, **kw), file)


def make(chars, **kw) -> Session:
    seed = kw.pop("session_seed", None)
    return Session(make_scene(chars, **kw), seed)


def step(s: Session, actor: str, action: str, **params):
    act = {"actor": actor, "action": action, **params}
    return s.step(act).log


def types(events):
    return [e["type"] for e in events]


def find(events, type_, **fields):
    for e in events:
        if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items()):
            return e
    return None


def events(evs, type_, **fields) -> list[dict]:
    """Every event of ``type_`` whose ``fields`` have these values (``find`` gives the first)."""
    return [e for e in evs if e.get("type") == type_ and all(e.get(k) == v for k, v in fields.items())]


def tables(name, rows) -> str:
    """``rows`` as a TOML array of tables ``[[name]]`` (a scene's script or expectations)."""
    out = []
    for r in rows:
        out.append(f"[[{name}]]")
        out += [f"{k} = {_toml(v)}" for k, v in r.items()]
    return "\n".join(out) + "\n"


def run_scene(tmp_path, capsys, chars, script, expects=(), size=(20, 20, 12), **kw) -> list[dict]:
    """The scene (``scene_text`` of ``chars``, the ``script``, the ``expects``) through ``aerie run``, which must pass
    (its expectations held), then again with ``--json``: its events."""
    from engine.cli import main

    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=size, **kw) + tables("script", script)
                 + (tables("expect", expects) if expects else ""))
    rc = main(["run", str(p)])
    out = capsys.readouterr()
    assert rc == 0, out.err + out.out
    main(["run", str(p), "--json"])
    return [json.loads(ln) for ln in capsys.readouterr().out.strip().splitlines()]
