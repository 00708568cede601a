"""SPL-02 met inside a GM's table action (issue 39): the GM knocks a flying player character out (``gm_set hp 0``);
the fall may be answered with Feather Fall, and the GM's action holds the answer (``reactions``) exactly as a
character's action does -- asked in ask mode (the window), given in a script, bad ones refused in one line."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.rules.choices import ChoiceNeeded, fill
from rules_helpers import _toml, make, scene_text

pytestmark = pytest.mark.unit

CHARS = [{"id": "c", "kind": "mage", "side": "r", "pc": True, "at": [4, 4, 0], "spells": ["feather-fall"], "level": 9},
         {"id": "w", "kind": "scout", "side": "r", "pc": True, "fly_speed_m": 12, "flying": True, "at": [6, 4, 10]},
         {"id": "g", "kind": "guard", "side": "b", "at": [14, 14, 0]}]
KO = {"actor": "gm", "action": "gm_set", "target": "w", "key": "hp", "value": 0}


def session():
    return make(CHARS, size=(16, 16, 24), options={"spell_names": "srd"})


def run(tmp_path, capsys, script):
    p = tmp_path / "scene.toml"
    extra = "".join("[[script]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in st.items()) for st in script)
    p.write_text(scene_text(CHARS, size=(16, 16, 24), options={"spell_names": "srd"}, extra=extra))
    capsys.readouterr()
    rc = main(["run", str(p), "--json"])
    cap = capsys.readouterr()
    return rc, [json.loads(ln) for ln in cap.out.splitlines() if ln.startswith("{")], cap.err


def test_spl02_a_gm_knockout_asks_the_casters_player_and_plays_like_the_script(tmp_path, capsys):
    s = session()
    before = s.fingerprint()
    with pytest.raises(ChoiceNeeded) as q:
        s.step(KO, ask={})
    assert s.fingerprint() == before
    p = q.value.point
    assert p.path == ("reactions", "c", "feather_fall") and p.chooser == "c" and p.rule == "SPL-02"
    for answer in (True, False):
        s = session()
        act, key = fill(KO, p, answer)
        evs = s.step(act, ask={key: answer}).log
        assert bool([e for e in evs if e["type"] == "slow_fall"]) is answer
        assert bool([e for e in evs if e["type"] == "fall"]) is not answer
        rc, events, err = run(tmp_path, capsys, [act])
        assert rc == 0, err
        assert bool([e for e in events if e["type"] == "slow_fall" and e["who"] == "w"]) is answer


def test_spl02_a_gm_actions_reactions_are_checked(tmp_path, capsys):
    bad = {**KO, "reactions": {"nobody": {"feather_fall": True}}}
    rc, _, err = run(tmp_path, capsys, [bad])
    assert rc == 2 and "reactions.nobody" in err and len(err.strip().splitlines()) == 1
    bad = {**KO, "reactions": {"c": {"feather_fall": "yes"}}}
    rc, _, err = run(tmp_path, capsys, [bad])
    assert rc == 2 and "reactions.c.feather_fall" in err and len(err.strip().splitlines()) == 1
