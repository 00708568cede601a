"""Shared pieces of the players' server tests (tests/app/test_serve*.py, tests/fuzz/test_fuzz_serve.py): a scene
with a wall that hides the sides from each other, a seeded scripted fight over it, and the leak check."""

from __future__ import annotations

import random
import re

from engine.app.tokens import short_name
from engine.app.viewstate import visible_ids

# a yard cut by a tall wall with a gap: the sides move in and out of each other's sight
SCENE = """
name = "Serve yard"
ruleset = "dnd5e"
seed = 4

[map]
size = [14, 12, 8]
fill = [
  { material = "stone", from = [6, 0, 0], to = [6, 8, 5] },
]

[[characters]]
id = "aldo"
name = "Aldo"
kind = "knight"
side = "blue"
at = [2, 2, 0]
initiative = 20

[[characters]]
id = "bea"
name = "Beatriz"
kind = "archer"
side = "blue"
at = [3, 10, 0]
initiative = 18

[[characters]]
id = "gorm"
name = "Gorm"
kind = "guard"
side = "red"
at = [10, 2, 0]
initiative = 15

[[characters]]
id = "vex"
name = "Vexa"
kind = "archer"
side = "red"
fly_speed_m = 12
at = [11, 5, 0]
initiative = 10
"""


def load(tmp_path):
    from engine.scene import load_scene

    p = tmp_path / "serve_yard.toml"
    p.write_text(SCENE)
    return load_scene(p)


def next_action(ctl, rng: random.Random, hits: bool = False) -> dict:
    """A seeded choice among the current character's legal actions: mostly moves, sometimes an attack, an end of
    turn after a few (the fight goes on for hundreds of steps)."""
    s = ctl.session
    cur = s.current
    acts = list(s.legal_actions(cur))
    moves = [a for a in acts if a["action"] == "move" and set(a) <= {"actor", "action", "to"}]
    attacks = [a for a in acts if a["action"] == "attack" and "voxel" not in a]
    r = rng.random()
    if attacks and r < 0.25:
        a = dict(rng.choice(attacks))
        a["rolls"] = {"attack": 18 if hits and rng.random() < 0.5 else 2}     # mostly misses: the fight lasts
        return a
    if moves and r < 0.7:
        return rng.choice(moves)
    return {"actor": cur, "action": "end_turn"}


def truth(ctl) -> dict:
    """Per side: (hidden characters as [(id, name, pos)], enemy names) at this moment, by the rules' own sight."""
    s = ctl.session
    out = {}
    for side in dict.fromkeys(a.side for a in s.state.actors.values()):
        seen = visible_ids(s, side)
        hidden = [(a.id, short_name(a), [a.x, a.y, a.layer]) for a in s.state.actors.values() if a.id not in seen]
        enemies = [short_name(a) for a in s.state.actors.values() if a.side != side]
        shown = sorted({short_name(a) for a in s.state.actors.values() if a.id in seen}, key=len, reverse=True)
        out[side] = (hidden, enemies, shown)
    return out


def _walk(v, path=""):
    if isinstance(v, dict):
        yield path, v
        for k, x in v.items():
            yield from _walk(x, f"{path}.{k}")
    elif isinstance(v, list):
        yield path, v
        for i, x in enumerate(v):
            yield from _walk(x, f"{path}[{i}]")
    else:
        yield path, v


def leaks(msg, side: str, t: dict) -> list[str]:
    """What in one message (parsed JSON) ``side`` should not have: an id, name or position of a character it cannot
    see (by ``truth``), or an enemy's exact hit points or armour class."""
    hidden, enemies, shown = t[side]
    found = []
    for path, v in _walk(msg):
        if isinstance(v, dict):
            if v.get("id") in {h[0] for h in hidden}:
                found.append(f"{path}: a hidden character's entry {v.get('id')}")
            if "side" in v and v.get("side") != side and "id" in v:
                for k in ("hp", "max_hp", "temp_hp", "ac"):
                    if k in v:
                        found.append(f"{path}.{k}: an enemy's exact {k}")
            for k in ("ac", "target_ac"):
                if k in v:
                    found.append(f"{path}.{k}: an armour class")
        elif isinstance(v, str):
            bare = v
            for name in shown:          # a hidden "Brigand" is not named by a seen "Brigand chief"
                if not any(name in h[1] for h in hidden):
                    bare = bare.replace(name, "\x00")
            for cid, name, _pos in hidden:
                named = name not in shown and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", bare)   # (a twin's name
                if re.search(rf"\b{re.escape(cid)}\b", bare) or named:                               # says nothing)
                    found.append(f"{path}: names hidden {cid} ({name}): {v[:120]!r}")
            if re.search(r"\bAC \d", v):
                found.append(f"{path}: an armour class: {v[:120]!r}")
            for name in enemies:
                if re.search(rf"{re.escape(name)}\b.*\d+\s*/\s*\d+ HP", v):
                    found.append(f"{path}: an enemy's exact HP: {v[:120]!r}")
        elif isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) for x in v):
            for cid, _name, pos in hidden:
                if v == pos:
                    found.append(f"{path}: hidden {cid}'s position")
    return found
