"""Issue 24, "Wrong today": the 5e feats read clause by clause against ``004_...`` (DND-F00..F42, DND-34).

Every test writes a scene with a script and forced dice and plays it through ``aerie run --json`` (the CLI's own
path: scene load, the script's steps, the event log), then reads the events it printed."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from test_rules_helpers import _toml, scene_text

pytestmark = pytest.mark.unit


def run(tmp_path, capsys, chars, script, options=None, fill=(), size=(12, 12, 6)):
    """``aerie run SCENE --json`` on a scene written from ``chars`` and ``script``: (exit code, events, stderr)."""
    extra = "".join("[[script]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in st.items()) for st in script)
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=size, fill=fill, options=options, extra=extra))
    capsys.readouterr()
    rc = main(["run", str(p), "--json"])
    cap = capsys.readouterr()
    events = [json.loads(ln) for ln in cap.out.splitlines() if ln.startswith("{")]
    return rc, events, cap.err


def finds(events, type_, **fields):
    return [e for e in events if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items())]


def rolls(events, name):
    return [e for e in events if e["type"] == "roll" and e.get("name") == name]


def ok(res):
    rc, events, err = res
    assert rc == 0, err
    return events


def knight(i="k", side="r", at=(5, 5, 0), **kw):
    return {"id": i, "kind": "knight", "side": side, "at": list(at)} | kw


def guard(i="g", side="b", at=(6, 5, 0), **kw):
    return {"id": i, "kind": "guard", "side": side, "at": list(at)} | kw


# DND-F15 Polearm Master, l. 148-149 ---------------------------------------------------------------------------------
def test_dnd_f15_butt_end_not_for_the_pike(tmp_path, capsys):
    """The bonus attack names quarterstaff, glaive, halberd and spear; the pike is only in the reach clause."""
    swing = {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": 2}}
    butt = {"actor": "k", "action": "attack", "target": "g", "bonus": True, "bonus_from": "polearm_master",
            "rolls": {"attack": 15, "damage": 3}}
    for weapon, legal in (("glaive", True), ("pike", False)):
        rc, events, err = run(tmp_path, capsys, [knight(weapons=[weapon], feats=["polearm_master"]), guard(at=(7, 5, 0))],
                              [{**swing, "weapon": weapon}, {**butt, "weapon": weapon}])
        if legal:
            assert rc == 0, err
            e = finds(events, "attack", kind="bonus")[0]
            assert e["bonus_from"] == "polearm_master" and e["weapon"] == "glaive"
        else:
            assert rc == 2 and "script[1]" in err and "DND-F15" in err, err


# DND-F00 prerequisites: the document's "Wymagania" lines only ----------------------------------------------------------
@pytest.mark.parametrize("feat,sheet", [("skulker", {"abilities": {"dex": 10}}), ("grappler", {"abilities": {"str": 10}}),
                                        ("war_caster", {})])
def test_dnd_f00_prerequisites_are_the_documents(tmp_path, capsys, feat, sheet):
    """Skulker, Grappler and War Caster have no "Wymagania" in 004_; the rulebook's are option
    feat_prerequisites = "rulebook"."""
    ch = knight(weapons=["longsword"], feats=[feat], **sheet)
    end = [{"actor": "k", "action": "end_turn"}]
    events = ok(run(tmp_path, capsys, [ch, guard(at=(9, 9, 0))], end))
    assert finds(events, "state")[-1]["characters"]["k"]["feats"] == [feat]
    rc, _, err = run(tmp_path, capsys, [ch, guard(at=(9, 9, 0))], end, options={"feat_prerequisites": "rulebook"})
    assert rc == 2 and "characters[0].feats[0]" in err and "DND-F00" in err, err


def test_dnd_f00_grappler_without_str_13_pins(tmp_path, capsys):
    """Grappler is usable (not only loaded) without Str 13: the pin is an action."""
    chars = [knight(weapons=["unarmed"], feats=["grappler"], abilities={"str": 10}, skills={"athletics": 1}),
             guard()]
    script = [{"actor": "k", "action": "grapple", "target": "g", "rolls": {"check": 18, "contest": 2}},
              {"actor": "k", "action": "end_turn"}, {"actor": "g", "action": "end_turn"},
              {"actor": "k", "action": "grapple", "target": "g", "pin": True, "rolls": {"check": 18, "contest": 2}}]
    rc, events, err = run(tmp_path, capsys, chars, script)
    assert rc == 0, err
    assert finds(events, "feat", feat="grappler", rule="DND-F41")
