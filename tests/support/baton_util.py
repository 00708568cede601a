"""Helpers for the baton tests: small scenes written in code, steps with forced dice."""

from __future__ import annotations

import pytest

from engine.rules.core import Illegal
from engine.rules.session import Session
from engine.scene import parse_scene

pytestmark = pytest.mark.unit


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def ch(id, side, at, **kw) -> dict:
    d = {"id": id, "side": side, "at": list(at)}
    d.update(kw)
    return d


def hero(id="ana", at=(2, 2, 0), **kw) -> dict:
    base = dict(pc=True, attributes={"physique": 2, "agility": 1}, skills={"fight_longsword": 3, "dodge": 2,
                "athletics": 1}, weapons=["longsword"])
    base.update(kw)
    return ch(id, "party", at, **base)


def foe(id="gob", at=(3, 2, 0), **kw) -> dict:
    base = dict(attributes={"physique": 1, "agility": 1}, skills={"fight_axe": 2, "dodge": 1}, weapons=["axe"])
    base.update(kw)
    return ch(id, "foes", at, **base)


def session(chars, options=None, fill=(), size=(12, 12, 10), starts=None, seed=1, materials=None) -> Session:
    lines = ['name = "t"', 'ruleset = "baton"', f"seed = {seed}"]
    if starts:
        lines.append(f'initiative_starts = "{starts}"')
    if options:
        lines.append("[options]")
        lines += [f"{k} = {_toml(v)}" for k, v in options.items()]
    if materials:
        for name, m in materials.items():
            lines.append(f"[materials.{name}]")
            lines += [f"{k} = {_toml(v)}" for k, v in m.items()]
    lines += ["[map]", f"size = {_toml(list(size))}"]
    if fill:
        lines.append("fill = [" + ", ".join(
            "{ material = %s, from = %s, to = %s }" % (_toml(m), _toml(list(a)), _toml(list(b))) for m, a, b in fill) + "]")
    for c in chars:
        lines.append("[[characters]]")
        lines += [f"{k} = {_toml(v)}" for k, v in c.items()]
    return Session(parse_scene("\n".join(lines) + "\n", "<test>"))


def step(s: Session, actor, action, rolls=None, **params):
    act = {"actor": actor, "action": action, **params}
    if rolls:
        act["rolls"] = rolls
    return s.step(act).log


def illegal(s: Session, actor, action, rule=None, rolls=None, **params) -> Illegal:
    before = s.fingerprint()
    with pytest.raises(Illegal) as e:
        step(s, actor, action, rolls, **params)
    assert s.fingerprint() == before
    if rule is not None:
        assert e.value.rule == rule, (e.value.rule, e.value.reason)
    return e.value


def ev(evs, type_, **match):
    out = [e for e in evs if e["type"] == type_ and all(e.get(k) == v for k, v in match.items())]
    return out


def one(evs, type_, **match):
    got = ev(evs, type_, **match)
    assert got, f"no {type_} {match} in {[e['type'] for e in evs]}"
    return got[0]


def A(s: Session, aid):
    return s.state.actors[aid]
